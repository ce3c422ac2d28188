// Where ikpose finds its own files (shaders/, assets/) whether it runs from the build tree or
// from elsewhere: IKPOSE_DATA_DIR if set, else the nearest parent of the executable that holds
// shaders/, else the source tree it was built from.
#pragma once

#include <filesystem>

namespace ikpose::app {

std::filesystem::path DataDir();
std::filesystem::path DefaultModelPath();

// `path` as a file saved at `file` names it (scenarios, pose files): relative to that file's
// folder when they share more than the root folder, else absolute. Readers resolve a relative
// one against the file's folder.
// Where the viewer's "export pose" writes: `<model stem>-posed.glb` beside the scenario file
// when there is one, else in the working directory.
std::filesystem::path PosedExportPath(const std::filesystem::path& scene,
                                      const std::filesystem::path& model);

std::filesystem::path RelativeToFolderOf(const std::filesystem::path& path,
                                         const std::filesystem::path& file);

}  // namespace ikpose::app
