// Joint ranges: how far each humanoid joint turns from its rest, as swing and twist limits.
//
// What: one table (kJointTable in joint_ranges.cpp, with the anatomy it comes from) gives each
// part of a humanoid (pelvis, spine, chest, neck, head, clavicle, shoulder, elbow, wrist, hip,
// knee, ankle, toe) a range about the rest pose:
//   - swing: how far the bone's axis (joint toward its child) may turn away from its rest
//     direction; `toward` when it turns toward the part's reference direction (the torso's
//     facing: flexion of a hip, the spine, the neck; up: dorsiflexion of an ankle, elevation of
//     a clavicle), `away` the opposite way, `side` across; between them the limit follows an
//     ellipse, so a diagonal swing gets a limit between the two it lies between;
//   - twist: how far the bone may turn about its own axis, either way.
// `BuildJointRanges` gives every bone of the humanoid map and the limb chains its part and
// range, with its rest axis and reference in its parent's frame; the spine's range is the
// whole spine's (from the pelvis to the chest, chest included) split evenly over its bones, and
// the neck's likewise over the neck and head. `ClampToRange` brings a local rotation back
// within its bone's range, keeping the direction of the swing and the sign of the twist.
// Why: grabbed heads and spines, FK rings and solves stop where a body stops, and the body
// solve spreads a bend over the spine within what each bone can give.
// Limits: ranges are about the rig's rest, so a T-pose shoulder's range is centred on a level
// arm; the shoulder and wrist are taken as symmetric cones wide enough for any rest (their
// anatomical reference depends on a palm direction rigs do not state). The pelvis is the body's
// root and has no range. Knee and elbow hinges stay the two-bone solver's hinge limits; their
// table rows bound only what FK turns give them. Up is +Y.
#pragma once

#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "anim/chains.h"
#include "anim/humanoid.h"
#include "anim/skeleton.h"

namespace ikpose::anim {

enum class JointPart : int {
  kNone = -1,
  kPelvis = 0,
  kSpine,
  kChest,
  kNeck,
  kHead,
  kClavicle,
  kShoulder,
  kElbow,
  kWrist,
  kHip,
  kKnee,
  kAnkle,
  kToe,
};
inline constexpr int kJointPartCount = 13;

// "pelvis", "spine", ... "toe"; "" for kNone.
const char* JointPartName(JointPart part);

// Which way is "toward" for a part's swing.
enum class RangeReference { kFacing, kUp };

struct JointRange {
  float toward_deg = 180.f;  // swing toward the reference direction
  float away_deg = 180.f;    // swing away from it
  float side_deg = 180.f;    // swing across it, either way
  float twist_deg = 180.f;   // twist about the bone's axis, either way
  RangeReference reference = RangeReference::kFacing;
  bool limited() const {
    return toward_deg < 180.f || away_deg < 180.f || side_deg < 180.f || twist_deg < 180.f;
  }
};

// The table's row for `part` (for the spine and neck: the whole spine's and neck's range,
// before it is split over their bones).
const JointRange& TableRange(JointPart part);

// One bone's range, ready to clamp its local rotation.
struct BoneRange {
  JointPart part = JointPart::kNone;
  JointRange range;                       // this bone's share
  glm::quat rest_ls{1.f, 0.f, 0.f, 0.f};  // the rest local rotation
  glm::vec3 axis_ps{0.f, 1.f, 0.f};       // unit: the bone's rest direction, parent frame
  glm::vec3 reference_ps{0.f, 0.f, 1.f};  // unit, perpendicular to axis_ps: "toward"
};

struct JointRanges {
  std::vector<BoneRange> bones;  // one per skeleton bone; part kNone where there is no range
  // Null for a bone without a range (or out of bounds).
  const BoneRange* Find(int bone) const;
};

// Every mapped bone's range on `rest`; the facing is the humanoid map's (else the chains').
JointRanges BuildJointRanges(const Skeleton& skeleton, const Pose& rest, const ChainSet& chains,
                             const HumanoidMap& humanoid);

struct RangeClamp {
  glm::quat rotation_ls{1.f, 0.f, 0.f, 0.f};  // within the range
  float swing_deg = 0.f;                      // the asked rotation's swing from rest
  float twist_deg = 0.f;                      // and its signed twist
  float swing_limit_deg = 0.f;                // the limit in the swing's direction
  bool swing_clamped = false;
  bool twist_clamped = false;
  bool at_limit() const { return swing_clamped || twist_clamped; }
};

// The swing limit (degrees) for turning the bone's axis from its rest toward `direction_ps`
// (any vector; only its part across the rest axis counts).
float SwingLimitDeg(const BoneRange& bone, const glm::vec3& direction_ps);

// `rotation_ls` brought within `bone`'s range: the swing from rest shortened to its limit in
// the same direction, the twist to +-twist. A rotation within the range comes back unchanged.
RangeClamp ClampToRange(const BoneRange& bone, const glm::quat& rotation_ls);

}  // namespace ikpose::anim
