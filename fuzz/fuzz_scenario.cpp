// Fuzz target: scenario files (scene/files/scenario.h), from the text on; any input must give a
// scenario or an error, never a crash, a hang or a huge allocation.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "scene/files/scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ikpose::scene::Scenario scenario;
  std::string error;
  if (ikpose::scene::ParseScenario(text, "fuzz/scene.json", &scenario, &error)) {
    // What was accepted must be usable: the ladder is bounded and saving would work.
    if (scenario.ladder && !scenario.ladder->Valid()) __builtin_trap();
  } else if (error.empty()) {
    // A reason may quote the file's own keys and strings, newlines included: the command line
    // escapes them when it prints the line (app/error_line.h), as the e2e tests check.
    __builtin_trap();
  }
  return 0;
}
