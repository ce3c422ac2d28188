// ikpose_import: the importer program ikpose runs to read one model file (import_child.h).
//
// It reads the request (import_request.h) on descriptor 4, takes its address-space allowance
// (--memory-bytes, on top of what it has now), confines itself to reading the model's folders
// (import_sandbox.h), imports the file through assimp and writes the answer (model_wire.h) to
// descriptor 3. How it ends is the answer: exit 0 after writing, kImporterOutOfMemory when an
// allocation failed, a signal when it crashed. It is not a command for people to run.
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "asset/import_child.h"
#include "asset/import_request.h"
#include "asset/import_sandbox.h"
#include "asset/import_scene.h"
#include "asset/load_model.h"

#if defined(__SANITIZE_ADDRESS__)
#define IKPOSE_IMPORT_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define IKPOSE_IMPORT_SANITIZED 1
#endif
#endif

namespace {

namespace fs = std::filesystem;
using namespace ikpose::asset;

constexpr int kAnswerFd = 3;
constexpr int kRequestFd = 4;

// The address space in use now: the allowance goes on top.
[[maybe_unused]] std::uint64_t AddressSpaceBytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  unsigned long long pages = 0;
  if (std::fscanf(f, "%llu", &pages) != 1) pages = 0;
  std::fclose(f);
  return pages * static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
}

std::string ReadRequest() {
  std::string bytes;
  constexpr std::size_t kChunk = 1 << 20;
  for (;;) {
    const std::size_t before = bytes.size();
    bytes.resize(before + kChunk);
    const ssize_t n = read(kRequestFd, bytes.data() + before, kChunk);
    bytes.resize(before + (n > 0 ? static_cast<std::size_t>(n) : 0));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) _exit(kImporterFailed);
    if (n == 0) break;
  }
  close(kRequestFd);
  return bytes;
}

void WriteAll(const std::string& bytes, long long kill_after) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    std::size_t chunk = bytes.size() - done;
    if (kill_after >= 0) {
      if (static_cast<long long>(done) >= kill_after) kill(getpid(), SIGKILL);
      chunk = std::min<std::size_t>(chunk, static_cast<std::size_t>(kill_after) - done);
    }
    const ssize_t n = write(kAnswerFd, bytes.data() + done, chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) _exit(kImporterFailed);
    done += static_cast<std::size_t>(n);
  }
  if (kill_after >= 0) kill(getpid(), SIGKILL);
}

// The folders the import may read: the model's, and the real one when the path is a link.
std::vector<fs::path> ReadableFolders(const PreparedImport& prepared) {
  if (prepared.options.allow_outside_uris) return {fs::path("/")};
  std::error_code ec;
  std::vector<fs::path> folders{fs::absolute(prepared.path, ec).parent_path()};
  const fs::path real = fs::canonical(prepared.path, ec);
  if (!ec && real.parent_path() != folders.front()) folders.push_back(real.parent_path());
  return folders;
}

}  // namespace

int main(int argc, char** argv) {
  constexpr std::string_view kMemoryOption = "--memory-bytes=";
  if (argc != 3 || std::string_view(argv[1]) != "--ikpose-importer" ||
      std::string_view(argv[2]).rfind(kMemoryOption, 0) != 0 || fcntl(kAnswerFd, F_GETFD) < 0 ||
      fcntl(kRequestFd, F_GETFD) < 0) {
    std::fprintf(stderr, "ikpose_import: ikpose runs this program to read a model file\n");
    return 2;
  }
  // A crash ends it by its signal, which is what ikpose reports (a sanitizer's handlers would
  // turn it into an exit status; what they print goes to /dev/null anyway).
  for (int signo : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) std::signal(signo, SIG_DFL);
  std::set_new_handler([] { _exit(kImporterOutOfMemory); });
#if !defined(IKPOSE_IMPORT_SANITIZED)
  const std::uint64_t allowance = std::strtoull(argv[2] + kMemoryOption.size(), nullptr, 10);
  LowerLimit(RLIMIT_AS, AddressSpaceBytes() + allowance);
#endif
  const ImporterTestHooks hooks = ReadImporterTestHooks();

  PreparedImport prepared;
  std::string problem;
  if (!DecodeImportRequest(ReadRequest(), &prepared, &problem)) _exit(kImporterFailed);
  // Without Landlock (an old kernel, a container that forbids it) the rlimits alone hold.
  RestrictToReading(ReadableFolders(prepared));

  if (!hooks.create_file.empty()) {
    const int fd = open(hooks.create_file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) {
      [[maybe_unused]] const ssize_t n = write(fd, "x", 1);
      close(fd);
    }
  }
  if (hooks.crash || (!hooks.crash_on.empty() &&
                      prepared.path.string().find(hooks.crash_on) != std::string::npos)) {
    std::raise(SIGSEGV);
  }
  if (hooks.hang) {
    for (;;) pause();
  }
  std::string answer;
  try {
    answer = ImportToWire(prepared);
  } catch (const std::bad_alloc&) {
    _exit(kImporterOutOfMemory);
  } catch (...) {
    _exit(kImporterFailed);
  }
  WriteAll(answer, hooks.kill_after);
  _exit(0);
}
