#include "app/ring_drag.h"

#include <cmath>
#include <limits>

namespace ikpose::app {

bool RingDrag::Begin(const Ray& ray, const scene::PosingSession& session, int bone, bool local_axes,
                     const glm::vec3& view_dir_ms, float radius, float tolerance) {
  active_ = false;
  if (bone < 0 || bone >= static_cast<int>(session.pose().models_ms.size())) return false;
  const std::array<scene::BoneRing, 4> rings =
      scene::BoneRings(session.pose(), bone, local_axes, view_dir_ms, radius);
  float best = tolerance;
  int picked = -1;
  for (int r = 0; r < 4; ++r) {
    const scene::BoneRing& ring = rings[static_cast<std::size_t>(r)];
    // The ring's points nearest the ray (sampled as drawn): robust when a ring is seen edge-on.
    const glm::vec3 helper =
        std::abs(ring.axis_ms.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
    const glm::vec3 u = glm::normalize(glm::cross(ring.axis_ms, helper));
    const glm::vec3 v = glm::cross(ring.axis_ms, u);
    for (int i = 0; i < 128; ++i) {
      const float a = 6.28318530718f * static_cast<float>(i) / 128.0f;
      const glm::vec3 p = ring.center_ms + ring.radius * (std::cos(a) * u + std::sin(a) * v);
      const glm::vec3 to_point = p - ray.origin_ms;
      if (glm::dot(to_point, ray.direction_ms) <= 0.0f) continue;
      const float off = glm::length(glm::cross(to_point, ray.direction_ms));
      if (off < best) {
        best = off;
        picked = r;
      }
    }
  }
  if (picked < 0) return false;
  const scene::BoneRing& ring = rings[static_cast<std::size_t>(picked)];
  axis_ = static_cast<scene::RingAxis>(picked);
  center_ms_ = ring.center_ms;
  toward_eye_ms_ = -glm::normalize(view_dir_ms);
  turn_axis_ms_ = glm::dot(ring.axis_ms, toward_eye_ms_) >= 0.0f ? ring.axis_ms : -ring.axis_ms;
  if (!Arm(ray, &last_arm_ms_)) return false;
  start_ = scene::StartTurn(session, bone);
  total_ = applied_ = 0.0f;
  active_ = true;
  return true;
}

bool RingDrag::Arm(const Ray& ray, glm::vec3* arm_ms) const {
  glm::vec3 hit;
  if (!RayPlane(ray, center_ms_, toward_eye_ms_, &hit)) return false;
  *arm_ms = hit - center_ms_;
  return true;
}

void RingDrag::Update(const Ray& ray, bool snap, scene::PosingSession& session) {
  glm::vec3 arm;
  if (!active_ || !Arm(ray, &arm)) return;
  // Summed move by move, so a drag round the joint can pass half a turn.
  total_ += scene::SweptAngle(last_arm_ms_, arm, toward_eye_ms_);
  last_arm_ms_ = arm;
  const float angle = snap ? scene::SnapAngle(total_, glm::radians(kRingSnapDeg)) : total_;
  if (angle == applied_) return;
  applied_ = angle;
  scene::TurnBoneMs(session, start_, glm::angleAxis(angle, turn_axis_ms_));
}

}  // namespace ikpose::app
