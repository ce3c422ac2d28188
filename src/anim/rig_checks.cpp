#include "anim/rig_checks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ikpose::anim {

namespace {

std::string Format(float value) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.4g", static_cast<double>(value));
  return buffer;
}

// "non-uniform", "negative" or "" for a local scale.
std::string ScaleProblem(const glm::vec3& scale) {
  if (scale.x < 0.f || scale.y < 0.f || scale.z < 0.f) return "negative";
  const float largest = std::max({std::abs(scale.x), std::abs(scale.y), std::abs(scale.z)});
  const float smallest = std::min({std::abs(scale.x), std::abs(scale.y), std::abs(scale.z)});
  if (largest - smallest > 1e-3f * largest) return "non-uniform";
  return "";
}

}  // namespace

std::vector<std::string> CheckRig(const Skeleton& skeleton, const Pose& rest,
                                  const ChainSet& chains) {
  std::vector<std::string> warnings;
  for (Limb limb : kLimbs) {
    const LimbChain& chain = chains[limb];
    if (!chain.valid()) continue;
    const std::string name(LimbName(limb));
    const glm::vec3 a = PositionMs(rest, chain.upper);
    const glm::vec3 b = PositionMs(rest, chain.lower);
    const glm::vec3 c = EndPositionMs(chain, rest);
    const float l1 = glm::length(b - a);
    const float l2 = glm::length(c - b);
    if (l1 > 0.f && l2 > 0.f) {
      const float sine = glm::length(glm::cross(b - a, c - b)) / (l1 * l2);
      if (sine < std::sin(glm::radians(1.f))) {
        warnings.push_back(name + ": straight in the rest pose (" + skeleton.names[chain.lower] +
                           " bends less than 1 degree): no natural bend plane, so the " +
                           "knee/elbow side is arbitrary without a pole");
      }
    }
    // Scale on the chain's own bones and everything above them.
    for (int bone = chain.lower; bone >= 0; bone = skeleton.parents[bone]) {
      const std::string problem = ScaleProblem(rest.locals_ls[bone].scale);
      if (problem.empty()) continue;
      const glm::vec3& s = rest.locals_ls[bone].scale;
      warnings.push_back(name + ": " + problem + " scale (" + Format(s.x) + ", " + Format(s.y) +
                         ", " + Format(s.z) + ") on " + skeleton.names[bone] +
                         (bone == chain.lower || bone == chain.upper ? " in" : " above") +
                         " the chain: bone lengths are kept in the hip's parent space, not " +
                         "exactly in model space");
      break;
    }
  }
  for (const auto& [left, right] :
       {std::pair{Limb::kLeftArm, Limb::kRightArm}, std::pair{Limb::kLeftLeg, Limb::kRightLeg}}) {
    const LimbChain& l = chains[left];
    const LimbChain& r = chains[right];
    if (!l.valid() || !r.valid()) continue;
    const float dl = std::abs(l.upper_length - r.upper_length);
    const float dr = std::abs(l.lower_length - r.lower_length);
    const float tolerance =
        0.05f * std::max({l.upper_length, r.upper_length, l.lower_length, r.lower_length});
    if (dl > tolerance || dr > tolerance) {
      warnings.push_back(std::string(LimbName(left)) + " and " + std::string(LimbName(right)) +
                         " differ: lengths " + Format(l.upper_length) + ", " +
                         Format(l.lower_length) + " vs " + Format(r.upper_length) + ", " +
                         Format(r.lower_length) + " (left/right asymmetry)");
    }
  }
  for (const std::string& note : chains.notes) warnings.push_back(note);
  return warnings;
}

}  // namespace ikpose::anim
