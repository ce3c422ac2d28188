// Minimal rotations between directions, and how they are described.
#include <gtest/gtest.h>

#include <cmath>

#include "ik/rotation.h"
#include "test_chains.h"

namespace ikpose::ik {
namespace {

constexpr float kPi = 3.14159265358979f;

float AngleBetween(const glm::vec3& u, const glm::vec3& v) {
  const glm::dvec3 a = glm::normalize(glm::dvec3(u));
  const glm::dvec3 b = glm::normalize(glm::dvec3(v));
  return float(std::atan2(glm::length(glm::cross(a, b)), glm::dot(a, b)));
}

TEST(GlmQuaternion, ConstructorTakesWFirstSoThePostsIdentityIsAHalfTurn) {
  const glm::quat identity(1.f, 0.f, 0.f, 0.f);
  const glm::quat posts(0.f, 0.f, 0.f, 1.f);  // what the post returns for "no rotation"
  const glm::vec3 x(1.f, 0.f, 0.f);
  EXPECT_EQ(identity * x, x);
  EXPECT_NEAR(glm::length(posts * x - glm::vec3(-1.f, 0.f, 0.f)), 0.f, 1e-6f);
}

TEST(RotationBetween, ParallelVectorsGiveTheIdentity) {
  const glm::quat q = RotationBetween(glm::vec3(0.f, 2.f, 0.f), glm::vec3(0.f, 5.f, 0.f));
  EXPECT_EQ(q.w, 1.f);
  EXPECT_EQ(q.x, 0.f);
  EXPECT_EQ(q.y, 0.f);
  EXPECT_EQ(q.z, 0.f);
}

TEST(RotationBetween, AntiParallelVectorsGiveAHalfTurnAboutAPerpendicular) {
  const glm::vec3 dirs[] = {{1.f, 0.f, 0.f},  {0.f, 1.f, 0.f},  {0.f, 0.f, 1.f},
                            {0.f, 0.f, -1.f}, {1.f, 2.f, -3.f}, {-0.3f, 0.1f, 0.2f}};
  for (const glm::vec3& d : dirs) {
    const glm::quat q = RotationBetween(d, -2.f * d);
    const AxisAngle aa = ToAxisAngle(q);
    EXPECT_NEAR(aa.angle_rad, kPi, 1e-6f);
    EXPECT_NEAR(glm::dot(aa.axis, glm::normalize(d)), 0.f, 1e-6f);
    EXPECT_LE(AngleBetween(q * d, -d), 1e-6f);
  }
}

TEST(RotationBetween, NearlyAntiParallelVectorsStayAccurate) {
  testing::ChainGenerator gen(3u);
  for (int i = 0; i < 10000; ++i) {
    const glm::vec3 u = gen.UnitVector();
    const glm::vec3 p = glm::normalize(glm::cross(u, gen.UnitVector()));
    const float eps = std::pow(10.f, gen.Uniform(-7.f, -1.f));
    const glm::vec3 v = -u * std::cos(eps) + p * std::sin(eps);  // pi - eps from u
    const glm::quat q = RotationBetween(u * 3.f, v * 0.5f);
    EXPECT_LE(AngleBetween(q * u, v), 2e-6f) << "eps " << eps;
    EXPECT_NEAR(glm::length(q), 1.f, 1e-6f);
  }
}

TEST(RotationBetween, RandomPairsTurnTheFirstOntoTheSecondByTheirAngle) {
  testing::ChainGenerator gen(4u);
  for (int i = 0; i < 10000; ++i) {
    const glm::vec3 u = gen.UnitVector() * gen.Uniform(0.01f, 100.f);
    const glm::vec3 v = gen.UnitVector() * gen.Uniform(0.01f, 100.f);
    const glm::quat q = RotationBetween(u, v);
    EXPECT_LE(AngleBetween(q * u, v), 2e-6f);
    EXPECT_NEAR(ToAxisAngle(q).angle_rad, AngleBetween(u, v), 2e-6f);
    // Minimal: the axis is perpendicular to both.
    EXPECT_NEAR(glm::dot(ToAxisAngle(q).axis, glm::normalize(u)), 0.f, 1e-4f);
  }
}

TEST(RotationBetween, AZeroVectorGivesTheIdentity) {
  const glm::quat q = RotationBetween(glm::vec3(0.f), glm::vec3(1.f, 0.f, 0.f));
  EXPECT_EQ(q, glm::quat(1.f, 0.f, 0.f, 0.f));
  EXPECT_EQ(RotationBetween(glm::vec3(1.f, 0.f, 0.f), glm::vec3(0.f)), q);
}

TEST(AnyPerpendicular, IsUnitAndPerpendicular) {
  testing::ChainGenerator gen(5u);
  for (int i = 0; i < 1000; ++i) {
    const glm::vec3 v = gen.UnitVector() * gen.Uniform(0.001f, 10.f);
    const glm::vec3 p = AnyPerpendicular(v);
    EXPECT_NEAR(glm::length(p), 1.f, 1e-6f);
    EXPECT_NEAR(glm::dot(p, glm::normalize(v)), 0.f, 1e-6f);
  }
  EXPECT_NEAR(glm::length(AnyPerpendicular(glm::vec3(0.f, 0.f, -1.f))), 1.f, 1e-6f);
  EXPECT_EQ(AnyPerpendicular(glm::vec3(0.f)), glm::vec3(1.f, 0.f, 0.f));
}

TEST(ToAxisAngle, GivesAnAngleInZeroToPiForEitherSignOfTheQuaternion) {
  const glm::quat q = glm::angleAxis(2.5f, glm::vec3(0.f, 1.f, 0.f));
  const AxisAngle a = ToAxisAngle(q);
  const AxisAngle b = ToAxisAngle(-q);
  EXPECT_NEAR(a.angle_rad, 2.5f, 1e-6f);
  EXPECT_NEAR(b.angle_rad, 2.5f, 1e-6f);
  EXPECT_NEAR(glm::dot(a.axis, b.axis), 1.f, 1e-6f);
  EXPECT_EQ(ToAxisAngle(glm::quat(1.f, 0.f, 0.f, 0.f)).angle_rad, 0.f);
}

TEST(SwingTwist, RecomposesAndPutsTheTwistAboutTheAxis) {
  testing::ChainGenerator gen(6u);
  for (int i = 0; i < 1000; ++i) {
    const glm::vec3 axis = gen.UnitVector();
    const glm::quat q = glm::angleAxis(gen.Uniform(0.f, 3.f), gen.UnitVector());
    const SwingTwist st = DecomposeSwingTwist(q, axis * 2.f);
    const glm::quat back = st.swing * st.twist;
    EXPECT_NEAR(std::abs(glm::dot(back, q)), 1.f, 1e-5f);
    // The twist turns about the axis; the swing's axis is perpendicular to it.
    EXPECT_LE(glm::length(st.twist * axis - axis), 1e-5f);
    const AxisAngle swing = ToAxisAngle(st.swing);
    if (swing.angle_rad > 1e-3f) {
      EXPECT_NEAR(glm::dot(swing.axis, axis), 0.f, 1e-4f);
    }
  }
  const glm::vec3 z(0.f, 0.f, 1.f);
  const SwingTwist pure = DecomposeSwingTwist(glm::angleAxis(-0.5f, z), z);
  EXPECT_NEAR(pure.twist_angle_rad, -0.5f, 1e-6f);
  EXPECT_NEAR(pure.swing_angle_rad, 0.f, 1e-6f);
}

}  // namespace
}  // namespace ikpose::ik
