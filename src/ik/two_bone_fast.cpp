#include "ik/two_bone_fast.h"

#include <cmath>
#include <cstddef>

#include "ik/float4.h"
#include "ik/two_bone_core.h"

namespace ikpose::ik::detail {
namespace {

// |q|^2 of a quaternion the general path accepts (within 2% of 1).
IKPOSE_KERNEL bool UnitNorm2(float n2) {
  return n2 > 0.98f && n2 < 1.02f;
}
IKPOSE_KERNEL float Norm2(const glm::quat& q) {
  return q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
}
// (v . r0, v . r1, v . r2, 0): three dot products summed together (fewer shuffles than three
// Dot3).
IKPOSE_KERNEL Float4 DotEach(Float4 v, Float4 r0, Float4 r1, Float4 r2) {
  const Float4 m0 = v * r0, m1 = v * r1, m2 = v * r2;
  // (x0 + z0, x1 + z1, y0 + w0, y1 + w1), then lanes 0 and 1 hold the first two sums.
  Float4 s01 = IKPOSE_SHUF2(m0, m1, 0, 4, 1, 5) + IKPOSE_SHUF2(m0, m1, 2, 6, 3, 7);
  s01 += IKPOSE_SHUF(s01, 2, 3, 0, 1);
  const Float4 s2 = SumLanes(m2);
  return VectorPart(IKPOSE_SHUF2(s01, s2, 0, 1, 4, 4));
}

// linear * p + translation, the linear part given as its columns c0, c1, c2.
IKPOSE_KERNEL Float4 Transform(Float4 c0, Float4 c1, Float4 c2, Float4 translation, Float4 p) {
  return translation + c0 * IKPOSE_SHUF(p, 0, 0, 0, 0) + c1 * IKPOSE_SHUF(p, 1, 1, 1, 1) +
         c2 * IKPOSE_SHUF(p, 2, 2, 2, 2);
}

// RotationBetweenUnit on packed vectors: (f x t, m + c) up to about 172 degrees (c > -0.99 m),
// with |q|^2 as computed (2m(m + c) loses digits as c nears -m); beyond it the scalar kernel
// itself, out of line. Why so wide: turns past 120 degrees are common (a third of the knees in
// bench_ik's random reachable legs), and branching out of line for them at random cost about a
// tenth of a solve.
struct Turn4 {
  Float4 q;     // unnormalised, (x, y, z, w)
  float norm2;  // |q|^2
};
[[gnu::noinline]] Turn4 WideTurn(Float4 f, Float4 t) {
  const UnitTurn turn = RotationBetweenUnit(ToVec3(f), ToVec3(t));
  return {Float4{turn.q.x, turn.q.y, turn.q.z, turn.q.w}, turn.norm2};
}
IKPOSE_KERNEL Turn4 MinimalTurn(Float4 f, Float4 t) {
  const float c = Dot3(f, t)[0];
  const float m = 0.5f * SumLanes(f * f + t * t)[0];
  if (c > -0.99f * m) [[likely]] {
    const Float4 q = IKPOSE_SHUF2(Cross(f, t), Splat(m + c), 0, 1, 2, 4);
    return {q, SumLanes(q * q)[0]};
  }
  return WideTurn(f, t);
}

// 1 / n for n within 2% of 1 (a squared quaternion length UnitNorm2 accepts), without a
// division: 1 / (1 - x) = (1 + x)(1 + x^2)(1 + x^4) to x^8 < 3e-14.
IKPOSE_KERNEL float InverseNearOne(float n) {
  const float x = 1.f - n;
  const float x2 = x * x;
  return (1.f + x) * ((1.f + x2) * (1.f + x2 * x2));
}

// The general path's fixed side for a knee on the hip-target line (KneeSide), out of the way
// of the common case's registers.
[[gnu::noinline, gnu::cold]] glm::vec3 SideOffTheAxis(const glm::vec3& at, float dd) {
  return PerpendicularOfUnit(at * (1.f / std::sqrt(dd)));
}

}  // namespace

// The solve. It covers well-scaled chains (squared lengths of bones and of the hip-target
// line within 1e-12..1e12) in all three reach cases, and returns false for anything else. The same
// knee and rotations as the general path, with fewer steps that wait on each other:
// - lengths from the offsets before they are turned (rotations keep them): |ab| = |hip scale
//   * knee translation|, |bc| = |hip scale| |knee scale * foot translation|;
// - reachable: with at = t - a and d = |at|, the knee circle's center is a + at (x1 / d),
//   x1 / d = (d^2 + |ab|^2 - |bc|^2) / (2 d^2) (or back from t along the shorter bone, which
//   keeps that bone's digits), its radius^2 is l^2 - (x / d)^2 d^2, and the knee's side is
//   u = d^2 ab - (ab . at) at (ab without its part along at, times d^2), scaled by
//   radius / |u|: no square root of d^2 and one division, beside the rest (a knee on the
//   hip-target line takes the general path's fixed perpendicular instead);
// - too far or too close: the limb straight, or folded with the longer bone toward t, on the
//   ray from the hip through t (the general path's circle of radius 0);
// - the hip's turn is the minimal rotation R1 from b - a to b' - a in the hip's parent space,
//   so hip' = R1 * hip; the knee's is R2 from knee * (scale * foot translation) to the new
//   lower bone in the hip's scaled frame, so knee' = R2 * knee. Each pair is divided by the
//   bone's length, known before the positions step (RotationBetweenUnit);
// - the new lower bone reaches the hip's scaled frame as R1^-1 in closed form (below) and then
//   the hip's old frame as a matrix built before the positions step, not as two quaternion
//   turns in a row (hip' = R1 * hip, its inverse hip^-1 R1^-1).
// The new knee is b' itself (forward kinematics from hip' gives it to rounding) and, when
// reachable, the new foot is the target.
// Its 3-vectors and quaternions are one Float4 register each (float4.h), which keeps most of
// the solve in the baseline's 16 registers; clones for x86-64-v3 (AVX2, FMA) and x86-64-v4
// (AVX-512: 32 registers) are picked at load time on CPUs that have them. A build for a wider
// target than the baseline has no clones (its glm functions could not inline into a narrower
// clone).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__AVX__)
#define IKPOSE_JOB_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define IKPOSE_JOB_CLONES
#endif
IKPOSE_JOB_CLONES bool SolveSeedCase(const TwoBoneJob& job, TwoBoneOutput* output) {
  // hip_parent_ms, hip_ls, knee_ls, foot_ls and target_ms are 49 floats in a row, followed
  // by the options (so LoadVec3's fourth float, which it clears, is always inside the job).
  static_assert(sizeof(LocalTransform) == 10 * sizeof(float));
  static_assert(offsetof(TwoBoneJob, target_ms) == offsetof(TwoBoneJob, hip_parent_ms) + 46 * 4);
  static_assert(sizeof(TwoBoneJob) >= offsetof(TwoBoneJob, target_ms) + 16);
  const Float4 qh = LoadQuat(job.hip_ls.rotation);
  const Float4 qk = LoadQuat(job.knee_ls.rotation);
  const float nh = SumLanes(qh * qh)[0];
  const float nk = SumLanes(qk * qk)[0];
  const float nf = Norm2(job.foot_ls.rotation);
  const glm::mat4& pm = job.hip_parent_ms;
  // Cramer's rule as in ParentInverse: r0 = c1 x c2, r1 = c2 x c0, r2 = c0 x c1.
  const Float4 c0 = LoadVec3(&pm[0][0]), c1 = LoadVec3(&pm[1][0]), c2 = LoadVec3(&pm[2][0]);
  const Float4 translation = LoadVec3(&pm[3][0]);
  const Float4 r0 = Cross(c1, c2), r1 = Cross(c2, c0), r2 = Cross(c0, c1);
  const float det = Dot3(c0, r0)[0];
  const float size2 = Dot3(c0, c0)[0] * Dot3(c1, c1)[0] * Dot3(c2, c2)[0];
  // The caller checked that the hip scale's magnitudes agree, so one nonzero is enough.
  const Float4 sh = LoadVec3(&job.hip_ls.scale.x);
  const Float4 knee_offset = sh * LoadVec3(&job.knee_ls.translation.x);
  const Float4 foot_offset = LoadVec3(&job.knee_ls.scale.x) * LoadVec3(&job.foot_ls.translation.x);
  const float ab2 = Dot3(knee_offset, knee_offset)[0];
  const float lower2 = Dot3(foot_offset, foot_offset)[0];
  const float hip_scale = std::fabs(sh[0]);
  const bool use_pole = job.options.use_pole;
  if (!AllFinite(&pm[0][0], 49) || (use_pole && !AllFinite(&job.options.pole_ms.x, 3)) ||
      !(UnitNorm2(nh) & UnitNorm2(nk) & UnitNorm2(nf)) || !(size2 > 0.f) ||
      !(det * det > 1e-12f * size2) || !(size2 < 1e36f) || !(ab2 > 1e-12f && ab2 < 1e12f) ||
      !(lower2 > 1e-12f && lower2 < 1e12f) || !(hip_scale > 1e-3f && hip_scale < 1e3f)) {
    return false;
  }
  const Float4 target_ms = LoadVec3(&job.target_ms.x);
  const float inv_det = 1.f / det;
  const Float4 t_ps = DotEach(target_ms - translation, r0, r1, r2) * inv_det;

  // The input rotations are used as they are: a quaternion of squared length n turns
  // vectors by v + (2 / n) (...), and the outputs are scaled by 1 / sqrt(n) at the end (the
  // minimal rotations are unit, so that is all the normalising they need).
  const Float4 a_ps = LoadVec3(&job.hip_ls.translation.x);
  const Float4 ab = RotateScaled4(qh, Splat(2.f * InverseNearOne(nh)), knee_offset);
  const Float4 lower = RotateScaled4(qk, Splat(2.f * InverseNearOne(nk)), foot_offset);
  const float inv_ab = 1.f / std::sqrt(ab2);
  const float inv_lower = 1.f / std::sqrt(lower2);
  const float l1 = ab2 * inv_ab;
  const float l2 = hip_scale * (lower2 * inv_lower);
  const Float4 at = t_ps - a_ps;
  const float dd = Dot3(at, at)[0];
  const float hi = l1 + l2;
  const float lo = std::fabs(l1 - l2);
  // ValidatePositions' tests (bones of comparable length, the target off the hip), with a
  // margin so that what the general path would reject never gets here.
  if (!(dd > 4e-12f * hi * hi) || !(dd < 1e12f) || !(l1 > 2e-6f * hi) || !(l2 > 2e-6f * hi)) {
    return false;
  }
  const bool too_far = dd > hi * hi;
  const bool too_close = dd < lo * lo;
  Float4 knee_ps, foot_ps;
  if (!too_far & !too_close) [[likely]] {
    const float diff = (l1 - l2) * (l1 + l2);
    const bool lower_shorter = l2 < l1;
    // x / d for the shorter bone, measured from its end: back from t, or out from a.
    const float k = (lower_shorter ? dd - diff : dd + diff) * (0.5f / dd);
    const float l = lower_shorter ? l2 : l1;
    const float radius = std::sqrt(Max(l * l - k * k * dd, 0.f));
    const Float4 center = (lower_shorter ? t_ps : a_ps) + at * (lower_shorter ? -k : k);
    // The knee's side (KneeSide): the pole's part off the hip-target line, else the knee's,
    // both times d^2; u2 = d^4 |off the axis|^2.
    const float on_axis = kOnAxis * hi * dd;
    Float4 u = ab * dd - at * Dot3(ab, at);
    float u2 = Dot3(u, u)[0];
    if (use_pole) {
      const Float4 pole_ps = DotEach(LoadVec3(&job.options.pole_ms.x) - translation, r0, r1, r2);
      const Float4 pa = pole_ps * inv_det - a_ps;
      const Float4 up = pa * dd - at * Dot3(pa, at);
      const float up2 = Dot3(up, up)[0];
      if (up2 > on_axis * on_axis) {
        u = up;
        u2 = up2;
      }
    }
    if (u2 > on_axis * on_axis) [[likely]] {
      if (!(u2 > 1e-30f && u2 < 1e36f)) return false;
      knee_ps = center + u * (radius / std::sqrt(u2));
    } else {
      // The knee on the hip-target line: the general path's fixed side (KneeSide).
      knee_ps = center + FromVec3(SideOffTheAxis(ToVec3(at), dd)) * radius;
    }
    foot_ps = t_ps;
  } else {
    // Straight toward t, or folded with the longer bone toward it (the upper bone back from
    // the hip when it is the shorter one).
    const Float4 dir = at * (1.f / std::sqrt(dd));
    knee_ps = a_ps + dir * (too_far || l1 > l2 ? l1 : -l1);
    foot_ps = a_ps + dir * (too_far ? hi : lo);
  }

  // Into the hip's scaled frame: divide by its scale (uniform in magnitude), to unit length;
  // 1 / s_x = s_y s_z / (s_x s_y s_z), one division.
  const float inv_volume = inv_lower / (sh[0] * sh[1] * sh[2]);
  const Float4 unscale = IKPOSE_SHUF(sh, 1, 0, 0, 3) * IKPOSE_SHUF(sh, 2, 2, 1, 3) * inv_volume;
  // The hip's old frame as columns (its rotation's inverse times the unscale): known before
  // the positions step, so the knee's path meets one matrix product instead of a turn.
  const Float4 back_k = Splat(2.f * InverseNearOne(nh));
  const Float4 conj_qh = Conjugate(qh);
  const Float4 col0 = RotateScaled4(conj_qh, back_k, Float4{1.f, 0.f, 0.f, 0.f}) * unscale;
  const Float4 col1 = RotateScaled4(conj_qh, back_k, Float4{0.f, 1.f, 0.f, 0.f}) * unscale;
  const Float4 col2 = RotateScaled4(conj_qh, back_k, Float4{0.f, 0.f, 1.f, 0.f}) * unscale;

  // The hip's turn, unnormalised: |turn1 * qh|^2 = |turn1|^2 |qh|^2.
  const Float4 f1 = ab * inv_ab, t1 = (knee_ps - a_ps) * inv_ab;
  const float cos1 = Dot3(f1, t1)[0];
  const float half1 = 0.5f * SumLanes(f1 * f1 + t1 * t1)[0];
  const Float4 lower_ps = foot_ps - knee_ps;
  Turn4 turn1;
  Float4 want;
  if (cos1 > -0.5f) [[likely]] {
    // The new lower bone turned back by the hip's turn (axis u = f1 x t1, w = m + c):
    // R1^-1 v = (w (c v - u x v) + (u . v) u) / (m w), the unnormalised quaternion's rotation
    // in one step, beside the quaternion product the output needs.
    const Float4 u = Cross(f1, t1);
    const float w = half1 + cos1;
    turn1 = {IKPOSE_SHUF2(u, Splat(w), 0, 1, 2, 4), 2.f * half1 * w};
    const Float4 x = (lower_ps * cos1 - Cross(u, lower_ps)) * w + u * Dot3(u, lower_ps);
    want = Transform(col0, col1, col2, Float4{}, x) * (1.f / (half1 * w));
  } else {
    turn1 = MinimalTurn(f1, t1);
    const Float4 x = RotateScaled4(Conjugate(turn1.q), Splat(2.f / turn1.norm2), lower_ps);
    want = Transform(col0, col1, col2, Float4{}, x);
  }
  const Float4 hip_turned = QuatMul(turn1.q, qh);
  const float n_hip = turn1.norm2 * nh;
  const Turn4 turn2 = MinimalTurn(lower * inv_lower, want);

  TwoBoneOutput& out = *output;
  StoreQuat(hip_turned * (1.f / std::sqrt(n_hip)), &out.hip_rotation_ls);
  StoreQuat(QuatMul(turn2.q, qk) * (1.f / std::sqrt(turn2.norm2 * nk)), &out.knee_rotation_ls);
  out.foot_rotation_ls = job.foot_ls.rotation;
  out.reach = too_far ? Reach::kTooFar : (too_close ? Reach::kTooClose : Reach::kReachable);
  StoreVec3(Transform(c0, c1, c2, translation, knee_ps), &out.knee_ms);
  if (too_far | too_close) {
    const Float4 foot_ms = Transform(c0, c1, c2, translation, foot_ps);
    StoreVec3(foot_ms, &out.foot_ms);
    out.residual_ms = std::sqrt(Dot3(foot_ms - target_ms, foot_ms - target_ms)[0]);
  } else {
    out.foot_ms = job.target_ms;  // c' = t
    out.residual_ms = 0.f;
  }
  out.limit_clamped = false;
  out.softened = false;
  return true;
}

}  // namespace ikpose::ik::detail
