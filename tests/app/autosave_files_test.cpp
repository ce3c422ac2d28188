// Each window's autosave is its own, and only one whose window is gone is offered back.
#include "app/autosave_files.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

namespace ikpose::app {
namespace {

namespace fs = std::filesystem;

fs::path FreshFolder(const char* name) {
  const fs::path folder =
      fs::temp_directory_path() / ("ikpose_autosave_" + std::to_string(getpid()) + name);
  fs::remove_all(folder);
  return folder;
}

void Write(const fs::path& path) {
  std::ofstream(path) << "{\"limbs\": {}}\n";
}

TEST(AutosaveFiles, TwoWindowsKeepTwoFilesAndNeitherIsOfferedToTheOther) {
  const fs::path folder = FreshFolder("two");
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  const pid_t other = fork();
  ASSERT_GE(other, 0);
  if (other == 0) {  // another window, running until it is killed
    OwnAutosave own(folder);
    Write(own.path());
    const char done = own.path().empty() ? 'n' : 'y';
    if (write(ready[1], &done, 1) != 1) _exit(1);
    pause();
    _exit(0);
  }
  char done = 0;
  ASSERT_EQ(read(ready[0], &done, 1), 1);
  ASSERT_EQ(done, 'y');

  OwnAutosave mine(folder);
  ASSERT_FALSE(mine.path().empty());
  Write(mine.path());
  const fs::path theirs = folder / ("autosave-" + std::to_string(other) + ".json");
  EXPECT_NE(mine.path(), theirs);
  EXPECT_TRUE(fs::exists(theirs));
  // The other window is alive: its autosave is not a crash's.
  EXPECT_TRUE(FindOrphanAutosave(folder, mine.path()).empty());

  // It crashes: the kernel drops its lock, and its file is offered back (never this window's).
  kill(other, SIGKILL);
  waitpid(other, nullptr, 0);
  EXPECT_EQ(FindOrphanAutosave(folder, mine.path()), theirs);
  RemoveAutosaveFile(theirs);
  EXPECT_FALSE(fs::exists(theirs));
  EXPECT_TRUE(FindOrphanAutosave(folder, mine.path()).empty());

  // A clean exit leaves nothing behind.
  mine.Remove();
  EXPECT_TRUE(fs::is_empty(folder));
  fs::remove_all(folder);
}

TEST(AutosaveFiles, TheOneFileOlderVersionsWroteIsOfferedBack) {
  const fs::path folder = FreshFolder("old");
  fs::create_directories(folder);
  Write(folder / "autosave.json");
  Write(folder / "notes.json");  // not an autosave
  EXPECT_EQ(FindOrphanAutosave(folder, {}), folder / "autosave.json");
  fs::remove_all(folder);
}

}  // namespace
}  // namespace ikpose::app
