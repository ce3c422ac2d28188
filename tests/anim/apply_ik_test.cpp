#include "anim/apply_ik.h"

#include <gtest/gtest.h>

#include <cmath>

#include "support/glm_expect.h"
#include "test_rigs.h"

namespace ikpose::anim {
namespace {

using test::AddBone;
using ikpose::test::ExpectNear;
using ikpose::test::ExpectSameMatrix;

struct Leg {
  Skeleton s;
  int root, pelvis, hip, knee, foot, toe, other;
  LimbChain chain;
};

// root -> pelvis -> hip -> knee -> foot -> toe, plus a sibling branch `other` off the pelvis.
Leg MakeLeg() {
  Leg leg;
  Skeleton& s = leg.s;
  leg.root = AddBone(s, "root", -1, {0, 0, 0});
  leg.pelvis = AddBone(s, "pelvis", leg.root, {0, 1, 0});
  leg.hip = AddBone(s, "thigh_l", leg.pelvis, {0.1f, 0, 0});
  leg.knee = AddBone(s, "calf_l", leg.hip, {0, -0.45f, 0.05f});
  leg.foot = AddBone(s, "foot_l", leg.knee, {0, -0.45f, -0.05f});
  leg.toe = AddBone(s, "ball_l", leg.foot, {0, -0.05f, 0.1f});
  leg.other = AddBone(s, "spine", leg.pelvis, {0, 0.3f, 0});
  leg.chain.name = "left_leg";
  leg.chain.upper = leg.hip;
  leg.chain.lower = leg.knee;
  leg.chain.end = leg.foot;
  MeasureChain(s, RestPose(s), leg.chain);
  return leg;
}

TEST(SolveChainOnPose, InvalidChainIsAnErrorAndLeavesThePose) {
  Leg leg = MakeLeg();
  Pose pose = RestPose(leg.s);
  const Pose before = pose;
  LimbChain bad = leg.chain;
  bad.lower = leg.toe;  // not a child of upper
  const ChainSolveResult r = SolveChainOnPose(leg.s, bad, {0, 0, 0}, {}, pose);
  EXPECT_FALSE(r.ok);
  EXPECT_FALSE(r.error.empty());
  for (int i = 0; i < leg.s.size(); ++i) EXPECT_EQ(pose.models_ms[i], before.models_ms[i]);
}

TEST(SolveChainOnPose, NaNTargetIsRejected) {
  Leg leg = MakeLeg();
  Pose pose = RestPose(leg.s);
  const ChainSolveResult r = SolveChainOnPose(leg.s, leg.chain, {std::nanf(""), 0, 0}, {}, pose);
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("finite"), std::string::npos);
}

TEST(SolveChainOnPose, TargetOnTheHipIsAnError) {
  Leg leg = MakeLeg();
  Pose pose = RestPose(leg.s);
  const ChainSolveResult r =
      SolveChainOnPose(leg.s, leg.chain, PositionMs(pose, leg.hip), {}, pose);
  EXPECT_FALSE(r.ok);
  EXPECT_FALSE(r.error.empty());
}

TEST(SolveChainOnPose, ReachableTargetPutsTheFootOnItAndKeepsEverythingElse) {
  Leg leg = MakeLeg();
  Pose pose = RestPose(leg.s);
  const Pose before = pose;
  const glm::vec3 target(0.25f, 0.35f, 0.2f);
  const ChainSolveResult r = SolveChainOnPose(leg.s, leg.chain, target, {}, pose);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.output.reach, ik::Reach::kReachable);
  // Knee and foot joints sit on the solver's b' and c'.
  ExpectNear(PositionMs(pose, leg.knee), r.report.positions.result.knee_ms, 1e-4f);
  ExpectNear(PositionMs(pose, leg.foot), r.report.positions.result.foot_ms, 1e-4f);
  ExpectNear(PositionMs(pose, leg.foot), target, 1e-4f);
  EXPECT_LT(r.error_ms, 1e-4f);
  // Bone lengths unchanged.
  EXPECT_NEAR(glm::length(PositionMs(pose, leg.knee) - PositionMs(pose, leg.hip)),
              leg.chain.upper_length, 1e-5f);
  EXPECT_NEAR(glm::length(PositionMs(pose, leg.foot) - PositionMs(pose, leg.knee)),
              leg.chain.lower_length, 1e-5f);
  // Bones outside the chain do not move; the hip joint itself stays.
  for (int b : {leg.root, leg.pelvis, leg.other}) {
    ExpectSameMatrix(pose.models_ms[b], before.models_ms[b]);
  }
  ExpectNear(PositionMs(pose, leg.hip), PositionMs(before, leg.hip), 1e-6f);
  // Children follow: the toe's local transform is untouched and it stays attached.
  EXPECT_EQ(pose.locals_ls[leg.toe].rotation, before.locals_ls[leg.toe].rotation);
  ExpectSameMatrix(pose.models_ms[leg.toe],
                   pose.models_ms[leg.foot] * ToMatrix(pose.locals_ls[leg.toe]));
  // Only rotations of the hip and knee changed.
  for (int b = 0; b < leg.s.size(); ++b) {
    EXPECT_EQ(pose.locals_ls[b].translation, before.locals_ls[b].translation);
    if (b != leg.hip && b != leg.knee) {
      EXPECT_EQ(pose.locals_ls[b].rotation, before.locals_ls[b].rotation) << leg.s.names[b];
    }
  }
}

TEST(SolveChainOnPose, TooFarTargetStretchesTowardIt) {
  Leg leg = MakeLeg();
  Pose pose = RestPose(leg.s);
  const glm::vec3 target(0.1f, -5.f, 0.f);
  const ChainSolveResult r = SolveChainOnPose(leg.s, leg.chain, target, {}, pose);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.output.reach, ik::Reach::kTooFar);
  const glm::vec3 a = PositionMs(pose, leg.hip);
  const glm::vec3 c = PositionMs(pose, leg.foot);
  EXPECT_NEAR(glm::length(c - a), leg.chain.upper_length + leg.chain.lower_length, 1e-4f);
  ExpectNear(glm::normalize(c - a), glm::normalize(target - a), 1e-4f);
}

TEST(SolveChainOnPose, PoleDecidesTheKneeSide) {
  Leg leg = MakeLeg();
  for (const float side : {1.f, -1.f}) {
    Pose pose = RestPose(leg.s);
    ChainSolveOptions options;
    options.solver.use_pole = true;
    options.solver.pole_ms = {0.1f, 0.5f, 2.f * side};
    const ChainSolveResult r = SolveChainOnPose(leg.s, leg.chain, {0.1f, 0.3f, 0.f}, options, pose);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_GT(PositionMs(pose, leg.knee).z * side, 0.05f);
    ExpectNear(PositionMs(pose, leg.foot), {0.1f, 0.3f, 0.f}, 1e-4f);
  }
}

TEST(SolveChainOnPose, KeepModelRotationKeepsTheFootLevel) {
  Leg leg = MakeLeg();
  Pose pose = RestPose(leg.s);
  const glm::quat before = ik::RotationOf(glm::mat3(pose.models_ms[leg.foot]));
  ChainSolveOptions options;
  options.end_rotation = ik::EndRotation::kKeepModel;
  const ChainSolveResult r = SolveChainOnPose(leg.s, leg.chain, {0.3f, 0.4f, 0.3f}, options, pose);
  ASSERT_TRUE(r.ok) << r.error;
  const glm::quat after = ik::RotationOf(glm::mat3(pose.models_ms[leg.foot]));
  EXPECT_NEAR(std::abs(glm::dot(before, after)), 1.f, 1e-5f);
}

TEST(SolveChainOnPose, NonUniformScaleAboveTheChainStillReachesTheTarget) {
  Leg leg = MakeLeg();
  leg.s.rest_ls[leg.pelvis].scale = {1.5f, 0.8f, 1.2f};
  MeasureChain(leg.s, RestPose(leg.s), leg.chain);
  Pose pose = RestPose(leg.s);
  const glm::vec3 hip = PositionMs(pose, leg.hip);
  const glm::vec3 target = hip + glm::vec3(0.1f, -0.5f, 0.2f);
  const ChainSolveResult r = SolveChainOnPose(leg.s, leg.chain, target, {}, pose);
  ASSERT_TRUE(r.ok) << r.error;
  ExpectNear(PositionMs(pose, leg.foot), target, 1e-4f);
}

TEST(SolveChainOnPose, DetachedFootIsPlacedOnTheEndPointAndFollowsTheShin) {
  // Foot.L hangs off the root (IK-target rig); moving the leg must carry it.
  Skeleton s;
  const int root = AddBone(s, "Bone", -1, {0, 0, 0});
  const int foot = AddBone(s, "Foot.L", root, {0.3f, 0.05f, 0.f});
  const int toe = AddBone(s, "Toe.L", foot, {0.f, 0.f, 0.1f});
  const int body = AddBone(s, "Body", root, {0, 1.0f, 0});
  const int upper = AddBone(s, "UpperLeg.L", body, {0.3f, 0.f, 0.f});
  AddBone(s, "LowerLeg.L", upper, {0.f, -0.45f, 0.05f});
  const Pose rest = RestPose(s);
  const ChainSet chains = DetectChains(s, rest);
  const LimbChain& leg = chains[Limb::kLeftLeg];
  ASSERT_TRUE(leg.valid());
  ASSERT_FALSE(leg.end_is_child);
  Pose pose = rest;
  const glm::vec3 target(0.45f, 0.2f, 0.25f);
  const ChainSolveResult r = SolveChainOnPose(s, leg, target, {}, pose);
  ASSERT_TRUE(r.ok) << r.error;
  ExpectNear(PositionMs(pose, foot), target, 1e-4f);
  ExpectNear(r.end_ms, target, 1e-4f);
  // The toe follows the foot.
  ExpectSameMatrix(pose.models_ms[toe], pose.models_ms[foot] * ToMatrix(pose.locals_ls[toe]));
  // The root and body did not move.
  ExpectSameMatrix(pose.models_ms[root], rest.models_ms[root]);
  ExpectSameMatrix(pose.models_ms[body], rest.models_ms[body]);
}

}  // namespace
}  // namespace ikpose::anim
