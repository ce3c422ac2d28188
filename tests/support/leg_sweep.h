// A foot target swung across the leg, for the tests of pops: the left foot's target swings about
// the hip, at a fixed distance, through the rest knee's direction (at 0 deg the hip-target axis
// passes through the rest knee, which is the seed's reference in every frame solved from rest).
// Also where the seed's own positions step makes the knee jump on that path, computed without
// the pop detector.
#pragma once

#include <cmath>

#include <glm/glm.hpp>

#include "anim/chains.h"
#include "anim/model.h"
#include "anim/skeleton.h"
#include "ik/two_bone_positions.h"

namespace ikpose::test {

struct LegSweep {
  glm::vec3 hip_ms{0.f}, knee_ms{0.f}, foot_ms{0.f};  // the rest pose's
  glm::vec3 along{0.f}, across{0.f};  // hip to rest knee; the facing, perpendicular to it
  float radius = 0.f;                 // 0.7 of the leg
  glm::vec3 At(float deg) const {
    const float a = glm::radians(deg);
    return hip_ms + radius * (std::cos(a) * along + std::sin(a) * across);
  }
  // Frame i of `frames` from `from_deg` to `to_deg`.
  static float Angle(float from_deg, float to_deg, int i, int frames) {
    return from_deg + (to_deg - from_deg) * static_cast<float>(i) / static_cast<float>(frames - 1);
  }
};

inline LegSweep LeftLegSweep(const anim::Model& model) {
  const anim::Pose rest = anim::RestPose(model.skeleton);
  const anim::LimbChain& chain = model.chains[anim::Limb::kLeftLeg];
  LegSweep s;
  s.hip_ms = anim::PositionMs(rest, chain.upper);
  s.knee_ms = anim::PositionMs(rest, chain.lower);
  s.foot_ms = anim::EndPositionMs(chain, rest);
  s.along = glm::normalize(s.knee_ms - s.hip_ms);
  const glm::vec3 forward = model.chains.forward_ms;
  s.across = glm::normalize(forward - glm::dot(forward, s.along) * s.along);
  s.radius = 0.7f * (chain.upper_length + chain.lower_length);
  return s;
}

struct KneeJump {
  int frame = -1;    // the frame the knee arrived in
  float jump = 0.f;  // how far it moved from the frame before
};

// The biggest frame-to-frame knee move of the seed's positions step from the rest pose.
inline KneeJump SeedKneeJump(const LegSweep& s, float from_deg, float to_deg, int frames) {
  KneeJump biggest;
  glm::vec3 last{0.f};
  for (int i = 0; i < frames; ++i) {
    ik::PositionsInput in;
    in.hip_ms = s.hip_ms;
    in.knee_ms = s.knee_ms;
    in.foot_ms = s.foot_ms;
    in.target_ms = s.At(LegSweep::Angle(from_deg, to_deg, i, frames));
    ik::PositionsResult r;
    if (ik::SolvePositions(in, &r) != ik::InputError::kNone) return {};
    if (i > 0 && glm::distance(r.knee_ms, last) > biggest.jump) {
      biggest = {i, glm::distance(r.knee_ms, last)};
    }
    last = r.knee_ms;
  }
  return biggest;
}

}  // namespace ikpose::test
