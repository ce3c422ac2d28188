// `ikpose render` draws the viewer's frame headlessly (SDL offscreen driver, EGL) into a PNG.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <stb_image.h>
#include <stb_image_write.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "run_program.h"
#include "support/files.h"

namespace ikpose::test {
namespace {

struct Image {
  int width = 0;
  int height = 0;
  std::unique_ptr<unsigned char, void (*)(void*)> pixels{nullptr, stbi_image_free};
  const unsigned char* at(int x, int y) const {
    return pixels.get() + (static_cast<std::size_t>(y) * width + x) * 4;
  }
};

Image LoadPng(const std::string& path) {
  Image image;
  int channels = 0;
  image.pixels.reset(stbi_load(path.c_str(), &image.width, &image.height, &channels, 4));
  return image;
}

TEST(Render, WritesPngOfRequestedSize) {
  const std::string dir = MakeTempDir();
  const std::string png = dir + "/frame.png";
  // No panel: at 320x240 the 420-pixel-wide panel would cover the corner checked below.
  const ProgramResult r = RunIkpose({"render", "--out", png, "--size", "320x240", "--no-panel"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Image image = LoadPng(png);
  ASSERT_NE(image.pixels, nullptr);
  EXPECT_EQ(image.width, 320);
  EXPECT_EQ(image.height, 240);
  // The bottom-right corner is the viewer's background: opaque and not black.
  const unsigned char* corner = image.at(310, 230);
  EXPECT_EQ(corner[3], 255);
  EXPECT_GT(corner[0] + corner[1] + corner[2], 60);
  // No temporary file left beside the image.
  EXPECT_EQ(Listing(dir), std::vector<std::string>{"frame.png"});
  std::filesystem::remove_all(dir);
}

TEST(Render, DrawsThePanelTopLeft) {
  const std::string dir = MakeTempDir();
  const std::string png = dir + "/frame.png";
  ASSERT_EQ(RunIkpose({"render", "--out", png, "--size", "640x480"}).exit_code, 0);
  const Image image = LoadPng(png);
  ASSERT_NE(image.pixels, nullptr);
  // ImGui's title bar sits at the panel's top edge: a blue-ish band unlike the background.
  const unsigned char* title = image.at(100, 18);
  const unsigned char* background = image.at(630, 470);
  EXPECT_GT(title[2], title[0] + 30) << "title bar should be blue";
  EXPECT_NE(title[2], background[2]);
  std::filesystem::remove_all(dir);
}

TEST(Render, ReplacingAnImageSwapsInANewFileWhileAViewerKeepsTheOldOne) {
  const std::string dir = MakeTempDir();
  const std::string png = dir + "/frame.png";
  ASSERT_EQ(RunIkpose({"render", "--out", png, "--size", "64x48", "--no-panel"}).exit_code, 0);
  const std::string old_bytes = FileBytes(png);
  ASSERT_FALSE(old_bytes.empty());
  const ino_t old_inode = InodeOf(png);
  // An image viewer has the old file open while the next render replaces it.
  const int viewer = ::open(png.c_str(), O_RDONLY);
  ASSERT_GE(viewer, 0);
  const ProgramResult r = RunIkpose({"render", "--out", png, "--size", "96x64", "--no-panel"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(InodeOf(png), old_inode) << "renamed into place, not rewritten";
  EXPECT_NE(FileBytes(png), old_bytes);
  const std::string seen = OpenFileBytes(viewer);
  ::close(viewer);
  EXPECT_TRUE(seen == old_bytes) << "the open file changed under its reader";
  EXPECT_EQ(Listing(dir), std::vector<std::string>{"frame.png"});
  std::filesystem::remove_all(dir);
}

TEST(Render, ADiskFullMidwayKeepsTheOldImageAndLeavesNoTemporary) {
  const std::string dir = MakeTempDir();
  const std::string png = dir + "/frame.png";
  ASSERT_EQ(RunIkpose({"render", "--out", png, "--size", "64x48", "--no-panel"}).exit_code, 0);
  const std::string old_bytes = FileBytes(png);
  // The new image is far bigger than the limit: the write fails partway through.
  const ProgramResult r =
      RunIkposeWithFileSizeLimit({"render", "--out", png, "--size", "640x480", "--no-panel"}, 2048);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(r.err.rfind("ikpose: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(png), std::string::npos) << r.err;
  EXPECT_TRUE(FileBytes(png) == old_bytes) << "the old image must stay whole";
  EXPECT_EQ(Listing(dir), std::vector<std::string>{"frame.png"});
  std::filesystem::remove_all(dir);
}

TEST(Render, UnwritableOutputIsOneLineErrorAndNoFile) {
  const std::string png = "/nonexistent-folder/frame.png";
  const ProgramResult r = RunIkpose({"render", "--out", png, "--size", "64x64"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(r.err.rfind("ikpose: error: ", 0), 0u) << r.err;
  EXPECT_FALSE(std::filesystem::exists(png));
}

// Pixels clearly green (the reference image below is pure green).
int GreenPixels(const Image& image) {
  int count = 0;
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      const unsigned char* p = image.at(x, y);
      if (p[1] > p[0] + 60 && p[1] > p[2] + 60) ++count;
    }
  }
  return count;
}

TEST(Render, AReferenceImageStandsBehindTheCharacter) {
  const std::string dir = MakeTempDir();
  const std::string reference = dir + "/reference.png";
  std::vector<unsigned char> rgba(8 * 16 * 4, 0);
  for (std::size_t i = 0; i < rgba.size(); i += 4) rgba[i + 1] = rgba[i + 3] = 255;
  ASSERT_NE(stbi_write_png(reference.c_str(), 8, 16, 4, rgba.data(), 8 * 4), 0);
  const std::string with = dir + "/with.png", without = dir + "/without.png";
  const std::vector<std::string> common = {"render", "--size", "320x240", "--no-panel"};
  auto args = common;
  args.insert(args.end(), {"--out", with, "--reference", reference});
  const ProgramResult r = RunIkpose(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  args = common;
  args.insert(args.end(), {"--out", without});
  ASSERT_EQ(RunIkpose(args).exit_code, 0);
  const Image shown = LoadPng(with), plain = LoadPng(without);
  ASSERT_NE(shown.pixels, nullptr);
  ASSERT_NE(plain.pixels, nullptr);
  EXPECT_EQ(GreenPixels(plain), 0);
  // A tall band behind the character: a good part of the picture, but the character covers
  // its middle (the torso at the centre is not green).
  EXPECT_GT(GreenPixels(shown), shown.width * shown.height / 20);
  const unsigned char* torso = shown.at(shown.width / 2, shown.height * 2 / 5);
  EXPECT_FALSE(torso[1] > torso[0] + 60 && torso[1] > torso[2] + 60) << "the image covers the body";
  std::filesystem::remove_all(dir);
}

TEST(Render, ABrokenReferenceImageIsOneLineErrorAndNoPicture) {
  const std::string dir = MakeTempDir();
  const std::string reference = dir + "/broken.png", png = dir + "/frame.png";
  std::ofstream(reference, std::ios::binary) << "\x89PNG\r\n\x1a\n truncated";
  const ProgramResult r = RunIkpose({"render", "--out", png, "--reference", reference});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("ikpose: error: ", 0), 0u) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("broken.png"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(png));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ikpose::test
