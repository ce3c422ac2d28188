// Paths that a saved file (a scenario, a pose file) writes to name another file, its model.
//
// What: `RelativeToFolderOf` is how the writer names it, `ResolveFromFolderOf` how a reader
// finds it again.
// Why: relative names keep a folder of scenes and models movable as a whole; every file ikpose
// saves names its model the same way, so every reader resolves it the same way.
// Limits: purely lexical (symbolic links are not followed).
#pragma once

#include <filesystem>

namespace ikpose::anim {

// `path` as a file saved at `file` names it: relative to that file's folder when they share
// more than the root folder, else absolute.
std::filesystem::path RelativeToFolderOf(const std::filesystem::path& path,
                                         const std::filesystem::path& file);

// A name read from `file`: relative ones are taken from the file's folder, absolute ones stay.
std::filesystem::path ResolveFromFolderOf(const std::filesystem::path& name,
                                          const std::filesystem::path& file);

}  // namespace ikpose::anim
