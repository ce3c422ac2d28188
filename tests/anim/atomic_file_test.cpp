// WriteFileAtomically: the file appears whole or not at all, with the mode a plain write gives.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "anim/atomic_file.h"

namespace ikpose::anim {
namespace {

namespace fs = std::filesystem;

fs::path FreshDir(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("ikpose-atomic-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string Read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

mode_t ModeOf(const fs::path& path) {
  struct stat st {};
  EXPECT_EQ(::stat(path.c_str(), &st), 0);
  return st.st_mode & 07777;
}

TEST(AtomicFile, NewFileGetsTheUmaskModeAndLeavesNoTemporary) {
  const fs::path dir = FreshDir("new");
  const mode_t old_mask = ::umask(022);
  std::string error;
  ASSERT_TRUE(WriteFileAtomically(dir / "pose.json", "{}\n", &error)) << error;
  ::umask(old_mask);
  EXPECT_EQ(Read(dir / "pose.json"), "{}\n");
  EXPECT_EQ(ModeOf(dir / "pose.json"), mode_t{0644});  // readable by others, as cp would make it
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  fs::remove_all(dir);
}

TEST(AtomicFile, ReplacingAFileKeepsItsMode) {
  const fs::path dir = FreshDir("replace");
  std::string error;
  ASSERT_TRUE(WriteFileAtomically(dir / "scene.json", "old", &error)) << error;
  fs::permissions(dir / "scene.json",
                  fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  ASSERT_TRUE(WriteFileAtomically(dir / "scene.json", "new", &error)) << error;
  EXPECT_EQ(Read(dir / "scene.json"), "new");
  EXPECT_EQ(ModeOf(dir / "scene.json"), mode_t{0640});
  fs::remove_all(dir);
}

TEST(AtomicFile, AMissingFolderIsOneErrorAndNoFile) {
  const fs::path dir = FreshDir("missing");
  std::string error;
  EXPECT_FALSE(WriteFileAtomically(dir / "no-such-folder" / "pose.json", "{}", &error));
  EXPECT_NE(error.find("cannot write"), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos);
  EXPECT_FALSE(fs::exists(dir / "no-such-folder"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ikpose::anim
