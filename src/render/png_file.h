// Writing screenshots as PNG files, atomically: the image goes to a temporary file beside the
// destination and is renamed over it, so a failed write never leaves a half-written file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ikpose::render {

// rgba: width * height * 4 bytes, rows from top to bottom.
bool WritePngAtomically(const std::string& path, int width, int height,
                        const std::vector<std::uint8_t>& rgba, std::string* error);

}  // namespace ikpose::render
