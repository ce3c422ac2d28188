// Writing screenshots as PNG files, atomically (anim/atomic_file.h): a failed write never
// leaves a half-written file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ikpose::render {

// rgba: width * height * 4 bytes, rows from top to bottom.
bool WritePngAtomically(const std::string& path, int width, int height,
                        const std::vector<std::uint8_t>& rgba, std::string* error);

}  // namespace ikpose::render
