#include "anim/bounded_input.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace ikpose::anim {

namespace {

// Opens `path` for reading if it is a regular file of at most `max_bytes`; -1 with `error`.
int OpenRegularFile(const std::filesystem::path& path, std::size_t max_bytes, off_t* size,
                    std::string* error) {
  const std::string name = path.string();
  // Non-blocking: opening a FIFO for reading would otherwise wait for a writer.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    *error =
        name + (errno == ENOENT ? ": file not found" : ": " + std::string(std::strerror(errno)));
    return -1;
  }
  struct stat st {};
  const auto fail = [&](const std::string& why) {
    ::close(fd);
    *error = name + ": " + why;
    return -1;
  };
  if (::fstat(fd, &st) != 0) return fail(std::strerror(errno));
  if (S_ISDIR(st.st_mode)) return fail("is a directory");
  if (!S_ISREG(st.st_mode)) return fail("not a regular file (a device, FIFO or socket)");
  if (static_cast<std::size_t>(st.st_size) > max_bytes) {
    return fail("too large (" + std::to_string(st.st_size) + " bytes; at most " +
                std::to_string(max_bytes) + ")");
  }
  *size = st.st_size;
  return fd;
}

}  // namespace

bool ReadRegularFile(const std::filesystem::path& path, std::size_t max_bytes, std::string* text,
                     std::string* error) {
  off_t size = 0;
  const int fd = OpenRegularFile(path, max_bytes, &size, error);
  if (fd < 0) return false;
  const auto fail = [&](const std::string& why) {
    ::close(fd);
    *error = path.string() + ": " + why;
    return false;
  };
  std::string out;
  out.resize(static_cast<std::size_t>(size));
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

bool ForEachLineOfFile(const std::filesystem::path& path, std::size_t max_bytes,
                       std::size_t max_line_bytes,
                       const std::function<bool(std::string_view line)>& each, std::string* error) {
  off_t size = 0;
  const int fd = OpenRegularFile(path, max_bytes, &size, error);
  if (fd < 0) return false;
  // One chunk and at most one line beyond it are held; a longer line is handed on cut to
  // max_line_bytes + 1 bytes, for the caller to refuse.
  constexpr std::size_t kChunk = 1u << 20;
  std::string pending;
  std::string chunk(kChunk, '\0');
  bool skipping = false;  // inside a line already handed on cut
  bool go_on = true;
  std::size_t total = 0;
  while (go_on) {
    const ssize_t n = ::read(fd, chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      *error = path.string() + ": " + std::strerror(errno);
      ::close(fd);
      return false;
    }
    if (n == 0) break;
    total += static_cast<std::size_t>(n);
    if (total > max_bytes) {  // grew while being read
      *error = path.string() + ": too large (at most " + std::to_string(max_bytes) + " bytes)";
      ::close(fd);
      return false;
    }
    std::string_view data(chunk.data(), static_cast<std::size_t>(n));
    while (go_on && !data.empty()) {
      const std::size_t end = data.find('\n');
      const std::string_view piece = data.substr(0, end);
      if (!skipping) {
        const std::size_t room = max_line_bytes + 1 - std::min(pending.size(), max_line_bytes + 1);
        pending.append(piece.substr(0, room));
        if (pending.size() > max_line_bytes) {
          go_on = each(pending);
          pending.clear();
          skipping = true;
        }
      }
      if (end == std::string_view::npos) break;
      data.remove_prefix(end + 1);
      if (!skipping && go_on) go_on = each(pending);
      pending.clear();
      skipping = false;
    }
  }
  ::close(fd);
  if (go_on && !skipping && !pending.empty()) each(pending);
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
