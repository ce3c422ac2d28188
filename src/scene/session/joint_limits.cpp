#include "scene/session/joint_limits.h"

#include <cmath>
#include <cstdio>

namespace ikpose::scene {
namespace {

bool IsHinge(anim::JointPart part) {
  return part == anim::JointPart::kKnee || part == anim::JointPart::kElbow;
}

}  // namespace

glm::quat LimitRotation(const anim::Model& model, int bone, const glm::quat& rotation_ls) {
  const anim::BoneRange* range = model.ranges.Find(bone);
  if (!range) return rotation_ls;
  return anim::ClampToRange(*range, rotation_ls).rotation_ls;
}

bool LimitLimb(const anim::Model& model, const anim::LimbChain& chain, anim::Pose& pose) {
  if (!chain.valid()) return false;
  const glm::quat end_ms = anim::RotationMs(pose, chain.end);
  bool moved = false;
  const auto hold = [&](int bone, anim::BoneRange range) {
    glm::quat& local = pose.locals_ls[static_cast<std::size_t>(bone)].rotation;
    const anim::RangeClamp c = anim::ClampToRange(range, local);
    if (!c.at_limit()) return;
    local = c.rotation_ls;
    anim::UpdateSubtree(model.skeleton, bone, pose);
    moved = true;
  };
  if (const anim::BoneRange* upper = model.ranges.Find(chain.upper)) {
    // Its swing; its twist places the knee (elbow) about the root-end line, which the knee
    // policy's swivel range already bounds (and a rig's rest hinge may be rolled far from the
    // anatomical one, so the twist about the rest says little there).
    anim::BoneRange swing_only = *upper;
    swing_only.range.twist_deg = 180.f;
    hold(chain.upper, swing_only);
  }
  if (const anim::BoneRange* lower = model.ranges.Find(chain.lower)) {
    anim::BoneRange twist_only = *lower;  // the hinge's bend is the solver's
    twist_only.range.toward_deg = twist_only.range.away_deg = twist_only.range.side_deg = 180.f;
    hold(chain.lower, twist_only);
  }
  if (moved) {
    const int parent = model.skeleton.parents[static_cast<std::size_t>(chain.end)];
    pose.locals_ls[static_cast<std::size_t>(chain.end)].rotation =
        glm::normalize(glm::inverse(anim::RotationMs(pose, parent)) * end_ms);
    anim::UpdateSubtree(model.skeleton, chain.end, pose);
  }
  return moved;
}

std::vector<JointAtLimit> JointsAtLimit(const anim::Model& model, const anim::Pose& pose,
                                        bool past) {
  std::vector<JointAtLimit> out;
  const int n = std::min(static_cast<int>(model.ranges.bones.size()),
                         static_cast<int>(pose.locals_ls.size()));
  for (int bone = 0; bone < n; ++bone) {
    const anim::BoneRange* range = model.ranges.Find(bone);
    if (!range || !range->range.limited()) continue;
    const anim::RangeClamp c =
        anim::ClampToRange(*range, pose.locals_ls[static_cast<std::size_t>(bone)].rotation);
    const float twist = std::abs(c.twist_deg);
    const auto listed = [past](float deg, float limit) {
      return limit < 180.f && deg >= limit - kAtLimitToleranceDeg &&
             (past || deg <= limit + kAtLimitToleranceDeg);
    };
    if (!IsHinge(range->part) && listed(c.swing_deg, c.swing_limit_deg))
      out.push_back({bone, range->part, false, c.swing_deg, c.swing_limit_deg});
    if (listed(twist, range->range.twist_deg))
      out.push_back({bone, range->part, true, twist, range->range.twist_deg});
  }
  return out;
}

std::string LimitSentence(const anim::Model& model, const JointAtLimit& joint, const char* degree) {
  const std::string& name = model.skeleton.names[static_cast<std::size_t>(joint.bone)];
  char numbers[96];
  std::snprintf(numbers, sizeof numbers, ": %.0f%s of %.0f%s %s", static_cast<double>(joint.deg),
                degree, static_cast<double>(joint.limit_deg), degree,
                joint.twist ? "twist" : "bend");
  return name + " (" + anim::JointPartName(joint.part) + ")" +
         (joint.past() ? " past its limit" : " at its limit") + numbers;
}

}  // namespace ikpose::scene
