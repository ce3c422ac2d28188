// The natural knee policy: the rig's natural bend, the swing that carries it with the limb, the
// swivel kept within its range, folded back continuously, and the policy names.
#include "anim/knee_policy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include <glm/gtc/quaternion.hpp>

#include "anim/apply_ik.h"
#include "anim/chains.h"
#include "support/glm_expect.h"
#include "test_rigs.h"

namespace ikpose::anim {
namespace {

using ikpose::test::ExpectNear;

constexpr glm::vec3 kUp{0.f, 1.f, 0.f};
constexpr glm::vec3 kForward{0.f, 0.f, 1.f};  // the character faces +Z
const glm::mat3 kIdentity(1.f);

// A leg standing straight down from the hip at 1 m, knee at 0.5 m.
const glm::vec3 kHip_ms{0.1f, 1.f, 0.f};
const glm::vec3 kFoot_ms{0.1f, 0.f, 0.f};
constexpr float kLeg = 1.f;

// The straight leg's bend (from the facing: forward).
NaturalBend StraightLeg() {
  return RestNaturalBend(kHip_ms, {0.1f, 0.5f, 0.f}, kFoot_ms, kIdentity, true, kForward);
}

// A current knee at `swivel_deg` about the hip-target axis from `natural_ms`, `off` from it.
glm::vec3 KneeAt(const glm::vec3& hip_ms, const glm::vec3& target_ms, const glm::vec3& natural_ms,
                 float swivel_deg, float off = 0.3f) {
  const glm::vec3 axis = glm::normalize(target_ms - hip_ms);
  return 0.5f * (hip_ms + target_ms) +
         off * (glm::angleAxis(glm::radians(swivel_deg), axis) * natural_ms);
}

TEST(RestNaturalBend, RestKneeOffTheLineGivesTheRestBend) {
  // A rest knee forward and out to the side: the rig's own bend, not the facing.
  const NaturalBend bend =
      RestNaturalBend(kHip_ms, {0.15f, 0.5f, 0.05f}, kFoot_ms, kIdentity, true, kForward);
  ASSERT_TRUE(bend.valid);
  EXPECT_TRUE(bend.from_rest);
  ExpectNear(bend.bend_ps, glm::normalize(glm::vec3(1.f, 0.f, 1.f)), 1e-4f);
  ExpectNear(bend.reach_ps, {0.f, -1.f, 0.f}, 1e-4f);
  EXPECT_FLOAT_EQ(bend.range_deg, 45.f);
}

TEST(RestNaturalBend, RestBendAgainstTheJointFallsBackToTheFacing) {
  // A rest knee behind the leg, or an elbow of a T-pose arm in front of it (a cartoon rig's
  // 2%): bending that way is against the joint, so the facing decides.
  const NaturalBend leg =
      RestNaturalBend(kHip_ms, {0.1f, 0.5f, -0.05f}, kFoot_ms, kIdentity, true, kForward);
  ASSERT_TRUE(leg.valid);
  EXPECT_FALSE(leg.from_rest);
  ExpectNear(leg.bend_ps, kForward, 1e-4f);
  const NaturalBend arm = RestNaturalBend({0.2f, 1.4f, 0.f}, {0.5f, 1.4f, 0.03f}, {0.8f, 1.4f, 0.f},
                                          kIdentity, false, kForward);
  ASSERT_TRUE(arm.valid);
  EXPECT_FALSE(arm.from_rest);
  EXPECT_LT(glm::dot(arm.bend_ps, kForward), -0.9f);
}

TEST(RestNaturalBend, StraightLegBendsForwardAndStraightArmBackAndDown) {
  const NaturalBend leg = StraightLeg();
  ASSERT_TRUE(leg.valid);
  EXPECT_FALSE(leg.from_rest);
  ExpectNear(leg.bend_ps, kForward, 1e-4f);

  // A T-pose arm straight out along +X.
  const NaturalBend arm = RestNaturalBend({0.2f, 1.4f, 0.f}, {0.5f, 1.4f, 0.f}, {0.8f, 1.4f, 0.f},
                                          kIdentity, false, kForward);
  ASSERT_TRUE(arm.valid);
  EXPECT_FALSE(arm.from_rest);
  EXPECT_LT(glm::dot(arm.bend_ps, kForward), -0.9f);  // back
  EXPECT_LT(arm.bend_ps.y, -0.1f);                    // and a little down
  EXPECT_NEAR(glm::dot(arm.bend_ps, arm.reach_ps), 0.f, 1e-5f);
  EXPECT_FLOAT_EQ(arm.range_deg, 45.f);
}

TEST(RestNaturalBend, KneeBarelyOffTheLineCountsAsStraight) {
  // 1% of the limb off the line is noise in a rig, not a bend: the facing decides.
  const NaturalBend bend =
      RestNaturalBend(kHip_ms, {0.1f, 0.5f, -0.01f}, kFoot_ms, kIdentity, true, kForward);
  ASSERT_TRUE(bend.valid);
  EXPECT_FALSE(bend.from_rest);
  ExpectNear(bend.bend_ps, kForward, 1e-4f);
}

TEST(RestNaturalBend, FootOnTheHipHasNoBend) {
  EXPECT_FALSE(
      RestNaturalBend(kHip_ms, {0.1f, 0.5f, 0.f}, kHip_ms, kIdentity, true, kForward).valid);
}

TEST(RestNaturalBend, BendIsKeptInTheParentFrameAndTurnsWithTheBody) {
  // The same rest leg under a parent turned 90 deg about Y, then the body turned back: the
  // natural direction turns with the parent, not with the model.
  const glm::quat turn = glm::angleAxis(glm::radians(90.f), kUp);
  const glm::mat3 parent_rest = glm::mat3_cast(turn);
  const NaturalBend bend =
      RestNaturalBend(kHip_ms, {0.1f, 0.5f, 0.f}, kFoot_ms, parent_rest, true, kForward);
  ASSERT_TRUE(bend.valid);
  ExpectNear(parent_rest * bend.bend_ps, kForward, 1e-4f);

  // Now the body faces +X (parent turned a further 90 deg): a foot hanging straight down has
  // its knee toward +X.
  const glm::mat3 parent_now = glm::mat3_cast(turn * turn);
  const SwivelChoice choice =
      ChooseSwivel(bend, parent_now, kHip_ms, {0.1f, 0.5f, 0.f}, kFoot_ms, kLeg, 0.f);
  ASSERT_TRUE(choice.valid);
  ExpectNear(choice.natural_ms, {1.f, 0.f, 0.f}, 1e-4f);
}

// A left foot stepped up onto a rung in front: the knee, bent forward, would go through the
// rungs' plane; turned out (toward +x, the left side) it stops exactly at the clearance.
struct StepUp {
  glm::vec3 target_ms = kHip_ms + glm::vec3(0.f, -0.5f, 0.15f);
  SwivelChoice choice =
      ChooseSwivel(StraightLeg(), kIdentity, kHip_ms,
                   KneeAt(kHip_ms, kHip_ms + glm::vec3(0.f, -0.5f, 0.15f), kForward, 0.f),
                   kHip_ms + glm::vec3(0.f, -0.5f, 0.15f), kLeg, 0.f);
  KneeClearance Rungs(float z) const {
    KneeClearance plane;
    plane.valid = true;
    plane.point_ms = {0.f, 0.f, z};
    plane.normal_ms = {0.f, 0.f, -1.f};
    plane.clearance = 0.05f;
    plane.outward_ms = {1.f, 0.f, 0.f};
    return plane;
  }
  glm::vec3 Knee() const {
    return KneeOnCircle(kHip_ms, target_ms, 0.5f, 0.5f, choice.knee_dir_ms);
  }
};

TEST(KeepKneeBehind, AKneeThroughTheRungsTurnsOutJustEnough) {
  StepUp leg;
  ASSERT_TRUE(leg.choice.valid);
  EXPECT_GT(leg.Knee().z, 0.45f) << "bent forward, the knee is through the plane";
  KeepKneeBehind(leg.Rungs(0.45f), kHip_ms, leg.target_ms, 0.5f, 0.5f, &leg.choice);
  EXPECT_NEAR(leg.Knee().z, 0.40f, 1e-4f) << "exactly the clearance behind the plane";
  EXPECT_GT(leg.Knee().x, kHip_ms.x + 0.1f) << "turned out, not across the other leg";
  EXPECT_LT(std::abs(leg.choice.swivel_deg), 45.f);
  EXPECT_NEAR(leg.choice.cleared_deg, leg.choice.swivel_deg, 1e-3f);
  EXPECT_NEAR(glm::distance(leg.Knee(), kHip_ms), 0.5f, 1e-4f) << "no bone changes length";
}

TEST(KeepKneeBehind, AClearKneeStaysAndAnImpossibleOneHoldsAtTheRange) {
  StepUp clear;
  const glm::vec3 before = clear.Knee();
  KeepKneeBehind(clear.Rungs(0.7f), kHip_ms, clear.target_ms, 0.5f, 0.5f, &clear.choice);
  ExpectNear(clear.Knee(), before, 1e-6f);
  EXPECT_EQ(clear.choice.cleared_deg, 0.f);

  StepUp tight;
  KeepKneeBehind(tight.Rungs(0.2f), kHip_ms, tight.target_ms, 0.5f, 0.5f, &tight.choice);
  EXPECT_NEAR(std::abs(tight.choice.swivel_deg), 45.f, 1e-3f) << "held at the range";
  EXPECT_GT(tight.Knee().x, kHip_ms.x) << "on the outward side";
  EXPECT_LT(tight.Knee().z, before.z) << "as far back as the range allows";
}

TEST(KeepKneeBehind, TheKneeStopsInsideTheRails) {
  // The same step with the rails 0.18 from the ladder's middle (x = 0): turning out far enough
  // to clear the plane would carry the knee past the rail, so it stops there, as far back as
  // that allows (a knee at the rail puts the shin through it), still short of clear.
  StepUp leg;
  const glm::vec3 before = leg.Knee();
  KneeClearance rails = leg.Rungs(0.45f);
  rails.along_ms = {1.f, 0.f, 0.f};
  rails.half_width = 0.18f;
  KeepKneeBehind(rails, kHip_ms, leg.target_ms, 0.5f, 0.5f, &leg.choice);
  EXPECT_NEAR(leg.Knee().x, 0.18f, 1e-4f) << "at the rails' bound, not past it";
  EXPECT_GT(leg.Knee().z, 0.40f) << "short of clear";
  EXPECT_LT(leg.Knee().z, before.z - 0.005f) << "but turned out as far as the rails allow";
  EXPECT_GT(std::abs(leg.choice.cleared_deg), 1.f);
  EXPECT_NEAR(glm::distance(leg.Knee(), kHip_ms), 0.5f, 1e-4f) << "no bone changes length";

  // Rails wide enough leave the plain turn as it was.
  StepUp wide;
  rails.half_width = 0.5f;
  KeepKneeBehind(rails, kHip_ms, wide.target_ms, 0.5f, 0.5f, &wide.choice);
  EXPECT_NEAR(wide.Knee().z, 0.40f, 1e-4f);
}

TEST(ChooseSwivel, FootLiftedForwardToHipHeightTurnsTheNaturalKneeUp) {
  // The swing that takes hip-to-foot from down to forward takes the knee from forward to up.
  const glm::vec3 target_ms = kHip_ms + glm::vec3(0.f, 0.f, 0.9f);
  const SwivelChoice choice =
      ChooseSwivel(StraightLeg(), kIdentity, kHip_ms, kHip_ms + glm::vec3(0.f, 0.3f, 0.4f),
                   target_ms, kLeg, 0.f);
  ASSERT_TRUE(choice.valid);
  ExpectNear(choice.natural_ms, kUp, 1e-4f);
  EXPECT_FALSE(choice.clamped);
  EXPECT_NEAR(choice.swivel_deg, 0.f, 0.01f);
  ExpectNear(choice.knee_dir_ms, kUp, 1e-4f);
}

TEST(ChooseSwivel, FootHalfwayUpGivesAKneeHalfwayBetweenForwardAndUp) {
  // Target 45 deg forward of straight down: the natural knee direction is turned 45 deg too.
  const glm::vec3 target_ms = kHip_ms + 0.8f * glm::normalize(glm::vec3(0.f, -1.f, 1.f));
  const SwivelChoice choice =
      ChooseSwivel(StraightLeg(), kIdentity, kHip_ms, {0.1f, 0.5f, 0.3f}, target_ms, kLeg, 0.f);
  ASSERT_TRUE(choice.valid);
  ExpectNear(choice.natural_ms, glm::normalize(glm::vec3(0.f, 1.f, 1.f)), 1e-4f);
}

TEST(ChooseSwivel, WithinTheRangeKeepsTheCurrentKneesSwivel) {
  const glm::vec3 target_ms = kFoot_ms + glm::vec3(0.f, 0.2f, 0.1f);
  const SwivelChoice natural =
      ChooseSwivel(StraightLeg(), kIdentity, kHip_ms, kHip_ms, target_ms, kLeg, 0.f);
  ASSERT_TRUE(natural.valid);
  for (float swivel : {-44.f, -20.f, 0.f, 10.f, 30.f, 44.f}) {
    const glm::vec3 knee_ms = KneeAt(kHip_ms, target_ms, natural.natural_ms, swivel);
    const SwivelChoice choice =
        ChooseSwivel(StraightLeg(), kIdentity, kHip_ms, knee_ms, target_ms, kLeg, 0.f);
    ASSERT_TRUE(choice.valid);
    EXPECT_NEAR(choice.reference_deg, swivel, 0.01f);
    EXPECT_NEAR(choice.swivel_deg, swivel, 0.01f);
    EXPECT_FALSE(choice.clamped) << swivel;
    EXPECT_FLOAT_EQ(choice.range_deg, 45.f);
  }
}

TEST(ChooseSwivel, BeyondTheRangeHoldsAtTheRangeAndSaysClamped) {
  const glm::vec3 target_ms = kFoot_ms + glm::vec3(0.f, 0.2f, 0.1f);
  const SwivelChoice natural =
      ChooseSwivel(StraightLeg(), kIdentity, kHip_ms, kHip_ms, target_ms, kLeg, 0.f);
  for (float swivel : {60.f, 80.f, 100.f}) {
    for (float sign : {1.f, -1.f}) {
      const glm::vec3 knee_ms = KneeAt(kHip_ms, target_ms, natural.natural_ms, sign * swivel);
      const SwivelChoice choice =
          ChooseSwivel(StraightLeg(), kIdentity, kHip_ms, knee_ms, target_ms, kLeg, 0.f);
      ASSERT_TRUE(choice.valid);
      EXPECT_NEAR(choice.reference_deg, sign * swivel, 0.01f);
      EXPECT_NEAR(choice.swivel_deg, sign * 45.f, 0.01f) << sign * swivel;
      EXPECT_TRUE(choice.clamped);
    }
  }
  // A range given by the caller replaces the limb's.
  const glm::vec3 knee_ms = KneeAt(kHip_ms, target_ms, natural.natural_ms, 30.f);
  const SwivelChoice narrow =
      ChooseSwivel(StraightLeg(), kIdentity, kHip_ms, knee_ms, target_ms, kLeg, 10.f);
  EXPECT_NEAR(narrow.swivel_deg, 10.f, 0.01f);
  EXPECT_TRUE(narrow.clamped);
  EXPECT_FLOAT_EQ(narrow.range_deg, 10.f);
}

TEST(ChooseSwivel, KneeDirectlyBehindMapsToTheNaturalSide) {
  const glm::vec3 target_ms = kFoot_ms + glm::vec3(0.f, 0.2f, 0.1f);
  const SwivelChoice natural =
      ChooseSwivel(StraightLeg(), kIdentity, kHip_ms, kHip_ms, target_ms, kLeg, 0.f);
  const glm::vec3 knee_ms = KneeAt(kHip_ms, target_ms, natural.natural_ms, 180.f);
  const SwivelChoice choice =
      ChooseSwivel(StraightLeg(), kIdentity, kHip_ms, knee_ms, target_ms, kLeg, 0.f);
  ASSERT_TRUE(choice.valid);
  EXPECT_TRUE(choice.clamped);
  EXPECT_NEAR(std::abs(choice.reference_deg), 180.f, 0.01f);
  EXPECT_NEAR(choice.swivel_deg, 0.f, 0.01f);
  ExpectNear(choice.knee_dir_ms, choice.natural_ms, 1e-4f);
}

TEST(ChooseSwivel, SweepingTheCurrentKneeAroundTheAxisNeverJumps) {
  // Once around the hip-target axis in 0.5 deg steps: the chosen swivel moves by at most the
  // step (the fold back is slower than the sweep) and stays within the range.
  const glm::vec3 target_ms = kFoot_ms + glm::vec3(0.f, 0.3f, 0.2f);
  const SwivelChoice natural =
      ChooseSwivel(StraightLeg(), kIdentity, kHip_ms, kHip_ms, target_ms, kLeg, 0.f);
  constexpr float kStep = 0.5f;
  float previous = 0.f;
  float largest_jump = 0.f;
  for (int i = 0; i <= 720; ++i) {
    const float swivel = -180.f + kStep * static_cast<float>(i);
    const SwivelChoice choice =
        ChooseSwivel(StraightLeg(), kIdentity, kHip_ms,
                     KneeAt(kHip_ms, target_ms, natural.natural_ms, swivel), target_ms, kLeg, 0.f);
    ASSERT_TRUE(choice.valid);
    EXPECT_LE(std::abs(choice.swivel_deg), choice.range_deg + 1e-3f) << swivel;
    if (i > 0) largest_jump = std::max(largest_jump, std::abs(choice.swivel_deg - previous));
    previous = choice.swivel_deg;
  }
  EXPECT_LE(largest_jump, kStep + 1e-3f);
}

TEST(ChooseSwivel, KneeComingOntoTheAxisFadesToTheNaturalSide) {
  // A nearly straight leg: the current knee's side is noise, so its weight fades out smoothly.
  const glm::vec3 target_ms = kFoot_ms + glm::vec3(0.f, 0.05f, 0.f);
  const SwivelChoice natural =
      ChooseSwivel(StraightLeg(), kIdentity, kHip_ms, kHip_ms, target_ms, kLeg, 0.f);
  float previous = 40.f;
  for (float off : {0.2f, 0.05f, 0.04f, 0.025f, 0.01f, 0.001f, 0.f}) {
    const SwivelChoice choice = ChooseSwivel(
        StraightLeg(), kIdentity, kHip_ms,
        KneeAt(kHip_ms, target_ms, natural.natural_ms, 40.f, off * kLeg), target_ms, kLeg, 0.f);
    ASSERT_TRUE(choice.valid) << off;
    EXPECT_LE(choice.swivel_deg, previous + 1e-3f) << off;
    EXPECT_GE(choice.swivel_deg, -1e-3f) << off;
    previous = choice.swivel_deg;
  }
  EXPECT_NEAR(previous, 0.f, 1e-3f);  // on the axis: the natural direction
}

TEST(ChooseSwivel, TargetOnTheHipOrNoBendIsNotAChoice) {
  EXPECT_FALSE(
      ChooseSwivel(StraightLeg(), kIdentity, kHip_ms, {0.1f, 0.5f, 0.1f}, kHip_ms, kLeg, 0.f)
          .valid);
  EXPECT_FALSE(
      ChooseSwivel(NaturalBend{}, kIdentity, kHip_ms, {0.1f, 0.5f, 0.1f}, kFoot_ms, kLeg, 0.f)
          .valid);
}

// On a detected humanoid leg: within the range the natural policy puts the knee exactly where
// the seed does; a knee pushed behind the leg is brought to the natural side.
class NaturalOnHumanoid : public ::testing::Test {
 protected:
  void SetUp() override {
    skeleton_ = test::MakeHumanoid(test::BlenderNames());
    rest_ = RestPose(skeleton_);
    chains_ = DetectChains(skeleton_, rest_);
    ASSERT_TRUE(leg().valid());
    ASSERT_TRUE(leg().natural.valid);
  }
  const LimbChain& leg() const { return chains_[Limb::kLeftLeg]; }
  float LegLength() const { return leg().upper_length + leg().lower_length; }
  ChainSolveResult Solve(const glm::vec3& target_ms, const ChainSolveOptions& options,
                         Pose& pose) const {
    return SolveChainOnPose(skeleton_, leg(), target_ms, options, pose);
  }

  Skeleton skeleton_;
  Pose rest_;
  ChainSet chains_;
};

TEST_F(NaturalOnHumanoid, WithinTheRangeTheKneeIsTheSeeds) {
  const glm::vec3 foot_ms = EndPositionMs(leg(), rest_);
  // From a bent knee (a straight current leg has no side of its own to keep).
  Pose bent = rest_;
  ASSERT_TRUE(Solve(foot_ms + LegLength() * glm::vec3(0.f, 0.08f, 0.f), {}, bent).ok);
  for (const glm::vec3& move : {glm::vec3(0.f, 0.1f, 0.05f), glm::vec3(0.05f, 0.2f, -0.05f),
                                glm::vec3(-0.03f, 0.15f, -0.1f)}) {
    const glm::vec3 target_ms = foot_ms + LegLength() * move;
    Pose seed_pose = bent;
    Pose natural_pose = bent;
    const ChainSolveResult seed = Solve(target_ms, {}, seed_pose);
    const ChainSolveResult natural = Solve(target_ms, NaturalOptions(), natural_pose);
    ASSERT_TRUE(seed.ok && natural.ok);
    EXPECT_EQ(seed.policy, KneePolicy::kSeed);
    EXPECT_EQ(natural.policy, KneePolicy::kNatural);
    EXPECT_FALSE(natural.swivel.clamped)
        << natural.swivel.reference_deg << " move " << move.x << "," << move.y << "," << move.z;
    ExpectNear(natural.knee_ms, seed.knee_ms, 1e-4f * LegLength());
    ExpectNear(natural.end_ms, target_ms, 1e-4f * LegLength());
  }
}

TEST_F(NaturalOnHumanoid, KneeBehindTheLegIsBroughtForward) {
  // Start from a pose the seed made with its knee bent backwards (a pole behind), then move
  // the foot a little: the seed keeps the knee behind, natural brings it to the front.
  const glm::vec3 foot_ms = EndPositionMs(leg(), rest_);
  Pose bent_back = rest_;
  ChainSolveOptions behind;
  behind.solver.use_pole = true;
  behind.solver.pole_ms = PositionMs(rest_, leg().lower) - LegLength() * kForward;
  ASSERT_TRUE(Solve(foot_ms + LegLength() * glm::vec3(0.f, 0.3f, 0.f), behind, bent_back).ok);
  const glm::vec3 hip_ms = PositionMs(rest_, leg().upper);
  const glm::vec3 target_ms = foot_ms + LegLength() * glm::vec3(0.f, 0.3f, 0.02f);

  Pose seed_pose = bent_back;
  const ChainSolveResult seed = Solve(target_ms, {}, seed_pose);
  Pose natural_pose = bent_back;
  const ChainSolveResult natural = Solve(target_ms, NaturalOptions(), natural_pose);
  ASSERT_TRUE(seed.ok && natural.ok);
  // The knee's offset from the hip-target line, along the character's forward.
  const glm::vec3 axis = glm::normalize(target_ms - hip_ms);
  const auto ahead = [&](const glm::vec3& knee_ms) {
    const glm::vec3 offset = knee_ms - hip_ms;
    return glm::dot(offset - glm::dot(offset, axis) * axis, kForward);
  };
  EXPECT_LT(ahead(seed.knee_ms), -0.05f * LegLength());
  EXPECT_TRUE(natural.swivel.clamped);
  EXPECT_GT(ahead(natural.knee_ms), 0.05f * LegLength());
}

TEST(KneePolicyNames, RoundTripAndRejectOthers) {
  for (KneePolicy policy : {KneePolicy::kSeed, KneePolicy::kNatural, KneePolicy::kPole}) {
    KneePolicy parsed = policy == KneePolicy::kSeed ? KneePolicy::kPole : KneePolicy::kSeed;
    ASSERT_TRUE(ParsePolicy(PolicyName(policy), &parsed)) << PolicyName(policy);
    EXPECT_EQ(parsed, policy);
  }
  EXPECT_STREQ(PolicyName(KneePolicy::kNatural), "natural");
  for (const char* bad : {"", "Natural", "seeds", "pole ", "auto"}) {
    KneePolicy parsed = KneePolicy::kPole;
    EXPECT_FALSE(ParsePolicy(bad, &parsed)) << '"' << bad << '"';
    EXPECT_EQ(parsed, KneePolicy::kPole);
  }
}

}  // namespace
}  // namespace ikpose::anim
