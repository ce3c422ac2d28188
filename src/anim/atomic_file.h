// Writing a file so that a failure never leaves half of it: the bytes go to a temporary file in
// the destination's folder, are flushed to disk, and the file is renamed over the destination.
// Used for every file ikpose writes (poses, scenarios, reports, screenshots, exports).
//
// Only regular files are written: a destination that is a directory, a device (/dev/full), a
// FIFO or a socket is refused before anything is created, so no device node is replaced by a
// file and no FIFO blocks the program. A symbolic link is followed: the link stays, the file it
// names is replaced. The temporary file is removed on every failure, and on a signal that ends the
// process (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE) while it exists (TempFileGuard); a failed
// write leaves an existing destination as it was. The new file gets the mode a plain open() would
// give (0666 less the umask) or the replaced file's. Limits: a SIGKILL (or a power cut before the
// rename) can still leave the hidden temporary file
// `.NAME.tmp-XXXXXX` beside the destination; the destination itself is never half written.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace ikpose::anim {

// False with a one-line reason (naming the path) when the file cannot be written; then
// neither the destination nor a temporary file is left changed.
bool WriteFileAtomically(const std::filesystem::path& path, std::string_view text,
                         std::string* error);

// While alive, `path` is unlinked if the process gets SIGINT, SIGTERM, SIGHUP, SIGQUIT or
// SIGPIPE and dies of it (the default action); a program with its own handler for one has it
// called instead, and goes on.
// Handlers are installed only while at least one guard lives, so the viewer's own handling of
// those signals is untouched otherwise. At most kMaxTempFiles guards at once (then the extra
// one does not protect its file); paths longer than 4095 bytes are not protected either.
class TempFileGuard {
 public:
  static constexpr int kMaxTempFiles = 16;
  explicit TempFileGuard(const std::string& path);
  ~TempFileGuard();
  TempFileGuard(const TempFileGuard&) = delete;
  TempFileGuard& operator=(const TempFileGuard&) = delete;

 private:
  int slot_ = -1;
};

// The same promises for a file written in pieces (a trace, frame by frame), so that it never
// has to be held whole in memory: Open makes the guarded temporary file, Write appends (small
// pieces are gathered into 64 KiB writes), Commit syncs and renames it into place. A failed
// step, or a writer destroyed before Commit, removes the temporary file and leaves the
// destination as it was.
class AtomicFileWriter {
 public:
  AtomicFileWriter() = default;
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  // Each false with one line (naming the path); after a false the writer is closed.
  bool Open(const std::filesystem::path& path, std::string* error);
  bool Write(std::string_view bytes, std::string* error);
  bool Commit(std::string* error);

 private:
  void Abandon();
  bool Fail(const std::string& why, std::string* error);

  std::filesystem::path path_;  // as given, for messages
  std::filesystem::path dest_;  // the file links lead to
  std::string temp_;
  int fd_ = -1;
  std::string buffer_;
  std::optional<TempFileGuard> guard_;
};

}  // namespace ikpose::anim
