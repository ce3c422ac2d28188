// The model the viewer benchmarks load: IKPOSE_BENCH_MODEL if set, else the bundled character.
#pragma once

#include <cstdlib>
#include <string>

inline std::string BenchModelPath() {
  if (const char* env = std::getenv("IKPOSE_BENCH_MODEL"); env != nullptr && *env != '\0') {
    return env;
  }
  return std::string(IKPOSE_SOURCE_DIR) + "/assets/character.glb";
}
