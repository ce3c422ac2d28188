// Rotations between directions, and how to describe them.
//
// What: the minimal rotation turning one direction into another, its axis/angle, and its
// swing/twist split about a bone axis.
// Why: the orientation step of the seed (the blog post, "Adjusting the Orientations") turns
// each bone by the minimal rotation from its old to its new child direction: axis from the
// cross product, angle from the dot product. The post's version returns glm::quat(0,0,0,1)
// for near-parallel vectors, which in glm's (w, x, y, z) order is a half turn about z, and it
// also returns that for anti-parallel vectors. Here parallel gives the identity and
// anti-parallel a half turn about a perpendicular axis.
// Limits: the half-angle construction q = normalize(|u||v| + u.v, u x v) needs no acos; near
// anti-parallel (within ~1e-7 rad) the axis is any perpendicular of `from`. The solvers'
// speed paths call its kernel (detail::RotationBetweenUnit, two_bone_core.h) directly on
// directions they already know to be unit.
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace ikpose::ik {

// Minimal rotation q with q * from parallel to `to`. Zero-length input gives the identity.
glm::quat RotationBetween(const glm::vec3& from, const glm::vec3& to);

// A unit vector perpendicular to `v` (v need not be unit; zero gives +x), chosen from v alone,
// so the choice is deterministic.
glm::vec3 AnyPerpendicular(const glm::vec3& v);

struct AxisAngle {
  glm::vec3 axis{1.f, 0.f, 0.f};  // unit; +x for the identity
  float angle_rad = 0.f;          // in [0, pi]
};
AxisAngle ToAxisAngle(const glm::quat& q);

// q = swing * twist, twist a rotation about `axis`, swing about an axis perpendicular to it.
struct SwingTwist {
  glm::quat swing{1.f, 0.f, 0.f, 0.f};
  glm::quat twist{1.f, 0.f, 0.f, 0.f};
  float swing_angle_rad = 0.f;  // in [0, pi]
  float twist_angle_rad = 0.f;  // signed about `axis`, in [-pi, pi]
};
SwingTwist DecomposeSwingTwist(const glm::quat& q, const glm::vec3& axis);

// Everything the report says about one applied rotation.
struct RotationReport {
  glm::quat rotation{1.f, 0.f, 0.f, 0.f};
  AxisAngle axis_angle;
  glm::vec3 bone_axis{1.f, 0.f, 0.f};  // unit bone direction (child minus joint) before it
  SwingTwist swing_twist;              // about bone_axis
};
RotationReport DescribeRotation(const glm::quat& q, const glm::vec3& bone_axis);

}  // namespace ikpose::ik
