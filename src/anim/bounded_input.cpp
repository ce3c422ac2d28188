#include "anim/bounded_input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace ikpose::anim {

bool ReadRegularFile(const std::filesystem::path& path, std::size_t max_bytes, std::string* text,
                     std::string* error) {
  const std::string name = path.string();
  // Non-blocking: opening a FIFO for reading would otherwise wait for a writer.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    *error =
        name + (errno == ENOENT ? ": file not found" : ": " + std::string(std::strerror(errno)));
    return false;
  }
  struct stat st {};
  const auto fail = [&](const std::string& why) {
    ::close(fd);
    *error = name + ": " + why;
    return false;
  };
  if (::fstat(fd, &st) != 0) return fail(std::strerror(errno));
  if (S_ISDIR(st.st_mode)) return fail("is a directory");
  if (!S_ISREG(st.st_mode)) return fail("not a regular file (a device, FIFO or socket)");
  if (static_cast<std::size_t>(st.st_size) > max_bytes) {
    return fail("too large (" + std::to_string(st.st_size) + " bytes; at most " +
                std::to_string(max_bytes) + ")");
  }
  std::string out;
  out.resize(static_cast<std::size_t>(st.st_size));
  std::size_t got = 0;
  while (got < out.size()) {
    const ssize_t n = ::read(fd, out.data() + got, out.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail(std::strerror(errno));
    if (n == 0) break;  // shrank while reading: keep what is there
    got += static_cast<std::size_t>(n);
  }
  out.resize(got);
  ::close(fd);
  *text = std::move(out);
  return true;
}

bool JsonNestingWithin(std::string_view json, int max_depth) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // the escaped character cannot end the string
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return false;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return true;
}

}  // namespace ikpose::anim
