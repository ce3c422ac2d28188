// Fuzz target: pose files (scene/files/pose_file.h), from the text on; any input must give a pose
// file of unit quaternions and finite numbers, or a one-line error.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "scene/files/pose_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ikpose::scene::PoseFile pose;
  std::string error;
  if (ikpose::scene::ParsePoseFile(text, "fuzz/pose.json", &pose, &error)) {
    for (const auto& bone : pose.bones) {
      if (std::abs(glm::length(bone.rotation_ls) - 1.0f) > 1e-3f) __builtin_trap();
    }
  } else if (error.empty()) {
    __builtin_trap();
  }
  return 0;
}
