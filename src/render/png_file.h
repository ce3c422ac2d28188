// PNG files: screenshots and thumbnails written atomically (anim/atomic_file.h: a failed write
// never leaves a half-written file), and PNG bytes encoded and decoded in memory (the pose
// library keeps thumbnails as bytes).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ikpose::render {

// rgba: width * height * 4 bytes, rows from top to bottom.
bool WritePngAtomically(const std::string& path, int width, int height,
                        const std::vector<std::uint8_t>& rgba, std::string* error);
// The same image as PNG bytes; false with the reason.
bool EncodePng(int width, int height, const std::vector<std::uint8_t>& rgba, std::string* png,
               std::string* error);

struct RgbaImage {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgba;  // rows from top to bottom
};
// Decodes PNG bytes into RGBA8, refusing images larger than `max_side` pixels on a side (a
// small file can claim a huge image); false with the reason.
bool DecodePng(const std::string& png, int max_side, RgbaImage* image, std::string* error);

}  // namespace ikpose::render
