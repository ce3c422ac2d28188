#include "app/autosave_files.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace ikpose::app {

namespace fs = std::filesystem;

namespace {

// A folder of autosaves is the user's own, but anything can be put there: a bounded look.
constexpr int kMaxEntriesLooked = 4096;

bool IsAutosaveName(const std::string& name) {
  // "autosave.json" is what older versions wrote (one per user): offered back like any orphan.
  if (name == "autosave.json") return true;
  return name.size() > 14 && name.rfind("autosave-", 0) == 0 &&
         name.compare(name.size() - 5, 5, ".json") == 0;
}

fs::path LockFor(const fs::path& autosave) {
  fs::path lock = autosave;
  lock.replace_extension(".lock");
  return lock;
}

// True when a running window holds `autosave`'s lock.
bool HeldByAWindow(const fs::path& autosave) {
  const int fd = ::open(LockFor(autosave).c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return false;  // no lock file: its window is gone
  const bool held = ::flock(fd, LOCK_EX | LOCK_NB) != 0;
  ::close(fd);  // a lock taken here is released with the descriptor
  return held;
}

}  // namespace

fs::path AutosaveFolder() {
  if (const char* state = std::getenv("XDG_STATE_HOME"); state != nullptr && *state == '/')
    return fs::path(state) / "ikpose";
  if (const char* home = std::getenv("HOME"); home != nullptr && *home == '/')
    return fs::path(home) / ".local" / "state" / "ikpose";
  return {};  // nowhere that belongs to this user: no autosave
}

OwnAutosave::OwnAutosave(const fs::path& folder) {
  if (folder.empty()) return;
  std::error_code ec;
  fs::create_directories(folder, ec);
  const std::string stem = "autosave-" + std::to_string(::getpid());
  const fs::path lock = folder / (stem + ".lock");
  const int fd = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return;
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return;
  }
  lock_fd_ = fd;
  lock_path_ = lock;
  path_ = folder / (stem + ".json");
}

OwnAutosave::~OwnAutosave() {
  if (lock_fd_ >= 0) ::close(lock_fd_);
}

void OwnAutosave::Remove() {
  if (path_.empty()) return;
  std::error_code ec;
  fs::remove(path_, ec);
  fs::remove(lock_path_, ec);  // still held: nobody can mistake the window for a crash meanwhile
}

fs::path FindOrphanAutosave(const fs::path& folder, const fs::path& own) {
  std::error_code ec;
  if (folder.empty() || !fs::is_directory(folder, ec)) return {};
  fs::path newest;
  fs::file_time_type newest_time{};
  int looked = 0;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    if (++looked > kMaxEntriesLooked) break;
    const fs::path path = it->path();
    if (path == own || !IsAutosaveName(path.filename().string())) continue;
    if (!it->is_regular_file(ec) || it->is_symlink(ec) || HeldByAWindow(path)) continue;
    const fs::file_time_type written = fs::last_write_time(path, ec);
    if (ec) continue;
    if (newest.empty() || written > newest_time) {
      newest = path;
      newest_time = written;
    }
  }
  return newest;
}

void RemoveAutosaveFile(const fs::path& autosave) {
  std::error_code ec;
  fs::remove(autosave, ec);
  fs::remove(LockFor(autosave), ec);
}

}  // namespace ikpose::app
