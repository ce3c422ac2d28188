#include "anim/atomic_file.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>

namespace ikpose::anim {
namespace {

namespace fs = std::filesystem;

// The live temporary files, readable from a signal handler: a slot's path is written before
// `live` is set and only read (by unlink, which is async-signal-safe) while it is set.
struct TempSlot {
  std::atomic<bool> taken{false};
  std::atomic<bool> live{false};
  char path[4096] = {};
};
TempSlot g_slots[TempFileGuard::kMaxTempFiles];

std::mutex g_handler_mutex;
int g_guards = 0;  // guarded by g_handler_mutex
// The signals whose default action ends the process: a hang-up (the terminal closed), quit,
// a broken pipe (a reader of stdout went away) as well as an interrupt or termination.
constexpr int kGuardedSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE};
constexpr int kGuardedCount = sizeof kGuardedSignals / sizeof kGuardedSignals[0];
struct sigaction g_previous[kGuardedCount] = {};

void UnlinkLiveTempFiles() {
  for (TempSlot& slot : g_slots) {
    if (slot.live.load()) ::unlink(slot.path);
  }
}

void OnFatalSignal(int signo, siginfo_t* info, void* context) {
  const int saved_errno = errno;
  int which = 0;
  while (which < kGuardedCount - 1 && kGuardedSignals[which] != signo) ++which;
  const struct sigaction& previous = g_previous[which];
  // A program that handles the signal itself (the viewer, through SDL, turns it into a quit
  // request) goes on, and so does the write, which cleans up after itself.
  if ((previous.sa_flags & SA_SIGINFO) != 0 && previous.sa_sigaction != nullptr) {
    previous.sa_sigaction(signo, info, context);
  } else if ((previous.sa_flags & SA_SIGINFO) == 0 && previous.sa_handler != SIG_DFL &&
             previous.sa_handler != SIG_IGN) {
    previous.sa_handler(signo);
  } else {
    // The default action: the temporary files go, then the process dies of this signal, so
    // its parent sees what killed it.
    UnlinkLiveTempFiles();
    ::signal(signo, SIG_DFL);
    ::raise(signo);
  }
  errno = saved_errno;
}

void InstallHandlers() {
  struct sigaction action {};
  action.sa_sigaction = OnFatalSignal;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  for (int i = 0; i < kGuardedCount; ++i) {
    ::sigaction(kGuardedSignals[i], &action, &g_previous[i]);
    // A signal the process ignores (nohup, a shell's background job) stays ignored.
    if ((g_previous[i].sa_flags & SA_SIGINFO) == 0 && g_previous[i].sa_handler == SIG_IGN) {
      ::sigaction(kGuardedSignals[i], &g_previous[i], nullptr);
    }
  }
}

void RestoreHandlers() {
  for (int i = 0; i < kGuardedCount; ++i) ::sigaction(kGuardedSignals[i], &g_previous[i], nullptr);
}

std::string Failure(const fs::path& path, const std::string& why) {
  return "cannot write " + path.string() + ": " + why;
}

// Where the bytes must go: `path` itself, or the file a symbolic link names (followed through
// every link, even to a file that does not exist yet). False for a destination that is not a
// regular file, with the reason.
bool Destination(const fs::path& path, fs::path* dest, std::string* error) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      *error = Failure(path, "is a directory");
      return false;
    }
    if (!S_ISREG(st.st_mode)) {
      *error = Failure(path,
                       "not a regular file (a device, FIFO or socket); ikpose writes only "
                       "regular files");
      return false;
    }
    char* real = ::realpath(path.c_str(), nullptr);
    if (real == nullptr) {
      *error = Failure(path, std::strerror(errno));
      return false;
    }
    *dest = real;
    std::free(real);
    return true;
  }
  if (errno != ENOENT) {
    *error = Failure(path, std::strerror(errno));
    return false;
  }
  // Missing: a new file, possibly named by a dangling link; follow the links to where it goes.
  fs::path at = path;
  for (int hops = 0; hops < 40; ++hops) {
    std::error_code ec;
    if (!fs::is_symlink(fs::symlink_status(at, ec))) {
      *dest = at;
      return true;
    }
    const fs::path target = fs::read_symlink(at, ec);
    if (ec) {
      *error = Failure(path, ec.message());
      return false;
    }
    at = target.is_absolute() ? target : at.parent_path() / target;
  }
  *error = Failure(path, "too many levels of symbolic links");
  return false;
}

// The mode a plain open() would give a new file (0666 less the umask), or the mode of the file
// being replaced: mkstemp's temporary file is 0600, which would hide saved files from others.
mode_t ModeFor(const fs::path& path) {
  struct stat existing {};
  if (::stat(path.c_str(), &existing) == 0) return existing.st_mode & 07777;
  const mode_t mask = ::umask(0);  // read it: umask has no getter
  ::umask(mask);
  return 0666 & ~mask;
}

// Writes every byte to `fd`, retrying short writes and EINTR; false with errno set.
bool WriteAll(int fd, std::string_view text) {
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    written += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

TempFileGuard::TempFileGuard(const std::string& path) {
  if (path.size() >= sizeof(g_slots[0].path)) return;
  for (int i = 0; i < kMaxTempFiles; ++i) {
    bool expected = false;
    if (!g_slots[i].taken.compare_exchange_strong(expected, true)) continue;
    std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
    slot_ = i;
    break;
  }
  if (slot_ < 0) return;
  {
    const std::lock_guard<std::mutex> lock(g_handler_mutex);
    if (g_guards++ == 0) InstallHandlers();
  }
  g_slots[slot_].live.store(true);
}

TempFileGuard::~TempFileGuard() {
  if (slot_ < 0) return;
  g_slots[slot_].live.store(false);
  {
    const std::lock_guard<std::mutex> lock(g_handler_mutex);
    if (--g_guards == 0) RestoreHandlers();
  }
  g_slots[slot_].taken.store(false);
}

AtomicFileWriter::~AtomicFileWriter() {
  Abandon();
}

void AtomicFileWriter::Abandon() {
  if (fd_ < 0) return;
  ::close(fd_);
  ::unlink(temp_.c_str());
  fd_ = -1;
  guard_.reset();
}

bool AtomicFileWriter::Fail(const std::string& why, std::string* error) {
  Abandon();
  *error = Failure(path_, why);
  return false;
}

bool AtomicFileWriter::Open(const fs::path& path, std::string* error) {
  Abandon();
  path_ = path;
  buffer_.clear();
  if (!Destination(path, &dest_, error)) return false;
  const fs::path dir = dest_.has_parent_path() ? dest_.parent_path() : fs::path(".");
  temp_ = (dir / ("." + dest_.filename().string() + ".tmp-XXXXXX")).string();
  // The guarded signals are held back from the file's creation until it is guarded, so no
  // signal can leave it behind; one that arrived meanwhile is delivered at the unblock, and
  // removes it.
  sigset_t fatal, previous_mask;
  sigemptyset(&fatal);
  for (int signo : kGuardedSignals) sigaddset(&fatal, signo);
  ::pthread_sigmask(SIG_BLOCK, &fatal, &previous_mask);
  fd_ = ::mkostemp(temp_.data(), O_CLOEXEC);
  const int open_errno = errno;
  if (fd_ >= 0) guard_.emplace(temp_);
  ::pthread_sigmask(SIG_SETMASK, &previous_mask, nullptr);
  if (fd_ < 0) {
    *error = Failure(path, std::strerror(open_errno));
    return false;
  }
  if (::fchmod(fd_, ModeFor(dest_)) != 0) return Fail(std::strerror(errno), error);
  return true;
}

bool AtomicFileWriter::Write(std::string_view bytes, std::string* error) {
  if (fd_ < 0) {
    *error = Failure(path_, "not open");
    return false;
  }
  // Small pieces (a trace's lines) are gathered, so a long file costs few system calls.
  constexpr std::size_t kBufferBytes = 1u << 16;
  if (buffer_.size() + bytes.size() <= kBufferBytes) {
    buffer_.append(bytes);
    return true;
  }
  if (!WriteAll(fd_, buffer_)) return Fail(std::strerror(errno), error);
  buffer_.clear();
  if (bytes.size() >= kBufferBytes) {
    if (!WriteAll(fd_, bytes)) return Fail(std::strerror(errno), error);
  } else {
    buffer_.append(bytes);
  }
  return true;
}

bool AtomicFileWriter::Commit(std::string* error) {
  if (fd_ < 0) {
    *error = Failure(path_, "not open");
    return false;
  }
  if (!WriteAll(fd_, buffer_) || ::fsync(fd_) != 0) return Fail(std::strerror(errno), error);
  buffer_.clear();
  buffer_.shrink_to_fit();
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(temp_.c_str());
    guard_.reset();
    *error = Failure(path_, why);
    return false;
  }
  if (::rename(temp_.c_str(), dest_.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(temp_.c_str());
    guard_.reset();
    *error = Failure(path_, why);
    return false;
  }
  guard_.reset();
  return true;
}

bool WriteFileAtomically(const fs::path& path, std::string_view text, std::string* error) {
  AtomicFileWriter writer;
  return writer.Open(path, error) && writer.Write(text, error) && writer.Commit(error);
}

}  // namespace ikpose::anim
