#include "scene/view/bone_rings.h"

#include <algorithm>
#include <cmath>

namespace ikpose::scene {

std::array<BoneRing, 4> BoneRings(const anim::Pose& pose, int bone, bool local_axes,
                                  const glm::vec3& view_dir_ms, float radius) {
  std::array<BoneRing, 4> rings;
  const glm::vec3 center = anim::PositionMs(pose, bone);
  const glm::quat frame = local_axes ? anim::RotationMs(pose, bone) : glm::quat(1, 0, 0, 0);
  for (int axis = 0; axis < 3; ++axis) {
    glm::vec3 unit(0.0f);
    unit[axis] = 1.0f;
    glm::vec4 color(0.15f, 0.15f, 0.15f, 1.0f);
    color[axis] = 1.0f;
    rings[static_cast<std::size_t>(axis)] = {center, glm::normalize(frame * unit), radius, color};
  }
  const float view_length = glm::length(view_dir_ms);
  const glm::vec3 view = view_length > 0.0f ? view_dir_ms / view_length : glm::vec3(0, 0, -1);
  rings[3] = {center, view, radius * 1.25f, glm::vec4(1.0f)};
  return rings;
}

void DrawBoneRings(const std::array<BoneRing, 4>& rings, anim::DebugDraw& draw) {
  for (const BoneRing& ring : rings)
    draw.Circle(ring.center_ms, ring.axis_ms, ring.radius, ring.color, 64);
}

namespace {

// The neck (or spine) bones from its bottom up to `bone`, root first; empty when `bone` is
// neither.
std::vector<int> SpreadBones(const anim::HumanoidMap& map, int bone) {
  std::vector<int> group;
  if (bone == map.neck || bone == map.head) {
    if (map.neck >= 0) group.push_back(map.neck);
    if (map.head >= 0 && map.head != map.neck) group.push_back(map.head);
  } else {
    group = map.spine;
  }
  const auto at = std::find(group.begin(), group.end(), bone);
  if (at == group.end()) return {};
  group.erase(at + 1, group.end());
  return group;
}

}  // namespace

TurnStart StartTurn(const PosingSession& session, int bone, bool spread) {
  TurnStart start;
  start.bone = bone;
  start.body_turn_ms = session.edits.body.turn_ms;
  if (bone < 0 || bone >= static_cast<int>(session.pose().locals_ls.size())) return start;
  std::vector<int> bones = spread && session.edits.limits
                               ? SpreadBones(session.model().humanoid, bone)
                               : std::vector<int>{};
  if (bones.empty()) bones = {bone};
  for (int b : bones) {
    start.bones.push_back({b, session.pose().locals_ls[static_cast<std::size_t>(b)].rotation,
                           anim::RotationMs(session.pose(), b)});
  }
  return start;
}

bool TurnBoneMs(PosingSession& session, const TurnStart& start, const glm::quat& turn_ms) {
  const float length = glm::length(turn_ms);
  if (!std::isfinite(length) || length < 1e-6f) return false;
  const glm::quat turn = turn_ms / length;
  if (start.bone < 0 || start.bone >= static_cast<int>(session.pose().locals_ls.size()) ||
      start.bones.empty())
    return false;
  if (start.bone == session.body_bone()) {  // the body turns about its joint; pins hold
    const glm::quat goal = turn * start.body_turn_ms;
    const glm::quat step = glm::normalize(goal * glm::inverse(session.edits.body.turn_ms));
    if (std::abs(step.w) < 1.0f - 1e-9f) session.MoveBody(glm::vec3(0.0f), step);
    return true;
  }
  // Each bone turns by the same part: the bones above carry it, so the last turns by it all.
  const glm::quat part = glm::slerp(glm::quat(1.0f, 0.0f, 0.0f, 0.0f), turn,
                                    1.0f / static_cast<float>(start.bones.size()));
  std::vector<std::pair<int, glm::quat>> rotations;
  for (const TurnStart::Bone& b : start.bones) {
    // model' = part * model = parent * local', so local' = local * (model^-1 * part * model).
    glm::quat local = glm::normalize(b.local_ls * (glm::inverse(b.model_ms) * part * b.model_ms));
    if (session.edits.limits) local = LimitRotation(session.model(), b.bone, local);
    rotations.emplace_back(b.bone, local);
  }
  return session.SetBoneRotations(rotations);
}

float SweptAngle(const glm::vec3& from_ms, const glm::vec3& to_ms, const glm::vec3& axis_ms) {
  const glm::vec3 axis = glm::normalize(axis_ms);
  const glm::vec3 a = from_ms - glm::dot(from_ms, axis) * axis;
  const glm::vec3 b = to_ms - glm::dot(to_ms, axis) * axis;
  if (glm::dot(a, a) < 1e-20f || glm::dot(b, b) < 1e-20f) return 0.0f;
  return std::atan2(glm::dot(glm::cross(a, b), axis), glm::dot(a, b));
}

float SnapAngle(float angle, float step) {
  return step > 0.0f ? std::round(angle / step) * step : angle;
}

}  // namespace ikpose::scene
