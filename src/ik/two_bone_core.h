// Internal: the inline float kernels shared by the positions step, the batch and the job.
//
// What: the pieces of the seed's positions step (measure, knee circle, knee side), written
// branch-free so the batch loop can be vectorised, the one minimal-rotation kernel, and the
// job's small checks (finite floats, uniform scale, the parent's inverse by Cramer's rule).
// Why: SolvePositions (the product's positions step), SolveChain/SolveChainBatch (its
// branch-free form) and the job must agree, so they run the same operations in the same order
// (to the last bit where compiled alike; the batch's AVX2 clone fuses multiply-adds and agrees
// to rounding). The knee-selection step is its own function (KneeSide) so that other knee
// policies replace that step alone.
// Limits: not part of the API; callers validate input first (see ValidatePositions). Use
// two_bone_positions.h, two_bone_job.h or two_bone_batch.h instead.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "ik/transform.h"
#include "ik/two_bone_positions.h"

// The kernels must inline into the batch loop for it to vectorise.
#if defined(__GNUC__)
#define IKPOSE_KERNEL [[gnu::always_inline]] inline
#else
#define IKPOSE_KERNEL inline
#endif

namespace ikpose::ik::detail {

// A knee reference closer than this (times the limb length) to the hip-target line has no
// usable side: the pole falls back to the knee, the knee to a fixed perpendicular.
inline constexpr float kOnAxis = 1e-6f;

// min/max as selects (std::fmin/fmax carry NaN rules that keep loops from vectorising).
IKPOSE_KERNEL float Min(float x, float y) {
  return y < x ? y : x;
}
IKPOSE_KERNEL float Max(float x, float y) {
  return x < y ? y : x;
}
// c ? x : y per component (a ternary on glm types copies through memory and blocks if-conversion).
IKPOSE_KERNEL glm::vec3 Select(bool c, const glm::vec3& x, const glm::vec3& y) {
  return glm::vec3(c ? x.x : y.x, c ? x.y : y.y, c ? x.z : y.z);
}
IKPOSE_KERNEL glm::quat Select(bool c, const glm::quat& x, const glm::quat& y) {
  return glm::quat(c ? x.w : y.w, c ? x.x : y.x, c ? x.y : y.y, c ? x.z : y.z);
}

// A unit vector perpendicular to the unit vector n, branch-free (Duff et al., "Building an
// Orthonormal Basis, Revisited", JCGT 2017). Gives +x for n = 0.
IKPOSE_KERNEL glm::vec3 PerpendicularOfUnit(const glm::vec3& n) {
  const float sign = std::copysign(1.f, n.z);
  const float a = -1.f / (sign + n.z);
  const float b = n.x * n.y * a;
  return glm::vec3(1.f + sign * n.x * n.x * a, sign * b, -sign * n.x);
}

// The minimal-rotation kernel: the rotation turning the unit vector f toward t, where |t| = 1
// to within a few ulps (callers divide both by one length: a bone keeps its length, and
// RotationBetween divides each by its own), unnormalised, with its squared length.
// The half vector h = f + t gives q = (f.h, f x h) = (m + c, x) with c = f.t, x = f x t and
// m = |f||t|, taken as (|f|^2 + |t|^2) / 2 (it differs by (|f| - |t|)^2 / 2): no square root,
// no division, no trigonometry (the post's axis/angle form gives the same rotation). Up to
// 120 degrees (c > -1/2) m + c keeps its digits and |q|^2 = m^2 + 2mc + |f|^2 |t|^2 is
// 2m(m + c) to within ((|f|^2 - |t|^2) / 2)^2, known before the cross product is done.
// Beyond, m + c cancels; the same quaternion scaled by m - c is ((m + c)(m - c), x (m - c)) =
// (|x|^2, x (m - c)), again without a division, with the rounding noise of x along f removed
// (which keeps a near half turn accurate). Exactly anti-parallel (|x|^2 <= 1e-14) is a half
// turn about a perpendicular of f: never the identity (the post's second defect).
// A branch here: one solve takes only its side; the batch loop, where GCC if-converts it,
// computes both and selects.
struct UnitTurn {
  glm::quat q;  // unnormalised
  float norm2;  // |q|^2
};
IKPOSE_KERNEL UnitTurn RotationBetweenUnit(const glm::vec3& f, const glm::vec3& t) {
  const float c = glm::dot(f, t);
  const float m = 0.5f * (glm::dot(f, f) + glm::dot(t, t));
  glm::vec3 x = glm::cross(f, t);
  if (c > -0.5f) [[likely]] {
    return {glm::quat(m + c, x.x, x.y, x.z), 2.f * m * (m + c)};
  }
  const float s2 = glm::dot(x, x);
  x -= f * glm::dot(x, f);
  const bool half_turn = s2 <= 1e-14f;
  // A perpendicular of f: crossed with x or with z, whichever leaves more.
  const bool use_x = f.z * f.z >= f.x * f.x;
  const glm::vec3 perp = Select(use_x, glm::vec3(0.f, f.z, -f.y), glm::vec3(f.y, -f.x, 0.f));
  const float qw = half_turn ? 0.f : s2;
  const glm::vec3 qv = Select(half_turn, perp, x * (m - c));
  return {glm::quat(qw, qv.x, qv.y, qv.z), qw * qw + glm::dot(qv, qv)};
}

// q * v for a quaternion q of squared length n2, given k = 2 / n2: the rotation q stands for,
// without normalising q first (v + k w (u x v) + k u x (u x v)).
IKPOSE_KERNEL glm::vec3 RotateScaled(const glm::quat& q, float k, const glm::vec3& v) {
  const glm::vec3 u(q.x, q.y, q.z);
  const glm::vec3 uv = glm::cross(u, v);
  const glm::vec3 uuv = glm::cross(u, uv);
  return v + ((uv * q.w) + uuv) * k;
}

// q * v for a unit quaternion (v + 2w(q x v) + 2 q x (q x v)).
IKPOSE_KERNEL glm::vec3 Rotate(const glm::quat& q, const glm::vec3& v) {
  const glm::vec3 u(q.x, q.y, q.z);
  const glm::vec3 uv = glm::cross(u, v);
  const glm::vec3 uuv = glm::cross(u, uv);
  return v + ((uv * q.w) + uuv) * 2.f;
}

// q^w for a unit quaternion: the same axis, w times the angle (slerp from the identity).
inline glm::quat Power(const glm::quat& q_in, float w) {
  const glm::quat q = q_in.w < 0.f ? -q_in : q_in;
  const glm::vec3 v(q.x, q.y, q.z);
  const float s = glm::length(v);
  if (!(s > 0.f)) return glm::quat(1.f, 0.f, 0.f, 0.f);
  const float half = std::atan2(s, q.w) * w;
  return glm::quat(std::cos(half), v * (std::sin(half) / s));
}

// True when no float of `p[0..n)` is NaN or infinite: each times 0 is 0, or NaN for an infinite
// or NaN float, and a sum keeps the NaN. Four floats at a time in a 16-byte vector, one
// multiply-add each, two sums side by side. Written out: left to itself GCC vectorised the loop
// into 512-bit registers in the job's AVX-512 clone, its only 512-bit instructions, and the job
// ran 14 to 15% slower on an Intel Xeon (cores may lower their clock for them; README, "The
// solver").
IKPOSE_KERNEL bool AllFinite(const float* p, int n) {
  using Lanes = float __attribute__((vector_size(16)));
  Lanes sum0{}, sum1{};
  int i = 0;
  for (; i + 8 <= n; i += 8) {
    Lanes v0, v1;
    std::memcpy(&v0, p + i, sizeof v0);
    std::memcpy(&v1, p + i + 4, sizeof v1);
    sum0 += v0 * 0.f;
    sum1 += v1 * 0.f;
  }
  if (i + 4 <= n) {
    Lanes v;
    std::memcpy(&v, p + i, sizeof v);
    sum0 += v * 0.f;
    i += 4;
  }
  const Lanes sum4 = sum0 + sum1;
  float sum = (sum4[0] + sum4[1]) + (sum4[2] + sum4[3]);
  for (; i < n; ++i) sum += p[i] * 0.f;
  return sum == 0.f;
}

// Equal magnitudes on the three axes (e.g. (2,2,2) or (1,1,-1)), to `tolerance` of |x|: the
// scale of a bone that turns its child rigidly, up to a mirror.
inline bool UniformMagnitude(const glm::vec3& v, float tolerance = 1e-5f) {
  // std::fabs clears the sign bit; glm::abs compares and branches.
  const glm::vec3 m(std::fabs(v.x), std::fabs(v.y), std::fabs(v.z));
  return std::fabs(m.x - m.y) <= tolerance * m.x && std::fabs(m.x - m.z) <= tolerance * m.x;
}

// Points from model space into the hip's parent space by Cramer's rule: with the parent's
// linear columns c0, c1, c2 and translation T, p = L^-1 (x - T) has components
// (x - T) . (c1 x c2), . (c2 x c0), . (c0 x c1), over det L. No inverse matrix is built.
struct ToParentSpace {
  glm::vec3 r0, r1, r2;  // c1 x c2, c2 x c0, c0 x c1
  glm::vec3 translation;
  float det;    // c0 . r0
  float size2;  // |c0|^2 |c1|^2 |c2|^2
};
IKPOSE_KERNEL ToParentSpace ParentInverse(const glm::mat4& parent_ms) {
  const glm::vec3 c0(parent_ms[0]), c1(parent_ms[1]), c2(parent_ms[2]);
  ToParentSpace p;
  p.r0 = glm::cross(c1, c2);
  p.r1 = glm::cross(c2, c0);
  p.r2 = glm::cross(c0, c1);
  p.translation = glm::vec3(parent_ms[3]);
  p.det = glm::dot(c0, p.r0);
  p.size2 = glm::dot(c0, c0) * glm::dot(c1, c1) * glm::dot(c2, c2);
  return p;
}
// |det| / (|c0||c1||c2|) is 1 for orthogonal columns and 0 for dependent ones.
IKPOSE_KERNEL bool Invertible(const ToParentSpace& p) {
  return (p.size2 > 0.f) & (p.det * p.det > 1e-12f * p.size2) & (p.size2 < 1e36f);
}
IKPOSE_KERNEL glm::vec3 PointToParent(const ToParentSpace& p, const glm::vec3& x_ms) {
  const glm::vec3 v = x_ms - p.translation;
  return glm::vec3(glm::dot(v, p.r0), glm::dot(v, p.r1), glm::dot(v, p.r2)) * (1.f / p.det);
}

// The measured chain.
struct Chain {
  glm::vec3 ab, bc;  // b - a, c - b
  glm::vec3 dir;     // unit, from a toward t
  float l1, l2;      // |ab|, |bc|
  float d;           // |at|
};

IKPOSE_KERNEL Chain Measure(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                            const glm::vec3& t) {
  Chain ch;
  ch.ab = b - a;
  ch.bc = c - b;
  const glm::vec3 at = t - a;
  ch.l1 = std::sqrt(glm::dot(ch.ab, ch.ab));
  ch.l2 = std::sqrt(glm::dot(ch.bc, ch.bc));
  ch.d = std::sqrt(glm::dot(at, at));
  ch.dir = at * (1.f / ch.d);
  return ch;
}

// The circle of knees for a foot at distance d_eff from the hip along dir (the post's
// "Finding the New Positions"). By the law of cosines the circle's center lies
//   x1 = (d^2 + |ab|^2 - |bc|^2) / (2 d)  from the hip, i.e. x1 = |ab| cos(theta),
//   x2 = (d^2 - |ab|^2 + |bc|^2) / (2 d)  back from the foot (x1 + x2 = d),
// with |ab|^2 - |bc|^2 written (|ab| - |bc|)(|ab| + |bc|) to keep digits when the bones are
// nearly equal. The radius and the center are taken from the end of the SHORTER bone,
// r = sqrt((l - x)(l + x)), so that bone's length keeps its relative precision even when the
// other is ten times longer.
// At a reach boundary the limb is straight or folded; there the exact values replace the
// formula, whose rounding error would otherwise show up as sqrt(error) in the radius.
struct Circle {
  glm::vec3 center;
  float radius;
  float cos_theta;  // x1 / |ab|, the angle at the hip between a->t and a->b'
};
IKPOSE_KERNEL Circle KneeCircleAt(const glm::vec3& a, const glm::vec3& foot, const Chain& ch,
                                  float d_eff, bool straight, bool folded) {
  const float l1 = ch.l1;
  const float l2 = ch.l2;
  const float diff = (l1 - l2) * (l1 + l2);
  const float inv = 1.f / (2.f * d_eff);
  float x1 = (d_eff * d_eff + diff) * inv;
  float x2 = (d_eff * d_eff - diff) * inv;
  x1 = Min(Max(x1, -l1), l1);
  x2 = Min(Max(x2, -l2), l2);
  // Straight: x1 = l1, x2 = l2. Folded: the longer bone toward the target.
  const bool upper_longer = l1 > l2;
  x1 = straight ? l1 : (folded ? (upper_longer ? l1 : -l1) : x1);
  x2 = straight ? l2 : (folded ? (upper_longer ? -l2 : l2) : x2);
  const bool lower_shorter = l2 < l1;
  const float l = lower_shorter ? l2 : l1;
  const float x = lower_shorter ? x2 : x1;
  const float r = std::sqrt(Max((l - x) * (l + x), 0.f));
  Circle circle;
  circle.center = Select(lower_shorter, foot - ch.dir * x2, a + ch.dir * x1);
  circle.radius = r;
  circle.cos_theta = x1 / l1;
  return circle;
}

// The component of ref - a perpendicular to dir.
IKPOSE_KERNEL glm::vec3 OffAxis(const glm::vec3& a, const glm::vec3& dir, const glm::vec3& ref) {
  const glm::vec3 v = ref - a;
  return v - dir * glm::dot(v, dir);
}

// The knee-selection step: the unit direction from the knee circle's center to the knee.
// The seed's rule takes the knee's reference (the current knee, or a pole) off the hip-target
// line, `off_axis` = OffAxis(a, dir, reference) with squared length `off_axis2`; a reference
// closer than kOnAxis limb lengths to the line has no usable side and a fixed perpendicular of
// dir is taken. Other policies choose `off_axis` (or replace this step) before the knee is
// placed at center + side * radius.
IKPOSE_KERNEL bool OnAxis(float off_axis2, float limb) {
  const float limit = kOnAxis * limb;
  return !(off_axis2 > limit * limit);
}
IKPOSE_KERNEL glm::vec3 KneeSide(const glm::vec3& off_axis, float off_axis2, const glm::vec3& dir,
                                 float limb) {
  return Select(OnAxis(off_axis2, limb), PerpendicularOfUnit(dir),
                off_axis * (1.f / std::sqrt(off_axis2)));
}

// Everything of the default solve, branch-free.
struct DefaultSolve {
  glm::vec3 knee, foot;
  glm::quat hip_rotation, knee_rotation;
  int reach;   // 0 reachable, 1 too far, 2 too close (the order of ik::Reach)
  bool valid;  // the checks of ValidatePositions on lengths (NaN and infinities included)
};

// The seed's positions step, branch-free: b', c', the reach case and the validity checks.
struct DefaultPositions {
  glm::vec3 knee, foot;
  float l1, l2;  // |ab|, |bc|
  int reach;     // 0 reachable, 1 too far, 2 too close (the order of ik::Reach)
  bool valid;    // the checks of ValidatePositions on lengths (NaN and infinities included)
};
IKPOSE_KERNEL DefaultPositions SolveDefaultPositions(const glm::vec3& a, const glm::vec3& b,
                                                     const glm::vec3& c, const glm::vec3& t) {
  const Chain ch = Measure(a, b, c, t);
  const float lo = std::fabs(ch.l1 - ch.l2);
  const float hi = ch.l1 + ch.l2;
  const bool too_far = ch.d > hi;
  const bool too_close = ch.d < lo;
  const float d_eff = Min(Max(ch.d, lo), hi);
  const glm::vec3 foot = Select(too_far | too_close, a + ch.dir * d_eff, t);
  const Circle circle = KneeCircleAt(a, foot, ch, d_eff, too_far, too_close);
  const glm::vec3 u = OffAxis(a, ch.dir, b);
  const glm::vec3 knee = circle.center + KneeSide(u, glm::dot(u, u), ch.dir, hi) * circle.radius;
  // Filled component by component: whole-struct copies go through memory and keep the batch
  // loop from vectorising.
  DefaultPositions out;
  out.knee.x = knee.x;
  out.knee.y = knee.y;
  out.knee.z = knee.z;
  out.foot.x = foot.x;
  out.foot.y = foot.y;
  out.foot.z = foot.z;
  out.l1 = ch.l1;
  out.l2 = ch.l2;
  out.reach = too_far ? 1 : (too_close ? 2 : 0);
  // Same tests as ValidatePositions; NaN anywhere makes a length NaN and fails them.
  out.valid = (hi < 1e18f) & (ch.d < 1e18f) & (ch.l1 > 1e-6f * hi) & (ch.l2 > 1e-6f * hi) &
              (ch.d > 1e-6f * hi);
  return out;
}

IKPOSE_KERNEL DefaultSolve SolveDefault(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                                        const glm::vec3& t) {
  const DefaultPositions p = SolveDefaultPositions(a, b, c, t);
  // Each bone keeps its length (b' is on the sphere of radius |ab| about a, c' on the one of
  // radius |bc| about b'), so both directions of each pair are divided by the same length.
  const float inv_l1 = 1.f / p.l1;
  const float inv_l2 = 1.f / p.l2;
  // The knee's pair needs the hip's turn: taken before its normalisation, which runs beside.
  const UnitTurn h = RotationBetweenUnit((b - a) * inv_l1, (p.knee - a) * inv_l1);
  const float s1 = 1.f / std::sqrt(h.norm2);
  const glm::quat q1(h.q.w * s1, h.q.x * s1, h.q.y * s1, h.q.z * s1);
  const UnitTurn k = RotationBetweenUnit(RotateScaled(h.q, 2.f / h.norm2, (c - b) * inv_l2),
                                         (p.foot - p.knee) * inv_l2);
  const float s2 = 1.f / std::sqrt(k.norm2);
  const glm::quat q2(k.q.w * s2, k.q.x * s2, k.q.y * s2, k.q.z * s2);
  DefaultSolve out;
  out.knee.x = p.knee.x;
  out.knee.y = p.knee.y;
  out.knee.z = p.knee.z;
  out.foot.x = p.foot.x;
  out.foot.y = p.foot.y;
  out.foot.z = p.foot.z;
  out.hip_rotation.w = q1.w;
  out.hip_rotation.x = q1.x;
  out.hip_rotation.y = q1.y;
  out.hip_rotation.z = q1.z;
  out.knee_rotation.w = q2.w;
  out.knee_rotation.x = q2.x;
  out.knee_rotation.y = q2.y;
  out.knee_rotation.z = q2.z;
  out.reach = p.reach;
  out.valid = p.valid;
  return out;
}

// The positions step with options (out of line, in two_bone_positions.cpp): validates (as
// ValidatePositions) and solves. Fills what the report and the job need beyond
// PositionsResult; without `rotations` the result's rotations are left as they are and the
// weight is not applied.
struct OptionsSolve {
  PositionsResult result;  // with weight applied
  Chain chain;
  float lo = 0.f, hi = 0.f;                      // the reachable shell | |ab|-|bc| |, |ab|+|bc|
  Circle circle{};                               // for the distance actually used
  glm::vec3 solved_knee{0.f}, solved_foot{0.f};  // before weight
  float flip_margin = 0.f;
  bool used_pole = false;
  bool fallback_side = false;
};
InputError SolveWithOptions(const PositionsInput& input, OptionsSolve* out, bool rotations,
                            bool check_finite = true);
// The checks of ValidatePositions on an already measured chain; `check_finite` false skips
// the NaN/infinity test of the inputs (the caller has made it; lengths are still tested).
InputError ValidateMeasured(const PositionsInput& input, const Chain& chain,
                            bool check_finite = true);

// Inverse of an affine map and whether it is invertible (IsInvertible's test), sharing the
// cofactors. *inv is written only when invertible.
bool InverseIfInvertible(const Affine& x, Affine* inv);

// Fills a report from a solve (weight applied in out.result). Without `rotations` the two
// rotation descriptions (trigonometry) are left for the caller, which describes its own.
void FillReport(const PositionsInput& input, const OptionsSolve& solve, PositionsReport* report,
                bool rotations = true);

}  // namespace ikpose::ik::detail
