// Affine transforms and local TRS for the two-bone solver.
//
// What: `Affine` is a 3x3 linear part plus a translation (a 4x4 matrix whose last row is
// 0 0 0 1); `LocalTransform` is a bone's translation/rotation/scale relative to its parent.
// Why: the solver works in the hip's parent space, which needs the inverse of the parent's
// model matrix. That matrix is affine, so inverting its 3x3 and its translation is enough;
// no general 4x4 inverse is needed.
// Limits: `Inverse` of a singular matrix (a zero scale) returns a matrix full of zeros; use
// `IsInvertible` first. Shear is allowed in `Affine`, not in `LocalTransform`.
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace ikpose::ik {

// A bone's transform relative to its parent: p_parent = T * R * S * p_local.
// Note the scale matrix: zeros in the last column (the post's matrix has a typo there).
struct LocalTransform {
  glm::vec3 translation{0.f};
  glm::quat rotation{1.f, 0.f, 0.f, 0.f};  // glm order is (w, x, y, z): this is the identity
  glm::vec3 scale{1.f};
};

// p' = linear * p + translation.
struct Affine {
  glm::mat3 linear{1.f};
  glm::vec3 translation{0.f};
};

// Takes the upper 3x4 of `m` (the last row is assumed to be 0 0 0 1).
Affine AffineFromMat4(const glm::mat4& m);
glm::mat4 ToMat4(const Affine& x);
// T * R * S of a local transform.
Affine AffineFromLocal(const LocalTransform& local);
// outer * inner: apply inner first.
Affine Compose(const Affine& outer, const Affine& inner);
// Inverse through the 3x3 adjugate and the translation; zeros when singular.
Affine Inverse(const Affine& x);
// True when |det| is not tiny relative to the size of the linear part and all is finite.
bool IsInvertible(const Affine& x);

inline glm::vec3 TransformPoint(const Affine& x, const glm::vec3& p) {
  return x.linear * p + x.translation;
}
inline glm::vec3 TransformVector(const Affine& x, const glm::vec3& v) {
  return x.linear * v;
}

// Rotation part of a linear map by Gram-Schmidt on its columns (exact for a rotation times
// a uniform scale). A map with a negative determinant is treated as -1 times a rotation, so
// mirrored frames still give a proper rotation.
glm::quat RotationOf(const glm::mat3& linear);

}  // namespace ikpose::ik
