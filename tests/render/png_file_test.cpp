// Reading a PNG ikpose did not write (a pose library's thumbnail, a reference image): a corrupt
// file is one error, never a huge allocation. stb grows its buffer to an IDAT chunk's declared
// length before reading it; a 74-byte file found by fuzzing declared 1.6 GB.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "render/png_file.h"

namespace ikpose::render {
namespace {

TEST(PngFile, AChunkLongerThanTheFileIsOneErrorNotAnAllocation) {
  // A 2x2 PNG written here, then its IDAT chunk's length made 0x65000011.
  std::string png;
  std::string error;
  ASSERT_TRUE(EncodePng(2, 2, std::vector<std::uint8_t>(16, 200), &png, &error)) << error;
  const std::size_t idat = png.find("IDAT");
  ASSERT_NE(idat, std::string::npos);
  RgbaImage image;
  ASSERT_TRUE(DecodePng(png, 64, &image, &error)) << error;
  EXPECT_EQ(image.width, 2);
  png[idat - 4] = static_cast<char>(0x65);
  error.clear();
  EXPECT_FALSE(DecodePng(png, 64, &image, &error));
  EXPECT_NE(error.find("claims"), std::string::npos) << error;
}

}  // namespace
}  // namespace ikpose::render
