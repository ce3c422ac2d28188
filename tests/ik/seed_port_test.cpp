// The port of the post's code that tests compare with and the benchmark measures.
#include <gtest/gtest.h>

#include "support/seed_port.h"

namespace ikpose::ik {
namespace {

TEST(SeedPort, RotationBetweenNearlyParallelVectorsIsTheIdentityInGlmsOrder) {
  const glm::quat q = seed::RotationBetween(glm::vec3(1.f, 0.f, 0.f), glm::vec3(1.f, 1e-5f, 0.f));
  EXPECT_EQ(q, glm::quat(1.f, 0.f, 0.f, 0.f));
}

TEST(SeedPort, RotationBetweenAntiParallelVectorsIsAHalfTurn) {
  const glm::vec3 u(0.f, 0.f, 1.f);
  const glm::quat q = seed::RotationBetween(u, -u);
  EXPECT_NEAR(glm::length(q * u + u), 0.f, 1e-6f);
}

TEST(SeedPort, PositionsFollowThePostsThreeCases) {
  const glm::vec3 a(0.f), b(0.f, -1.f, 0.2f), c(0.f, -2.f, 0.f);
  auto s = seed::SolvePositions<float>(a, b, c, glm::vec3(0.f, -1.5f, 0.f));
  EXPECT_TRUE(s.reached);
  EXPECT_EQ(s.foot, glm::vec3(0.f, -1.5f, 0.f));
  s = seed::SolvePositions<float>(a, b, c, glm::vec3(0.f, -5.f, 0.f));
  EXPECT_FALSE(s.reached);
  EXPECT_NEAR(s.foot.y, -(glm::length(b - a) + glm::length(c - b)), 1e-6f);
}

TEST(SeedPort, OrientationStepLandsTheFootOnARigidChain) {
  LocalTransform hip, knee, foot;
  knee.translation = glm::vec3(0.f, -1.f, 0.f);
  knee.rotation = glm::angleAxis(0.3f, glm::vec3(1.f, 0.f, 0.f));
  foot.translation = glm::vec3(0.f, -1.f, 0.f);
  const glm::vec3 target(0.3f, -1.2f, 0.5f);
  const seed::SeedRotations r = seed::SolveOrientations(glm::mat4(1.f), hip, knee, foot, target);
  hip.rotation = r.hip_rotation_ls;
  knee.rotation = r.knee_rotation_ls;
  const glm::mat4 m =
      ToMat4(Compose(Compose(AffineFromLocal(hip), AffineFromLocal(knee)), AffineFromLocal(foot)));
  EXPECT_NEAR(glm::length(glm::vec3(m[3]) - target), 0.f, 1e-5f);
}

}  // namespace
}  // namespace ikpose::ik
