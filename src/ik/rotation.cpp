#include "ik/rotation.h"

#include <cmath>

#include "ik/two_bone_core.h"

namespace ikpose::ik {

glm::quat RotationBetween(const glm::vec3& from, const glm::vec3& to) {
  const float ff = glm::dot(from, from);
  const float tt = glm::dot(to, to);
  if (!(ff > 0.f) || !(tt > 0.f)) return glm::quat(1.f, 0.f, 0.f, 0.f);
  // Each to unit length on its own (|f| |t|, not sqrt(|f|^2 |t|^2): nothing overflows for
  // lengths up to 1e18), then the kernel and one normalisation.
  const detail::UnitTurn turn =
      detail::RotationBetweenUnit(from * (1.f / std::sqrt(ff)), to * (1.f / std::sqrt(tt)));
  return turn.q * (1.f / std::sqrt(turn.norm2));
}

glm::vec3 AnyPerpendicular(const glm::vec3& v) {
  const float len = glm::length(v);
  return detail::PerpendicularOfUnit(len > 0.f ? v / len : glm::vec3(0.f));
}

AxisAngle ToAxisAngle(const glm::quat& q_in) {
  // q and -q are the same rotation; w >= 0 gives the angle in [0, pi].
  const glm::quat q = q_in.w < 0.f ? -q_in : q_in;
  const glm::vec3 v(q.x, q.y, q.z);
  const float s = glm::length(v);
  AxisAngle out;
  if (s > 0.f) {
    out.axis = v / s;
    out.angle_rad = 2.f * std::atan2(s, q.w);
  }
  return out;
}

SwingTwist DecomposeSwingTwist(const glm::quat& q, const glm::vec3& axis_in) {
  SwingTwist out;
  const float len = glm::length(axis_in);
  if (!(len > 0.f)) {
    out.swing = q;
    out.swing_angle_rad = ToAxisAngle(q).angle_rad;
    return out;
  }
  const glm::vec3 axis = axis_in / len;
  // The twist keeps q's component along the axis (projection onto rotations about it).
  const float p = q.x * axis.x + q.y * axis.y + q.z * axis.z;
  const float n = std::sqrt(q.w * q.w + p * p);
  if (n > 1e-7f) {
    out.twist = glm::quat(q.w / n, axis.x * p / n, axis.y * p / n, axis.z * p / n);
  }  // else: a half-turn swing, whose twist is undefined; the identity is taken
  out.swing = q * glm::conjugate(out.twist);
  out.swing_angle_rad = ToAxisAngle(out.swing).angle_rad;
  float twist = 2.f * std::atan2(glm::dot(glm::vec3(out.twist.x, out.twist.y, out.twist.z), axis),
                                 out.twist.w);
  constexpr float kPi = 3.14159265358979f;
  if (twist > kPi) twist -= 2.f * kPi;
  if (twist < -kPi) twist += 2.f * kPi;
  out.twist_angle_rad = twist;
  return out;
}

RotationReport DescribeRotation(const glm::quat& q, const glm::vec3& bone_axis) {
  RotationReport r;
  r.rotation = q;
  r.axis_angle = ToAxisAngle(q);
  const float len = glm::length(bone_axis);
  r.bone_axis = len > 0.f ? bone_axis / len : glm::vec3(1.f, 0.f, 0.f);
  r.swing_twist = DecomposeSwingTwist(q, r.bone_axis);
  return r;
}

}  // namespace ikpose::ik
