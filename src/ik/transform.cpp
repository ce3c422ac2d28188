#include "ik/transform.h"

#include <cmath>

#include "ik/two_bone_core.h"

namespace ikpose::ik {

Affine AffineFromMat4(const glm::mat4& m) {
  Affine x;
  x.linear = glm::mat3(m);
  x.translation = glm::vec3(m[3]);
  return x;
}

glm::mat4 ToMat4(const Affine& x) {
  glm::mat4 m(x.linear);
  m[3] = glm::vec4(x.translation, 1.f);
  return m;
}

Affine AffineFromLocal(const LocalTransform& local) {
  Affine x;
  const glm::mat3 r = glm::mat3_cast(local.rotation);
  x.linear = glm::mat3(r[0] * local.scale.x, r[1] * local.scale.y, r[2] * local.scale.z);
  x.translation = local.translation;
  return x;
}

Affine Compose(const Affine& outer, const Affine& inner) {
  Affine x;
  x.linear = outer.linear * inner.linear;
  x.translation = outer.linear * inner.translation + outer.translation;
  return x;
}

namespace {

// The inverse by the adjugate (rows of the inverse are the cross products of the columns over
// the determinant); returns the determinant, and leaves *inv alone when it is zero.
float InverseByAdjugate(const Affine& x, Affine* inv) {
  const glm::vec3& c0 = x.linear[0];
  const glm::vec3& c1 = x.linear[1];
  const glm::vec3& c2 = x.linear[2];
  const glm::vec3 r0 = glm::cross(c1, c2);
  const glm::vec3 r1 = glm::cross(c2, c0);
  const glm::vec3 r2 = glm::cross(c0, c1);
  const float det = glm::dot(c0, r0);
  if (det == 0.f || !std::isfinite(det)) return det;
  const float s = 1.f / det;
  inv->linear = glm::transpose(glm::mat3(r0 * s, r1 * s, r2 * s));
  inv->translation = -(inv->linear * x.translation);
  return det;
}

}  // namespace

namespace detail {

bool InverseIfInvertible(const Affine& x, Affine* inv) {
  const float det = InverseByAdjugate(x, inv);
  const glm::vec3& c0 = x.linear[0];
  const glm::vec3& c1 = x.linear[1];
  const glm::vec3& c2 = x.linear[2];
  const float size2 = glm::dot(c0, c0) * glm::dot(c1, c1) * glm::dot(c2, c2);
  const float tsum = x.translation.x + x.translation.y + x.translation.z;
  // |det| / (|c0||c1||c2|) is 1 for orthogonal columns and 0 for dependent ones.
  return std::isfinite(size2) && std::isfinite(det) && std::isfinite(tsum) && size2 > 0.f &&
         det * det > 1e-12f * size2;
}

}  // namespace detail

Affine Inverse(const Affine& x) {
  Affine inv;
  const float det = InverseByAdjugate(x, &inv);
  if (det == 0.f || !std::isfinite(det)) return Affine{glm::mat3(0.f), glm::vec3(0.f)};
  return inv;
}

bool IsInvertible(const Affine& x) {
  Affine unused;
  return detail::InverseIfInvertible(x, &unused);
}

glm::quat RotationOf(const glm::mat3& linear) {
  glm::mat3 m = linear;
  if (glm::determinant(m) < 0.f) m = -m;
  glm::vec3 x = m[0];
  const float lx = glm::length(x);
  x = lx > 0.f ? x / lx : glm::vec3(1.f, 0.f, 0.f);
  glm::vec3 y = m[1] - glm::dot(m[1], x) * x;
  const float ly = glm::length(y);
  if (ly > 0.f) {
    y /= ly;
  } else {
    const glm::vec3 other =
        std::abs(x.x) < 0.9f ? glm::vec3(1.f, 0.f, 0.f) : glm::vec3(0.f, 1.f, 0.f);
    y = glm::normalize(other - glm::dot(other, x) * x);
  }
  const glm::vec3 z = glm::cross(x, y);
  return glm::normalize(glm::quat_cast(glm::mat3(x, y, z)));
}

}  // namespace ikpose::ik
