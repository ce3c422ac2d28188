#include "scene/bone_rings.h"

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

TurnStart StartTurn(const PosingSession& session, int bone) {
  TurnStart start;
  start.bone = bone;
  if (bone < 0 || bone >= static_cast<int>(session.pose().locals_ls.size())) return start;
  start.local_ls = session.pose().locals_ls[static_cast<std::size_t>(bone)].rotation;
  start.model_ms = anim::RotationMs(session.pose(), bone);
  start.body_turn_ms = session.body.turn_ms;
  return start;
}

bool TurnBoneMs(PosingSession& session, const TurnStart& start, const glm::quat& turn_ms) {
  const float length = glm::length(turn_ms);
  if (!std::isfinite(length) || length < 1e-6f) return false;
  const glm::quat turn = turn_ms / length;
  if (start.bone < 0 || start.bone >= static_cast<int>(session.pose().locals_ls.size()))
    return false;
  if (start.bone == session.body_bone()) {  // the body turns about its joint; pins hold
    const glm::quat goal = turn * start.body_turn_ms;
    const glm::quat step = glm::normalize(goal * glm::inverse(session.body.turn_ms));
    if (std::abs(step.w) < 1.0f - 1e-9f) session.MoveBody(glm::vec3(0.0f), step);
    return true;
  }
  // model' = turn * model = parent * local', so local' = local * (model^-1 * turn * model).
  const glm::quat local = start.local_ls * (glm::inverse(start.model_ms) * turn * start.model_ms);
  return session.SetBoneRotation(start.bone, glm::normalize(local));
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
