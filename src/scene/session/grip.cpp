#include "scene/session/grip.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "anim/chains.h"
#include "ik/rotation.h"

namespace ikpose::scene {

namespace {

constexpr float kMaxCurlDeg = 95.f;

bool NamesThumb(const std::string& name) {
  for (const std::string& word : anim::NameWords(name)) {
    if (word == "thumb" || word == "pollex") return true;
  }
  return false;
}

// The grip's frame from two directions: fingers, then the palm made perpendicular to them.
glm::mat3 Frame(const glm::vec3& fingers, const glm::vec3& palm) {
  const glm::vec3 f = glm::normalize(fingers);
  const glm::vec3 p = glm::normalize(palm - glm::dot(palm, f) * f);
  return glm::mat3(f, p, glm::cross(f, p));
}

// The hand's model rotation that points its fingers along `fingers_ms` with its palm facing
// `palm_ms` (made perpendicular to the fingers).
glm::quat HandTurnedTo(const HandShape& hand, const glm::vec3& fingers_ms,
                       const glm::vec3& palm_ms) {
  const glm::mat3 rest = Frame(hand.fingers_ls, hand.palm_ls);  // in the hand's frame
  return glm::normalize(glm::quat_cast(Frame(fingers_ms, palm_ms) * glm::transpose(rest)));
}

}  // namespace

HandShape MeasureHand(const anim::Skeleton& skeleton, const anim::Pose& rest, int hand) {
  HandShape shape;
  if (hand < 0 || hand >= skeleton.size()) return shape;
  const glm::vec3 wrist = anim::PositionMs(rest, hand);
  const std::vector<int> children = skeleton.Children(hand);
  glm::vec3 fingers(0.f);
  int counted = 0;
  for (int child : children) {
    if (NamesThumb(skeleton.names[static_cast<std::size_t>(child)])) continue;
    fingers += anim::PositionMs(rest, child) - wrist;
    ++counted;
  }
  if (counted > 0) fingers /= static_cast<float>(counted);
  const int parent = skeleton.parents[static_cast<std::size_t>(hand)];
  if (!(glm::length(fingers) > 1e-6f) && parent >= 0) {  // no fingers: along the forearm
    fingers = 0.3f * (wrist - anim::PositionMs(rest, parent));
  }
  if (!(glm::length(fingers) > 1e-6f)) return shape;
  shape.palm_length = glm::length(fingers);
  glm::vec3 palm = glm::vec3(0.f, -1.f, 0.f);
  palm -= glm::dot(palm, glm::normalize(fingers)) * glm::normalize(fingers);
  if (!(glm::length(palm) > 1e-3f)) palm = ik::AnyPerpendicular(glm::normalize(fingers));
  const glm::quat to_hand = glm::inverse(anim::RotationMs(rest, hand));
  shape.fingers_ls = glm::normalize(to_hand * glm::normalize(fingers));
  shape.palm_ls = glm::normalize(to_hand * glm::normalize(palm));
  // Finger joints: descendants with a child, parents first (skeleton order).
  for (int b = hand + 1; b < skeleton.size(); ++b) {
    if (!skeleton.IsAncestorOrSelf(hand, b)) continue;
    const std::vector<int> next = skeleton.Children(b);
    if (next.empty()) continue;
    const float length = glm::length(anim::PositionMs(rest, next[0]) - anim::PositionMs(rest, b));
    if (!(length > 1e-6f)) continue;
    bool thumb = false;
    for (int a = b; a != hand && a >= 0; a = skeleton.parents[static_cast<std::size_t>(a)]) {
      thumb = thumb || NamesThumb(skeleton.names[static_cast<std::size_t>(a)]);
    }
    shape.finger_joints.push_back(b);
    shape.lengths.push_back(length);
    shape.thumb.push_back(thumb);
  }
  shape.valid = true;
  return shape;
}

FootShape MeasureFoot(const anim::Skeleton& skeleton, const anim::Pose& rest, int foot,
                      float floor_y) {
  FootShape shape;
  if (foot < 0 || foot >= skeleton.size()) return shape;
  const std::vector<int> children = skeleton.Children(foot);
  const glm::vec3 ankle = anim::PositionMs(rest, foot);
  glm::vec3 ball = ankle;
  if (!children.empty()) ball = anim::PositionMs(rest, children[0]);
  ball.y = floor_y;  // the sole under the ball of the foot
  shape.ankle_from_ball_ms = ankle - ball;
  shape.rest_rotation_ms = anim::RotationMs(rest, foot);
  shape.valid = true;
  return shape;
}

EndGoal GripRung(const HandShape& hand, const glm::vec3& grip_ms, const glm::vec3& forward_ms,
                 float rung_radius) {
  // Fingers up and a little toward the ladder, the palm on the rung facing it.
  const glm::vec3 up(0.f, 1.f, 0.f);
  EndGoal g;
  g.rotation_ms = HandTurnedTo(hand, up + 0.2f * forward_ms, forward_ms);
  // The rung's axis lies half a palm along the fingers and a radius plus a palm's thickness
  // out of the palm: the wrist is that far back from it.
  const glm::vec3 fingers = g.rotation_ms * hand.fingers_ls;
  const glm::vec3 palm = g.rotation_ms * hand.palm_ls;
  g.end_target_ms =
      grip_ms - 0.5f * hand.palm_length * fingers - (rung_radius + PalmThickness(hand)) * palm;
  return g;
}

float OnTheFloorWithin(const HandShape& hand, const std::array<FootShape, 4>& feet) {
  float within = hand.palm_length;
  for (const FootShape& foot : feet) {
    if (foot.valid) within = std::max(within, foot.ankle_from_ball_ms.y);
  }
  return within;
}

EndGoal PalmOnSurface(const HandShape& hand, const glm::vec3& wrist_ms, const glm::vec3& point_ms,
                      const glm::vec3& normal_ms, const glm::vec3& forward_ms) {
  // The facing laid into the surface (or, facing straight into it, the fingers along +Z).
  glm::vec3 ahead = forward_ms - glm::dot(forward_ms, normal_ms) * normal_ms;
  if (!(glm::length(ahead) > 1e-6f)) ahead = glm::vec3(0.f, 0.f, 1.f);
  EndGoal g;
  g.rotation_ms = HandTurnedTo(hand, ahead, -normal_ms);  // the palm facing the surface
  g.end_target_ms =
      wrist_ms - (glm::dot(wrist_ms - point_ms, normal_ms) - PalmThickness(hand)) * normal_ms;
  return g;
}

EndGoal StandOnRung(const FootShape& foot, const glm::vec3& top_ms) {
  EndGoal g;
  g.rotation_ms = foot.rest_rotation_ms;  // flat, as it stands on the floor
  g.end_target_ms = top_ms + foot.ankle_from_ball_ms;
  return g;
}

void TurnFingerJoint(const anim::Skeleton& skeleton, const HandShape& shape, int hand,
                     std::size_t joint, const glm::vec3& toward_ms, float angle_rad,
                     anim::Pose& pose) {
  const int bone = shape.finger_joints[joint];
  const std::vector<int> next = skeleton.Children(bone);
  const glm::vec3 along = anim::PositionMs(pose, next[0]) - anim::PositionMs(pose, bone);
  glm::vec3 axis = glm::cross(along, toward_ms);  // turning `along` toward `toward_ms`
  if (!(glm::length(axis) > 1e-8f) || hand < 0) return;
  axis = glm::normalize(axis);
  const glm::vec3 axis_ls = glm::inverse(anim::RotationMs(pose, bone)) * axis;
  anim::Transform& local = pose.locals_ls[static_cast<std::size_t>(bone)];
  local.rotation = glm::normalize(local.rotation * glm::angleAxis(angle_rad, axis_ls));
  anim::UpdateSubtree(skeleton, bone, pose);
}

void CurlFingers(const anim::Skeleton& skeleton, const HandShape& shape, int hand,
                 float rung_radius, anim::Pose& pose) {
  if (!shape.valid || shape.finger_joints.empty()) return;
  const float wrap = GripWrapRadius(shape, rung_radius);
  // Each phalanx is a chord of the wrap circle spanning `arc`; the finger leaves the palm
  // tangent to the circle, so a joint turns by half its own arc plus half its parent's (the
  // angle between two chords), which keeps every joint on the circle.
  std::vector<float> arc(shape.finger_joints.size(), 0.f);
  for (std::size_t i = 0; i < shape.finger_joints.size(); ++i) {
    arc[i] = 2.f * std::asin(std::min(1.f, shape.lengths[i] / (2.f * wrap)));
    float before = 0.f;  // the parent phalanx's arc, 0 at the finger's root
    const int parent = skeleton.parents[static_cast<std::size_t>(shape.finger_joints[i])];
    for (std::size_t j = 0; j < i; ++j) {
      if (shape.finger_joints[j] == parent) before = arc[j];
    }
    float angle = std::min(0.5f * (before + arc[i]), glm::radians(kMaxCurlDeg));
    angle *= shape.thumb[i] ? 0.5f : 1.f;
    const glm::vec3 palm = anim::RotationMs(pose, hand) * shape.palm_ls;
    TurnFingerJoint(skeleton, shape, hand, i, palm, angle, pose);
  }
}

void LiftFingersOutOf(const anim::Skeleton& skeleton, const HandShape& shape, int hand,
                      const EndGoal& palm, anim::Pose& pose) {
  if (!shape.valid || hand < 0) return;
  // The surface as the palm goal has it: under the wrist, a palm's thickness out of the palm.
  const glm::vec3 normal = -glm::normalize(palm.rotation_ms * shape.palm_ls);
  const glm::vec3 point = palm.end_target_ms - PalmThickness(shape) * normal;
  const float lowest = 0.1f * shape.palm_length;
  const auto height = [&](int bone) {
    return glm::dot(anim::PositionMs(pose, bone) - point, normal);
  };
  for (std::size_t i = 0; i < shape.finger_joints.size(); ++i) {
    const int bone = shape.finger_joints[i];
    const int end = skeleton.Children(bone)[0];
    const float length = glm::length(anim::PositionMs(pose, end) - anim::PositionMs(pose, bone));
    if (!(length > 1e-6f) || height(end) >= lowest) continue;
    // The phalanx's elevation over the surface now and as wanted (sines), within a quarter turn.
    const float now = std::clamp((height(end) - height(bone)) / length, -1.f, 1.f);
    const float want = std::clamp((lowest - height(bone)) / length, -1.f, 1.f);
    const float angle = std::asin(want) - std::asin(now);
    if (angle > 0.f) TurnFingerJoint(skeleton, shape, hand, i, normal, angle, pose);
  }
}

float GripWrapRadius(const HandShape& shape, float rung_radius) {
  return rung_radius + 0.12f * shape.palm_length;
}

}  // namespace ikpose::scene
