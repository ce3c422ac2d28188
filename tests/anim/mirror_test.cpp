// The left/right map in every naming style and by structure, the rig's own mirror plane, the
// rest symmetry check, and mirroring poses (left onto right, flip, flip twice).
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <utility>

#include <glm/gtc/quaternion.hpp>

#include "anim/chains.h"
#include "anim/mirror.h"
#include "test_rigs.h"

namespace ikpose::anim {
namespace {

using test::HumanoidNames;

constexpr float kHeight = 1.7f;  // MakeHumanoid: feet at about 0, neck at 1.55

// The eight left/right pairs of a HumanoidNames.
std::array<std::pair<std::string, std::string>, 8> Pairs(const HumanoidNames& n) {
  return {{{n.thigh_l, n.thigh_r},
           {n.shin_l, n.shin_r},
           {n.foot_l, n.foot_r},
           {n.toe_l, n.toe_r},
           {n.clavicle_l, n.clavicle_r},
           {n.upper_arm_l, n.upper_arm_r},
           {n.forearm_l, n.forearm_r},
           {n.hand_l, n.hand_r}}};
}

MirrorMap MapOf(const Skeleton& s) {
  const Pose rest = RestPose(s);
  return BuildMirrorMap(s, rest, DetectChains(s, rest), kHeight);
}

void ExpectPairsAndCentre(const HumanoidNames& n, const Skeleton& s, const MirrorMap& map,
                          const std::string& style) {
  SCOPED_TRACE(style);
  for (const auto& [left, right] : Pairs(n)) {
    const int l = s.Find(left), r = s.Find(right);
    ASSERT_GE(l, 0);
    ASSERT_GE(r, 0);
    EXPECT_EQ(map.counterpart[l], r) << left;
    EXPECT_EQ(map.counterpart[r], l) << right;
    EXPECT_EQ(map.side[l], -1) << left;
    EXPECT_EQ(map.side[r], 1) << right;
  }
  for (const std::string& centre : {n.pelvis, n.spine, n.chest, n.neck}) {
    const int c = s.Find(centre);
    EXPECT_EQ(map.counterpart[c], c) << centre;
    EXPECT_EQ(map.side[c], 0) << centre;
  }
  EXPECT_TRUE(map.symmetric());
}

TEST(SwapSideInName, EveryStyleTheChainDetectorKnows) {
  const std::pair<const char*, const char*> cases[] = {{"thigh.L", "thigh.R"},
                                                       {"upper_arm.r", "upper_arm.l"},
                                                       {"upperarm_l", "upperarm_r"},
                                                       {"mixamorig:LeftArm", "mixamorig:RightArm"},
                                                       {"RightHandIndex1", "LeftHandIndex1"},
                                                       {"Bip01 L Thigh", "Bip01 R Thigh"},
                                                       {"left_hand", "right_hand"},
                                                       {"LEFT_HAND", "RIGHT_HAND"},
                                                       {"L_Wrist", "R_Wrist"},
                                                       {"leftfoot", "rightfoot"},
                                                       {"arm_joint_L_1", "arm_joint_R_1"},
                                                       {"spine.001", ""},  // says no side
                                                       {"Leg", ""}};
  for (const auto& [name, swapped] : cases) EXPECT_EQ(SwapSideInName(name), swapped) << name;
}

TEST(BuildMirrorMap, EmptySkeletonHasNothingToMap) {
  const MirrorMap map = MapOf(Skeleton{});
  EXPECT_EQ(map.size(), 0);
  EXPECT_TRUE(map.symmetric());
}

TEST(BuildMirrorMap, PairsByNameInEveryStyle) {
  const std::pair<const char*, HumanoidNames> styles[] = {
      {"blender", test::BlenderNames()},
      {"unreal", test::UnrealNames()},
      {"mixamo", test::MixamoNames("mixamorig:")},
      {"mixamo bare", test::MixamoNames("")},
      {"biped", test::BipedNames()},
      {"side words", test::SideWordNames()}};
  for (const auto& [style, names] : styles) {
    const Skeleton s = test::MakeHumanoid(names);
    const MirrorMap map = MapOf(s);
    ExpectPairsAndCentre(names, s, map, style);
    EXPECT_EQ(map.pairs_by_name, 8) << style;
  }
}

TEST(BuildMirrorMap, PairsByStructureWhenNamesSayNothing) {
  const HumanoidNames n = test::NumberedNames();
  const Skeleton s = test::MakeHumanoid(n);
  const MirrorMap map = MapOf(s);
  ExpectPairsAndCentre(n, s, map, "numbered");
  EXPECT_EQ(map.pairs_by_name, 0);
  EXPECT_EQ(map.pairs_by_structure, 8);
}

TEST(BuildMirrorMap, PlaneIsTheCharactersOwnNotXEqualsZero) {
  // Facing +X (left = -Z), standing at (0.4, 0, -0.3): the plane is z = -0.3, normal -Z.
  const HumanoidNames n = test::NumberedNames();
  Skeleton s = test::MakeHumanoid(n, /*facing_x=*/true);
  s.rest_ls[0].translation = {0.4f, 0.f, -0.3f};
  const MirrorMap map = MapOf(s);
  ExpectPairsAndCentre(n, s, map, "facing x, moved");
  EXPECT_NEAR(map.plane.normal_ms.z, -1.f, 1e-5f);
  EXPECT_NEAR(map.plane.Distance({0.f, 0.f, -0.3f}), 0.f, 1e-5f);
}

TEST(BuildMirrorMap, SymmetryCheckFlagsABoneMovedOffSymmetric) {
  const HumanoidNames n = test::BlenderNames();
  Skeleton s = test::MakeHumanoid(n);
  s.rest_ls[static_cast<std::size_t>(s.Find("hand.R"))].translation.y += 0.02f;
  const MirrorMap map = MapOf(s);
  ASSERT_EQ(map.asymmetric.size(), 1u);
  EXPECT_EQ(s.names[map.asymmetric[0].bone], "hand.L");
  EXPECT_EQ(s.names[map.asymmetric[0].counterpart], "hand.R");
  EXPECT_NEAR(map.asymmetric[0].off, 0.02f, 1e-3f);
  EXPECT_NEAR(map.tolerance, kSymmetryTolerancePerMeter * kHeight, 1e-7f);
}

TEST(BuildMirrorMap, SymmetryCheckFlagsACentreBoneOffThePlane) {
  const HumanoidNames n = test::BlenderNames();
  Skeleton s = test::MakeHumanoid(n);
  s.rest_ls[static_cast<std::size_t>(s.Find("neck"))].translation.x += 0.03f;
  const MirrorMap map = MapOf(s);
  ASSERT_EQ(map.asymmetric.size(), 1u);
  EXPECT_EQ(s.names[map.asymmetric[0].bone], "neck");
  EXPECT_EQ(map.asymmetric[0].counterpart, map.asymmetric[0].bone);
  EXPECT_NEAR(map.asymmetric[0].off, 0.06f, 1e-3f);  // its mirror image is twice as far
}

// Turns `bone` by `angle_deg` about `axis_ls` in its local frame.
void Turn(const Skeleton& s, Pose& pose, const std::string& bone, float angle_deg,
          const glm::vec3& axis_ls) {
  const std::size_t b = static_cast<std::size_t>(s.Find(bone));
  pose.locals_ls[b].rotation =
      pose.locals_ls[b].rotation * glm::angleAxis(glm::radians(angle_deg), glm::normalize(axis_ls));
}

TEST(MirrorPose, LeftToRightPutsTheRightHandOnTheLeftHandsMirrorImage) {
  const HumanoidNames n = test::BlenderNames();
  Skeleton s = test::MakeHumanoid(n, /*facing_x=*/true);
  s.rest_ls[0].translation = {0.4f, 0.f, -0.3f};
  // The right forearm's local axes differ from the left's (turned 90 degrees about its bone,
  // the hand's offset and rotation compensating): the mirror must not copy local rotations.
  const std::size_t fore_r = static_cast<std::size_t>(s.Find("forearm.R"));
  const std::size_t hand_r = static_cast<std::size_t>(s.Find("hand.R"));
  const glm::quat axes = glm::angleAxis(glm::radians(90.f), glm::vec3(1.f, 0.f, 0.f));
  s.rest_ls[fore_r].rotation = axes;
  s.rest_ls[hand_r].translation = glm::inverse(axes) * s.rest_ls[hand_r].translation;
  s.rest_ls[hand_r].rotation = glm::inverse(axes);
  const Pose rest = RestPose(s);
  const MirrorMap map = BuildMirrorMap(s, rest, DetectChains(s, rest), kHeight);
  ASSERT_TRUE(map.symmetric());

  Pose pose = rest;
  Turn(s, pose, "upper_arm.L", 50.f, {0.3f, 0.2f, 1.f});
  Turn(s, pose, "forearm.L", 70.f, {0.f, 1.f, 0.4f});
  Turn(s, pose, "hand.L", 20.f, {1.f, 0.f, 0.f});
  UpdateModels(s, pose);
  const glm::vec3 left_hand = PositionMs(pose, s.Find("hand.L"));
  const glm::vec3 left_toe = PositionMs(pose, s.Find("toe.L"));
  MirrorPose(s, rest, map, MirrorMode::kLeftToRight, pose);
  EXPECT_LT(glm::length(PositionMs(pose, s.Find("hand.R")) - map.plane.Reflect(left_hand)), 1e-5f);
  EXPECT_LT(glm::length(PositionMs(pose, s.Find("hand.L")) - left_hand), 1e-6f);  // kept
  // The hand's whole frame mirrors: its toe-side child direction too.
  const glm::quat left_turn =
      RotationMs(pose, s.Find("hand.L")) * glm::inverse(RotationMs(rest, s.Find("hand.L")));
  const glm::quat right_turn =
      RotationMs(pose, s.Find("hand.R")) * glm::inverse(RotationMs(rest, s.Find("hand.R")));
  const glm::quat expected = ReflectRotation(left_turn, map.plane.normal_ms);
  EXPECT_GT(std::abs(glm::dot(right_turn, expected)), 1.f - 1e-6f);
  EXPECT_LT(glm::length(PositionMs(pose, s.Find("toe.L")) - left_toe), 1e-6f);  // legs at rest
}

TEST(MirrorPose, FlipReflectsAMovedPelvisAndFlippingTwiceGivesThePoseBack) {
  const HumanoidNames n = test::UnrealNames();
  Skeleton s = test::MakeHumanoid(n, /*facing_x=*/true);
  s.rest_ls[0].translation = {0.4f, 0.f, -0.3f};
  const Pose rest = RestPose(s);
  const MirrorMap map = BuildMirrorMap(s, rest, DetectChains(s, rest), kHeight);
  Pose pose = rest;
  const std::size_t pelvis = static_cast<std::size_t>(s.Find("pelvis"));
  pose.locals_ls[pelvis].translation += glm::vec3(0.05f, -0.1f, 0.12f);
  for (int b = 1; b < s.size(); ++b) {  // every bone turned some different way
    const float k = static_cast<float>(b);
    Turn(s, pose, s.names[static_cast<std::size_t>(b)], 7.f * k - 40.f,
         {std::sin(k), std::cos(1.3f * k), 0.5f});
  }
  UpdateModels(s, pose);
  const Pose before = pose;
  const glm::vec3 pelvis_ms = PositionMs(pose, static_cast<int>(pelvis));
  MirrorPose(s, rest, map, MirrorMode::kFlip, pose);
  EXPECT_LT(glm::length(PositionMs(pose, static_cast<int>(pelvis)) - map.plane.Reflect(pelvis_ms)),
            1e-5f);
  EXPECT_LT(glm::length(PositionMs(pose, s.Find("hand_r")) -
                        map.plane.Reflect(PositionMs(before, s.Find("hand_l")))),
            1e-5f);
  MirrorPose(s, rest, map, MirrorMode::kFlip, pose);
  for (int b = 0; b < s.size(); ++b) {
    const std::size_t i = static_cast<std::size_t>(b);
    EXPECT_GT(std::abs(glm::dot(pose.locals_ls[i].rotation, before.locals_ls[i].rotation)),
              1.f - 1e-6f)
        << s.names[i];
    EXPECT_LT(glm::length(PositionMs(pose, b) - PositionMs(before, b)), 1e-5f * kHeight)
        << s.names[i];
  }
}

TEST(MirrorPose, OffLeavesThePoseAlone) {
  const Skeleton s = test::MakeHumanoid(test::BlenderNames());
  const Pose rest = RestPose(s);
  const MirrorMap map = BuildMirrorMap(s, rest, DetectChains(s, rest), kHeight);
  Pose pose = rest;
  Turn(s, pose, "forearm.L", 60.f, {0.f, 0.f, 1.f});
  UpdateModels(s, pose);
  const Pose before = pose;
  MirrorPose(s, rest, map, MirrorMode::kOff, pose);
  for (std::size_t i = 0; i < pose.locals_ls.size(); ++i) {
    EXPECT_EQ(pose.locals_ls[i].rotation, before.locals_ls[i].rotation);
    EXPECT_EQ(pose.locals_ls[i].translation, before.locals_ls[i].translation);
  }
}

TEST(MirrorMode, NamesRoundTripAndOthersAreRefused) {
  for (MirrorMode m :
       {MirrorMode::kOff, MirrorMode::kLeftToRight, MirrorMode::kRightToLeft, MirrorMode::kFlip}) {
    MirrorMode parsed = MirrorMode::kOff;
    EXPECT_TRUE(ParseMirrorMode(MirrorModeName(m), &parsed));
    EXPECT_EQ(parsed, m);
  }
  MirrorMode parsed = MirrorMode::kFlip;
  EXPECT_FALSE(ParseMirrorMode("left", &parsed));
  EXPECT_FALSE(ParseMirrorMode("", &parsed));
  EXPECT_EQ(parsed, MirrorMode::kFlip);
}

}  // namespace
}  // namespace ikpose::anim
