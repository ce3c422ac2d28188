#include "anim/chains.h"

#include <gtest/gtest.h>

#include "test_rigs.h"

namespace ikpose::anim {
namespace {

using test::AddBone;
using test::HumanoidNames;
using test::MakeHumanoid;

std::string Joints(const Skeleton& s, const LimbChain& c) {
  if (!c.valid()) return "(none)";
  return s.names[c.upper] + " " + s.names[c.lower] + " " + s.names[c.end];
}

void ExpectHumanoidChains(const Skeleton& s, const HumanoidNames& n, const char* found_by) {
  const ChainSet chains = DetectChains(s, RestPose(s));
  EXPECT_EQ(Joints(s, chains[Limb::kLeftLeg]), n.thigh_l + " " + n.shin_l + " " + n.foot_l);
  EXPECT_EQ(Joints(s, chains[Limb::kRightLeg]), n.thigh_r + " " + n.shin_r + " " + n.foot_r);
  EXPECT_EQ(Joints(s, chains[Limb::kLeftArm]), n.upper_arm_l + " " + n.forearm_l + " " + n.hand_l);
  EXPECT_EQ(Joints(s, chains[Limb::kRightArm]), n.upper_arm_r + " " + n.forearm_r + " " + n.hand_r);
  for (const LimbChain& c : chains.limbs) {
    EXPECT_EQ(c.found_by, found_by);
    EXPECT_TRUE(c.end_is_child);
    EXPECT_GT(c.upper_length, 0.f);
    EXPECT_GT(c.lower_length, 0.f);
  }
}

TEST(NameWords, SplitsSeparatorsCaseAndDigitsAndDropsTheNamespace) {
  EXPECT_EQ(NameWords("mixamorig:LeftUpLeg"), (std::vector<std::string>{"left", "up", "leg"}));
  EXPECT_EQ(NameWords("b_LeftFoot01_017"),
            (std::vector<std::string>{"b", "left", "foot", "01", "017"}));
  EXPECT_EQ(NameWords("thigh.L"), (std::vector<std::string>{"thigh", "l"}));
  EXPECT_EQ(NameWords("LThigh"), (std::vector<std::string>{"l", "thigh"}));
  EXPECT_TRUE(NameWords("").empty());
}

TEST(NameSide, ReadsEveryConvention) {
  for (const char* left : {"thigh.L", "thigh_l", "LeftUpLeg", "mixamorig:LeftFoot", "L_Hand",
                           "leg_joint_L_1", "B_Hip_Left", "Bip01 L Thigh", "leftfoot"}) {
    EXPECT_EQ(NameSide(left), -1) << left;
  }
  for (const char* right : {"thigh.R", "calf_r", "RightArm", "hand_R", "b_RightLeg01_019"}) {
    EXPECT_EQ(NameSide(right), 1) << right;
  }
  for (const char* none : {"spine", "Hips", "nodes[7]", "root", "LR"}) {
    EXPECT_EQ(NameSide(none), 0) << none;
  }
}

TEST(DetectChains, EmptySkeletonHasNoChains) {
  const Skeleton s;
  const ChainSet chains = DetectChains(s, RestPose(s));
  for (const LimbChain& c : chains.limbs) EXPECT_FALSE(c.valid());
}

TEST(DetectChains, BlenderNames) {
  const HumanoidNames n = test::BlenderNames();
  ExpectHumanoidChains(MakeHumanoid(n), n, "names");
}

TEST(DetectChains, UnrealNames) {
  const HumanoidNames n = test::UnrealNames();
  ExpectHumanoidChains(MakeHumanoid(n), n, "names");
}

TEST(DetectChains, MixamoNamesWithAndWithoutPrefix) {
  for (const char* prefix : {"", "mixamorig:"}) {
    const HumanoidNames n = test::MixamoNames(prefix);
    ExpectHumanoidChains(MakeHumanoid(n), n, "names");
  }
}

TEST(DetectChains, UnnamedJointsByStructureFacingZ) {
  const HumanoidNames n = test::NumberedNames();
  const Skeleton s = MakeHumanoid(n);
  ExpectHumanoidChains(s, n, "structure");
  const ChainSet chains = DetectChains(s, RestPose(s));
  EXPECT_NEAR(chains.forward_ms.z, 1.f, 1e-3f);
}

TEST(DetectChains, UnnamedJointsByStructureFacingX) {
  // Turned to face +X, the character's left is -Z: left/right must follow the facing.
  const HumanoidNames n = test::NumberedNames();
  const Skeleton s = MakeHumanoid(n, /*facing_x=*/true);
  ExpectHumanoidChains(s, n, "structure");
  const ChainSet chains = DetectChains(s, RestPose(s));
  EXPECT_NEAR(chains.forward_ms.x, 1.f, 1e-3f);
  EXPECT_LT(PositionMs(RestPose(s), chains[Limb::kLeftLeg].upper).z, 0.f);
}

TEST(DetectChains, FootThatIsNotAChildOfTheShin) {
  // An IK-target rig: Foot.L hangs off the root, not off the shin.
  Skeleton s;
  const int root = AddBone(s, "Bone", -1, {0, 0, 0});
  const int foot_l = AddBone(s, "Foot.L", root, {0.3f, 0.05f, 0.f});
  const int body = AddBone(s, "Body", root, {0, 1.0f, 0});
  const int upper = AddBone(s, "UpperLeg.L", body, {0.3f, 0.f, 0.f});
  const int lower = AddBone(s, "LowerLeg.L", upper, {0.f, -0.45f, 0.05f});
  const ChainSet chains = DetectChains(s, RestPose(s));
  const LimbChain& leg = chains[Limb::kLeftLeg];
  ASSERT_TRUE(leg.valid());
  EXPECT_EQ(leg.upper, upper);
  EXPECT_EQ(leg.lower, lower);
  EXPECT_EQ(leg.end, foot_l);
  EXPECT_FALSE(leg.end_is_child);
  // The end point is where the foot sat at rest, in the shin's frame.
  EXPECT_NEAR(leg.end_offset_ls.y, 0.05f - 0.55f, 1e-5f);
  EXPECT_NEAR(leg.end_offset_ls.z, -0.05f, 1e-5f);
}

TEST(DetectChains, ForearmWithoutAHandEndsWhereMostChildrenStart) {
  Skeleton s;
  const int chest = AddBone(s, "Torso", -1, {0, 2, 0});
  const int upper = AddBone(s, "UpperArm.L", chest, {0.5f, 0, 0});
  const int lower = AddBone(s, "LowerArm.L", upper, {0.6f, 0, 0});
  AddBone(s, "Thumb.L", lower, {0.5f, 0.2f, 0.1f});
  const int palm = AddBone(s, "Palm1.L", lower, {0.6f, 0, 0});
  AddBone(s, "Palm2.L", lower, {0.6f, 0, 0});
  const ChainSet chains = DetectChains(s, RestPose(s));
  const LimbChain& arm = chains[Limb::kLeftArm];
  ASSERT_TRUE(arm.valid());
  EXPECT_EQ(arm.upper, upper);
  EXPECT_EQ(arm.end, palm);
}

TEST(DetectChains, HandWithoutSideBonesAboveIsANoteNotAChain) {
  Skeleton s;
  const int root = AddBone(s, "root", -1, {0, 1, 0});
  const int body = AddBone(s, "body_low", root, {0, 0.1f, 0});
  AddBone(s, "hand_L", body, {0.8f, 0.5f, 0});
  AddBone(s, "hand_R", body, {-0.8f, 0.5f, 0});
  const ChainSet chains = DetectChains(s, RestPose(s));
  EXPECT_FALSE(chains[Limb::kLeftArm].valid());
  ASSERT_FALSE(chains.notes.empty());
  EXPECT_NE(chains.notes[0].find("shorter than 2 bones"), std::string::npos);
}

TEST(DetectChains, OneBoneLegsAreNotedByStructure) {
  Skeleton s;
  const int root = AddBone(s, "root", -1, {0, 0.2f, 0});
  const int hip_l = AddBone(s, "hip_L", root, {0, 0, 0});
  AddBone(s, "leg_L", hip_l, {0.5f, 0.1f, 0});
  const int hip_r = AddBone(s, "hip_R", root, {0, 0, 0});
  AddBone(s, "leg_R", hip_r, {-0.5f, 0.1f, 0});
  AddBone(s, "body", root, {0, 0.5f, 0});
  const ChainSet chains = DetectChains(s, RestPose(s));
  EXPECT_FALSE(chains[Limb::kLeftLeg].valid());
  ASSERT_EQ(chains.notes.size(), 2u);
  EXPECT_NE(chains.notes[0].find("hip_"), std::string::npos);
}

TEST(DetectChains, PlainNodesAreIgnoredWhenTheSkeletonHasJoints) {
  const HumanoidNames n = test::BlenderNames();
  Skeleton s = MakeHumanoid(n);
  // A mesh node named like a foot, next to the armature.
  AddBone(s, "foot.L", 0, {3, 0, 0}, false);
  s.flags.back() = kBoneHasMesh;
  ExpectHumanoidChains(s, n, "names");
}

TEST(ResolveChain, LimbNamesEndBonesAndCustomChains) {
  const HumanoidNames n = test::UnrealNames();
  const Skeleton s = MakeHumanoid(n);
  const Pose rest = RestPose(s);
  const ChainSet chains = DetectChains(s, rest);
  LimbChain c;
  std::string error;
  ASSERT_TRUE(ResolveChain(s, rest, chains, "left_leg", &c, &error)) << error;
  EXPECT_EQ(s.names[c.end], "foot_l");
  ASSERT_TRUE(ResolveChain(s, rest, chains, "hand_r", &c, &error)) << error;
  EXPECT_EQ(c.name, "right_arm");
  ASSERT_TRUE(ResolveChain(s, rest, chains, "ball_l", &c, &error)) << error;
  EXPECT_EQ(c.found_by, "custom");
  EXPECT_EQ(s.names[c.upper], "calf_l");
  EXPECT_EQ(s.names[c.lower], "foot_l");
  EXPECT_FALSE(ResolveChain(s, rest, chains, "nope", &c, &error));
  EXPECT_NE(error.find("nope"), std::string::npos);
  EXPECT_FALSE(ResolveChain(s, rest, chains, "pelvis", &c, &error));  // no grandparent
}

TEST(ResolveChain, UndetectedLimbIsAnError) {
  Skeleton s;
  AddBone(s, "a", -1, {0, 0, 0});
  const Pose rest = RestPose(s);
  LimbChain c;
  std::string error;
  EXPECT_FALSE(ResolveChain(s, rest, DetectChains(s, rest), "left_arm", &c, &error));
  EXPECT_NE(error.find("left_arm"), std::string::npos);
}

}  // namespace
}  // namespace ikpose::anim
