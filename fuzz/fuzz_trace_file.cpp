// Fuzz target: trace files and targets files (scene/trace_file.h), from the text on; any input
// must give frames or one error line, never a crash, a hang or a huge allocation. What is
// accepted must write back to text that reads back to the same frames.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "scene/trace_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  namespace scene = ikpose::scene;
  scene::TraceHeader header;
  std::vector<scene::TraceFrame> frames;
  std::string error;
  if (scene::ParseTrace(text, "fuzz/trace.jsonl", &header, &frames, &error)) {
    if (frames.size() > static_cast<std::size_t>(scene::kMaxTraceFrames)) __builtin_trap();
    std::string again = scene::TraceHeaderLine(header) + "\n";
    for (const scene::TraceFrame& f : frames) again += scene::TraceFrameLine(f) + "\n";
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
  return 0;
}
