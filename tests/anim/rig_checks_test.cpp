#include "anim/rig_checks.h"

#include <gtest/gtest.h>

#include "test_rigs.h"

namespace ikpose::anim {
namespace {

using test::AddBone;

bool Mentions(const std::vector<std::string>& warnings, const std::string& what) {
  for (const std::string& w : warnings) {
    if (w.find(what) != std::string::npos) return true;
  }
  return false;
}

std::vector<std::string> Check(const Skeleton& s) {
  const Pose rest = RestPose(s);
  return CheckRig(s, rest, DetectChains(s, rest));
}

TEST(CheckRig, CleanHumanoidHasNoWarnings) {
  EXPECT_TRUE(Check(test::MakeHumanoid(test::UnrealNames())).empty());
}

TEST(CheckRig, StraightChainInTheRestPose) {
  Skeleton s = test::MakeHumanoid(test::UnrealNames());
  s.rest_ls[s.Find("lowerarm_l")].translation.z = 0.f;
  s.rest_ls[s.Find("hand_l")].translation.z = 0.f;
  const auto warnings = Check(s);
  EXPECT_TRUE(Mentions(warnings, "left_arm: straight")) << ::testing::PrintToString(warnings);
  EXPECT_FALSE(Mentions(warnings, "right_arm: straight"));
}

TEST(CheckRig, NonUniformAndNegativeScaleAboveAChain) {
  Skeleton s = test::MakeHumanoid(test::UnrealNames());
  s.rest_ls[s.Find("pelvis")].scale = {1.f, 2.f, 1.f};
  auto warnings = Check(s);
  EXPECT_TRUE(Mentions(warnings, "left_leg: non-uniform scale"))
      << ::testing::PrintToString(warnings);
  s.rest_ls[s.Find("pelvis")].scale = {-1.f, 1.f, 1.f};
  warnings = Check(s);
  EXPECT_TRUE(Mentions(warnings, "negative scale")) << ::testing::PrintToString(warnings);
}

TEST(CheckRig, LeftRightAsymmetry) {
  Skeleton s = test::MakeHumanoid(test::UnrealNames());
  s.rest_ls[s.Find("calf_r")].translation.y = -0.6f;
  EXPECT_TRUE(Mentions(Check(s), "asymmetry"));
}

TEST(CheckRig, ChainShorterThanTwoBones) {
  Skeleton s;
  const int root = AddBone(s, "root", -1, {0, 0.2f, 0});
  const int hip_l = AddBone(s, "hip_L", root, {0, 0, 0});
  AddBone(s, "leg_L", hip_l, {0.5f, 0.1f, 0});
  const int hip_r = AddBone(s, "hip_R", root, {0, 0, 0});
  AddBone(s, "leg_R", hip_r, {-0.5f, 0.1f, 0});
  EXPECT_TRUE(Mentions(Check(s), "shorter than 2 bones"));
}

}  // namespace
}  // namespace ikpose::anim
