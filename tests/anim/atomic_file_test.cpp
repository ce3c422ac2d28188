// WriteFileAtomically: the file appears whole or not at all, with the mode a plain write gives.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "anim/atomic_file.h"
#include "support/files.h"

namespace ikpose::anim {
namespace {

namespace fs = std::filesystem;
using ikpose::test::FileBytes;
using ikpose::test::InodeOf;
using ikpose::test::Listing;
using ikpose::test::OpenFileBytes;

fs::path FreshDir(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("ikpose-atomic-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
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
  EXPECT_EQ(FileBytes(dir / "pose.json"), "{}\n");
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
  EXPECT_EQ(FileBytes(dir / "scene.json"), "new");
  EXPECT_EQ(ModeOf(dir / "scene.json"), mode_t{0640});
  fs::remove_all(dir);
}

TEST(AtomicFile, ReplacingAFileSwapsInANewOneWhileAReaderKeepsTheOldBytes) {
  const fs::path dir = FreshDir("swap");
  const fs::path path = dir / "pose.json";
  std::string error;
  ASSERT_TRUE(WriteFileAtomically(path, "old pose", &error)) << error;
  const ino_t old_inode = InodeOf(path);
  // A reader (a viewer reloading the file, say) opened the old file before the write.
  const int reader = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(reader, 0);
  ASSERT_TRUE(WriteFileAtomically(path, "the new, longer pose", &error)) << error;
  // Renamed into place: another file under the same name, never the old one rewritten.
  EXPECT_NE(InodeOf(path), old_inode);
  EXPECT_EQ(FileBytes(path), "the new, longer pose");
  EXPECT_EQ(OpenFileBytes(reader), "old pose") << "the open file must not change under its reader";
  ::close(reader);
  EXPECT_EQ(Listing(dir), std::vector<std::string>{"pose.json"});
  fs::remove_all(dir);
}

TEST(AtomicFile, AWriteThatFailsMidwayKeepsTheOldFileAndLeavesNoTemporary) {
  const fs::path dir = FreshDir("fsize");
  const fs::path path = dir / "scene.json";
  std::string error;
  ASSERT_TRUE(WriteFileAtomically(path, "old scene", &error)) << error;
  const std::string big(64 * 1024, 'x');
  // The disk "fills" after 4 KiB of the new 64 KiB: a file size limit makes write() fail
  // with EFBIG (SIGXFSZ ignored, so it is an error, not a kill). In a child, so that this
  // process keeps its limits; the child reports the result and the error through a pipe.
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::close(pipe_fds[0]);
    std::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{4096, 4096};
    if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) ::_exit(3);
    std::string child_error;
    const bool ok = WriteFileAtomically(path, big, &child_error);
    const ssize_t sent = ::write(pipe_fds[1], child_error.data(), child_error.size());
    ::_exit(sent < 0 ? 4 : ok ? 0 : 1);
  }
  ::close(pipe_fds[1]);
  std::string child_error;
  char buffer[512];
  for (ssize_t n; (n = ::read(pipe_fds[0], buffer, sizeof buffer)) > 0;) {
    child_error.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(pipe_fds[0]);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "the writer was killed, status " << status;
  EXPECT_EQ(WEXITSTATUS(status), 1) << "the write should fail (3: setrlimit, 4: pipe)";
  EXPECT_NE(child_error.find("cannot write " + path.string()), std::string::npos) << child_error;
  EXPECT_EQ(child_error.find('\n'), std::string::npos) << child_error;
  EXPECT_EQ(FileBytes(path), "old scene");
  EXPECT_EQ(Listing(dir), std::vector<std::string>{"scene.json"});
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
