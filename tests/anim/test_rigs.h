// Small hand-built skeletons for the anim tests.
#pragma once

#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "anim/model.h"
#include "anim/skeleton.h"

namespace ikpose::anim::test {

// Adds a joint at `offset` from its parent (identity rotation, unit scale); returns its index.
int AddBone(Skeleton& s, const std::string& name, int parent, const glm::vec3& offset,
            bool joint = true);

struct HumanoidNames {
  std::string pelvis, spine, chest, neck;
  std::string thigh_l, shin_l, foot_l, toe_l, thigh_r, shin_r, foot_r, toe_r;
  std::string clavicle_l, upper_arm_l, forearm_l, hand_l;
  std::string clavicle_r, upper_arm_r, forearm_r, hand_r;
};

// A small humanoid facing +Z (left = +X), knees slightly forward, arms out to the sides.
// With `facing_x`, the whole rig is turned to face +X (left = -Z). Empty names are kept empty
// (unnamed joints); duplicates are allowed.
Skeleton MakeHumanoid(const HumanoidNames& names, bool facing_x = false);

HumanoidNames BlenderNames();
HumanoidNames UnrealNames();
HumanoidNames MixamoNames(const std::string& prefix);
HumanoidNames NumberedNames();  // "joint0", "joint1"... (says nothing)
HumanoidNames BipedNames();     // 3ds Max Biped: "Bip01 L Thigh", "Bip01 R Forearm"...
HumanoidNames SideWordNames();  // "left_thigh", "right_hand"...

// MakeHumanoid as a model with its limb chains detected, as a loaded file has them.
Model MakeHumanoidModel(const HumanoidNames& names = UnrealNames());

}  // namespace ikpose::anim::test
