// Limb chains: which three joints make each arm and leg, found from names or from structure.
//
// What: a chain is upper -> lower -> end (hip -> knee -> foot, shoulder -> elbow -> hand).
// `DetectChains` finds left/right arms and legs:
//   1. by name, for the common conventions: Blender (`thigh.L`, `shin.L`, `foot.L`), Unreal
//      (`thigh_l`, `calf_l`, `foot_l`, `upperarm_l`, `lowerarm_l`, `hand_l`), Mixamo
//      (`LeftUpLeg`, `LeftLeg`, `LeftFoot`, `LeftArm`, `LeftForeArm`, `LeftHand`, with or
//      without `mixamorig:`), and any name whose words say left/right (`Left`, `_L`, `.L`,
//      `L_`...) and foot/ankle or hand/wrist: the end joint, its parent and grandparent, all
//      on the same side. A rig whose foot is not a child of the shin (an IK-target rig) gets a
//      leg whose end is that foot bone, wherever it hangs: the end point is where the foot sat
//      at rest, carried by the shin. An arm with no hand bone ends at the forearm's child
//      where most of its children start (the wrist).
//   2. by structure, for chains the names did not give (unnamed joints): two sibling branches
//      that mirror each other are a pair of limbs; the lowest pair is the legs, the next pair
//      up the tree the arms; in each branch, the three consecutive joints with the longest
//      shorter bone are the chain. Left is up x forward, forward from the toes and the knees
//      (+Z when the legs do not say), up = +Y (glTF).
// `ResolveChain` turns a command-line chain name into a chain: a limb name (`left_leg`...),
// the end bone of a detected limb, or any other bone (its parent and grandparent).
// Why: `ikpose pose --target left_leg=...` and the viewer's hand/foot handles.
// Limits: only joints (bones some skin uses) are considered, or every node of a file without
// a skin. A quadruped's front legs are its "arms".
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <glm/glm.hpp>

#include "anim/knee_policy.h"
#include "anim/skeleton.h"

namespace ikpose::anim {

enum class Limb : int { kLeftArm = 0, kRightArm = 1, kLeftLeg = 2, kRightLeg = 3 };
inline constexpr std::array<Limb, 4> kLimbs = {Limb::kLeftArm, Limb::kRightArm, Limb::kLeftLeg,
                                               Limb::kRightLeg};
// "left_arm", "right_arm", "left_leg", "right_leg".
std::string_view LimbName(Limb limb);

struct LimbChain {
  std::string name;  // the limb name, or the end bone's name for a custom chain
  int upper = -1;    // hip / shoulder: joint a
  int lower = -1;    // knee / elbow: joint b, a child of `upper`
  int end = -1;      // foot / hand: joint c
  // False for a foot that is not a child of `lower` (an IK-target rig): the chain's end point
  // is then `lower`'s model matrix applied to `end_offset_ls`, and the end bone is moved there.
  bool end_is_child = true;
  glm::vec3 end_offset_ls{0.f};  // rest position of `end` in `lower`'s frame
  float upper_length = 0.f;      // |b - a| at rest, model space
  float lower_length = 0.f;      // |c - b| at rest, model space
  std::string found_by;          // "names", "structure" or "custom"
  NaturalBend natural;           // the rig's natural bend (detected limbs; custom: not valid)
  bool valid() const { return upper >= 0 && lower >= 0 && end >= 0; }
};

struct ChainSet {
  std::array<LimbChain, 4> limbs;       // indexed by Limb; invalid when not found
  glm::vec3 forward_ms{0.f, 0.f, 1.f};  // the facing direction used for left/right
  std::vector<std::string> notes;       // limbs that look short, e.g. "left_leg: ... only 1 bone"
  const LimbChain& operator[](Limb limb) const { return limbs[static_cast<int>(limb)]; }
  LimbChain& operator[](Limb limb) { return limbs[static_cast<int>(limb)]; }
};

// `rest` is the rest pose of `skeleton` (RestPose).
ChainSet DetectChains(const Skeleton& skeleton, const Pose& rest);

// Each detected limb's natural bend (knee_policy.h) from `rest` and `set.forward_ms`; called by
// DetectChains, and again once the torso's facing is known (DetectRig).
void SetNaturalBends(const Skeleton& skeleton, const Pose& rest, ChainSet& set);

// Where the chain's three points are in `pose`: the upper and lower joints, and the end point
// (the end joint, or `end_offset_ls` carried by the lower joint for a detached end).
glm::vec3 EndPositionMs(const LimbChain& chain, const Pose& pose);

// Fills the lengths and offset of a chain from its three bones in `rest`.
void MeasureChain(const Skeleton& skeleton, const Pose& rest, LimbChain& chain);

// A chain from a name: a limb name, the end bone of a detected limb, or any bone with a parent
// and a grandparent. Returns false with the reason in *error.
bool ResolveChain(const Skeleton& skeleton, const Pose& rest, const ChainSet& chains,
                  std::string_view name, LimbChain* chain, std::string* error);

// Words of a bone name, lower case, split at separators, case changes and digits, with the
// `mixamorig:`-style namespace removed: "mixamorig:LeftUpLeg" -> {"left", "up", "leg"}.
std::vector<std::string> NameWords(std::string_view name);
// [begin, end) of each word of `name`, split as NameWords splits (namespace not removed): for
// editing a name word by word (anim/mirror.h swaps side words in place).
std::vector<std::pair<std::size_t, std::size_t>> NameWordSpans(std::string_view name);
// -1 left, +1 right, 0 when the name does not say.
int NameSide(std::string_view name);

}  // namespace ikpose::anim
