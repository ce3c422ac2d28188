#include "scene/files/targets_stream.h"

#include <cstdio>

#include <nlohmann/json.hpp>

#include "anim/bounded_input.h"

namespace ikpose::scene {

bool TargetsStream::Fail(const std::string& what, std::string* error) {
  failed_ = true;
  error_ = name_ + ":" + std::to_string(lines_ + 1) + ": " + what;
  *error = error_;
  return false;
}

bool TargetsStream::Failed(std::string* error) {
  failed_ = true;
  error_ = *error;
  return false;
}

bool TargetsStream::TooLong(std::string* error) {
  return Fail("line longer than " + std::to_string(kMaxTraceLineBytes) + " bytes", error);
}

bool TargetsStream::Feed(std::string_view bytes, std::string* error) {
  if (failed_) {
    *error = error_;
    return false;
  }
  if (bytes.size() > kMaxTraceFileBytes - bytes_) {
    return Fail("more than " + std::to_string(kMaxTraceFileBytes >> 20) + " MiB received", error);
  }
  bytes_ += bytes.size();
  std::size_t start = 0;
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    if (c == '\n') {
      partial_.append(bytes.substr(start, i - start));
      start = i + 1;
      if (partial_.size() > kMaxTraceLineBytes) return TooLong(error);
      if (!ParseTargetsLine(partial_, lines_ + 1, name_, &keys_, error)) return Failed(error);
      ++lines_;
      partial_.clear();
    } else if (c < 0x20 && c != '\t' && c != '\r') {
      char what[64];
      std::snprintf(what, sizeof what, "binary data (byte 0x%02x), not a line of JSON", c);
      return Fail(what, error);
    }
  }
  partial_.append(bytes.substr(start));
  if (partial_.size() > kMaxTraceLineBytes) return TooLong(error);
  return true;
}

bool TargetsStream::Finish(std::string* error) {
  if (failed_) {
    *error = error_;
    return false;
  }
  if (!partial_.empty()) {
    // A whole object without its newline is a last line; anything less was cut off.
    if (!ParseTargetsLine(partial_, lines_ + 1, name_, &keys_, error)) {
      if (anim::JsonNestingWithin(partial_, kMaxTraceDepth) && !nlohmann::json::accept(partial_)) {
        return Fail("the connection closed in the middle of this line", error);
      }
      return Failed(error);
    }
    ++lines_;
    partial_.clear();
  }
  if (keys_.empty()) {
    failed_ = true;
    error_ = name_ + ": no targets (one JSON object a line: {\"time\": t, \"limbs\": {...}})";
    *error = error_;
    return false;
  }
  return true;
}

std::vector<TargetKey> TargetsStream::Take() {
  std::vector<TargetKey> out(keys_.begin() + static_cast<std::ptrdiff_t>(taken_), keys_.end());
  if (!keys_.empty()) {
    keys_.erase(keys_.begin(), keys_.end() - 1);
    taken_ = 1;
  }
  return out;
}

}  // namespace ikpose::scene
