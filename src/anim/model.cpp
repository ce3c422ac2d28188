#include "anim/model.h"

#include <cmath>
#include <cstdlib>

#include "anim/skinning.h"

namespace ikpose::anim {

float MetersPerUnit(const Model& model) {
  const std::string& u = model.units;
  if (u == "m") return 1.0f;
  if (u.size() < 2 || u.compare(u.size() - 2, 2, "cm") != 0) return 0.0f;
  const std::string number = u.substr(0, u.size() - 2);
  if (number.find_first_not_of(' ') == std::string::npos) return 0.01f;
  char* end = nullptr;
  const float cm = std::strtof(number.c_str(), &end);
  return std::isfinite(cm) && cm > 0.0f ? 0.01f * cm : 0.0f;
}

int FindClip(const Model& model, const std::string& name) {
  const int n = static_cast<int>(model.clips.size());
  for (int i = 0; i < n; ++i) {
    if (model.clips[i].name == name) return i;
  }
  if (name.empty() && n == 1) return 0;
  for (int i = 0; i < n; ++i) {
    if (model.clips[i].name.empty() && name == std::to_string(i)) return i;
  }
  return -1;
}

Bounds ComputeBounds(const Model& model, const Pose& pose) {
  Bounds bounds;
  const auto add = [&bounds](const glm::vec3& p) {
    if (bounds.empty()) {
      bounds.min = bounds.max = p;
    } else {
      bounds.min = glm::min(bounds.min, p);
      bounds.max = glm::max(bounds.max, p);
    }
  };
  for (int m = 0; m < static_cast<int>(model.meshes.size()); ++m) {
    for (const glm::vec3& p : SkinnedPositions(model, m, pose)) add(p);
  }
  if (bounds.empty()) {
    for (int b = 0; b < model.skeleton.size(); ++b) add(PositionMs(pose, b));
  }
  return bounds;
}

void DetectRig(Model& model) {
  const Pose rest = RestPose(model.skeleton);
  model.chains = DetectChains(model.skeleton, rest);
  model.humanoid = MapHumanoid(model.skeleton, rest, model.chains);
  // The whole torso says where the character faces (the legs alone are fooled by a stance or
  // by feet that turn out); the natural bends follow it.
  if (model.humanoid.facing_valid) {
    model.chains.forward_ms = model.humanoid.facing_ms;
    SetNaturalBends(model.skeleton, rest, model.chains);
  }
  model.ranges = BuildJointRanges(model.skeleton, rest, model.chains, model.humanoid);
}

}  // namespace ikpose::anim
