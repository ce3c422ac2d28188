#include "ik/two_bone_fast.h"

#include <cmath>
#include <cstddef>

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
// GCC's straight-line vectoriser packs glm's 3-vectors into 4-lane registers and spends more
// on shuffles than it saves (about 15% of the path below); plain scalar code is faster.
#if defined(__GNUC__) && !defined(__clang__)
#define IKPOSE_SCALAR_GLM __attribute__((optimize("no-tree-slp-vectorize")))
#else
#define IKPOSE_SCALAR_GLM
#endif

// turn * q where turn.w is the last input to be ready (it waits on the cosine and m): its
// terms are added last, so the rest of the product is done by then. glm's operator* starts
// each component with them.
IKPOSE_KERNEL glm::quat MulLateW(const glm::quat& turn, const glm::quat& q) {
  const glm::vec3 u(turn.x, turn.y, turn.z);
  const glm::vec3 v(q.x, q.y, q.z);
  const glm::vec3 early = glm::cross(u, v) + u * q.w;
  const float early_w = -glm::dot(u, v);
  return glm::quat(early_w + turn.w * q.w, early.x + turn.w * v.x, early.y + turn.w * v.y,
                   early.z + turn.w * v.z);
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
//   bone's length, known before the positions step (RotationBetweenUnit).
// The new knee is b' itself (forward kinematics from hip' gives it to rounding) and, when
// reachable, the new foot is the target.
// Its scalar floats outnumber the baseline's 16 registers and spill to the stack; clones for
// x86-64-v3 (AVX2, FMA) and x86-64-v4 (AVX-512: 32 registers) are picked at load time on
// CPUs that have them. A build for a wider target than the baseline has no clones (its glm
// functions could not inline into a narrower clone).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__AVX__)
#define IKPOSE_JOB_CLONES \
  __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define IKPOSE_JOB_CLONES
#endif
IKPOSE_JOB_CLONES IKPOSE_SCALAR_GLM bool SolveSeedCase(const TwoBoneJob& job,
                                                       TwoBoneOutput* output) {
  // hip_parent_ms, hip_ls, knee_ls, foot_ls and target_ms are 49 floats in a row.
  static_assert(sizeof(LocalTransform) == 10 * sizeof(float));
  static_assert(offsetof(TwoBoneJob, target_ms) == offsetof(TwoBoneJob, hip_parent_ms) + 46 * 4);
  const float nh = Norm2(job.hip_ls.rotation);
  const float nk = Norm2(job.knee_ls.rotation);
  const float nf = Norm2(job.foot_ls.rotation);
  const glm::mat4& pm = job.hip_parent_ms;
  // Cramer's rule as in ParentInverse, written out: the struct costs this path spills.
  const glm::vec3 c0(pm[0]), c1(pm[1]), c2(pm[2]), translation(pm[3]);
  const glm::vec3 r0 = glm::cross(c1, c2);
  const glm::vec3 r1 = glm::cross(c2, c0);
  const glm::vec3 r2 = glm::cross(c0, c1);
  const float det = glm::dot(c0, r0);
  const float size2 = glm::dot(c0, c0) * glm::dot(c1, c1) * glm::dot(c2, c2);
  // The caller checked that the hip scale's magnitudes agree, so one nonzero is enough.
  const glm::vec3& sh = job.hip_ls.scale;
  const glm::vec3 knee_offset = sh * job.knee_ls.translation;
  const glm::vec3 foot_offset = job.knee_ls.scale * job.foot_ls.translation;
  const float ab2 = glm::dot(knee_offset, knee_offset);
  const float lower2 = glm::dot(foot_offset, foot_offset);
  const float hip_scale = std::fabs(sh.x);
  if (!AllFinite(&pm[0][0], 49) || !(UnitNorm2(nh) & UnitNorm2(nk) & UnitNorm2(nf)) ||
      !(size2 > 0.f) || !(det * det > 1e-12f * size2) || !(size2 < 1e36f) ||
      !(ab2 > 1e-12f && ab2 < 1e12f) || !(lower2 > 1e-12f && lower2 < 1e12f) ||
      !(hip_scale > 1e-3f && hip_scale < 1e3f)) {
    return false;
  }
  const glm::vec3 v = job.target_ms - translation;
  const glm::vec3 t_ps = glm::vec3(glm::dot(v, r0), glm::dot(v, r1), glm::dot(v, r2)) * (1.f / det);

  // The input rotations are used as they are: a quaternion of squared length n turns
  // vectors by v + (2 / n) (...), and the outputs are scaled by 1 / sqrt(n) at the end (the
  // minimal rotations are unit, so that is all the normalising they need).
  const glm::quat& qh = job.hip_ls.rotation;
  const glm::quat& qk = job.knee_ls.rotation;
  const glm::vec3 a_ps = job.hip_ls.translation;
  const glm::vec3 ab = RotateScaled(qh, 2.f * InverseNearOne(nh), knee_offset);
  const glm::vec3 lower = RotateScaled(qk, 2.f * InverseNearOne(nk), foot_offset);
  const float inv_ab = 1.f / std::sqrt(ab2);
  const float inv_lower = 1.f / std::sqrt(lower2);
  const float l1 = ab2 * inv_ab;
  const float l2 = hip_scale * (lower2 * inv_lower);
  const glm::vec3 at = t_ps - a_ps;
  const float dd = glm::dot(at, at);
  const float hi = l1 + l2;
  const float lo = std::fabs(l1 - l2);
  // ValidatePositions' tests (bones of comparable length, the target off the hip), with a
  // margin so that what the general path would reject never gets here.
  if (!(dd > 4e-12f * hi * hi) || !(dd < 1e12f) || !(l1 > 2e-6f * hi) || !(l2 > 2e-6f * hi)) {
    return false;
  }
  const bool too_far = dd > hi * hi;
  const bool too_close = dd < lo * lo;
  glm::vec3 knee_ps, foot_ps;
  if (!too_far & !too_close) [[likely]] {
    const float diff = (l1 - l2) * (l1 + l2);
    const bool lower_shorter = l2 < l1;
    // x / d for the shorter bone.
    const float k = (lower_shorter ? dd - diff : dd + diff) * (0.5f / dd);
    const float l = lower_shorter ? l2 : l1;
    const float radius = std::sqrt(Max(l * l - k * k * dd, 0.f));
    const glm::vec3 center = lower_shorter ? t_ps - at * k : a_ps + at * k;
    const glm::vec3 u = ab * dd - at * glm::dot(ab, at);
    const float u2 = glm::dot(u, u);
    // u2 = d^4 |ab off the axis|^2.
    const float on_axis = kOnAxis * hi * dd;
    if (u2 > on_axis * on_axis) [[likely]] {
      if (!(u2 > 1e-30f && u2 < 1e36f)) return false;
      knee_ps = center + u * (radius / std::sqrt(u2));
    } else {
      // The knee on the hip-target line: the general path's fixed side (KneeSide).
      knee_ps = center + SideOffTheAxis(at, dd) * radius;
    }
    foot_ps = t_ps;
  } else {
    // Straight toward t, or folded with the longer bone toward it (the upper bone back from
    // the hip when it is the shorter one).
    const glm::vec3 dir = at * (1.f / std::sqrt(dd));
    knee_ps = a_ps + dir * (too_far || l1 > l2 ? l1 : -l1);
    foot_ps = a_ps + dir * (too_far ? hi : lo);
  }

  // The hip's turn unnormalised: |turn1 * qh|^2 = |turn1|^2 |qh|^2 gives the k that turns by
  // it, one division where normalising first would add a square root to the knee's path.
  const UnitTurn turn1 = RotationBetweenUnit(ab * inv_ab, (knee_ps - a_ps) * inv_ab);
  const glm::quat hip_turned = MulLateW(turn1.q, qh);
  const float n_hip = turn1.norm2 * nh;
  const float inv_n_hip = 1.f / std::sqrt(n_hip);
  // Into the hip's scaled frame: divide by its scale (uniform in magnitude), to unit length;
  // 1 / s_x = s_y s_z / (s_x s_y s_z), one division.
  const float inv_volume = inv_lower / (sh.x * sh.y * sh.z);
  const glm::vec3 unscale = glm::vec3(sh.y * sh.z, sh.x * sh.z, sh.x * sh.y) * inv_volume;
  const glm::vec3 want =
      RotateScaled(glm::conjugate(hip_turned), 2.f / n_hip, foot_ps - knee_ps) * unscale;
  const UnitTurn turn2 = RotationBetweenUnit(lower * inv_lower, want);

  TwoBoneOutput& out = *output;
  out.hip_rotation_ls = hip_turned * inv_n_hip;
  out.knee_rotation_ls = MulLateW(turn2.q, qk) * (1.f / std::sqrt(turn2.norm2 * nk));
  out.foot_rotation_ls = job.foot_ls.rotation;
  out.reach = too_far ? Reach::kTooFar : (too_close ? Reach::kTooClose : Reach::kReachable);
  const glm::mat3 linear(c0, c1, c2);
  out.knee_ms = linear * knee_ps + translation;
  if (too_far | too_close) {
    out.foot_ms = linear * foot_ps + translation;
    out.residual_ms = glm::length(out.foot_ms - job.target_ms);
  } else {
    out.foot_ms = job.target_ms;  // c' = t
    out.residual_ms = 0.f;
  }
  out.limit_clamped = false;
  out.softened = false;
  return true;
}

}  // namespace ikpose::ik::detail
