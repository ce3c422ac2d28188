// Writing a file so that a failure never leaves half of it: the bytes go to a temporary file in
// the same folder, are flushed to disk, and the file is renamed over the destination. Used for
// every file ikpose writes (poses, scenarios, reports, screenshots).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace ikpose::anim {

// False with a one-line reason (naming the path) when the file cannot be written; then
// neither the destination nor a temporary file is left changed.
bool WriteFileAtomically(const std::filesystem::path& path, std::string_view text,
                         std::string* error);

}  // namespace ikpose::anim
