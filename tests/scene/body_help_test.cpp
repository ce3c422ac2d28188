// The body helps a limb that cannot reach (scene/session/body_solve.h): on hand-built T-pose rigs
// in metres and in centimetres, a hand 1.2 arm lengths from its shoulder lands on its target, no
// bone changes length, the feet stay where they were, the spine stays within its range, the pull
// weight and the switch take the help away, and a target within reach asks none.
#include <gtest/gtest.h>

#include <cmath>

#include "anim/test_rigs.h"
#include "scene/session/posing_session.h"
#include "support/pose_expect.h"

namespace ikpose::scene {
namespace {

using anim::Limb;

// The T-pose test humanoid, every length times `scale` (100: centimetres).
anim::Model Humanoid(float scale) {
  anim::Model model;
  model.skeleton = anim::test::MakeHumanoid(anim::test::UnrealNames());
  for (anim::Transform& t : model.skeleton.rest_ls) t.translation *= scale;
  anim::DetectRig(model);
  return model;
}

float Height(const PosingSession& s) {
  float lo = 1e30f, hi = -1e30f;
  for (const glm::mat4& m : s.rest_pose().models_ms) {
    lo = std::min(lo, m[3].y);
    hi = std::max(hi, m[3].y);
  }
  return hi - lo;
}

glm::vec3 End(const PosingSession& s, Limb limb) {
  return anim::EndPositionMs(s.chain(limb), s.pose());
}

float ArmLength(const PosingSession& s, Limb arm) {
  return s.chain(arm).upper_length + s.chain(arm).lower_length;
}

struct Reach {
  const char* name;
  glm::vec3 direction;  // for the left arm; x is mirrored for the right
};

const Reach kReaches[] = {{"forward", {0.f, 0.f, 1.f}},
                          {"sideways", {1.f, 0.f, 0.f}},
                          {"forward and out", {0.7f, 0.f, 0.7f}},
                          {"forward and down", {0.f, -0.45f, 0.9f}},
                          {"forward and up", {0.f, 0.35f, 0.93f}}};

class OverReach : public ::testing::TestWithParam<float> {};

TEST_P(OverReach, TheHandLandsTheFeetStayNoBoneStretches) {
  const anim::Model model = Humanoid(GetParam());
  for (Limb arm : {Limb::kLeftArm, Limb::kRightArm}) {
    for (const Reach& reach : kReaches) {
      SCOPED_TRACE(std::string(anim::LimbName(arm)) + " " + reach.name);
      PosingSession s(model);
      const glm::vec3 left_foot = End(s, Limb::kLeftLeg), right_foot = End(s, Limb::kRightLeg);
      glm::vec3 d = glm::normalize(reach.direction);
      if (arm == Limb::kRightArm) d.x = -d.x;
      const glm::vec3 shoulder = anim::PositionMs(s.rest_pose(), s.chain(arm).upper);
      s.target(arm).target_ms = shoulder + 1.2f * ArmLength(s, arm) * d;
      s.Evaluate();
      const float h = Height(s);
      EXPECT_LT(glm::length(End(s, arm) - s.target(arm).target_ms), 0.01f * h) << "on target";
      EXPECT_LT(glm::length(End(s, Limb::kLeftLeg) - left_foot), 1e-4f * h) << "left foot";
      EXPECT_LT(glm::length(End(s, Limb::kRightLeg) - right_foot), 1e-4f * h) << "right foot";
      test::ExpectBonesUnstretched(s);
      EXPECT_FALSE(s.body_help_report().bones.empty()) << "the clavicle and spine helped";
      // Each helped bone within its joint range (anim/joint_ranges.h), bend and twist.
      for (const BodyHelpReport::BoneTurn& turn : s.body_help_report().bones) {
        SCOPED_TRACE(model.skeleton.names[static_cast<std::size_t>(turn.bone)]);
        const anim::BoneRange* range = model.ranges.Find(turn.bone);
        ASSERT_NE(range, nullptr);
        const anim::RangeClamp c = anim::ClampToRange(
            *range, s.pose().locals_ls[static_cast<std::size_t>(turn.bone)].rotation);
        EXPECT_LE(c.swing_deg, c.swing_limit_deg + 0.01f);
        EXPECT_LE(std::abs(c.twist_deg), range->range.twist_deg + 0.01f);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Units, OverReach, ::testing::Values(1.0f, 100.0f));

TEST(BodyHelp, OffOrNoPullLeavesTheArmShort) {
  const anim::Model model = Humanoid(1.0f);
  const auto short_by = [&](bool on, float pull) {
    PosingSession s(model);
    s.edits.body_help = on;
    s.target(Limb::kLeftArm).pull_body = pull;
    const glm::vec3 shoulder = anim::PositionMs(s.rest_pose(), s.chain(Limb::kLeftArm).upper);
    s.target(Limb::kLeftArm).target_ms =
        shoulder + 1.2f * ArmLength(s, Limb::kLeftArm) * glm::vec3(0.f, 0.f, 1.f);
    s.Evaluate();
    return glm::length(End(s, Limb::kLeftArm) - s.target(Limb::kLeftArm).target_ms) /
           ArmLength(s, Limb::kLeftArm);
  };
  EXPECT_NEAR(short_by(false, 1.f), 0.2f, 0.01f) << "off: the arm alone, straight";
  EXPECT_NEAR(short_by(true, 0.f), 0.2f, 0.01f) << "no pull: the arm alone";
  const float half = short_by(true, 0.5f);
  EXPECT_GT(half, 0.03f) << "half the pull: part of the way";
  EXPECT_LT(half, 0.17f);
  EXPECT_LT(short_by(true, 1.f), 0.01f) << "full pull: on target";
}

TEST(BodyHelp, ATargetWithinReachAsksNoHelp) {
  const anim::Model model = Humanoid(1.0f);
  PosingSession s(model);
  const glm::vec3 shoulder = anim::PositionMs(s.rest_pose(), s.chain(Limb::kLeftArm).upper);
  s.target(Limb::kLeftArm).target_ms =
      shoulder + 0.9f * ArmLength(s, Limb::kLeftArm) * glm::vec3(0.f, 0.f, 1.f);
  s.Evaluate();
  EXPECT_TRUE(s.body_help_report().bones.empty());
  EXPECT_FALSE(s.body_help_report().moved_pelvis());
  const int chest = model.humanoid.chest;
  EXPECT_EQ(s.pose().locals_ls[static_cast<std::size_t>(chest)].rotation,
            s.rest_pose().locals_ls[static_cast<std::size_t>(chest)].rotation);
}

// A foot target beyond reach, forward and down: the pelvis drops and shifts toward it, the
// other foot stays where it stood.
TEST(BodyHelp, AFootBeyondReachMovesThePelvis) {
  const anim::Model model = Humanoid(1.0f);
  PosingSession s(model);
  const glm::vec3 other = End(s, Limb::kRightLeg);
  const glm::vec3 hip = anim::PositionMs(s.rest_pose(), s.chain(Limb::kLeftLeg).upper);
  const float leg = s.chain(Limb::kLeftLeg).upper_length + s.chain(Limb::kLeftLeg).lower_length;
  s.target(Limb::kLeftLeg).target_ms = hip + 1.1f * leg * glm::normalize(glm::vec3(0, -1, 0.6f));
  s.Evaluate();
  EXPECT_TRUE(s.body_help_report().moved_pelvis());
  EXPECT_LT(s.body_help_report().pelvis_offset_ms.y, 0.f) << "the pelvis drops";
  EXPECT_LT(glm::length(End(s, Limb::kLeftLeg) - s.target(Limb::kLeftLeg).target_ms),
            0.01f * Height(s));
  EXPECT_LT(glm::length(End(s, Limb::kRightLeg) - other), 1e-4f) << "the standing foot held";
  test::ExpectBonesUnstretched(s);
}

// Copies of a session (a trace frame solved under each knee policy) share the body help's last
// fit; a copy whose goal moved must fit again, as a session of its own does, and the first
// must not take the copy's fit.
TEST(BodyHelp, ACopyWhoseGoalMovedFitsItsBodyAgain) {
  const anim::Model model = Humanoid(1.0f);
  PosingSession s(model);
  const glm::vec3 shoulder = anim::PositionMs(s.rest_pose(), s.chain(Limb::kLeftArm).upper);
  const float arm = ArmLength(s, Limb::kLeftArm);
  s.target(Limb::kLeftArm).target_ms = shoulder + 1.2f * arm * glm::vec3(0.f, 0.f, 1.f);
  s.Evaluate();
  ASSERT_TRUE(s.body_help_report().moved_pelvis() || !s.body_help_report().bones.empty());
  const std::vector<glm::mat4> first = s.pose().models_ms;

  PosingSession copy = s;
  const glm::vec3 moved_ms = shoulder + 1.2f * arm * glm::normalize(glm::vec3(0.5f, -0.5f, 1.f));
  copy.target(Limb::kLeftArm).target_ms = moved_ms;
  copy.Evaluate();
  PosingSession own(model);
  own.target(Limb::kLeftArm).target_ms = moved_ms;
  own.Evaluate();
  EXPECT_EQ(copy.pose().models_ms, own.pose().models_ms);
  EXPECT_EQ(copy.body_help_report().pelvis_offset_ms, own.body_help_report().pelvis_offset_ms);
  EXPECT_NE(copy.pose().models_ms, first) << "the goal moved the body";

  s.Evaluate();
  EXPECT_EQ(s.pose().models_ms, first);
}

}  // namespace
}  // namespace ikpose::scene
