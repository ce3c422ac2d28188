// Internal: four floats in one register, for the job's one-chain-at-a-time path.
//
// What: `Float4` (GCC/Clang vector extension) holding a 3-vector as (x, y, z, 0) or a
// quaternion in glm's storage order (x, y, z, w), with the few operations the path needs:
// loads that clear the unused lane, dot and cross products, quaternion products and turns.
// Why: written with glm's scalar vectors, one solve needs more floats than the x86-64
// baseline's 16 registers hold and spends a third of its instructions moving them to the
// stack and back; a 3-vector in one register does each step in one instruction and keeps the
// solve in registers. Plain vector operations compile for every target (SSE2, AVX2 and
// AVX-512 clones alike), with no intrinsics.
// Limits: not part of the API. Dot products assume the w lanes are 0 (every load here clears
// them); results are broadcast to all four lanes.
#pragma once

#include <bit>
#include <cstddef>
#include <cstring>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace ikpose::ik::detail {

using Float4 = float __attribute__((vector_size(16)));
using Int4 = int __attribute__((vector_size(16)));

#if defined(__GNUC__)
#define IKPOSE_F4 [[gnu::always_inline]] inline
#else
#define IKPOSE_F4 inline
#endif

// The lanes of v in the order given (a lane index of 4..7 takes from w instead).
#define IKPOSE_SHUF(v, a, b, c, d) __builtin_shufflevector((v), (v), a, b, c, d)
#define IKPOSE_SHUF2(v, w, a, b, c, d) __builtin_shufflevector((v), (w), a, b, c, d)

IKPOSE_F4 Float4 Splat(float s) {
  return Float4{s, s, s, s};
}
// Four floats in memory.
IKPOSE_F4 Float4 Load4(const float* p) {
  Float4 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
// The vector part of q with w cleared.
IKPOSE_F4 Float4 VectorPart(Float4 q) {
  return std::bit_cast<Float4>(std::bit_cast<Int4>(q) & Int4{-1, -1, -1, 0});
}
// (x, y, z, 0) from three floats in memory: four are read, so a fourth must follow in the
// same object.
IKPOSE_F4 Float4 LoadVec3(const float* p) {
  return VectorPart(Load4(p));
}
IKPOSE_F4 Float4 LoadQuat(const glm::quat& q) {
  static_assert(sizeof(glm::quat) == 16 && offsetof(glm::quat, x) == 0 &&
                offsetof(glm::quat, w) == 12);
  return Load4(&q.x);
}
IKPOSE_F4 glm::vec3 ToVec3(Float4 v) {
  return glm::vec3(v[0], v[1], v[2]);
}
IKPOSE_F4 Float4 FromVec3(const glm::vec3& v) {
  return Float4{v.x, v.y, v.z, 0.f};
}
IKPOSE_F4 void StoreVec3(Float4 v, glm::vec3* out) {
  std::memcpy(out, &v, sizeof *out);
}
IKPOSE_F4 void StoreQuat(Float4 q, glm::quat* out) {
  std::memcpy(out, &q, sizeof *out);
}

// The sum of the four lanes, in every lane.
IKPOSE_F4 Float4 SumLanes(Float4 m) {
  m += IKPOSE_SHUF(m, 1, 0, 3, 2);
  return m + IKPOSE_SHUF(m, 2, 3, 0, 1);
}
IKPOSE_F4 Float4 Dot3(Float4 a, Float4 b) {
  return SumLanes(a * b);
}
// a x b: a (b.y, b.z, b.x) - (a.y, a.z, a.x) b is the cross product's lanes turned by one.
IKPOSE_F4 Float4 Cross(Float4 a, Float4 b) {
  const Float4 c = a * IKPOSE_SHUF(b, 1, 2, 0, 3) - IKPOSE_SHUF(a, 1, 2, 0, 3) * b;
  return IKPOSE_SHUF(c, 1, 2, 0, 3);
}
inline constexpr int kSignBit = int(0x80000000u);
// v with the sign of each lane flipped where `signs` has its sign bit.
IKPOSE_F4 Float4 FlipSigns(Float4 v, Int4 signs) {
  return std::bit_cast<Float4>(std::bit_cast<Int4>(v) ^ signs);
}
// |v| in every lane (the sign bits cleared).
IKPOSE_F4 Float4 Abs(Float4 v) {
  return std::bit_cast<Float4>(std::bit_cast<Int4>(v) &
                               Int4{~kSignBit, ~kSignBit, ~kSignBit, ~kSignBit});
}
IKPOSE_F4 Float4 Conjugate(Float4 q) {
  return FlipSigns(q, Int4{kSignBit, kSignBit, kSignBit, 0});
}
// p * q (glm's product: p applied after q).
IKPOSE_F4 Float4 QuatMul(Float4 p, Float4 q) {
  const Float4 x = IKPOSE_SHUF(q, 3, 2, 1, 0) * Float4{1.f, -1.f, 1.f, -1.f};
  const Float4 y = IKPOSE_SHUF(q, 2, 3, 0, 1) * Float4{1.f, 1.f, -1.f, -1.f};
  const Float4 z = IKPOSE_SHUF(q, 1, 0, 3, 2) * Float4{-1.f, 1.f, 1.f, -1.f};
  return IKPOSE_SHUF(p, 3, 3, 3, 3) * q + IKPOSE_SHUF(p, 0, 0, 0, 0) * x +
         IKPOSE_SHUF(p, 1, 1, 1, 1) * y + IKPOSE_SHUF(p, 2, 2, 2, 2) * z;
}
// q * v for a quaternion of squared length n, given k = 2 / n (RotateScaled's formula).
IKPOSE_F4 Float4 RotateScaled4(Float4 q, Float4 k, Float4 v) {
  const Float4 u = VectorPart(q);
  const Float4 uv = Cross(u, v);
  return v + (uv * IKPOSE_SHUF(q, 3, 3, 3, 3) + Cross(u, uv)) * k;
}

}  // namespace ikpose::ik::detail
