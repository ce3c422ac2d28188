#include "run_program.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#if defined(__SANITIZE_ADDRESS__)
#define IKPOSE_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define IKPOSE_TEST_ASAN 1
#endif
#endif

namespace ikpose::test {

namespace {

std::string Quote(const std::string& s) {
  std::string q(1, '\'');
  for (char c : s) {
    if (c == '\'') {
      q.append("'\\''");
    } else {
      q.push_back(c);
    }
  }
  q.push_back('\'');
  return q;
}

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs IKPOSE_EXE under `prefix` (may be empty) with `env` and `args`.
ProgramResult Run(const std::vector<std::string>& prefix, const std::vector<std::string>& args,
                  const std::string& stdin_text, const std::vector<std::string>& env,
                  const std::string& stdout_path = "") {
  const std::filesystem::path dir = MakeTempDir();
  {
    std::ofstream in(dir / "stdin", std::ios::binary);
    in << stdin_text;
  }
  // Built with append(): g++ 12 misreports `"literal" + std::string` as overlapping (-Wrestrict).
  std::string command;
  const auto add = [&command](const std::string& word) { command.append(" ").append(word); };
  for (const auto& p : prefix) add(Quote(p));
  add("env");
  for (const auto& e : env) add(Quote(e));
  add(Quote(IKPOSE_EXE));
  for (const auto& a : args) add(Quote(a));
  add("<" + Quote((dir / "stdin").string()));
  add(">" + Quote(stdout_path.empty() ? (dir / "stdout").string() : stdout_path));
  add("2>" + Quote((dir / "stderr").string()));
  const int status = std::system(command.c_str());
  ProgramResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  result.out = ReadFile(dir / "stdout");
  result.err = ReadFile(dir / "stderr");
  std::filesystem::remove_all(dir);
  return result;
}

}  // namespace

std::string MakeTempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "ikpose-test-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  return pattern;
}

ProgramResult RunIkpose(const std::vector<std::string>& args, const std::string& stdin_text,
                        const std::vector<std::string>& env,
                        const std::vector<std::string>& wrapper) {
  return Run(wrapper, args, stdin_text, env);
}

ProgramResult RunIkposeUnder(const std::vector<std::string>& prefix,
                             const std::vector<std::string>& args, const std::string& stdin_text) {
  return Run(prefix, args, stdin_text, {});
}

ProgramResult RunIkposeWithStdoutTo(const std::string& stdout_path,
                                    const std::vector<std::string>& args,
                                    const std::string& stdin_text) {
  return Run({}, args, stdin_text, {}, stdout_path);
}

ProgramResult RunIkposeWithFileSizeLimit(const std::vector<std::string>& args,
                                         long max_file_bytes) {
  std::vector<std::string> words{IKPOSE_EXE};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  int err_pipe[2];
  if (::pipe(err_pipe) != 0) throw std::runtime_error("pipe failed");
  const pid_t child = ::fork();
  if (child < 0) throw std::runtime_error("fork failed");
  if (child == 0) {
    // Only async-signal-safe calls between fork and exec; an ignored signal stays ignored
    // across exec, and the limit covers regular files only (not the pipe or /dev/null).
    const int null_fd = ::open("/dev/null", O_RDWR);
    ::dup2(null_fd, 0);
    ::dup2(null_fd, 1);
    ::dup2(err_pipe[1], 2);
    ::close(err_pipe[0]);
    std::signal(SIGXFSZ, SIG_IGN);
    const rlim_t bytes = static_cast<rlim_t>(max_file_bytes);
    const rlimit limit{bytes, bytes};
    if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) ::_exit(126);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(err_pipe[1]);
  ProgramResult result;
  char buffer[4096];
  for (ssize_t n; (n = ::read(err_pipe[0], buffer, sizeof buffer)) > 0;) {
    result.err.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(err_pipe[0]);
  int status = 0;
  if (::waitpid(child, &status, 0) != child) throw std::runtime_error("waitpid failed");
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

bool BuiltWithAddressSanitizer() {
#ifdef IKPOSE_TEST_ASAN
  return true;
#else
  return false;
#endif
}

std::vector<std::string> MemoryCapPrefix() {
  if (BuiltWithAddressSanitizer()) return {};
  return {"prlimit", "--as=2000000000", "--"};
}

}  // namespace ikpose::test
