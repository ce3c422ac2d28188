// Hands that grip a rung and feet that stand on one.
//
// What: from the rest pose, a hand's shape (which way its fingers point, which way its palm
// faces, the finger joints and their lengths) and a foot's (where the ball of the foot is from
// the ankle, how high above the sole). For a hand snapped to a rung: the wrist target and hand
// rotation that put the palm on the rung with the fingers pointing up over it and the grip
// centre on the rung's axis, and the finger curl that wraps a cylinder of the rung's radius
// (each phalanx a chord of the cylinder, the finger leaving the palm tangent to it, so every
// joint lies on it; a joint turns at most 95 deg, thumbs half). For a foot: the ankle target and
// the rest (flat) rotation that put the ball of the foot on the rung's top. Why: a hand at the
// right point but hanging limp beside the rung reads as a ragdoll. Limits: finger joints are the
// hand's descendants that have a child; a rig without them still gets the hand's orientation. The
// palm is taken to face down at rest (T and A poses), and the climber to face the ladder along the
// character's forward direction.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "anim/skeleton.h"

namespace ikpose::scene {

struct HandShape {
  bool valid = false;
  glm::vec3 fingers_ls{0.f};       // unit, in the hand bone's frame: wrist to finger bases
  glm::vec3 palm_ls{0.f};          // unit, in the hand bone's frame: out of the palm
  float palm_length = 0.f;         // wrist to finger bases
  std::vector<int> finger_joints;  // parents before children
  std::vector<float> lengths;      // each joint's phalanx (to its first child)
  std::vector<bool> thumb;
};

struct FootShape {
  bool valid = false;
  glm::vec3 ankle_from_ball_ms{0.f};  // at rest, the sole on the floor
  glm::quat rest_rotation_ms{1.f, 0.f, 0.f, 0.f};
};

HandShape MeasureHand(const anim::Skeleton& skeleton, const anim::Pose& rest, int hand);
FootShape MeasureFoot(const anim::Skeleton& skeleton, const anim::Pose& rest, int foot,
                      float floor_y);

struct EndGoal {
  glm::vec3 end_target_ms{0.f};  // where the wrist (ankle) goes
  glm::quat rotation_ms{1.f, 0.f, 0.f, 0.f};
};

// `grip_ms` on the rung's axis; the climber faces `forward_ms` (toward the ladder).
EndGoal GripRung(const HandShape& hand, const glm::vec3& grip_ms, const glm::vec3& forward_ms,
                 float rung_radius);
// `top_ms` on the rung's top.
EndGoal StandOnRung(const FootShape& foot, const glm::vec3& top_ms);

// A hand on the floor, or on a surface a foot could stand on (a box's top, a table), lies on its
// palm: a wrist target less than `within` above it (or below it) puts the palm flat on it,
// fingers along `forward_ms` (laid into the surface), the wrist a palm's thickness above it over
// the target. Without it the hand hangs from the wrist, fingers in the floor or the table.
// `within`: the larger of the palm's length and the rest ankles' height (OnTheFloorWithin): a
// hand put as low as an ankle stands is on the floor.
float OnTheFloorWithin(const HandShape& hand, const std::array<FootShape, 4>& feet);
// The wrist's height over what the palm lies on (a rung's surface, the floor).
inline float PalmThickness(const HandShape& hand) {
  return 0.25f * hand.palm_length;
}
// On the plane through `point_ms` with unit `normal_ms` (up, within kMaxSoleTiltDeg of it: the
// floor's is +Y).
EndGoal PalmOnSurface(const HandShape& hand, const glm::vec3& wrist_ms, const glm::vec3& point_ms,
                      const glm::vec3& normal_ms, const glm::vec3& forward_ms);

// Lifts the fingers and the thumb of `hand`, lying on its palm as `palm` (PalmOnSurface) puts
// it, out of that surface: each phalanx that ends lower than a tenth of the palm's length over
// it turns up toward it (about its own joint, parents first) until its end is that high; the
// others stay as they are. Why: the palm lies flat, but a thumb keeps its rest turn on the palm,
// which points it down into the floor (2 to 5 cm on the rigs we have).
void LiftFingersOutOf(const anim::Skeleton& skeleton, const HandShape& shape, int hand,
                      const EndGoal& palm, anim::Pose& pose);

// Curls the fingers of `hand` (already turned onto the rung) around a rung of `rung_radius`.
void CurlFingers(const anim::Skeleton& skeleton, const HandShape& shape, int hand,
                 float rung_radius, anim::Pose& pose);
// The radius the fingers' middles wrap for a rung of `rung_radius` (a finger's half thickness
// more, taken as 0.12 of the palm's length).
float GripWrapRadius(const HandShape& shape, float rung_radius);
// Turns finger joint `joint` (an index into shape.finger_joints) by `angle_rad` so that its
// phalanx swings toward `toward_ms` (the palm's direction curls it, the side spreads it), about
// the axis across both; its children follow. Nothing when the two are parallel.
void TurnFingerJoint(const anim::Skeleton& skeleton, const HandShape& shape, int hand,
                     std::size_t joint, const glm::vec3& toward_ms, float angle_rad,
                     anim::Pose& pose);

}  // namespace ikpose::scene
