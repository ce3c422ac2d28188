#include "anim/atomic_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace ikpose::anim {
namespace {

// The mode a plain open() would give a new file (0666 less the umask), or the mode of the file
// being replaced: mkstemp's temporary file is 0600, which would hide saved files from others.
mode_t ModeFor(const std::filesystem::path& path) {
  struct stat existing {};
  if (::stat(path.c_str(), &existing) == 0) return existing.st_mode & 07777;
  const mode_t mask = ::umask(0);  // read it: umask has no getter
  ::umask(mask);
  return 0666 & ~mask;
}

}  // namespace

// Writes `text` to `path` through a temporary file in the same folder, renamed into place.
bool WriteFileAtomically(const std::filesystem::path& path, std::string_view text,
                         std::string* error) {
  const std::filesystem::path dir =
      path.has_parent_path() ? path.parent_path() : std::filesystem::path(".");
  std::string pattern = (dir / ("." + path.filename().string() + ".tmp-XXXXXX")).string();
  const int fd = mkstemp(pattern.data());
  if (fd < 0) {
    *error = "cannot write " + path.string() + ": " + std::strerror(errno);
    return false;
  }
  if (::fchmod(fd, ModeFor(path)) != 0) {
    *error = "cannot write " + path.string() + ": " + std::strerror(errno);
    ::close(fd);
    std::remove(pattern.c_str());
    return false;
  }
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n <= 0) {
      if (n < 0 && errno == EINTR) continue;
      *error = "cannot write " + path.string() + ": " + std::strerror(errno);
      ::close(fd);
      std::remove(pattern.c_str());
      return false;
    }
    written += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    *error = "cannot write " + path.string() + ": " + std::strerror(errno);
    std::remove(pattern.c_str());
    return false;
  }
  std::error_code ec;
  std::filesystem::rename(pattern, path, ec);
  if (ec) {
    *error = "cannot write " + path.string() + ": " + ec.message();
    std::remove(pattern.c_str());
    return false;
  }
  return true;
}

}  // namespace ikpose::anim
