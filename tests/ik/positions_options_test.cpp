// The options beyond the seed: pole, hinge limits, soften and weight, each for what it
// promises.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "ik/two_bone_positions.h"
#include "test_chains.h"

namespace ikpose::ik {
namespace {

using testing::ChainGenerator;

PositionsInput InputOf(const testing::RandomChain& ch) {
  PositionsInput in;
  in.hip_ms = ch.a;
  in.knee_ms = ch.b;
  in.foot_ms = ch.c;
  in.target_ms = ch.t;
  return in;
}

glm::vec3 OffAxis(const glm::vec3& a, const glm::vec3& t, const glm::vec3& p) {
  const glm::vec3 dir = glm::normalize(t - a);
  const glm::vec3 v = p - a;
  return v - glm::dot(v, dir) * dir;
}

float BendDeg(const PositionsInput& in, const PositionsResult& r) {
  const glm::vec3 u = r.knee_ms - in.hip_ms;
  const glm::vec3 v = r.foot_ms - r.knee_ms;
  return glm::degrees(std::atan2(glm::length(glm::cross(u, v)), glm::dot(u, v)));
}

TEST(PositionsPole, KneeBendsTowardThePole) {
  ChainGenerator gen(41u);
  int checked = 0;
  for (int i = 0; i < 20000; ++i) {
    const testing::RandomChain ch = gen.Next();
    PositionsInput in = InputOf(ch);
    in.options.use_pole = true;
    in.options.pole_ms = ch.a + gen.UnitVector() * ch.limb;
    PositionsResult r;
    PositionsReport rep;
    if (SolvePositions(in, &r, &rep) != InputError::kNone) continue;
    if (r.reach != Reach::kReachable || rep.circle.radius < 1e-3f * ch.limb) continue;
    const glm::vec3 pole_side = OffAxis(ch.a, ch.t, in.options.pole_ms);
    if (glm::length(pole_side) < 1e-3f * ch.limb) continue;
    ASSERT_TRUE(rep.used_pole);
    // The knee's offset from the axis points exactly at the pole's.
    const glm::vec3 knee_side = OffAxis(ch.a, ch.t, r.knee_ms);
    ASSERT_GT(glm::dot(glm::normalize(knee_side), glm::normalize(pole_side)), 1.f - 1e-4f);
    ++checked;
  }
  EXPECT_GT(checked, 5000);
}

TEST(PositionsPole, SettlesTheStraightChainCase) {
  PositionsInput in;
  in.knee_ms = glm::vec3(0.f, -1.f, 0.f);
  in.foot_ms = glm::vec3(0.f, -2.f, 0.f);
  in.target_ms = glm::vec3(0.f, -1.5f, 0.f);
  in.options.use_pole = true;
  in.options.pole_ms = glm::vec3(0.f, -1.f, 3.f);  // in front: a knee bends forward
  PositionsResult r;
  PositionsReport rep;
  ASSERT_EQ(SolvePositions(in, &r, &rep), InputError::kNone);
  EXPECT_TRUE(rep.used_pole);
  EXPECT_FALSE(rep.used_fallback_side);
  EXPECT_NEAR(r.knee_ms.x, 0.f, 1e-6f);
  EXPECT_GT(r.knee_ms.z, 0.6f);
}

TEST(PositionsPole, OnTheAxisFallsBackToTheCurrentKnee) {
  PositionsInput in;
  in.knee_ms = glm::vec3(0.3f, -1.f, 0.f);
  in.foot_ms = glm::vec3(0.f, -2.f, 0.f);
  in.target_ms = glm::vec3(0.f, -1.5f, 0.f);
  in.options.use_pole = true;
  in.options.pole_ms = glm::vec3(0.f, 5.f, 0.f);
  PositionsResult with_pole, without;
  PositionsReport rep;
  ASSERT_EQ(SolvePositions(in, &with_pole, &rep), InputError::kNone);
  EXPECT_FALSE(rep.used_pole);
  in.options.use_pole = false;
  ASSERT_EQ(SolvePositions(in, &without), InputError::kNone);
  EXPECT_EQ(with_pole.knee_ms, without.knee_ms);
}

TEST(PositionsLimits, KeepTheKneeBendInsideTheRangeAndSayWhenTheyClamp) {
  ChainGenerator gen(43u);
  int clamped = 0, free = 0;
  for (int i = 0; i < 20000; ++i) {
    const testing::RandomChain ch = gen.Next();
    PositionsInput in = InputOf(ch);
    PositionsResult plain;
    if (SolvePositions(in, &plain) != InputError::kNone) continue;
    in.options.use_limits = true;
    in.options.limits.min_deg = 10.f;
    in.options.limits.max_deg = 150.f;
    PositionsResult r;
    ASSERT_EQ(SolvePositions(in, &r), InputError::kNone);
    const float bend = BendDeg(in, r);
    const float plain_bend = BendDeg(in, plain);
    SCOPED_TRACE(::testing::Message() << "chain " << i << " plain bend " << plain_bend);
    ASSERT_GE(bend, 10.f - 0.05f);
    ASSERT_LE(bend, 150.f + 0.05f);
    const bool outside = plain_bend < 10.f - 0.05f || plain_bend > 150.f + 0.05f;
    const bool inside = plain_bend > 10.f + 0.05f && plain_bend < 150.f - 0.05f;
    if (outside) {
      ASSERT_TRUE(r.limit_clamped);
      ++clamped;
      // As near the target as the limits allow: the foot on the ray from the hip.
      const glm::vec3 dir = glm::normalize(ch.t - ch.a);
      const glm::vec3 v = r.foot_ms - ch.a;
      ASSERT_LE(glm::length(v - glm::dot(v, dir) * dir), 1e-5f * ch.limb);
    } else if (inside) {
      ASSERT_FALSE(r.limit_clamped);
      ASSERT_LE(glm::length(r.knee_ms - plain.knee_ms), 1e-5f * ch.limb);
      ++free;
    }
    // Bone lengths are kept.
    ASSERT_NEAR(glm::length(r.knee_ms - ch.a), glm::length(ch.b - ch.a), 1e-5f * ch.limb);
    ASSERT_NEAR(glm::length(r.foot_ms - r.knee_ms), glm::length(ch.c - ch.b), 1e-5f * ch.limb);
  }
  EXPECT_GT(clamped, 1000);
  EXPECT_GT(free, 1000);
}

TEST(PositionsLimits, NeverBendTheKneeBackwardPastThePole) {
  ChainGenerator gen(44u);
  for (int i = 0; i < 5000; ++i) {
    const testing::RandomChain ch = gen.Next();
    PositionsInput in = InputOf(ch);
    in.options.use_pole = true;
    in.options.pole_ms = ch.a + gen.UnitVector() * ch.limb;
    in.options.use_limits = true;
    in.options.limits.min_deg = 0.f;
    in.options.limits.max_deg = 160.f;
    PositionsResult r;
    PositionsReport rep;
    if (SolvePositions(in, &r, &rep) != InputError::kNone || !rep.used_pole) continue;
    // Signed bend about the hinge axis that the pole defines: never negative.
    const glm::vec3 pole_side = OffAxis(ch.a, ch.t, in.options.pole_ms);
    const glm::vec3 knee_side = OffAxis(ch.a, ch.t, r.knee_ms);
    ASSERT_GE(glm::dot(knee_side, pole_side), -1e-6f * ch.limb * ch.limb);
  }
}

TEST(PositionsLimits, FullRangeChangesNothing) {
  ChainGenerator gen(45u);
  for (int i = 0; i < 5000; ++i) {
    const testing::RandomChain ch = gen.Next();
    PositionsInput in = InputOf(ch);
    PositionsResult plain, limited;
    if (SolvePositions(in, &plain) != InputError::kNone) continue;
    in.options.use_limits = true;
    ASSERT_EQ(SolvePositions(in, &limited), InputError::kNone);
    ASSERT_EQ(plain.knee_ms, limited.knee_ms);
    ASSERT_EQ(plain.foot_ms, limited.foot_ms);
    ASSERT_FALSE(limited.limit_clamped);
  }
}

TEST(PositionsLimits, BadRangesAreInvalid) {
  PositionsInput in;
  in.knee_ms = glm::vec3(0.f, -1.f, 0.f);
  in.foot_ms = glm::vec3(0.f, -2.f, 0.f);
  in.target_ms = glm::vec3(0.f, -1.5f, 0.f);
  in.options.use_limits = true;
  for (auto [lo, hi] : {std::pair{-5.f, 90.f}, std::pair{100.f, 90.f}, std::pair{0.f, 200.f}}) {
    in.options.limits = {lo, hi};
    EXPECT_EQ(ValidatePositions(in), InputError::kBadLimits);
  }
}

// The target sweeps along a line through full extension; returns the largest step of the
// knee and of the foot, and the largest change of the foot's step (a kink) per sweep step.
struct Sweep {
  float max_knee_step = 0.f;
  float max_foot_step = 0.f;
  float max_foot_kink = 0.f;
  bool reached_beyond = false;
};
Sweep SweepThroughFullExtension(float soften) {
  PositionsInput in;
  in.knee_ms = glm::vec3(0.6f, -0.8f, 0.f);  // |ab| = |bc| = 1: full reach 2
  in.foot_ms = glm::vec3(0.f, -1.6f, 0.f);
  in.options.soften = soften;
  Sweep s;
  const int n = 4000;
  glm::vec3 prev_knee(0.f), prev_foot(0.f), prev_step(0.f);
  for (int i = 0; i <= n; ++i) {
    const float y = -1.6f - 0.8f * float(i) / n;  // |at| from 1.6 to 2.4, reach 2
    in.target_ms = glm::vec3(0.f, y, 0.05f);
    PositionsResult r;
    EXPECT_EQ(SolvePositions(in, &r), InputError::kNone);
    if (glm::length(r.foot_ms) > 2.f + 1e-5f) s.reached_beyond = true;
    if (i > 0) {
      const glm::vec3 step = r.foot_ms - prev_foot;
      s.max_knee_step = std::max(s.max_knee_step, glm::length(r.knee_ms - prev_knee));
      s.max_foot_step = std::max(s.max_foot_step, glm::length(step));
      if (i > 1) s.max_foot_kink = std::max(s.max_foot_kink, glm::length(step - prev_step));
      prev_step = step;
    }
    prev_knee = r.knee_ms;
    prev_foot = r.foot_ms;
  }
  return s;
}

TEST(PositionsSoften, FootIsContinuousAndSmoothAcrossFullExtension) {
  const float step = 0.8f / 4000;  // the target's step
  const Sweep hard = SweepThroughFullExtension(1.f);
  const Sweep soft = SweepThroughFullExtension(0.9f);
  EXPECT_FALSE(soft.reached_beyond);
  // Continuous: the foot never moves more than the target does.
  EXPECT_LE(soft.max_foot_step, step * 1.001f);
  // Smooth: without soften the foot's velocity drops to zero at the boundary in one step (a
  // kink as big as a whole step); with it the velocity changes gradually.
  EXPECT_GT(hard.max_foot_kink, 0.5f * step);
  EXPECT_LT(soft.max_foot_kink, 0.02f * step);
  // And the knee does not snap: its largest step is a fraction of the hard case's.
  EXPECT_LT(soft.max_knee_step, 0.25f * hard.max_knee_step);
  EXPECT_LT(soft.max_knee_step, 10.f * step);
}

TEST(PositionsSoften, LeavesTargetsShortOfTheSoftZoneAloneAndSaysWhenItActs) {
  PositionsInput in;
  in.knee_ms = glm::vec3(0.6f, -0.8f, 0.f);  // |ab| = |bc| = 1: full reach 2
  in.foot_ms = glm::vec3(0.f, -1.6f, 0.f);
  in.target_ms = glm::vec3(0.f, -1.7f, 0.f);  // 0.85 of the reach
  PositionsResult plain, soft;
  ASSERT_EQ(SolvePositions(in, &plain), InputError::kNone);
  in.options.soften = 0.9f;
  ASSERT_EQ(SolvePositions(in, &soft), InputError::kNone);
  EXPECT_EQ(plain.knee_ms, soft.knee_ms);
  EXPECT_FALSE(soft.softened);
  in.target_ms = glm::vec3(0.f, -1.9f, 0.f);
  ASSERT_EQ(SolvePositions(in, &soft), InputError::kNone);
  EXPECT_TRUE(soft.softened);
  EXPECT_EQ(soft.reach, Reach::kReachable);
  EXPECT_LT(glm::length(soft.foot_ms), 1.9f);
  in.target_ms = glm::vec3(0.f, -100.f, 0.f);
  ASSERT_EQ(SolvePositions(in, &soft), InputError::kNone);
  EXPECT_NEAR(glm::length(soft.foot_ms), 2.f, 1e-5f);
  in.options.soften = 1.5f;
  EXPECT_EQ(ValidatePositions(in), InputError::kBadSoften);
}

TEST(PositionsWeight, BlendsFromTheInputPoseToTheSolvedOne) {
  ChainGenerator gen(47u);
  for (int i = 0; i < 5000; ++i) {
    const testing::RandomChain ch = gen.Next();
    PositionsInput in = InputOf(ch);
    PositionsResult full;
    if (SolvePositions(in, &full) != InputError::kNone) continue;
    in.options.weight = 0.f;
    PositionsResult none, half;
    ASSERT_EQ(SolvePositions(in, &none), InputError::kNone);
    const float tol = 1e-5f * ch.limb;
    ASSERT_LE(glm::length(none.knee_ms - ch.b), tol);
    ASSERT_LE(glm::length(none.foot_ms - ch.c), tol);
    in.options.weight = 0.5f;
    ASSERT_EQ(SolvePositions(in, &half), InputError::kNone);
    // Lengths kept at any weight; the hip turns half as far.
    ASSERT_NEAR(glm::length(half.knee_ms - ch.a), glm::length(ch.b - ch.a), tol);
    ASSERT_NEAR(glm::length(half.foot_ms - half.knee_ms), glm::length(ch.c - ch.b), tol);
    const float full_angle = glm::angle(full.hip_rotation);
    ASSERT_NEAR(glm::angle(half.hip_rotation), 0.5f * full_angle, 1e-3f);
    // Each bone turns by its share of its own solved turn: the hip half way along the arc to
    // its solved turn, the knee by half its solved turn relative to the hip (in the full
    // solve the lower bone is q_hip * (q_hip^-1 q_knee q_hip) * bc).
    const glm::quat identity(1.f, 0.f, 0.f, 0.f);
    const glm::quat hip_half = glm::slerp(identity, full.hip_rotation, 0.5f);
    const glm::quat knee_in_hip =
        glm::conjugate(full.hip_rotation) * full.knee_rotation * full.hip_rotation;
    const glm::quat knee_half = glm::slerp(identity, knee_in_hip, 0.5f);
    const glm::vec3 knee = ch.a + hip_half * (ch.b - ch.a);
    ASSERT_LE(glm::length(half.knee_ms - knee), tol) << i;
    ASSERT_LE(glm::length(half.foot_ms - (knee + hip_half * (knee_half * (ch.c - ch.b)))), tol)
        << i;
  }
  PositionsInput bad;
  bad.knee_ms = glm::vec3(0.f, -1.f, 0.f);
  bad.foot_ms = glm::vec3(0.f, -2.f, 0.f);
  bad.target_ms = glm::vec3(0.f, -1.5f, 0.f);
  bad.options.weight = -0.1f;
  EXPECT_EQ(ValidatePositions(bad), InputError::kBadWeight);
}

}  // namespace
}  // namespace ikpose::ik
