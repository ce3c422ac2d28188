// The positions step on degenerate chains, each case named.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "ik/two_bone_positions.h"
#include "support/glm_expect.h"
#include "support/seed_port.h"

namespace ikpose::ik {
namespace {

using ikpose::test::Finite;

PositionsInput Chain(glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::vec3 t) {
  PositionsInput in;
  in.hip_ms = a;
  in.knee_ms = b;
  in.foot_ms = c;
  in.target_ms = t;
  return in;
}

void ExpectInvalid(const PositionsInput& in, InputError expected) {
  EXPECT_EQ(ValidatePositions(in), expected) << InputErrorMessage(ValidatePositions(in));
  PositionsResult r;
  r.knee_ms = glm::vec3(7.f);
  r.foot_ms = glm::vec3(8.f);
  PositionsReport rep;
  rep.length_ab = 9.f;
  EXPECT_EQ(SolvePositions(in, &r, &rep), expected);
  EXPECT_EQ(r.knee_ms, glm::vec3(7.f));  // untouched
  EXPECT_EQ(r.foot_ms, glm::vec3(8.f));
  EXPECT_EQ(rep.length_ab, 9.f);
}

const glm::vec3 kA(0.f, 0.f, 0.f);
const glm::vec3 kB(0.f, -1.f, 0.2f);
const glm::vec3 kC(0.f, -2.f, 0.f);

TEST(PositionsDegenerate, TargetAtTheHipIsInvalid) {
  ExpectInvalid(Chain(kA, kB, kC, kA), InputError::kTargetOnHip);
  ExpectInvalid(Chain(kA, kB, kC, glm::vec3(1e-7f, 0.f, 0.f)), InputError::kTargetOnHip);
  EXPECT_EQ(InputErrorName(InputError::kTargetOnHip), "target_on_hip");
}

TEST(PositionsDegenerate, TargetCloserToTheHipThanTheSeedsMillimetreUsesItsOwnDirection) {
  // A 1 cm limb: the seed would take +x for any target within 1 mm of the hip.
  const PositionsInput in = Chain(kA, glm::vec3(0.f, -0.006f, 0.f), glm::vec3(0.f, -0.01f, 0.f),
                                  glm::vec3(0.f, 0.f, 0.0005f));
  PositionsResult r;
  ASSERT_EQ(SolvePositions(in, &r), InputError::kNone);
  EXPECT_EQ(r.reach, Reach::kTooClose);
  // The upper bone (longer) points at the target, not along +x.
  EXPECT_NEAR(glm::length(r.knee_ms - glm::vec3(0.f, 0.f, 0.006f)), 0.f, 1e-7f);
  const seed::SeedPositions<float> s =
      seed::SolvePositions<float>(in.hip_ms, in.knee_ms, in.foot_ms, in.target_ms);
  EXPECT_NEAR(s.knee.x, -0.006f, 1e-7f);  // the seed's +x fallback (n = +x, knee at a - n)
}

TEST(PositionsDegenerate, ZeroLengthBonesAreInvalid) {
  ExpectInvalid(Chain(kA, kA, kC, glm::vec3(1.f, 0.f, 0.f)), InputError::kZeroLengthUpper);
  ExpectInvalid(Chain(kA, kB, kB, glm::vec3(1.f, 0.f, 0.f)), InputError::kZeroLengthLower);
  ExpectInvalid(Chain(kA, kA, kA, glm::vec3(1.f, 0.f, 0.f)), InputError::kZeroLengthUpper);
}

TEST(PositionsDegenerate, NanOrInfinityAnywhereIsInvalid) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const glm::vec3 t(0.5f, -1.f, 0.f);
  for (float bad : {nan, inf, -inf}) {
    ExpectInvalid(Chain(glm::vec3(bad, 0.f, 0.f), kB, kC, t), InputError::kNonFinite);
    ExpectInvalid(Chain(kA, glm::vec3(0.f, bad, 0.f), kC, t), InputError::kNonFinite);
    ExpectInvalid(Chain(kA, kB, glm::vec3(0.f, 0.f, bad), t), InputError::kNonFinite);
    ExpectInvalid(Chain(kA, kB, kC, glm::vec3(bad)), InputError::kNonFinite);
    PositionsInput in = Chain(kA, kB, kC, t);
    in.options.soften = bad;
    ExpectInvalid(in, InputError::kNonFinite);
  }
  // Coordinates whose squares overflow a float.
  ExpectInvalid(Chain(kA, kB, kC, glm::vec3(1e30f, 0.f, 0.f)), InputError::kNonFinite);
}

TEST(PositionsDegenerate, StraightChainWithTheTargetOnItsLineBendsToAFixedSide) {
  // The knee is on the hip-target axis: "closest to the current knee" is every point.
  const PositionsInput in =
      Chain(kA, glm::vec3(1.f, 0.f, 0.f), glm::vec3(2.f, 0.f, 0.f), glm::vec3(1.5f, 0.f, 0.f));
  PositionsResult r;
  PositionsReport rep;
  ASSERT_EQ(SolvePositions(in, &r, &rep), InputError::kNone);
  EXPECT_EQ(r.reach, Reach::kReachable);
  EXPECT_TRUE(rep.used_fallback_side);
  EXPECT_EQ(rep.flip_margin, 0.f);
  EXPECT_TRUE(Finite(r.knee_ms));
  EXPECT_EQ(r.foot_ms, in.target_ms);
  EXPECT_NEAR(glm::length(r.knee_ms - in.hip_ms), 1.f, 1e-6f);
  EXPECT_NEAR(glm::length(r.foot_ms - r.knee_ms), 1.f, 1e-6f);
  EXPECT_NEAR(glm::dot(r.knee_ms - rep.circle.center_ms, glm::vec3(1.f, 0.f, 0.f)), 0.f, 1e-6f);
  // The side is pinned: the first vector of Duff et al.'s orthonormal basis of the hip-target
  // direction (JCGT 2017); for +x that is -z. Equal bones of 1 and |at| = 1.5 put the knee
  // 0.75 along the axis and sqrt(1 - 0.75^2) off it.
  const float off = std::sqrt(1.f - 0.75f * 0.75f);
  EXPECT_NEAR(r.knee_ms.x, 0.75f, 1e-6f);
  EXPECT_NEAR(r.knee_ms.y, 0.f, 1e-6f);
  EXPECT_NEAR(r.knee_ms.z, -off, 1e-6f);
  // A straight leg hanging down (-y) with the target up its line bends toward +x, the basis's
  // first vector for -y.
  PositionsResult leg;
  ASSERT_EQ(SolvePositions(Chain(kA, glm::vec3(0.f, -1.f, 0.f), glm::vec3(0.f, -2.f, 0.f),
                                 glm::vec3(0.f, -1.5f, 0.f)),
                           &leg),
            InputError::kNone);
  EXPECT_NEAR(leg.knee_ms.x, off, 1e-6f);
  EXPECT_NEAR(leg.knee_ms.y, -0.75f, 1e-6f);
  EXPECT_NEAR(leg.knee_ms.z, 0.f, 1e-6f);
}

TEST(PositionsDegenerate, StraightChainAlreadyReachingStaysStraight) {
  const PositionsInput in =
      Chain(kA, glm::vec3(1.f, 0.f, 0.f), glm::vec3(2.f, 0.f, 0.f), glm::vec3(2.f, 0.f, 0.f));
  PositionsResult r;
  ASSERT_EQ(SolvePositions(in, &r), InputError::kNone);
  EXPECT_NEAR(glm::length(r.knee_ms - glm::vec3(1.f, 0.f, 0.f)), 0.f, 1e-6f);
  EXPECT_EQ(r.foot_ms, in.target_ms);
}

TEST(PositionsDegenerate, KneeOnTheHipTargetAxisOfABentChainFallsBackAndHasNoFlipMargin) {
  // Knee straight above the hip, foot off to the side, target straight above too.
  const PositionsInput in =
      Chain(kA, glm::vec3(0.f, 1.f, 0.f), glm::vec3(1.f, 1.f, 0.f), glm::vec3(0.f, 1.5f, 0.f));
  PositionsReport rep;
  PositionsResult r;
  ASSERT_EQ(SolvePositions(in, &r, &rep), InputError::kNone);
  EXPECT_TRUE(rep.used_fallback_side);
  EXPECT_LT(rep.flip_margin, 1e-6f);
  EXPECT_EQ(r.foot_ms, in.target_ms);
  EXPECT_NEAR(glm::length(r.knee_ms), 1.f, 1e-6f);
  EXPECT_NEAR(glm::length(r.foot_ms - r.knee_ms), 1.f, 1e-6f);
}

TEST(PositionsDegenerate, KneeJustOffTheAxisFollowsItsSideAndReportsALowFlipMargin) {
  for (float side : {1.f, -1.f}) {
    const PositionsInput in = Chain(kA, glm::vec3(side * 1e-4f, 1.f, 0.f), glm::vec3(1.f, 1.f, 0.f),
                                    glm::vec3(0.f, 1.5f, 0.f));
    PositionsReport rep;
    PositionsResult r;
    ASSERT_EQ(SolvePositions(in, &r, &rep), InputError::kNone);
    EXPECT_FALSE(rep.used_fallback_side);
    EXPECT_LT(rep.flip_margin, 1e-4f);
    EXPECT_GT(r.knee_ms.x * side, 0.f);  // a tiny move of the knee flips the result
  }
}

TEST(PositionsDegenerate, TargetExactlyOnTheOuterReachBoundaryIsReachedStraight) {
  // |ab| = 1, |bc| = 2, |at| = 3.
  const PositionsInput in =
      Chain(kA, glm::vec3(0.f, 1.f, 0.f), glm::vec3(2.f, 1.f, 0.f), glm::vec3(0.f, 0.f, 3.f));
  PositionsResult r;
  PositionsReport rep;
  ASSERT_EQ(SolvePositions(in, &r, &rep), InputError::kNone);
  EXPECT_EQ(r.reach, Reach::kReachable);
  EXPECT_EQ(r.foot_ms, in.target_ms);
  EXPECT_NEAR(glm::length(r.knee_ms - glm::vec3(0.f, 0.f, 1.f)), 0.f, 1e-6f);
  EXPECT_NEAR(rep.reach_margin, 0.f, 1e-6f);
  EXPECT_NEAR(rep.circle.radius, 0.f, 1e-3f);
}

TEST(PositionsDegenerate, TargetExactlyOnTheInnerReachBoundaryIsReachedFolded) {
  // Longer upper bone: |ab| = 2, |bc| = 1, |at| = 1: the knee beyond the target.
  PositionsInput in =
      Chain(kA, glm::vec3(0.f, 2.f, 0.f), glm::vec3(1.f, 2.f, 0.f), glm::vec3(0.f, 0.f, 1.f));
  PositionsResult r;
  ASSERT_EQ(SolvePositions(in, &r), InputError::kNone);
  EXPECT_EQ(r.reach, Reach::kReachable);
  EXPECT_EQ(r.foot_ms, in.target_ms);
  EXPECT_NEAR(glm::length(r.knee_ms - glm::vec3(0.f, 0.f, 2.f)), 0.f, 1e-3f);
  // Longer lower bone: |ab| = 1, |bc| = 2: the knee behind the hip.
  in = Chain(kA, glm::vec3(0.f, 1.f, 0.f), glm::vec3(2.f, 1.f, 0.f), glm::vec3(0.f, 0.f, 1.f));
  ASSERT_EQ(SolvePositions(in, &r), InputError::kNone);
  EXPECT_EQ(r.reach, Reach::kReachable);
  EXPECT_NEAR(glm::length(r.knee_ms - glm::vec3(0.f, 0.f, -1.f)), 0.f, 1e-3f);
  // Just inside: too close, folded exactly as the seed folds.
  in.target_ms = glm::vec3(0.f, 0.f, 0.999f);
  ASSERT_EQ(SolvePositions(in, &r), InputError::kNone);
  EXPECT_EQ(r.reach, Reach::kTooClose);
  EXPECT_NEAR(glm::length(r.knee_ms - glm::vec3(0.f, 0.f, -1.f)), 0.f, 1e-6f);
  EXPECT_NEAR(glm::length(r.foot_ms - glm::vec3(0.f, 0.f, 1.f)), 0.f, 1e-6f);
}

TEST(PositionsDegenerate, EqualBonesWithTheTargetNextToTheHipFoldAlmostFlat) {
  const PositionsInput in =
      Chain(kA, glm::vec3(0.f, 1.f, 0.f), glm::vec3(1.f, 1.f, 0.f), glm::vec3(0.f, 0.f, 1e-5f));
  PositionsResult r;
  ASSERT_EQ(SolvePositions(in, &r), InputError::kNone);
  EXPECT_EQ(r.reach, Reach::kReachable);
  EXPECT_TRUE(Finite(r.knee_ms));
  EXPECT_NEAR(glm::length(r.knee_ms), 1.f, 1e-5f);
  EXPECT_NEAR(glm::length(r.foot_ms - r.knee_ms), 1.f, 1e-5f);
}

TEST(PositionsDegenerate, ReportIsFreeOfNanOnEveryDegenerateButValidCase) {
  const PositionsInput cases[] = {
      Chain(kA, glm::vec3(1.f, 0.f, 0.f), glm::vec3(2.f, 0.f, 0.f), glm::vec3(1.5f, 0.f, 0.f)),
      Chain(kA, glm::vec3(1.f, 0.f, 0.f), glm::vec3(2.f, 0.f, 0.f), glm::vec3(-2.f, 0.f, 0.f)),
      Chain(kA, glm::vec3(1.f, 0.f, 0.f), glm::vec3(0.f, 0.f, 0.f), glm::vec3(1e-4f, 0.f, 0.f)),
      Chain(kA, glm::vec3(1.f, 0.f, 0.f), glm::vec3(2.f, 0.f, 0.f), glm::vec3(50.f, 0.f, 0.f)),
  };
  for (const PositionsInput& in : cases) {
    PositionsResult r;
    PositionsReport rep;
    ASSERT_EQ(SolvePositions(in, &r, &rep), InputError::kNone);
    EXPECT_TRUE(Finite(rep.result.knee_ms) && Finite(rep.result.foot_ms));
    EXPECT_TRUE(Finite(rep.circle.center_ms) && Finite(rep.circle.normal_ms));
    for (float x :
         {rep.cos_theta, rep.theta_rad, rep.knee_bend_deg, rep.reach_margin, rep.flip_margin,
          rep.residual, rep.circle.radius, rep.hip_rotation.axis_angle.angle_rad,
          rep.knee_rotation.swing_twist.twist_angle_rad}) {
      EXPECT_TRUE(std::isfinite(x));
    }
  }
}

}  // namespace
}  // namespace ikpose::ik
