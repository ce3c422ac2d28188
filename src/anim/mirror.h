// Mirror: a rig's left/right map, its own mirror plane, a rest symmetry check, and mirroring a
// pose across that plane (left side onto the right, right onto the left, or both: a flip).
//
// What: `BuildMirrorMap` gives every bone its counterpart (itself for a centre bone):
//   1. by name, in every style the chain detector knows: the side word swapped in place
//      (`thigh.L`/`thigh.R`, `thigh_l`, `LeftArm`/`mixamorig:RightArm`, `Bip01 L Thigh`,
//      `left_hand`, `leftfoot`...), else the same words with a trailing number ignored
//      (`b_LeftLeg01_015`/`b_RightLeg01_019`);
//   2. the detected limb chains (which may have been found by structure);
//   3. by structure for the rest: a bone's rest joint mirrored across the plane, matched to the
//      bone of the same depth and child count nearest to it (both ways); a bone nearest to its
//      own mirror image is a centre bone.
// The plane is the character's own left/right plane: through the midpoints of the counterpart
// pairs, its normal the mean left-minus-right direction (no assumption that it is x = 0); with
// no pair at all, the chains' facing gives the normal. The symmetry check lists the bones whose
// mirrored rest joint is farther than `tolerance` (kSymmetryTolerancePerMeter per metre of
// height) from their counterpart's, including bones without a counterpart that are off the plane.
// `MirrorPose` works on model-space deltas from rest: D = G * G_rest^-1 of the source bone,
// reflected (M * D * M for the reflection M), put on the written bone's own rest
// (G' = D' * G'_rest), then back to local transforms. So a rig whose left and right local axes
// differ mirrors correctly, and a moved pelvis or root is reflected across the plane.
// Why: artists pose one side and copy it over, or flip a whole pose (issue "posing kit").
// Limits: an asymmetric rest is mirrored anyway (not refused): the deltas keep each side's own
// rest shape, so the result is the best mirror there is, and the asymmetric bones are often
// ones nobody poses (a prop, a hair bone, a sword in one hand); the callers say which bones
// are off and by how much, so a user knows the ends will be off by about that much. Bones are
// written only through rotations (and translations where the source bone was moved from its
// rest translation); scales stay. Centre bones are left alone by left-to-right and
// right-to-left (as Blender's X-axis mirror), flipped by flip.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "anim/chains.h"
#include "anim/skeleton.h"

namespace ikpose::anim {

enum class MirrorMode { kOff, kLeftToRight, kRightToLeft, kFlip };

// "off", "left-to-right", "right-to-left", "flip".
std::string_view MirrorModeName(MirrorMode mode);
// The inverse of MirrorModeName; false for anything else.
bool ParseMirrorMode(std::string_view text, MirrorMode* mode);

// A rest joint and its mirror image may differ by this much per metre (model unit) of the
// character's height and still count as symmetric: 1 mm for a 1 m character, well below what
// shows on screen, and the precision the mirrored ends are promised to land with.
inline constexpr float kSymmetryTolerancePerMeter = 0.001f;

struct MirrorPlane {
  glm::vec3 point_ms{0.f};
  glm::vec3 normal_ms{1.f, 0.f, 0.f};  // unit, toward the character's left

  glm::vec3 Reflect(const glm::vec3& p_ms) const {
    return p_ms - 2.f * glm::dot(p_ms - point_ms, normal_ms) * normal_ms;
  }
  // Signed distance, positive on the character's left.
  float Distance(const glm::vec3& p_ms) const { return glm::dot(p_ms - point_ms, normal_ms); }
};

// A bone whose mirrored rest joint misses its counterpart's by `off` model units.
struct AsymmetricBone {
  int bone = -1;
  int counterpart = -1;  // == bone for a bone without a counterpart (off the plane)
  float off = 0.f;
};

struct MirrorMap {
  std::vector<int> counterpart;  // per bone; itself for a centre bone (or one without a pair)
  std::vector<int> side;         // -1 left, +1 right, 0 centre
  MirrorPlane plane;
  int pairs_by_name = 0;
  int pairs_by_structure = 0;              // chains and rest positions
  float tolerance = 0.f;                   // model units: kSymmetryTolerancePerMeter * height
  std::vector<AsymmetricBone> asymmetric;  // the rest symmetry check, in bone order

  bool symmetric() const { return asymmetric.empty(); }
  int size() const { return static_cast<int>(counterpart.size()); }
};

// `rest` is RestPose(skeleton); `height` the character's height in model units (sets the
// tolerance and how far a structural match may be).
MirrorMap BuildMirrorMap(const Skeleton& skeleton, const Pose& rest, const ChainSet& chains,
                         float height);

// The counterpart name of `name` with its side words swapped ("thigh.L" -> "thigh.R"); "" when
// the name does not say a side.
std::string SwapSideInName(std::string_view name);

// True when `mode` rewrites `bone` (flip: every bone; left-to-right: the right side...).
bool MirrorWrites(const MirrorMap& map, MirrorMode mode, int bone);

// Mirrors `pose` in place (see the header comment); its model matrices are updated.
void MirrorPose(const Skeleton& skeleton, const Pose& rest, const MirrorMap& map, MirrorMode mode,
                Pose& pose);

// The rotation M * R * M for the reflection M across a plane of unit normal `normal`.
glm::quat ReflectRotation(const glm::quat& rotation, const glm::vec3& normal);

}  // namespace ikpose::anim
