// Where the knee (elbow) goes on its circle: the knee policy of a limb.
//
// What: `seed` is the blog post's rule (the knee nearest the current knee), `pole` bends toward
// a pole point, and `natural` (the default of the viewer, render, pose and export on detected
// limbs) takes the current knee's swivel about the hip-target axis but keeps it within a range
// around the rig's natural bend, so a knee never bends against the joint.
//
// A leg's natural bend is the rest pose's own bend (when the rest knee sits off the hip-foot
// line by 2% of the limb or more, on the toes' side of it), else the foot's direction (knees
// track the toes, so feet that turn out give knees that turn out as much), else the facing.
// An arm's is that of an arm hanging relaxed (down, a little forward) with the elbow back and
// a little out, whatever the rig's rest: a T-pose or A-pose arm is not the arm's natural rest,
// and a forward reach then drops the elbow under the arm, not out to the side. The bend is
// kept in the frame of the hip's (shoulder's) parent bone, so it turns with the body, and is
// carried to the current hip-target axis by the swing that takes the rest hip-foot direction
// (an arm: the hanging direction) there: lifting a foot forward to hip height turns the
// natural knee direction from forward to up, as a leg's does.
//
// Swivel: the angle about the hip-target axis from the natural direction to the knee. The
// default range is +-45 deg for legs (the hip's internal and external rotation, about 40-50 deg
// each way in adults, is what swings a knee off the foot's plane) and +-45 deg for arms too (the
// shoulder rotates further, but a reach whose elbow swings more than that from its natural
// direction, down and back, looks like a chicken wing). Within the range, with the
// current knee at least 5% of the limb off the hip-target axis, the knee keeps the current
// knee's swivel exactly as the seed would; beyond the range it holds at the range and
// folds back to the natural direction as the current knee comes to point straight against it
// (a knee *behind* the leg maps to the natural side, not to either limit, which would flip
// between the two). Near a straight limb the current knee's side is undefined, so its weight
// fades to the natural direction: the knee moves continuously with a smooth target.
// Limits: when the hip-target axis is opposite the rest hip-foot direction (a foot above the
// head) the swing is undefined and the natural direction is the rest bend itself; with the
// target on the hip there is no axis at all (the solver reports that).
#pragma once

#include <string_view>

#include <glm/glm.hpp>

namespace ikpose::anim {

enum class KneePolicy { kSeed, kNatural, kPole };

// "seed", "natural", "pole".
const char* PolicyName(KneePolicy policy);
bool ParsePolicy(std::string_view text, KneePolicy* policy);

// A limb's natural bend, in the frame of its upper bone's parent (rotation only).
struct NaturalBend {
  bool valid = false;
  glm::vec3 bend_ps{0.f, 0.f, 1.f};    // unit, perpendicular to reach_ps: the knee's side at rest
  glm::vec3 reach_ps{0.f, -1.f, 0.f};  // unit: hip to foot at rest
  float range_deg = 45.f;              // default swivel range either side
  bool from_rest = false;              // true: the rest pose's bend; false: from the facing

  bool operator==(const NaturalBend&) const = default;
};

// From the rest positions of hip, knee and foot (model space), the rotation of the hip's parent
// at rest, the character's forward direction and, for a leg, the foot's direction (foot to
// toe; zero when there is no toe).
NaturalBend RestNaturalBend(const glm::vec3& hip_ms, const glm::vec3& knee_ms,
                            const glm::vec3& foot_ms, const glm::mat3& parent_rotation_ms,
                            bool is_leg, const glm::vec3& forward_ms,
                            const glm::vec3& toe_dir_ms = glm::vec3(0.f));

struct SwivelChoice {
  bool valid = false;
  glm::vec3 natural_ms{0.f};   // unit, perpendicular to the hip-target axis: swivel 0
  glm::vec3 knee_dir_ms{0.f};  // unit, perpendicular to the axis: where the knee goes
  float reference_deg = 0.f;   // the current knee's swivel (what the seed would keep)
  float swivel_deg = 0.f;      // the chosen swivel
  float range_deg = 0.f;
  bool clamped = false;     // the current knee's swivel was outside the range
  float cleared_deg = 0.f;  // how far KeepKneeBehind turned it (0: the knee was clear)
};

// A plane the knee stays behind (a ladder's rungs): through `point_ms`, `normal_ms` (unit)
// toward the climber; the knee joint this far behind it (its kneecap and the rung's radius).
// `half_width` > 0 also bounds how far out the knee may turn: within that distance of
// `point_ms` along `along_ms` (unit; a ladder's rails, less the rail's and the knee's radius).
struct KneeClearance {
  bool valid = false;
  glm::vec3 point_ms{0.f};
  glm::vec3 normal_ms{0.f, 0.f, -1.f};
  float clearance = 0.f;
  glm::vec3 outward_ms{1.f, 0.f, 0.f};  // the limb's side, away from the body's middle
  glm::vec3 along_ms{1.f, 0.f, 0.f};
  float half_width = 0.f;  // 0: no sideways bound
  bool operator==(const KneeClearance&) const = default;
};

// Turns the chosen knee out (toward `outward_ms`) about the hip-target axis, as little as keeps
// the knee of a limb of bones `upper`, `lower` clear behind the plane, never past the range
// either side of the natural direction and, when `half_width` > 0, never out past it (it stops
// there, still in front of the plane: a knee at a ladder's rail puts the shin through the rail.
// The session leaves half_width 0 for now: a knee held inside the rails must be cleared by the
// hips instead, and the four-contact solve does not yet do that steadily); leaves a knee that
// is already clear as it is. Why: a climber's knee turns out rather than going through the
// rungs, and the hips can then stay close to the ladder. Closed form: the knee's height over
// the plane and its distance along the rungs are sinusoids of the swivel, so where each bound
// is met is one arccos away from its peak.
void KeepKneeBehind(const KneeClearance& plane, const glm::vec3& hip_ms, const glm::vec3& target_ms,
                    float upper, float lower, SwivelChoice* choice);
// The knee on the circle for a chosen direction (hip, target in model space; bone lengths).
glm::vec3 KneeOnCircle(const glm::vec3& hip_ms, const glm::vec3& target_ms, float upper,
                       float lower, const glm::vec3& knee_dir_ms);

// The natural policy's knee direction for the current hip, knee and target (model space) and
// the hip's parent's current rotation. `range_deg` <= 0 takes the bend's default.
// `current_end_ms`, when given, is the current end (foot, hand): a current limb that is
// straight (its knee within 5% of the limb of its own hip-end line, as a T-pose arm's elbow
// is) has no side of its own, so its swivel fades to the natural direction as well.
SwivelChoice ChooseSwivel(const NaturalBend& bend, const glm::mat3& parent_rotation_ms,
                          const glm::vec3& hip_ms, const glm::vec3& knee_ms,
                          const glm::vec3& target_ms, float limb_length, float range_deg,
                          const glm::vec3* current_end_ms = nullptr);

// The pole that makes the solver put the knee in `choice.knee_dir_ms`: off the middle of the
// hip-target segment by one limb length, far enough from the axis that rounding cannot turn it.
glm::vec3 NaturalPoleMs(const SwivelChoice& choice, const glm::vec3& hip_ms,
                        const glm::vec3& target_ms, float limb_length);

}  // namespace ikpose::anim
