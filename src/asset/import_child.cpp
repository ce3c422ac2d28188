#include "asset/import_child.h"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <thread>
#include <vector>

#include "asset/import_request.h"
#include "asset/import_scene.h"
#include "asset/model_wire.h"

namespace ikpose::asset {

namespace fs = std::filesystem;

namespace {

constexpr const char* kProgramName = "ikpose_import";
constexpr int kPipeBytes = 1 << 20;  // fewer wake-ups for a large model
constexpr std::size_t kChunk = 1 << 16;

// The child between fork and exec: async-signal-safe calls only (another thread of the parent
// may have held any lock at the fork).
[[noreturn]] void ExecImporter(const char* program, char* const* argv, int answer_fd,
                               int request_fd, int null_fd, const ImportLimits& limits) {
  // Default dispositions (ignored signals stay ignored across exec) and nothing blocked.
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  for (int signo = 1; signo < NSIG; ++signo) sigaction(signo, &default_action, nullptr);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);

  // The answer pipe as 3, the request as 4, /dev/null as 0, 1 and 2; nothing else of the
  // parent's (an output being written, the display connection) stays open.
  const int out = fcntl(answer_fd, F_DUPFD, 10);
  const int in = fcntl(request_fd, F_DUPFD, 10);
  if (out < 0 || in < 0) _exit(kImporterFailed);
  for (int fd = 0; fd <= 2; ++fd) dup2(null_fd, fd);
  if (dup2(out, 3) != 3 || dup2(in, 4) != 4) _exit(kImporterFailed);
  if (close_range(5, ~0U, 0) != 0) {
    for (int fd = 5; fd < 4096; ++fd) close(fd);
  }

  LowerLimit(RLIMIT_STACK, limits.stack_bytes);
  // SIGXCPU at the soft limit (a timeout); the hard limit's SIGKILL a second later.
  const auto cpu = static_cast<std::uint64_t>(limits.cpu_seconds);
  LowerLimit(RLIMIT_CPU, cpu, cpu + 1);
  LowerLimit(RLIMIT_NOFILE, static_cast<std::uint64_t>(limits.open_files));
  LowerLimit(RLIMIT_FSIZE, 0);
  LowerLimit(RLIMIT_CORE, 0);
  execv(program, argv);
  _exit(kImporterNoExec);
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
  if (bytes >= (std::uint64_t{1} << 30) && bytes % (std::uint64_t{1} << 30) == 0) {
    return std::to_string(bytes >> 30) + " GB";
  }
  return std::to_string(bytes >> 20) + " MB";
}

ChildEnd NotStarted(const std::string& why) {
  ChildEnd end;
  end.kind = ChildEnd::kNotStarted;
  end.detail = why;
  return end;
}

std::string FindImporterProgram() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path beside = self.parent_path() / kProgramName;
    if (access(beside.c_str(), X_OK) == 0) return beside.string();
  }
#if defined(IKPOSE_IMPORTER_BUILD_PATH)
  if (access(IKPOSE_IMPORTER_BUILD_PATH, X_OK) == 0) return IKPOSE_IMPORTER_BUILD_PATH;
#endif
  return "";
}

}  // namespace

void LowerLimit(int resource, std::uint64_t value, std::uint64_t hard) {
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

ImporterTestHooks ReadImporterTestHooks() {
  ImporterTestHooks hooks;
  const char* env = std::getenv("IKPOSE_IMPORTER_TEST");
  if (env == nullptr) return hooks;
  const std::string_view all(env);
  std::size_t start = 0;
  while (start <= all.size()) {
    std::size_t end = all.find(',', start);
    if (end == std::string_view::npos) end = all.size();
    const std::string item(all.substr(start, end - start));
    const auto value = [&item](const char* key) -> const char* {
      const std::size_t n = std::strlen(key);
      return item.compare(0, n, key) == 0 ? item.c_str() + n : nullptr;
    };
    if (item == "hang") hooks.hang = true;
    if (item == "crash") hooks.crash = true;
    if (const char* v = value("kill-after=")) hooks.kill_after = std::atoll(v);
    if (const char* v = value("crash-on=")) hooks.crash_on = v;
    if (const char* v = value("create-file=")) hooks.create_file = v;
    if (const char* v = value("memory-mb=")) {
      hooks.memory_bytes = static_cast<std::uint64_t>(std::max(std::atoll(v), 1LL)) << 20;
    }
    start = end + 1;
  }
  return hooks;
}

const std::string& ImporterProgram() {
  static const std::string program = FindImporterProgram();
  return program;
}

ChildEnd RunImporter(const PreparedImport& prepared, const ImportLimits& limits,
                     std::string* answer) {
  answer->clear();
  const std::string& program = ImporterProgram();
  if (program.empty()) {
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    return NotStarted(std::string("no ") + kProgramName + " beside " + self.parent_path().string());
  }
  std::uint64_t allowance = limits.memory_bytes;
  const ImporterTestHooks hooks = ReadImporterTestHooks();
  if (hooks.memory_bytes > 0) allowance = std::min(allowance, hooks.memory_bytes);
  const std::string request = EncodeImportRequest(prepared);

  // Everything the child needs is made here, before the fork.
  std::vector<std::string> args{program, "--ikpose-importer",
                                "--memory-bytes=" + std::to_string(allowance)};
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  int answer_pipe[2];
  if (pipe2(answer_pipe, O_CLOEXEC) != 0) {
    return NotStarted(std::string("no pipe: ") + std::strerror(errno));
  }
  fcntl(answer_pipe[0], F_SETPIPE_SZ, kPipeBytes);  // a smaller pipe only costs time
  int request_pipe[2];
  if (pipe2(request_pipe, O_CLOEXEC) != 0) {
    close(answer_pipe[0]);
    close(answer_pipe[1]);
    return NotStarted(std::string("no pipe: ") + std::strerror(errno));
  }
  fcntl(request_pipe[1], F_SETPIPE_SZ, kPipeBytes);
  fcntl(request_pipe[1], F_SETFL, O_NONBLOCK);  // ikpose's end only
  // A write to a child that died is EPIPE, not a SIGPIPE that ends ikpose: blocked in this
  // thread while the request goes out, and one it raised is taken back below.
  sigset_t pipe_signal, old_mask, pending;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, &old_mask);
  sigpending(&pending);
  const bool pipe_signal_was_pending = sigismember(&pending, SIGPIPE) == 1;
  bool broke_pipe = false;
  const int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
  const pid_t pid = null_fd < 0 ? -1 : fork();
  if (pid == 0) {
    ExecImporter(program.c_str(), argv.data(), answer_pipe[1], request_pipe[0], null_fd, limits);
  }
  const int fork_errno = errno;
  close(answer_pipe[1]);
  close(request_pipe[0]);
  if (null_fd >= 0) close(null_fd);
  if (pid < 0) {
    close(answer_pipe[0]);
    close(request_pipe[1]);
    pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
    return NotStarted(std::string("no process: ") + std::strerror(fork_errno));
  }

  ChildEnd end;
  end.memory_bytes = allowance;
  using Clock = std::chrono::steady_clock;
  const Clock::time_point deadline =
      Clock::now() + std::chrono::milliseconds(static_cast<long long>(limits.wall_seconds * 1000));
  const auto ms_left = [&] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  };
  int request_fd = request_pipe[1];
  std::size_t sent = 0;
  bool timed_out = false;
  bool too_much = false;
  bool sized = false;
  for (;;) {
    const long long left = ms_left();
    if (left <= 0) {
      timed_out = true;
      break;
    }
    // The request out while the answer comes in: neither side waits on the other.
    pollfd p[2] = {{answer_pipe[0], POLLIN, 0}, {request_fd, POLLOUT, 0}};
    const int ready = poll(p, 2, static_cast<int>(std::min<long long>(left, 1 << 30)));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      timed_out = ready == 0;
      break;
    }
    if (request_fd >= 0 && p[1].revents != 0) {
      const ssize_t n = write(request_fd, request.data() + sent, request.size() - sent);
      if (n > 0) sent += static_cast<std::size_t>(n);
      if (n < 0 && errno == EPIPE) broke_pipe = true;
      const bool retry = n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK);
      if (sent == request.size() || (n <= 0 && !retry)) {  // all sent, or the child is gone
        close(request_fd);
        request_fd = -1;
      }
    }
    if (p[0].revents == 0) continue;
    const std::size_t before = answer->size();
    if (before + kChunk > kMaxWireBytes) {
      too_much = true;
      break;
    }
    answer->resize(before + kChunk);
    const ssize_t n = read(answer_pipe[0], answer->data() + before, kChunk);
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
  if (request_fd >= 0) close(request_fd);
  close(answer_pipe[0]);
  if (broke_pipe && !pipe_signal_was_pending) {
    const timespec now{};
    sigtimedwait(&pipe_signal, nullptr, &now);
  }
  pthread_sigmask(SIG_SETMASK, &old_mask, nullptr);
  if (timed_out || too_much) kill(pid, SIGKILL);

  // Reap it; a program that closed its pipe but lingers is killed at the deadline.
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
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (too_much) {
    end.kind = ChildEnd::kTooMuch;
  } else if (timed_out) {
    end.kind = ChildEnd::kTimedOut;
  } else if (WIFSIGNALED(status)) {
    end.kind = WTERMSIG(status) == SIGXCPU ? ChildEnd::kTimedOut : ChildEnd::kCrashed;
    end.detail = WTERMSIG(status) == SIGXCPU ? "cpu" : SignalText(WTERMSIG(status));
  } else if (code == kImporterOutOfMemory) {
    end.kind = ChildEnd::kOutOfMemory;
  } else if (code == kImporterNoExec) {
    end.kind = ChildEnd::kNotStarted;
    end.detail = "cannot run " + program;
  } else if (code != 0) {
    end.kind = ChildEnd::kCrashed;
    end.detail = "exit status " + std::to_string(code);
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
      return "the importer ran out of its " +
             Size(end.memory_bytes > 0 ? end.memory_bytes : limits.memory_bytes) + " reading " +
             file;
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
