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

std::size_t EntriesIn(const fs::path& dir) {
  return static_cast<std::size_t>(
      std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

TEST(AtomicFile, ADeviceIsRefusedAndStaysADevice) {
  std::string error;
  EXPECT_FALSE(WriteFileAtomically("/dev/null", "{}", &error));
  EXPECT_NE(error.find("not a regular file"), std::string::npos) << error;
  struct stat st {};
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST(AtomicFile, AFifoIsRefusedWithoutOpeningIt) {
  const fs::path dir = FreshDir("fifo");
  ASSERT_EQ(::mkfifo((dir / "pipe").c_str(), 0644), 0);
  std::string error;
  // Opening a FIFO for writing would block here until a reader came.
  EXPECT_FALSE(WriteFileAtomically(dir / "pipe", "{}", &error));
  EXPECT_NE(error.find("not a regular file"), std::string::npos) << error;
  EXPECT_TRUE(fs::is_fifo(dir / "pipe"));
  EXPECT_EQ(EntriesIn(dir), 1u);
  fs::remove_all(dir);
}

TEST(AtomicFile, ADirectoryIsRefused) {
  const fs::path dir = FreshDir("dir");
  fs::create_directory(dir / "out.json");
  std::string error;
  EXPECT_FALSE(WriteFileAtomically(dir / "out.json", "{}", &error));
  EXPECT_NE(error.find("is a directory"), std::string::npos) << error;
  EXPECT_EQ(EntriesIn(dir), 1u);
  fs::remove_all(dir);
}

TEST(AtomicFile, ASymlinkStaysALinkAndItsTargetIsReplaced) {
  const fs::path dir = FreshDir("link");
  fs::create_directory(dir / "real");
  { std::ofstream(dir / "real" / "pose.json") << "old"; }
  fs::create_symlink("real/pose.json", dir / "pose.json");
  std::string error;
  ASSERT_TRUE(WriteFileAtomically(dir / "pose.json", "new", &error)) << error;
  EXPECT_TRUE(fs::is_symlink(dir / "pose.json"));
  EXPECT_EQ(FileBytes(dir / "real" / "pose.json"), "new");
  EXPECT_EQ(EntriesIn(dir / "real"), 1u);
  // A dangling link makes its target.
  fs::create_symlink("real/fresh.json", dir / "fresh.json");
  ASSERT_TRUE(WriteFileAtomically(dir / "fresh.json", "made", &error)) << error;
  EXPECT_TRUE(fs::is_symlink(dir / "fresh.json"));
  EXPECT_EQ(FileBytes(dir / "real" / "fresh.json"), "made");
  fs::remove_all(dir);
}

TEST(AtomicFile, AFailedWriteLeavesTheOldFileAndNoTemporary) {
  const fs::path dir = FreshDir("toobig");
  { std::ofstream(dir / "scene.json") << "old"; }
  // In a child: the file-size limit is per process. SIGXFSZ ignored, as main() does.
  const auto write_too_much = [&dir] {
    std::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{16, 16};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    std::string error;
    const bool ok = WriteFileAtomically(dir / "scene.json", std::string(4096, 'x'), &error);
    std::_Exit(!ok && error.find("cannot write") != std::string::npos ? 3 : 4);
  };
  EXPECT_EXIT(write_too_much(), ::testing::ExitedWithCode(3), "");
  EXPECT_EQ(FileBytes(dir / "scene.json"), "old");
  EXPECT_EQ(EntriesIn(dir), 1u);
  fs::remove_all(dir);
}

TEST(AtomicFile, SigtermRemovesALiveTemporaryFileAndStillKills) {
  const fs::path dir = FreshDir("sigterm");
  const fs::path temp = dir / ".pose.json.tmp-abcdef";
  const auto die_mid_write = [&temp] {
    std::ofstream(temp) << "half";
    const TempFileGuard guard(temp.string());
    std::raise(SIGTERM);
    std::_Exit(0);  // not reached: the default action kills
  };
  EXPECT_EXIT(die_mid_write(), ::testing::KilledBySignal(SIGTERM), "");
  EXPECT_FALSE(fs::exists(temp));
  // Once the guard is gone, the handler is too: the file is the caller's again.
  {
    std::ofstream(temp) << "kept";
    const TempFileGuard guard(temp.string());
  }
  struct sigaction now {};
  ::sigaction(SIGTERM, nullptr, &now);
  EXPECT_EQ(now.sa_handler, SIG_DFL);
  fs::remove_all(dir);
}

TEST(AtomicFile, HangupQuitAndBrokenPipeRemoveALiveTemporaryFileAsSigtermDoes) {
  const fs::path dir = FreshDir("signals");
  for (const int signo : {SIGHUP, SIGQUIT, SIGPIPE, SIGINT}) {
    SCOPED_TRACE(signo);
    const fs::path temp = dir / ".pose.json.tmp-abcdef";
    const auto die_mid_write = [&temp, signo] {
      const rlimit no_core{0, 0};  // SIGQUIT's default action dumps core
      ::setrlimit(RLIMIT_CORE, &no_core);
      std::ofstream(temp) << "half";
      const TempFileGuard guard(temp.string());
      std::raise(signo);
      std::_Exit(0);  // not reached: the default action kills
    };
    EXPECT_EXIT(die_mid_write(), ::testing::KilledBySignal(signo), "");
    EXPECT_FALSE(fs::exists(temp));
  }
  EXPECT_EQ(EntriesIn(dir), 0u);
  fs::remove_all(dir);
}

volatile std::sig_atomic_t g_quit_requested = 0;

TEST(AtomicFile, AProgramThatHandlesSigtermItselfKeepsItsHandlerAndItsWrite) {
  const fs::path dir = FreshDir("handled");
  const fs::path temp = dir / ".scene.json.tmp-abcdef";
  // Like the viewer: SIGTERM asks the program to quit; the write in progress must finish.
  const auto quit_mid_write = [&temp] {
    std::signal(SIGTERM, [](int) { g_quit_requested = 1; });
    std::ofstream(temp) << "half";
    {
      const TempFileGuard guard(temp.string());
      std::raise(SIGTERM);
    }
    std::_Exit(g_quit_requested == 1 && fs::exists(temp) ? 5 : 6);
  };
  EXPECT_EXIT(quit_mid_write(), ::testing::ExitedWithCode(5), "");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ikpose::anim
