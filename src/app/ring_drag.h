// Dragging an FK ring: grab one of the selected bone's rings (scene/view/bone_rings.h) and turn the
// bone about that ring's axis by the angle the mouse sweeps around the joint, as seen from the
// camera (counter-clockwise on screen turns the bone counter-clockwise on screen). The angle is
// the drag's total, so it can pass half a turn; snapping (Ctrl) rounds that total to 5 degree
// steps. Pure math over the scene: no SDL, so tests drive it with rays.
#pragma once

#include "app/orbit_camera.h"
#include "scene/session/posing_session.h"
#include "scene/view/bone_rings.h"

namespace ikpose::app {

inline constexpr float kRingSnapDeg = 5.0f;

class RingDrag {
 public:
  // Grabs the ring of `bone` that passes nearest the ray, within `tolerance` of it; false if
  // none. `view_dir_ms` points from the eye toward the joint; `radius` is the rings' size.
  bool Begin(const Ray& ray, const scene::PosingSession& session, int bone, bool local_axes,
             const glm::vec3& view_dir_ms, float radius, float tolerance);
  // Turns the bone by the angle swept since Begin (snapped to kRingSnapDeg when `snap`).
  void Update(const Ray& ray, bool snap, scene::PosingSession& session);
  void End() { active_ = false; }

  bool active() const { return active_; }
  scene::RingAxis axis() const { return axis_; }
  // The turn last applied, in radians, about axis_ms().
  float applied_angle() const { return applied_; }
  const glm::vec3& axis_ms() const { return turn_axis_ms_; }

 private:
  // Where the ray meets the plane through the joint that faces the camera, from the joint.
  bool Arm(const Ray& ray, glm::vec3* arm_ms) const;

  bool active_ = false;
  scene::RingAxis axis_ = scene::RingAxis::kX;
  scene::TurnStart start_;
  glm::vec3 center_ms_{0.0f};
  glm::vec3 toward_eye_ms_{0.0f, 0.0f, 1.0f};  // the screen plane's normal
  glm::vec3 turn_axis_ms_{1.0f, 0.0f, 0.0f};   // signed so that + is counter-clockwise on screen
  glm::vec3 last_arm_ms_{0.0f};
  float total_ = 0.0f;
  float applied_ = 0.0f;
};

}  // namespace ikpose::app
