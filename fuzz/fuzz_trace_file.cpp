// Fuzz target: trace files and targets files (scene/files/trace_file.h), from the text on; any
// input must give frames or one error line, never a crash, a hang or a huge allocation. What is
// accepted must write back to text that reads back to the same frames. A targets file read
// line by line into the frame index (ReadTargetsFile, from an in-memory file) must give at
// every frame what the whole file gives, with at most one key a frame.
#include <sys/mman.h>
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scene/files/trace_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  namespace scene = ikpose::scene;
  scene::TraceHeader header;
  std::vector<scene::TraceFrame> frames;
  std::string error;
  if (scene::ParseTrace(text, "fuzz/trace.jsonl", &header, &frames, &error)) {
    if (frames.size() > static_cast<std::size_t>(scene::kMaxTraceFrames)) __builtin_trap();
    std::string again = scene::TraceHeaderLine(header) + "\n";
    const scene::TraceFrame* previous = nullptr;  // the ladder and props only where they change
    for (const scene::TraceFrame& f : frames) {
      again += scene::TraceFrameLine(f, previous) + "\n";
      previous = &f;
    }
    scene::TraceHeader header2;
    std::vector<scene::TraceFrame> frames2;
    if (!scene::ParseTrace(again, "again", &header2, &frames2, &error)) __builtin_trap();
    if (!(header2 == header) || !(frames2 == frames)) __builtin_trap();
  } else if (error.empty()) {
    __builtin_trap();
  }
  std::vector<scene::TargetKey> keys;
  error.clear();
  if (scene::ParseTargets(text, "fuzz/targets.jsonl", &keys, &error)) {
    for (std::size_t i = 1; i < keys.size(); ++i) {
      if (!(keys[i].time > keys[i - 1].time)) __builtin_trap();  // strictly increasing
    }
    (void)scene::TargetsAt(keys, keys.back().time);
  } else if (error.empty()) {
    __builtin_trap();
  }
  // The same text as a file, read into the index for a trace at 30 fps.
  const int fd = ::memfd_create("targets", MFD_CLOEXEC);
  if (fd < 0) return 0;
  if (::write(fd, data, size) != static_cast<ssize_t>(size)) {
    ::close(fd);
    return 0;
  }
  std::vector<scene::TargetKey> indexed;
  std::string index_error;
  const scene::TargetWindow window{30.0, std::nullopt, std::nullopt};
  const bool read =
      scene::ReadTargetsFile("/proc/self/fd/" + std::to_string(fd), window, &indexed, &index_error);
  ::close(fd);
  if (!read && index_error.empty()) __builtin_trap();
  if (read && !keys.empty()) {
    // Every frame of the trace sees what the whole file says.
    const double from = keys.front().time;
    const double count = std::floor((keys.back().time - from) * window.fps + 0.01) + 1.0;
    if (count > scene::kMaxTraceFrames) __builtin_trap();  // should have been refused
    if (indexed.size() > static_cast<std::size_t>(count) + 1) __builtin_trap();
    for (int i = 0; i < static_cast<int>(count); ++i) {
      const float t = static_cast<float>(from + i / window.fps);
      if (!(scene::TargetsAt(indexed, t) == scene::TargetsAt(keys, t))) __builtin_trap();
    }
  }
  return 0;
}
