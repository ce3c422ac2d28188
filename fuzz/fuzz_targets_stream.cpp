// Fuzz target: targets arriving in pieces over the live link (scene/files/targets_stream.h). The
// lines themselves go through trace_file's targets parser, which fuzz_trace_file covers; this
// covers the cutting into lines, the bounds and the close. The first byte picks where the rest
// is cut. Any input must give keys or one error line, never a crash, a hang or a huge
// allocation; and the stream must agree with the same text read as a file: the same keys when
// both accept it, and it refuses what the file accepts only for a control byte (binary data).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "scene/files/targets_stream.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace scene = ikpose::scene;
  if (size == 0) return 0;
  const unsigned step = 1u + data[0];
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  scene::TargetsStream stream("link");
  std::string error;
  bool ok = true;
  // Pieces of 1..256 bytes, their sizes varying with the position.
  for (std::size_t at = 0; ok && at < text.size();) {
    const std::size_t n = 1 + (at * 31 + step) % step;
    ok = stream.Feed(text.substr(at, n), &error);
    at += n;
  }
  ok = ok && stream.Finish(&error);
  if (!ok && error.rfind("link", 0) != 0) __builtin_trap();

  std::vector<scene::TargetKey> keys;
  std::string file_error;
  const bool file_ok = scene::ParseTargets(text, "file", &keys, &file_error);
  if (ok && (!file_ok || keys != stream.keys())) __builtin_trap();
  if (!ok && file_ok) {
    bool control = false;
    for (char c : text) {
      const auto u = static_cast<unsigned char>(c);
      control = control || (u < 0x20 && u != '\t' && u != '\r' && u != '\n');
    }
    if (!control) __builtin_trap();
  }
  return 0;
}
