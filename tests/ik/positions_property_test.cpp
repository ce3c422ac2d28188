// Properties of the positions step over many seeded random chains (limbs from 1 cm to 100 m).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "support/seed_port.h"
#include "ik/two_bone_positions.h"
#include "test_chains.h"

namespace ikpose::ik {
namespace {

using testing::ChainGenerator;
using testing::D;
using testing::dvec3;

constexpr int kChains = 100000;
constexpr double kRel = 1e-5;

struct Measured {
  double l1, l2, d, limb;
  dvec3 dir;  // a toward t
};

// How far float rounding can move the knee: |at| carries a rounding error of a few ulps of
// the coordinates, and the circle's radius r = sqrt(|ab|^2 - x1^2) changes with |at| as
// d(r^2)/d|at| = 2 x1 x2 / |at| (x1, x2 the center's distances from hip and foot). Near a
// reach boundary r is near zero and that derivative is amplified: this is the problem's
// conditioning, not a solver error.
double KneeSlack(const testing::RandomChain& ch, double l1, double l2, double d) {
  const double scale = glm::length(D(ch.a)) + glm::length(D(ch.t)) + l1 + l2;
  const double dd = 4e-7 * scale;
  const double x1 = (d * d + l1 * l1 - l2 * l2) / (2 * d);
  const double x2 = d - x1;
  const double r2 = std::max(l1 * l1 - x1 * x1, 0.0);
  const double dr2 = 2 * std::abs(x1 * x2) / d * dd;
  return std::min(dr2 / (2 * std::sqrt(r2) + 1e-300), std::sqrt(dr2)) + dd;
}

Measured Measure(const testing::RandomChain& ch) {
  Measured m;
  m.l1 = glm::length(D(ch.b) - D(ch.a));
  m.l2 = glm::length(D(ch.c) - D(ch.b));
  m.d = glm::length(D(ch.t) - D(ch.a));
  m.limb = m.l1 + m.l2;
  m.dir = (D(ch.t) - D(ch.a)) / m.d;
  return m;
}

PositionsInput InputOf(const testing::RandomChain& ch) {
  PositionsInput in;
  in.hip_ms = ch.a;
  in.knee_ms = ch.b;
  in.foot_ms = ch.c;
  in.target_ms = ch.t;
  return in;
}

// Closest point to `ref` on the circle (center, normal, radius), by sampling the circle at
// 256 angles, then 256 angles within one step of the best, twice more.
dvec3 ClosestOnCircleBySampling(const dvec3& center, const dvec3& normal, double radius,
                                const dvec3& ref) {
  const dvec3 helper = std::abs(normal.x) < 0.6 ? dvec3(1, 0, 0) : dvec3(0, 1, 0);
  const dvec3 e1 = glm::normalize(glm::cross(normal, helper));
  const dvec3 e2 = glm::cross(normal, e1);
  auto at = [&](double angle) {
    return center + radius * (std::cos(angle) * e1 + std::sin(angle) * e2);
  };
  double best = 0.0;
  double span = 2.0 * 3.141592653589793;
  double lo = 0.0;
  for (int round = 0; round < 4; ++round) {
    const int n = 256;
    double best_d = 1e300;
    for (int i = 0; i < n; ++i) {
      const double angle = lo + span * i / n;
      const double dist = glm::length(at(angle) - ref);
      if (dist < best_d) {
        best_d = dist;
        best = angle;
      }
    }
    const double step = span / n;
    lo = best - step;
    span = 2.0 * step;
  }
  return at(best);
}

TEST(PositionsProperty, KeepsBoneLengthsAndReachesOrStraightensOrFoldsAsTheSeed) {
  ChainGenerator gen(20240611u);
  int reachable = 0, too_far = 0, too_close = 0;
  for (int i = 0; i < kChains; ++i) {
    const testing::RandomChain ch = gen.Next();
    const PositionsInput in = InputOf(ch);
    PositionsResult r;
    if (ValidatePositions(in) != InputError::kNone) continue;  // a target on the hip
    ASSERT_EQ(SolvePositions(in, &r), InputError::kNone);
    const Measured m = Measure(ch);
    const dvec3 a = D(ch.a), b2 = D(r.knee_ms), c2 = D(r.foot_ms), t = D(ch.t);
    const double tol = kRel * m.limb;
    SCOPED_TRACE(::testing::Message() << "chain " << i << " limb " << m.limb);
    ASSERT_NEAR(glm::length(b2 - a), m.l1, kRel * m.l1);
    ASSERT_NEAR(glm::length(c2 - b2), m.l2, kRel * m.l2);
    switch (r.reach) {
      case Reach::kReachable:
        ++reachable;
        ASSERT_LE(m.d, m.limb * (1 + 1e-6));
        ASSERT_LE(glm::length(c2 - t), tol);
        break;
      case Reach::kTooFar:
        ++too_far;
        ASSERT_GE(m.d, m.limb * (1 - 1e-6));
        ASSERT_LE(glm::length(b2 - (a + m.l1 * m.dir)), tol);
        ASSERT_LE(glm::length(c2 - (a + m.limb * m.dir)), tol);
        break;
      case Reach::kTooClose: {
        ++too_close;
        ASSERT_LE(m.d, std::abs(m.l1 - m.l2) * (1 + 1e-6));
        // The longer bone toward the target, the other away.
        const double sign = m.l1 > m.l2 ? 1.0 : -1.0;
        ASSERT_LE(glm::length(b2 - (a + sign * m.l1 * m.dir)), tol);
        ASSERT_LE(glm::length(c2 - (a + sign * (m.l1 - m.l2) * m.dir)), tol);
        break;
      }
    }
  }
  // The generator covers all three cases.
  EXPECT_GT(reachable, kChains / 3);
  EXPECT_GT(too_far, kChains / 50);
  EXPECT_GT(too_close, kChains / 50);
}

TEST(PositionsProperty, KneeIsTheCirclePointClosestToTheCurrentKnee) {
  ChainGenerator gen(7u);
  int checked = 0;
  for (int i = 0; i < kChains; ++i) {
    const testing::RandomChain ch = gen.Next();
    const PositionsInput in = InputOf(ch);
    PositionsResult r;
    if (SolvePositions(in, &r) != InputError::kNone || r.reach != Reach::kReachable) continue;
    const Measured m = Measure(ch);
    // The circle, in double, from the law of cosines.
    const double cos_theta =
        std::clamp((m.l1 * m.l1 + m.d * m.d - m.l2 * m.l2) / (2 * m.l1 * m.d), -1.0, 1.0);
    const dvec3 center = D(ch.a) + m.l1 * cos_theta * m.dir;
    const double radius = m.l1 * std::sqrt(1 - cos_theta * cos_theta);
    const dvec3 knee = D(r.knee_ms);
    const dvec3 ref = D(ch.b);
    SCOPED_TRACE(::testing::Message() << "chain " << i << " limb " << m.limb);
    const double tol = kRel * m.limb;
    // On the circle.
    ASSERT_NEAR(glm::dot(knee - center, m.dir), 0.0, tol);
    // Near full extension or full fold the circle's radius itself is ill-conditioned in
    // float (it moves as the square root of the distance to the boundary); allow for that.
    const double slack = KneeSlack(ch, m.l1, m.l2, m.d);
    ASSERT_NEAR(glm::length(knee - center), radius, tol + slack);
    // Closest: no sampled point of the circle is nearer to the old knee.
    const dvec3 best = ClosestOnCircleBySampling(center, m.dir, radius, ref);
    ASSERT_LE(glm::length(knee - ref), glm::length(best - ref) + tol + slack);
    // And it is that point, unless the old knee is so near the axis that the circle's points
    // are all about as near (the flip-risk case, tested on its own).
    const dvec3 off = (ref - D(ch.a)) - glm::dot(ref - D(ch.a), m.dir) * m.dir;
    if (glm::length(off) > 1e-3 * m.limb) {
      ASSERT_LE(glm::length(knee - best), 1e-4 * m.limb + slack);
      ++checked;
    }
  }
  EXPECT_GT(checked, kChains / 3);
}

TEST(PositionsProperty, DefaultOptionsGiveTheSeedsResult) {
  ChainGenerator gen(99u);
  int compared = 0;
  for (int i = 0; i < kChains; ++i) {
    const testing::RandomChain ch = gen.Next();
    const PositionsInput in = InputOf(ch);
    PositionsResult r;
    if (SolvePositions(in, &r) != InputError::kNone) continue;
    const Measured m = Measure(ch);
    // The seed uses +x as the direction when |at| < 1e-3 (an absolute length); that
    // deliberate difference is tested in the degenerate cases.
    if (m.d < 1e-3) continue;
    const seed::SeedPositions<double> s =
        seed::SolvePositions<double>(D(ch.a), D(ch.b), D(ch.c), D(ch.t));
    SCOPED_TRACE(::testing::Message() << "chain " << i << " limb " << m.limb);
    const double tol = kRel * m.limb;
    ASSERT_LE(glm::length(D(r.foot_ms) - s.foot), tol);
    // The knee moves as the square root of the distance to a reach boundary, so float
    // rounding of |at| is amplified next to one.
    const double slack = KneeSlack(ch, m.l1, m.l2, m.d);
    ASSERT_LE(glm::length(D(r.knee_ms) - s.knee), tol + slack);
    ++compared;
  }
  EXPECT_GT(compared, kChains * 9 / 10);
}

}  // namespace
}  // namespace ikpose::ik
