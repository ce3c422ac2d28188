// A targets file arriving in pieces (a live link from a running game): bytes in, each line
// parsed as soon as its newline arrives.
//
// What: the bytes are the targets format of scene/files/trace_file.h (one JSON object a line), cut
// anywhere by the network. Every completed line goes through ParseTargetsLine, so a stream gives
// exactly the keys that ParseTargets gives for the same text. Finish() is the sender's close: a
// last line without its newline is accepted only when it is whole JSON, else the connection was
// dropped in the middle of it.
// Why: a bad line must stop the link when it arrives, not when the game quits; and nothing the
// network delivers may grow memory without bound.
// Limits: the same bounds as a file (kMaxTraceLineBytes a line, kMaxTraceFileBytes in all). A
// control byte other than tab, CR and LF cannot occur in JSON text: it is reported at once as
// binary data instead of waiting for a newline that may never come. The first error ends the
// stream; later bytes are ignored.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "scene/files/trace_file.h"

namespace ikpose::scene {

class TargetsStream {
 public:
  // `name` labels errors: "<name>:<line>: <what>".
  explicit TargetsStream(std::string name) : name_(std::move(name)) {}

  // Takes the next bytes; false with one line (the first problem) in `error`.
  bool Feed(std::string_view bytes, std::string* error);
  // The sender closed the stream: false when it left half a line or sent no targets.
  bool Finish(std::string* error);

  // Every key so far (a stream that is never Taken from, as `trace --listen` reads it).
  const std::vector<TargetKey>& keys() const { return keys_; }
  // The keys completed since the last Take, moved out, so that a stream that runs for hours
  // (the viewer's) holds no more than its newest key.
  std::vector<TargetKey> Take();
  // Lines completed so far (blank ones included), and bytes received.
  int lines() const { return lines_; }
  std::size_t bytes() const { return bytes_; }

 private:
  bool Fail(const std::string& what, std::string* error);  // at the current line
  bool Failed(std::string* error);                         // `error` already says it
  bool TooLong(std::string* error);

  std::string name_;
  std::string partial_;  // the line being received, without its newline
  int lines_ = 0;
  std::size_t bytes_ = 0;
  bool failed_ = false;
  std::string error_;
  std::vector<TargetKey> keys_;
  std::size_t taken_ = 0;  // keys_[0..taken_) were taken (the last one stays for the order)
};

}  // namespace ikpose::scene
