#include <gtest/gtest.h>

#include "ui/panel.h"

namespace ikpose::ui {
namespace {

// A leg seen from a character facing +Z: hip above, foot below, the knee where `knee` says.
anim::ChainSolveResult Leg(const glm::vec3& knee, const glm::vec3& end = {0.0f, 0.05f, 0.0f}) {
  anim::ChainSolveResult r;
  r.ok = true;
  r.hip_ms = {0.0f, 1.0f, 0.0f};
  r.knee_ms = knee;
  r.end_ms = r.end_target_ms = end;
  r.report.positions.length_ab = glm::length(knee - r.hip_ms);
  r.report.positions.length_bc = glm::length(end - knee);
  r.output.reach = ik::Reach::kReachable;
  return r;
}

const glm::vec3 kForward(0.0f, 0.0f, 1.0f), kUp(0.0f, 1.0f, 0.0f);

TEST(PlainLimbSentence, AKneeAheadOfTheLegPointsForwardAndSaysHowFarFromFullStretch) {
  const std::string s =
      PlainLimbSentence(anim::Limb::kLeftLeg, Leg({0.0f, 0.5f, 0.1f}), kForward, kUp, 1.0f);
  EXPECT_EQ(s, "knee points straight forward; 2 cm from full stretch");
}

TEST(PlainLimbSentence, OutIsTowardTheLimbsOwnSide) {
  // The character's left is +X when it faces +Z: a knee at +X is out for the left leg, in for
  // the right one.
  const anim::ChainSolveResult knee_left = Leg({0.05f, 0.5f, 0.1f});
  EXPECT_NE(PlainLimbSentence(anim::Limb::kLeftLeg, knee_left, kForward, kUp, 1.0f).find(" out"),
            std::string::npos);
  EXPECT_NE(PlainLimbSentence(anim::Limb::kRightLeg, knee_left, kForward, kUp, 1.0f).find(" in"),
            std::string::npos);
}

TEST(PlainLimbSentence, AKneeBehindTheLegIsAgainstItsBend) {
  const std::string s =
      PlainLimbSentence(anim::Limb::kLeftLeg, Leg({0.0f, 0.5f, -0.1f}), kForward, kUp, 1.0f);
  EXPECT_EQ(s.rfind("knee points backward, against its bend", 0), 0u) << s;
}

TEST(PlainLimbSentence, AStraightLegAndUnknownUnits) {
  const std::string s =
      PlainLimbSentence(anim::Limb::kLeftLeg, Leg({0.0f, 0.5f, 0.0f}), kForward, kUp, 0.0f);
  EXPECT_EQ(s, "leg straight; fully stretched");
}

TEST(PlainLimbSentence, AnElbowBendsBackNaturally) {
  const std::string s =
      PlainLimbSentence(anim::Limb::kLeftArm, Leg({0.0f, 0.5f, -0.1f}), kForward, kUp, 1.0f);
  EXPECT_EQ(s.rfind("elbow points straight back", 0), 0u) << s;
}

// An arm raised overhead: the knee policy's natural elbow has swung with it (forward here, the
// hanging arm's "back" carried up with the arm), so an elbow forward is its natural bend, not
// against it; without the policy's direction the sentence would say it is.
TEST(PlainLimbSentence, AnOverheadElbowIsJudgedByTheSwungNaturalBend) {
  anim::ChainSolveResult up = Leg({0.0f, 1.5f, 0.1f}, {0.0f, 1.95f, 0.0f});
  up.hip_ms = {0.0f, 1.0f, 0.0f};
  up.report.positions.length_ab = glm::length(up.knee_ms - up.hip_ms);
  up.report.positions.length_bc = glm::length(up.end_ms - up.knee_ms);
  EXPECT_NE(PlainLimbSentence(anim::Limb::kLeftArm, up, kForward, kUp, 1.0f).find("against"),
            std::string::npos);
  up.swivel.valid = true;
  up.swivel.natural_ms = kForward;
  const std::string s = PlainLimbSentence(anim::Limb::kLeftArm, up, kForward, kUp, 1.0f);
  EXPECT_EQ(s.rfind("elbow points straight forward", 0), 0u) << s;
}

}  // namespace
}  // namespace ikpose::ui
