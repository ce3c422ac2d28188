#include "asset/read_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>

namespace ikpose::asset {

namespace fs = std::filesystem;

namespace {

std::string KindOf(mode_t mode) {
  if (S_ISDIR(mode)) return "is a directory, not a regular file";
  if (S_ISFIFO(mode)) return "is a FIFO, not a regular file";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "is a device, not a regular file";
  if (S_ISSOCK(mode)) return "is a socket, not a regular file";
  return "is not a regular file";
}

// Whether `inner` is `outer` or below it (both absolute and normal).
bool IsWithin(const fs::path& inner, const fs::path& outer) {
  auto i = inner.begin();
  for (auto o = outer.begin(); o != outer.end(); ++o, ++i) {
    if (o->empty()) continue;  // a trailing separator
    if (i == inner.end() || *i != *o) return false;
  }
  return true;
}

}  // namespace

bool ReadRegularFile(const fs::path& path, std::uintmax_t max_bytes,
                     std::vector<std::uint8_t>* bytes, std::string* problem) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    *problem = errno == ENOENT ? "file not found"
                               : std::string("cannot be opened: ") + std::strerror(errno);
    return false;
  }
  struct stat info {};
  bool ok = ::fstat(fd, &info) == 0;
  if (!ok) {
    *problem = std::string("cannot be read: ") + std::strerror(errno);
  } else if (!S_ISREG(info.st_mode)) {
    *problem = KindOf(info.st_mode);
    ok = false;
  } else if (static_cast<std::uintmax_t>(info.st_size) > max_bytes) {
    *problem = "is larger than " + std::to_string(max_bytes) + " bytes";
    ok = false;
  }
  if (ok) {
    bytes->resize(static_cast<std::size_t>(info.st_size));
    std::size_t done = 0;
    while (done < bytes->size()) {
      const ssize_t got = ::read(fd, bytes->data() + done, bytes->size() - done);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) break;  // shrunk while reading: keep what is there
      done += static_cast<std::size_t>(got);
    }
    bytes->resize(done);
  }
  ::close(fd);
  return ok;
}

std::string NotRegularFileReason(const fs::path& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) return "file not found";
  return S_ISREG(info.st_mode) ? "" : KindOf(info.st_mode);
}

bool ResolveBeside(const fs::path& folder, const std::string& name, bool allow_outside,
                   fs::path* resolved, std::string* problem) {
  const fs::path relative(name);
  if (name.empty()) {
    *problem = "is empty";
    return false;
  }
  if (name.find("://") != std::string::npos) {
    *problem = "'" + name + "' is not a file beside the model (remote URIs are not read)";
    return false;
  }
  const fs::path base = fs::absolute(folder.empty() ? fs::path(".") : folder).lexically_normal();
  const fs::path joined = (relative.is_absolute() ? relative : base / relative).lexically_normal();
  *resolved = joined;
  if (allow_outside) return true;
  if (relative.is_absolute()) {
    *problem = "'" + name + "' is an absolute path; only files in the model's folder are read";
    return false;
  }
  if (!IsWithin(joined, base)) {
    *problem = "'" + name + "' leads out of the model's folder";
    return false;
  }
  std::error_code ec;
  if (fs::exists(joined, ec)) {
    const fs::path real = fs::canonical(joined, ec);
    const fs::path real_base = fs::canonical(base, ec);
    if (ec || !IsWithin(real, real_base)) {
      *problem = "'" + name + "' is a link that leads out of the model's folder";
      return false;
    }
  }
  return true;
}

std::string PercentDecode(const std::string& text) {
  const auto hex = [](char c) {
    return std::isdigit(static_cast<unsigned char>(c))
               ? c - '0'
               : std::tolower(static_cast<unsigned char>(c)) - 'a' + 10;
  };
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() &&
        std::isxdigit(static_cast<unsigned char>(text[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(text[i + 2]))) {
      out.push_back(static_cast<char>(hex(text[i + 1]) * 16 + hex(text[i + 2])));
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

}  // namespace ikpose::asset
