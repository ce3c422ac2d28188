// Joint limits in the posing session: what the user turns and what the solves give, held to the
// joint ranges (anim/joint_ranges.h), and the joints that sit at their limit.
//
// What: LimitRotation brings one bone's local rotation within its range (FK rings, grabbing the
// body). LimitLimb holds a solved limb's upper bone's swing (shoulder, hip; its twist, which
// places the knee, is the knee policy's swivel range) and its lower bone's twist to their ranges;
// the lower bone's bend stays the two-bone solver's hinge, and the end keeps the model rotation the
// solve gave it (a held foot stays flat). JointsAtLimit lists every ranged bone whose bend or twist
// is at (or, with limits off, past) its limit; LimitSentence says it in plain words ("Neck at its
// limit: 23° of 23° bend"). Why: a head grabbed and dragged stops where a neck stops; a hip does
// not swing a leg behind the back; the user sees which joint stopped the pose. Limits: ranges are
// about the rig's rest (see anim/joint_ranges.h). A limb whose shoulder or hip stops at its limit
// may end short of its target; the report says which joint stopped it.
#pragma once

#include <string>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "anim/model.h"

namespace ikpose::scene {

// How close (degrees) a turn must come to its limit to count as at it.
inline constexpr float kAtLimitToleranceDeg = 0.05f;

struct JointAtLimit {
  int bone = -1;
  anim::JointPart part = anim::JointPart::kNone;
  bool twist = false;     // the twist about the bone's axis, else its bend (swing)
  float deg = 0.f;        // how far it is turned from rest (unsigned)
  float limit_deg = 0.f;  // its limit in that direction
  bool past() const { return deg > limit_deg + kAtLimitToleranceDeg; }  // only with limits off
};

// `rotation_ls` for `bone` within its range (unchanged for a bone without one).
glm::quat LimitRotation(const anim::Model& model, int bone, const glm::quat& rotation_ls);

// Holds a solved limb to its ranges (see above); true when something moved. `pose.models_ms`
// must be up to date; they are kept up to date.
bool LimitLimb(const anim::Model& model, const anim::LimbChain& chain, anim::Pose& pose);

// Every ranged bone at its limit in `pose` (and, when `past`, beyond it: with limits off),
// skeleton order, bend before twist. With limits on, a bone beyond its range that nothing
// limits (a hand the grip turns, a clip's pose) is not at a limit and is not listed.
std::vector<JointAtLimit> JointsAtLimit(const anim::Model& model, const anim::Pose& pose,
                                        bool past);

// "Neck at its limit: 23° of 23° bend" (`degree` is the unit's text: "°" or " deg"); "past its
// limit" when it is beyond.
std::string LimitSentence(const anim::Model& model, const JointAtLimit& joint,
                          const char* degree = "°");

}  // namespace ikpose::scene
