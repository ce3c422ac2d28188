// The turn ring of the selected prop: a ring lying level around the prop, about the vertical
// axis through its placement's origin (the axis `yaw_deg` turns it about). Grabbing the ring and
// dragging turns the prop by the angle the point under the cursor sweeps about that axis, seen
// in the ring's own level plane, so the grabbed point follows the cursor round the ring. The
// angle is the drag's total (it can pass half a turn); Ctrl rounds it to kRingSnapDeg steps.
// Why: a step or a chair placed on screen needs turning to face the character as much as
// moving; the ring is the window's one way to do it, one undo step a drag, as the move is.
// Pure math over the world: no SDL, so tests drive it with rays.
#pragma once

#include <array>
#include <optional>

#include <glm/glm.hpp>

#include "app/orbit_camera.h"
#include "scene/world/world.h"

namespace ikpose::app {

// The ring's size: the prop's widest reach from the axis, plus a margin so the ring stays
// outside the prop; at least kPropRingMinOfHeight of the character's height (a thin pole).
inline constexpr float kPropRingMargin = 1.15f;
inline constexpr float kPropRingMinOfHeight = 0.08f;
inline constexpr int kPropRingPoints = 64;  // drawn and picked as this many points

struct PropRing {
  glm::vec3 center_ms{0.0f};  // on the axis, at the prop's lowest point
  float radius = 1.0f;
};

// The ring of `prop` for a character `model_height` tall.
PropRing PropTurnRing(const scene::Prop& prop, float model_height);
// The ring's point at `azimuth` radians: where the ring's point at 0 (+X of the axis) goes when
// the prop turns by `azimuth` (a turn about +Y, as yaw_deg is).
glm::vec3 PropRingPoint(const PropRing& ring, float azimuth);

// Whether `ray` passes within `tolerance` of `ring` (its points sampled as drawn, so a ring
// seen edge-on is still found): the cursor is on the ring.
bool RayNearRing(const Ray& ray, const PropRing& ring, float tolerance);

class PropTurn {
 public:
  // Grabs `ring` of prop `prop` (now at `yaw_deg`) when `ray` passes within `tolerance` of it;
  // false otherwise.
  bool Begin(const Ray& ray, int prop, const PropRing& ring, float yaw_deg, float tolerance);
  // The prop's yaw for the cursor's ray (snapped when `snap`); none when the ray misses the
  // ring's plane (it then keeps its last turn).
  std::optional<float> Update(const Ray& ray, bool snap);
  void End() { active_ = false; }

  bool active() const { return active_; }
  int prop() const { return prop_; }

 private:
  bool Arm(const Ray& ray, glm::vec3* arm_ms) const;

  bool active_ = false;
  int prop_ = -1;
  PropRing ring_;
  float start_yaw_deg_ = 0.0f;
  glm::vec3 last_arm_ms_{0.0f};
  float total_ = 0.0f;  // radians swept, summed move by move
};

}  // namespace ikpose::app
