// Bounded input: JSON nesting is measured before parsing, and only regular files are read.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "anim/bounded_input.h"

namespace ikpose::anim {
namespace {

namespace fs = std::filesystem;

std::string Nested(int depth, const std::string& inside = "") {
  return std::string(static_cast<std::size_t>(depth), '[') + inside +
         std::string(static_cast<std::size_t>(depth), ']');
}

TEST(JsonNesting, TheLimitItselfIsAcceptedAndOneMoreIsNot) {
  EXPECT_TRUE(JsonNestingWithin(Nested(kMaxJsonDepth)));
  EXPECT_FALSE(JsonNestingWithin(Nested(kMaxJsonDepth + 1)));
  EXPECT_FALSE(JsonNestingWithin("{\"id\":" + Nested(100000) + "}"));
  // Siblings do not add up: depth, not count.
  std::string wide = "[";
  for (int i = 0; i < 1000; ++i) wide += "[[1]],";
  EXPECT_TRUE(JsonNestingWithin(wide + "0]"));
}

TEST(JsonNesting, BracketsInsideStringsDoNotCount) {
  const std::string deep_text = "\"" + std::string(1000, '[') + "\"";
  EXPECT_TRUE(JsonNestingWithin("{\"name\":" + deep_text + "}"));
  // An escaped quote does not end the string.
  EXPECT_TRUE(JsonNestingWithin("[\"\\\"" + std::string(1000, '{') + "\"]"));
  EXPECT_FALSE(JsonNestingWithin("[\"\\\\\"" + Nested(kMaxJsonDepth) + "]"));
}

class RegularFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ikpose-bounded-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(RegularFile, IsReadWhole) {
  std::ofstream(dir_ / "a.json") << "{\"model\": \"x.glb\"}";
  std::string text, error;
  ASSERT_TRUE(ReadRegularFile(dir_ / "a.json", 100, &text, &error)) << error;
  EXPECT_EQ(text, "{\"model\": \"x.glb\"}");
}

TEST_F(RegularFile, AFifoADeviceAndADirectoryAreRefusedWithoutBlocking) {
  ASSERT_EQ(::mkfifo((dir_ / "pipe.json").c_str(), 0644), 0);
  std::string text, error;
  EXPECT_FALSE(ReadRegularFile(dir_ / "pipe.json", 100, &text, &error));  // no writer: no hang
  EXPECT_NE(error.find("not a regular file"), std::string::npos) << error;
  EXPECT_FALSE(ReadRegularFile("/dev/zero", 100, &text, &error));
  EXPECT_NE(error.find("not a regular file"), std::string::npos) << error;
  EXPECT_FALSE(ReadRegularFile(dir_, 100, &text, &error));
  EXPECT_NE(error.find("is a directory"), std::string::npos) << error;
}

TEST_F(RegularFile, LargerThanTheLimitIsRefusedBeforeReading) {
  std::ofstream(dir_ / "big.json") << std::string(101, ' ');
  std::string text, error;
  EXPECT_FALSE(ReadRegularFile(dir_ / "big.json", 100, &text, &error));
  EXPECT_NE(error.find("too large (101 bytes; at most 100)"), std::string::npos) << error;
  EXPECT_TRUE(text.empty());
}

}  // namespace
}  // namespace ikpose::anim
