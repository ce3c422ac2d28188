#include "scene/session/hand_pose.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace ikpose::scene {

namespace {

bool NamesPointer(const std::string& name) {
  for (const std::string& word : anim::NameWords(name)) {
    if (word == "index" || word == "pointer" || word == "fore") return true;
  }
  return false;
}

HandShape ShapeOf(const PosingSession& session, anim::Limb arm, std::string* why) {
  if (IsLeg(arm)) {
    *why = "hand poses are for arms";
    return {};
  }
  if (!session.target(arm).available) {
    *why = std::string(anim::LimbName(arm)) + " is not in this rig";
    return {};
  }
  HandShape shape =
      MeasureHand(session.model().skeleton, session.rest_pose(), session.chain(arm).end);
  if (!shape.valid || shape.finger_joints.empty()) {
    *why = "the " + std::string(anim::LimbName(arm)) + " hand has no finger bones";
    return {};
  }
  return shape;
}

// The joints (indices into shape.finger_joints) that start a finger: their parent is none.
std::vector<std::size_t> FingerRoots(const anim::Skeleton& s, const HandShape& shape) {
  const std::vector<int>& joints = shape.finger_joints;
  std::vector<std::size_t> roots;
  for (std::size_t i = 0; i < joints.size(); ++i) {
    const int parent = s.parents[static_cast<std::size_t>(joints[i])];
    if (std::find(joints.begin(), joints.end(), parent) == joints.end()) roots.push_back(i);
  }
  return roots;
}

// The middle of the non-thumb fingers' roots in `pose`; false when there are none.
bool FingersMiddle(const HandShape& shape, const std::vector<std::size_t>& roots,
                   const anim::Pose& pose, glm::vec3* middle_ms) {
  glm::vec3 sum(0.0f);
  int n = 0;
  for (std::size_t r : roots) {
    if (shape.thumb[r]) continue;
    sum += anim::PositionMs(pose, shape.finger_joints[r]);
    ++n;
  }
  if (n == 0) return false;
  *middle_ms = sum / static_cast<float>(n);
  return true;
}

}  // namespace

GripCylinder HandGripCylinder(const PosingSession& session, anim::Limb arm, float radius) {
  GripCylinder c;
  c.radius = radius;
  std::string why;
  const HandShape shape = ShapeOf(session, arm, &why);
  if (!shape.valid) return c;
  const glm::quat hand_ms = anim::RotationMs(session.pose(), session.chain(arm).end);
  const glm::vec3 palm_ms = hand_ms * shape.palm_ls;
  c.axis_ms = glm::normalize(glm::cross(hand_ms * shape.fingers_ls, palm_ms));
  glm::vec3 middle_ms(0.0f);
  if (!FingersMiddle(shape, FingerRoots(session.model().skeleton, shape), session.pose(),
                     &middle_ms)) {
    middle_ms = anim::PositionMs(session.pose(), session.chain(arm).end);
  }
  c.point_ms = middle_ms + GripWrapRadius(shape, radius) * palm_ms;
  return c;
}

HandPose PresetHandPose(HandPreset preset, float grip_radius) {
  HandPose pose;
  switch (preset) {
    case HandPreset::kRelaxed:
      pose.curl = 0.2f;
      pose.spread = 0.1f;
      break;
    case HandPreset::kFist:
      pose.curl = 1.0f;
      break;
    case HandPreset::kPoint:
      pose.curl = 1.0f;
      pose.point = true;
      break;
    case HandPreset::kGrip:
      pose.grip_radius = grip_radius;
      break;
  }
  return pose;
}

const char* PresetName(HandPreset preset) {
  switch (preset) {
    case HandPreset::kRelaxed:
      return "relaxed";
    case HandPreset::kFist:
      return "fist";
    case HandPreset::kPoint:
      return "point";
    case HandPreset::kGrip:
      return "grip";
  }
  return "?";
}

std::vector<int> FingerJoints(const PosingSession& session, anim::Limb arm) {
  std::string why;
  return ShapeOf(session, arm, &why).finger_joints;
}

bool PoseHand(PosingSession& session, anim::Limb arm, const HandPose& hand, std::string* why) {
  const HandShape shape = ShapeOf(session, arm, why);
  if (!shape.valid) return false;
  if (!std::isfinite(hand.curl) || !std::isfinite(hand.spread) ||
      !std::isfinite(hand.grip_radius)) {
    *why = "hand pose values must be finite";
    return false;
  }
  const anim::Skeleton& s = session.model().skeleton;
  const int wrist = session.chain(arm).end;
  const std::vector<int>& joints = shape.finger_joints;

  // Straight fingers (the rest pose's) on the hand as it is now.
  anim::Pose pose = session.pose();
  for (int b : joints) {
    pose.locals_ls[static_cast<std::size_t>(b)].rotation =
        session.rest_pose().locals_ls[static_cast<std::size_t>(b)].rotation;
  }
  anim::UpdateSubtree(s, wrist, pose);

  // Each finger starts at a joint whose parent is no finger joint; the pointing finger is the
  // one named so, else the non-thumb finger whose root is nearest a thumb's.
  const std::vector<std::size_t> roots = FingerRoots(s, shape);
  const glm::quat hand_ms = anim::RotationMs(pose, wrist);
  const glm::vec3 palm_ms = hand_ms * shape.palm_ls;
  const glm::vec3 side_ms = glm::normalize(glm::cross(hand_ms * shape.fingers_ls, palm_ms));
  int pointer = -1;
  for (std::size_t r : roots) {
    if (!shape.thumb[r] && NamesPointer(s.names[static_cast<std::size_t>(joints[r])])) {
      pointer = joints[r];
    }
  }
  if (pointer < 0) {
    float nearest = 0.0f;
    for (std::size_t t : roots) {
      if (!shape.thumb[t]) continue;
      for (std::size_t r : roots) {
        if (shape.thumb[r]) continue;
        const float d =
            glm::length(anim::PositionMs(pose, joints[r]) - anim::PositionMs(pose, joints[t]));
        if (pointer < 0 || d < nearest) {
          pointer = joints[r];
          nearest = d;
        }
      }
    }
    for (std::size_t r : roots) {
      if (pointer < 0 && !shape.thumb[r]) pointer = joints[r];
    }
  }

  // Spread: each non-thumb finger's root turns sideways in the palm's plane, away from the
  // middle of the hand by its share of the widest offset.
  glm::vec3 middle_ms(0.0f);
  if (hand.spread != 0.0f && FingersMiddle(shape, roots, pose, &middle_ms)) {
    float widest = 0.0f;
    for (std::size_t r : roots) {
      if (!shape.thumb[r])
        widest = std::max(
            widest, std::abs(glm::dot(anim::PositionMs(pose, joints[r]) - middle_ms, side_ms)));
    }
    for (std::size_t r : roots) {
      if (shape.thumb[r] || !(widest > 0.0f)) continue;
      const float offset =
          glm::dot(anim::PositionMs(pose, joints[r]) - middle_ms, side_ms) / widest;
      const float angle = glm::radians(kFullSpreadDeg) * hand.spread * std::abs(offset);
      TurnFingerJoint(s, shape, wrist, r, offset >= 0.0f ? side_ms : -side_ms, angle, pose);
    }
  }

  // Curl: every joint toward the palm, the pointing finger excepted; or the grip's wrap.
  if (hand.grip_radius > 0.0f) {
    CurlFingers(s, shape, wrist, hand.grip_radius, pose);
  } else {
    for (std::size_t i = 0; i < joints.size(); ++i) {
      bool in_pointer = false;
      for (int a = joints[i]; a >= 0 && a != wrist; a = s.parents[static_cast<std::size_t>(a)]) {
        in_pointer = in_pointer || (hand.point && a == pointer);
      }
      if (in_pointer) continue;
      const float angle = glm::radians(kFullCurlDeg) * hand.curl * (shape.thumb[i] ? 0.5f : 1.0f);
      TurnFingerJoint(s, shape, wrist, i, palm_ms, angle, pose);
    }
  }
  std::vector<std::pair<int, glm::quat>> turns;
  turns.reserve(joints.size());
  for (int b : joints) turns.emplace_back(b, pose.locals_ls[static_cast<std::size_t>(b)].rotation);
  session.SetBoneRotations(turns);
  session.Evaluate();
  return true;
}

}  // namespace ikpose::scene
