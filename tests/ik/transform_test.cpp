// Affine transforms: inverse without a general 4x4 inverse, and rotation parts.
#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>

#include "ik/transform.h"
#include "test_chains.h"

namespace ikpose::ik {
namespace {

TEST(Affine, LocalTransformIsTranslateRotateScale) {
  LocalTransform x;
  x.translation = glm::vec3(1.f, 2.f, 3.f);
  x.rotation = glm::angleAxis(0.4f, glm::normalize(glm::vec3(1.f, 1.f, 0.f)));
  x.scale = glm::vec3(2.f, -1.f, 0.5f);
  glm::mat4 expected = glm::translate(glm::mat4(1.f), x.translation) * glm::mat4_cast(x.rotation);
  expected = glm::scale(expected, x.scale);
  const glm::mat4 got = ToMat4(AffineFromLocal(x));
  for (int c = 0; c < 4; ++c) {
    EXPECT_LE(glm::length(got[c] - expected[c]), 1e-6f);
  }
  // The last column of the scale matrix is (0, 0, 0, 1), not ones (the post's typo).
  EXPECT_EQ(got[3], glm::vec4(x.translation, 1.f));
}

TEST(Affine, InverseUndoesRandomAffineMapsWithShearAndNegativeScale) {
  testing::ChainGenerator gen(8u);
  for (int i = 0; i < 1000; ++i) {
    Affine x;
    for (int c = 0; c < 3; ++c) x.linear[c] = gen.UnitVector() * gen.Uniform(0.1f, 3.f);
    x.translation = gen.UnitVector() * gen.Uniform(0.f, 5.f);
    if (!IsInvertible(x)) continue;
    const Affine inv = Inverse(x);
    const glm::vec3 p = gen.UnitVector() * gen.Uniform(0.f, 3.f);
    const glm::vec3 back = TransformPoint(inv, TransformPoint(x, p));
    const float cond = glm::length(glm::vec3(glm::determinant(x.linear)));
    EXPECT_LE(glm::length(back - p), 1e-4f * (1.f + 1.f / cond));
    const Affine id = Compose(inv, x);
    EXPECT_LE(glm::length(id.translation), 1e-4f * (1.f + 1.f / cond));
  }
}

TEST(Affine, SingularMapsAreNotInvertibleAndInvertToZeros) {
  Affine x;
  x.linear[2] = glm::vec3(0.f);
  EXPECT_FALSE(IsInvertible(x));
  EXPECT_EQ(Inverse(x).linear, glm::mat3(0.f));
  x.linear = glm::mat3(1.f);
  x.linear[2] = x.linear[0] + x.linear[1];  // dependent columns
  EXPECT_FALSE(IsInvertible(x));
  x.linear = glm::mat3(1.f);
  x.translation.y = std::nanf("");
  EXPECT_FALSE(IsInvertible(x));
}

TEST(RotationOf, RecoversTheRotationOfAUniformlyScaledOrMirroredFrame) {
  testing::ChainGenerator gen(9u);
  for (int i = 0; i < 1000; ++i) {
    const glm::quat r = glm::angleAxis(gen.Uniform(0.f, 3.1f), gen.UnitVector());
    const float s = gen.Uniform(0.1f, 10.f);
    EXPECT_NEAR(std::abs(glm::dot(RotationOf(glm::mat3_cast(r) * s), r)), 1.f, 1e-5f);
    // -s I has a negative determinant: the frame is mirrored; its rotation is r.
    EXPECT_NEAR(std::abs(glm::dot(RotationOf(glm::mat3_cast(r) * -s), r)), 1.f, 1e-5f);
  }
}

}  // namespace
}  // namespace ikpose::ik
