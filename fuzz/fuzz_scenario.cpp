// Fuzz target: scenario files (scene/scenario.h), from the text on; any input must give a
// scenario or a one-line error, never a crash, a hang or a huge allocation.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "scene/scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ikpose::scene::Scenario scenario;
  std::string error;
  if (ikpose::scene::ParseScenario(text, "fuzz/scene.json", &scenario, &error)) {
    // What was accepted must be usable: the ladder is bounded and saving would work.
    if (scenario.ladder && !scenario.ladder->Valid()) __builtin_trap();
  } else if (error.empty() || error.find('\n') != std::string::npos) {
    __builtin_trap();
  }
  return 0;
}
