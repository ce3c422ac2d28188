#include "asset/import_child.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string_view>
#include <thread>

#include "asset/model_wire.h"

#if defined(__SANITIZE_ADDRESS__)
#define IKPOSE_IMPORT_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define IKPOSE_IMPORT_SANITIZED 1
#endif
#endif

namespace ikpose::asset {

namespace {

constexpr int kExitOutOfMemory = 75;  // the child's new-handler: an allocation failed
constexpr int kExitThrew = 76;        // `work` threw something that is not bad_alloc
constexpr int kPipeBytes = 1 << 20;   // fewer wake-ups for a large model

// The child's test hooks (import_child.h); -1 / false / 0 when not asked for.
struct TestHooks {
  long long kill_after = -1;
  bool hang = false;
  std::uint64_t memory_bytes = 0;
};

TestHooks ReadTestHooks() {
  TestHooks hooks;
  const char* env = std::getenv("IKPOSE_IMPORTER_TEST");
  if (env == nullptr) return hooks;
  const std::string_view all(env);
  std::size_t start = 0;
  while (start <= all.size()) {
    std::size_t end = all.find(',', start);
    if (end == std::string_view::npos) end = all.size();
    const std::string item(all.substr(start, end - start));
    if (item == "hang") hooks.hang = true;
    if (item.rfind("kill-after=", 0) == 0) hooks.kill_after = std::atoll(item.c_str() + 11);
    if (item.rfind("memory-mb=", 0) == 0) {
      hooks.memory_bytes = static_cast<std::uint64_t>(std::atoll(item.c_str() + 10)) << 20;
    }
    start = end + 1;
  }
  return hooks;
}

// Sets a limit (soft `value`, hard `hard`, or `value` when 0), never above what it already is.
void Lower(int resource, std::uint64_t value, std::uint64_t hard = 0) {
  rlimit current{};
  if (getrlimit(resource, &current) != 0) return;
  const auto cap = [](rlim_t now, std::uint64_t wanted) {
    const auto w = static_cast<rlim_t>(wanted);
    return now == RLIM_INFINITY || w < now ? w : now;
  };
  rlimit next{};
  next.rlim_max = cap(current.rlim_max, hard > 0 ? hard : value);
  next.rlim_cur = std::min(cap(current.rlim_cur, value), next.rlim_max);
  setrlimit(resource, &next);
}

// The address space in use now (the parent's, copied by fork): the allowance goes on top.
[[maybe_unused]] std::uint64_t AddressSpaceBytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  unsigned long long pages = 0;
  if (std::fscanf(f, "%llu", &pages) != 1) pages = 0;
  std::fclose(f);
  return pages * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

void WriteAll(int fd, const std::string& bytes, long long kill_after) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    std::size_t chunk = bytes.size() - done;
    if (kill_after >= 0) {
      if (static_cast<long long>(done) >= kill_after) kill(getpid(), SIGKILL);
      chunk = std::min<std::size_t>(chunk, static_cast<std::size_t>(kill_after) - done);
    }
    const ssize_t n = write(fd, bytes.data() + done, chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) _exit(kExitThrew);
    done += static_cast<std::size_t>(n);
  }
  if (kill_after >= 0) kill(getpid(), SIGKILL);
}

[[noreturn]] void ChildMain(int pipe_fd, const std::function<std::string()>& work,
                            const ImportLimits& limits) {
  // The parent's handlers (removing a temporary output file on SIGINT...) are not the child's.
  for (int signo : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGXCPU, SIGXFSZ, SIGSEGV, SIGBUS,
                    SIGABRT, SIGFPE, SIGILL}) {
    std::signal(signo, SIG_DFL);
  }
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  const TestHooks hooks = ReadTestHooks();

  // Only the pipe (as descriptor 3) and /dev/null as 0, 1, 2: no file the parent has open
  // (an output being written, the display connection) is reachable, nothing the importer
  // prints reaches the user.
  const int out = fcntl(pipe_fd, F_DUPFD, 10);
  const int null_fd = open("/dev/null", O_RDWR);
  if (out < 0 || null_fd < 0) _exit(kExitThrew);
  for (int fd = 0; fd <= 2; ++fd) dup2(null_fd, fd);
  if (dup2(out, 3) != 3) _exit(kExitThrew);
  if (close_range(4, ~0U, 0) != 0) {
    for (int fd = 4; fd < 4096; ++fd) close(fd);
  }

#if !defined(IKPOSE_IMPORT_SANITIZED)
  std::uint64_t allowance = limits.memory_bytes;
  if (hooks.memory_bytes > 0 && hooks.memory_bytes < allowance) allowance = hooks.memory_bytes;
  Lower(RLIMIT_AS, AddressSpaceBytes() + allowance);
#endif
  Lower(RLIMIT_STACK, limits.stack_bytes);
  // SIGXCPU at the soft limit (a timeout); the hard limit's SIGKILL a second later.
  const auto cpu = static_cast<std::uint64_t>(limits.cpu_seconds);
  Lower(RLIMIT_CPU, cpu, cpu + 1);
  Lower(RLIMIT_NOFILE, static_cast<std::uint64_t>(limits.open_files));
  Lower(RLIMIT_FSIZE, 0);
  Lower(RLIMIT_CORE, 0);
  std::set_new_handler([] { _exit(kExitOutOfMemory); });

  if (hooks.hang) {
    for (;;) pause();
  }
  std::string answer;
  try {
    answer = work();
  } catch (const std::bad_alloc&) {
    _exit(kExitOutOfMemory);
  } catch (...) {
    _exit(kExitThrew);
  }
  WriteAll(3, answer, hooks.kill_after);
  _exit(0);
}

std::string SignalText(int signo) {
  const char* name = strsignal(signo);
  return "signal " + std::to_string(signo) + (name != nullptr ? std::string(", ") + name : "");
}

std::string Seconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", seconds);
  return text;
}

std::string Size(std::uint64_t bytes) {
  if (bytes % (std::uint64_t{1} << 30) == 0) return std::to_string(bytes >> 30) + " GB";
  return std::to_string(bytes >> 20) + " MB";
}

}  // namespace

ChildEnd RunInChild(const std::function<std::string()>& work, const ImportLimits& limits,
                    std::string* answer) {
  answer->clear();
  ChildEnd end;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    end.kind = ChildEnd::kNotStarted;
    end.detail = std::string("no pipe: ") + std::strerror(errno);
    return end;
  }
  fcntl(fds[0], F_SETPIPE_SZ, kPipeBytes);  // a smaller pipe only costs time
  const pid_t pid = fork();
  if (pid < 0) {
    end.kind = ChildEnd::kNotStarted;
    end.detail = std::string("no process: ") + std::strerror(errno);
    close(fds[0]);
    close(fds[1]);
    return end;
  }
  if (pid == 0) ChildMain(fds[1], work, limits);
  close(fds[1]);

  using Clock = std::chrono::steady_clock;
  const Clock::time_point deadline =
      Clock::now() + std::chrono::milliseconds(static_cast<long long>(limits.wall_seconds * 1000));
  const auto ms_left = [&] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  };
  bool timed_out = false;
  bool too_much = false;
  bool sized = false;
  constexpr std::size_t kChunk = 1 << 16;
  for (;;) {
    const long long left = ms_left();
    if (left <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(std::min<long long>(left, 1 << 30)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      timed_out = ready == 0;
      break;
    }
    const std::size_t before = answer->size();
    if (before + kChunk > kMaxWireBytes) {
      too_much = true;
      break;
    }
    answer->resize(before + kChunk);
    const ssize_t n = read(fds[0], answer->data() + before, kChunk);
    answer->resize(before + (n > 0 ? static_cast<std::size_t>(n) : 0));
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) break;  // the end of the answer (or a broken pipe)
    if (!sized && answer->size() >= kModelWireHeaderBytes) {
      sized = true;
      bool bad = false;
      const std::uint64_t length = AnswerLength(*answer, &bad);
      if (!bad && length > answer->capacity()) answer->reserve(length + kChunk);
    }
  }
  close(fds[0]);
  if (timed_out || too_much) kill(pid, SIGKILL);

  // Reap it; a child that closed its pipe but lingers is killed at the deadline.
  int status = 0;
  for (;;) {
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) {
      end.kind = ChildEnd::kCrashed;
      end.detail = std::string("lost: ") + std::strerror(errno);
      return end;
    }
    if (!timed_out && ms_left() <= 0) {
      timed_out = true;
      kill(pid, SIGKILL);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  if (too_much) {
    end.kind = ChildEnd::kTooMuch;
  } else if (timed_out) {
    end.kind = ChildEnd::kTimedOut;
  } else if (WIFSIGNALED(status)) {
    end.kind = WTERMSIG(status) == SIGXCPU ? ChildEnd::kTimedOut : ChildEnd::kCrashed;
    end.detail = WTERMSIG(status) == SIGXCPU ? "cpu" : SignalText(WTERMSIG(status));
  } else if (WIFEXITED(status) && WEXITSTATUS(status) == kExitOutOfMemory) {
    end.kind = ChildEnd::kOutOfMemory;
  } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
    end.kind = ChildEnd::kCrashed;
    end.detail = "exit status " + std::to_string(WEXITSTATUS(status));
  }
  return end;
}

std::string DescribeEnd(const ChildEnd& end, const ImportLimits& limits, const std::string& file) {
  switch (end.kind) {
    case ChildEnd::kAnswered:
      return "";
    case ChildEnd::kCrashed:
      return "the importer crashed reading " + file + " (" + end.detail + ")";
    case ChildEnd::kOutOfMemory:
      return "the importer ran out of its " + Size(limits.memory_bytes) + " reading " + file;
    case ChildEnd::kTimedOut:
      return end.detail == "cpu"
                 ? "the importer used more than " + std::to_string(limits.cpu_seconds) +
                       " s of CPU time reading " + file
                 : "the importer took longer than " + Seconds(limits.wall_seconds) + " s reading " +
                       file;
    case ChildEnd::kTooMuch:
      return "the importer sent back more than " + Size(kMaxWireBytes) + " reading " + file;
    case ChildEnd::kNotStarted:
      return "the importer could not start reading " + file + " (" + end.detail + ")";
  }
  return "";
}

}  // namespace ikpose::asset
