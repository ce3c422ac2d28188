// Comparing glm values in tests: vectors component by component, rotations up to sign, matrices
// entry by entry, whether a vector is finite, and the angle between two rotations.
//
// Why one header: every test of positions and turns needs these, and copies drift (different
// default tolerances, different messages). A failure names the line of the call, not this file.
// Limits: tolerances are absolute, in the values' own units; pass one scaled to the model when
// the lengths are not about 1.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <source_location>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace ikpose::test {

// Each component of `a` within `tolerance` of `b`'s.
inline void ExpectNear(const glm::vec3& a, const glm::vec3& b, float tolerance = 1e-5f,
                       std::source_location at = std::source_location::current()) {
  const ::testing::ScopedTrace trace(at.file_name(), static_cast<int>(at.line()), "ExpectNear");
  EXPECT_NEAR(a.x, b.x, tolerance);
  EXPECT_NEAR(a.y, b.y, tolerance);
  EXPECT_NEAR(a.z, b.z, tolerance);
}

// The same rotation: q and -q turn alike, so |dot| is compared with 1.
inline void ExpectSameRotation(const glm::quat& a, const glm::quat& b, float tolerance = 1e-5f,
                               std::source_location at = std::source_location::current()) {
  const ::testing::ScopedTrace trace(at.file_name(), static_cast<int>(at.line()),
                                     "ExpectSameRotation");
  EXPECT_NEAR(std::abs(glm::dot(a, b)), 1.f, tolerance)
      << "a=(w " << a.w << ", x " << a.x << ", y " << a.y << ", z " << a.z << ") b=(w " << b.w
      << ", x " << b.x << ", y " << b.y << ", z " << b.z << ")";
}

// Every entry of `a` within `tolerance` of `b`'s.
inline void ExpectSameMatrix(const glm::mat4& a, const glm::mat4& b, float tolerance = 1e-5f,
                             std::source_location at = std::source_location::current()) {
  const ::testing::ScopedTrace trace(at.file_name(), static_cast<int>(at.line()),
                                     "ExpectSameMatrix");
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) EXPECT_NEAR(a[c][r], b[c][r], tolerance) << "column " << c;
  }
}

// Every component finite (no NaN, no infinity).
inline bool Finite(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// The angle of the turn from `a` to `b`, in degrees (0..180 for unit quaternions).
inline float AngleDeg(const glm::quat& a, const glm::quat& b) {
  return glm::degrees(glm::angle(glm::normalize(glm::inverse(a) * b)));
}

}  // namespace ikpose::test
