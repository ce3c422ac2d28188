#include "ik/two_bone_fast.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#if defined(__SSE__)
#include <xmmintrin.h>
#endif

#include "ik/float4.h"
#include "ik/two_bone_core.h"

namespace ikpose::ik::detail {
namespace {

// (sum of a's lanes, of b's, of c's, of d's): four sums in one transposition.
IKPOSE_KERNEL Float4 SumEach(Float4 a, Float4 b, Float4 c, Float4 d) {
  const Float4 ab = IKPOSE_SHUF2(a, b, 0, 4, 1, 5) + IKPOSE_SHUF2(a, b, 2, 6, 3, 7);
  const Float4 cd = IKPOSE_SHUF2(c, d, 0, 4, 1, 5) + IKPOSE_SHUF2(c, d, 2, 6, 3, 7);
  return IKPOSE_SHUF2(ab, cd, 0, 1, 4, 5) + IKPOSE_SHUF2(ab, cd, 2, 3, 6, 7);
}
// p * q = q.x cx + q.y cy + q.z cz + q.w p, with p's signed columns cx = (pw, pz, -py, -px),
// cy = (-pz, pw, px, -py), cz = (py, -px, pw, -pz): for a p known long before q, they wait for
// nothing and q's lanes are broadcast once it is known.
struct SignedColumns {
  Float4 x, y, z;
};
IKPOSE_KERNEL SignedColumns ColumnsOf(Float4 p) {
  return {IKPOSE_SHUF(p, 3, 2, 1, 0) * Float4{1.f, 1.f, -1.f, -1.f},
          IKPOSE_SHUF(p, 2, 3, 0, 1) * Float4{-1.f, 1.f, 1.f, -1.f},
          IKPOSE_SHUF(p, 1, 0, 3, 2) * Float4{1.f, -1.f, 1.f, -1.f}};
}
// p * q as QuatMul, for a p known long before q.
IKPOSE_KERNEL Float4 QuatMulByLate(Float4 p, Float4 q) {
  const SignedColumns c = ColumnsOf(p);
  return IKPOSE_SHUF(q, 3, 3, 3, 3) * p + IKPOSE_SHUF(q, 0, 0, 0, 0) * c.x +
         IKPOSE_SHUF(q, 1, 1, 1, 1) * c.y + IKPOSE_SHUF(q, 2, 2, 2, 2) * c.z;
}
// p * (v, 0) for a 3-vector v known late: QuatMulByLate without its w term (a turn's axis has
// none; leaving it out measured 8 to 10 ticks a solve on the fast path).
IKPOSE_KERNEL Float4 QuatMulByLateVector(Float4 p, Float4 v) {
  const SignedColumns c = ColumnsOf(p);
  return IKPOSE_SHUF(v, 0, 0, 0, 0) * c.x + IKPOSE_SHUF(v, 1, 1, 1, 1) * c.y +
         IKPOSE_SHUF(v, 2, 2, 2, 2) * c.z;
}
// Every lane of a comparison's result true.
IKPOSE_KERNEL bool AllLanes(Int4 mask) {
#if defined(__SSE__)
  return _mm_movemask_ps(std::bit_cast<__m128>(mask)) == 0xf;
#else
  return (mask[0] & mask[1] & mask[2] & mask[3]) != 0;
#endif
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

// RotationBetweenUnit on packed vectors: (f x t, 1 + c) up to about 172 degrees (c > -0.99),
// with |q|^2 as computed (2(1 + c) loses digits as c nears -1); beyond it the scalar kernel
// itself, out of line. f and t are unit to a few roundings here (bone directions divided by
// lengths the positions step keeps), so 1 stands for RotationBetweenUnit's (|f|^2 + |t|^2) / 2:
// the difference is a few roundings in w, a turn of that many 1e-7 radians whatever the angle,
// and the solve does not wait for |t|^2. Why so wide: turns past 120 degrees are common (a third
// of the knees in bench_ik's random reachable legs), and branching out of line for them at
// random cost about a tenth of a solve.
struct Turn4 {
  Float4 q;     // unnormalised, (x, y, z, w)
  float norm2;  // |q|^2
};
[[gnu::noinline]] Turn4 WideTurn(Float4 f, Float4 t) {
  const UnitTurn turn = RotationBetweenUnit(ToVec3(f), ToVec3(t));
  return {Float4{turn.q.x, turn.q.y, turn.q.z, turn.q.w}, turn.norm2};
}
// For unit f and t of length `t_length`, known apart from t (every term is t_length times the
// unit form's, and the turn is normalised after by its own squared length).
IKPOSE_KERNEL Turn4 MinimalTurn(Float4 f, Float4 t, Float4 t_length = Splat(1.f)) {
  const Float4 c = Dot3(f, t);  // in every lane, as t_length
  if (c[0] > -0.99f * t_length[0]) [[likely]] {
    const Float4 q = IKPOSE_SHUF2(Cross(f, t), t_length + c, 0, 1, 2, 7);
    return {q, SumLanes(q * q)[0]};
  }
  return WideTurn(f, t / t_length);
}

// The general path's fixed side for a knee on the hip-target line (KneeSide), out of the way
// of the common case's registers.
[[gnu::noinline, gnu::cold]] glm::vec3 SideOffTheAxis(const glm::vec3& at, float dd) {
  return PerpendicularOfUnit(at * (1.f / std::sqrt(dd)));
}

// 1 / sqrt(x) in every lane, to about float precision: the hardware's estimate (12 bits) and
// one Newton step, a shorter wait than a square root and a division.
IKPOSE_KERNEL Float4 InvSqrt(Float4 x) {
#if defined(__SSE__)
  const Float4 y = std::bit_cast<Float4>(_mm_rsqrt_ps(std::bit_cast<__m128>(x)));
  return y * (1.5f - (0.5f * x) * (y * y));
#else
  return 1.f / Float4{std::sqrt(x[0]), std::sqrt(x[1]), std::sqrt(x[2]), std::sqrt(x[3])};
#endif
}

}  // namespace

// The turn-by-turn solve (SolveAnyPlane below; RunFast, after it, takes its common case
// in fewer steps). It covers well-scaled chains (squared lengths of bones and of the hip-target
// line within 1e-12..1e12) in all three reach cases, and returns false for anything else. The same
// knee and rotations as the general path, with fewer steps that wait on each other:
// - lengths from the offsets before they are turned (rotations keep them): |ab| = |hip scale
//   * knee translation|, |bc| = |hip scale| |knee scale * foot translation|;
// - reachable: with at = t - a and d = |at|, the knee circle's center is a + at (x1 / d),
//   x1 / d = g / (2 d^2), g = d^2 + |ab|^2 - |bc|^2 (or back from t along the shorter bone,
//   which keeps that bone's digits), and the knee's side is u = d^2 ab - (ab . at) at (ab
//   without its part along at, times d^2), scaled by radius / |u| =
//   sqrt((4 d^2 l^2 - g^2) / (4 d^2 |u|^2)) with |u|^2 = d^2 |ab x at|^2: no square root of
//   d^2 and one division, beside the rest (a knee on the hip-target line takes the general
//   path's fixed perpendicular instead);
// - too far or too close: the limb straight, or folded with the longer bone toward t, on the
//   ray from the hip through t (the general path's circle of radius 0);
// - the turns are found in the hip's rotated frame h (parent space turned back by the hip's
//   rotation, not yet unscaled), where at, ab and u are turned as soon as they are known, so
//   b' - a and c' - b' come out of the positions step there with no turn after it: the hip's
//   turn R1 is the minimal rotation from ab to b' - a in h, so hip' = hip * R1 (the same as
//   the parent-space turn applied before hip); the knee's is R2 from knee * (scale * foot
//   translation) to R1^-1 (c' - b'), unscaled, so knee' = R2 * knee. Each pair is divided by
//   the bone's length, known before the positions step (RotationBetweenUnit), and R1^-1 is in
//   closed form (below).
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
// The job's inputs loaded into registers and checked as the general path checks them (with a
// margin): RunFast's first step, shared by both solves below.
struct CheckedChain {
  Float4 qh, qk;                   // the hip's and the knee's rotations, as given
  Float4 c0, c1, c2, translation;  // the parent's columns
  Float4 r0, r1, r2;               // c1 x c2, c2 x c0, c0 x c1 (ParentInverse)
  float det;
  Float4 sh;                        // the hip's scale
  Float4 knee_offset, foot_offset;  // hip scale * knee translation, knee scale * foot's
  Float4 norms;                     // |qh|^2, |qk|^2, |qf|^2, |knee_offset|^2
  float lower2;                     // |foot_offset|^2
  float hip_scale;                  // |sh.x|
  Float4 target_ms;
};
IKPOSE_KERNEL bool LoadChecked(const TwoBoneJob& job, CheckedChain* ch) {
  // hip_parent_ms, hip_ls, knee_ls, foot_ls and target_ms are 49 floats in a row, followed
  // by the options (so LoadVec3's fourth float, which it clears, is always inside the job).
  static_assert(sizeof(LocalTransform) == 10 * sizeof(float));
  static_assert(offsetof(TwoBoneJob, target_ms) == offsetof(TwoBoneJob, hip_parent_ms) + 46 * 4);
  static_assert(sizeof(TwoBoneJob) >= offsetof(TwoBoneJob, target_ms) + 16);
  const Float4 qh = LoadQuat(job.hip_ls.rotation);
  const Float4 qk = LoadQuat(job.knee_ls.rotation);
  const Float4 qf = LoadQuat(job.foot_ls.rotation);
  const glm::mat4& pm = job.hip_parent_ms;
  // Cramer's rule as in ParentInverse: r0 = c1 x c2, r1 = c2 x c0, r2 = c0 x c1.
  const Float4 col0 = Load4(&pm[0][0]), col1 = Load4(&pm[1][0]), col2 = Load4(&pm[2][0]);
  const Float4 col3 = Load4(&pm[3][0]);
  // The linear columns keep their fourth lanes (the parent's fourth row, 0 when affine): their
  // crosses have 0 there whatever the row holds, and their squared lengths below include it (a
  // NaN or an infinity there fails that check).
  const Float4 c0 = col0, c1 = col1, c2 = col2;
  const Float4 translation = VectorPart(col3);
  const Float4 r0 = Cross(c1, c2), r1 = Cross(c2, c0), r2 = Cross(c0, c1);
  const float det = Dot3(c0, r0)[0];
  // Its magnitudes are checked to agree below, so one nonzero is enough.
  const Float4 sh = LoadVec3(&job.hip_ls.scale.x);
  // One cleared fourth lane is enough for a product (the other's is the next float of the job).
  const Float4 knee_offset = sh * Load4(&job.knee_ls.translation.x);
  const Float4 foot_offset = LoadVec3(&job.knee_ls.scale.x) * Load4(&job.foot_ls.translation.x);
  // The general path's checks on squared lengths, four to a vector: the rotations within 2% of
  // unit, the bones and the hip scale well scaled. The parent's columns are checked on their
  // sum of squares F = |c0|^2 + |c1|^2 + |c2|^2 rather than on the product of the three
  // (fewer steps): F^3 / 27 >= |c0|^2 |c1|^2 |c2|^2, so a bounded F and
  // |det|^2 > 1e-11 F^3 / 27 pass the general path's test (Invertible: |det|^2 > 1e-12 times
  // that product, not zero, not huge) with a margin for det's rounding, and fail only parents
  // far more sheared or unevenly scaled than a rig's.
  const Float4 norms = SumEach(qh * qh, qk * qk, qf * qf, knee_offset * knee_offset);
  const Float4 columns = c0 * c0 + c1 * c1 + c2 * c2, lower_sq = foot_offset * foot_offset;
  Float4 sizes =
      IKPOSE_SHUF2(columns, lower_sq, 0, 4, 1, 5) + IKPOSE_SHUF2(columns, lower_sq, 2, 6, 3, 7);
  sizes += IKPOSE_SHUF(sizes, 2, 3, 0, 1);  // (F, |foot_offset|^2, F, |foot_offset|^2)
  const float frobenius2 = sizes[0], lower2 = sizes[1];
  const float hip_scale = std::fabs(sh[0]);
  const bool use_pole = job.options.use_pole;
  const Float4 target_ms = LoadVec3(&job.target_ms.x);
  // The job's 49 floats (hip_parent_ms to target_ms) finite, as the general path asks: a
  // NaN or an infinity fails one of the checks below, or makes dd below NaN or infinite, in
  // every float but the translation's fourth and the foot's scale, which the solve does not
  // read. Those are tested here, times 0 (a sum too large for a float only sends the job to
  // the general path). The foot's scale is read with the float after it, the target's x.
  const Float4 finite = (col3 + Load4(&job.foot_ls.scale.x)) * 0.f;
  // RunFast's case: soften and weight exactly 1 (one bit pattern each), no limits, the foot
  // following, and the hip scale's magnitudes within kFastScaleTolerance of |s_x|.
  static_assert(offsetof(TwoBoneOptions, weight) == offsetof(TwoBoneOptions, soften) + 4);
  std::uint64_t soften_weight;
  std::memcpy(&soften_weight, &job.options.soften, sizeof soften_weight);
  static_assert(std::uint8_t(EndRotation::kFollow) == 0);
  const bool seed_options =
      (soften_weight == 0x3f8000003f800000ull) &
      ((std::uint8_t(job.end_rotation) | std::uint8_t(job.options.use_limits)) == 0);
  const Float4 abs_sh = Abs(sh);
  const Float4 abs_x = IKPOSE_SHUF(abs_sh, 0, 0, 0, 3);
  // F, the lower bone and |s_x| in range, plus `finite` (0, or NaN to fail them).
  const Float4 checks = IKPOSE_SHUF2(sizes, abs_sh, 0, 1, 4, 3) + finite;
  const Int4 ok = (Abs(abs_sh - abs_x) <= abs_x * kFastScaleTolerance) &
                  (norms > Float4{0.98f, 0.98f, 0.98f, 1e-12f}) &
                  (norms < Float4{1.02f, 1.02f, 1.02f, 1e12f}) &
                  (checks > Float4{1e-7f, 1e-12f, 1e-3f, 1e-12f}) &
                  (checks < Float4{1e11f, 1e12f, 1e3f, 1e12f});
  const bool conditioned = det * det > (1e-11f / 27.f) * (frobenius2 * frobenius2) * frobenius2;
  if (!AllLanes(ok) || !seed_options || !conditioned ||
      (use_pole && !AllFinite(&job.options.pole_ms.x, 3)))
    return false;
  *ch = CheckedChain{qh,  qk, c0,          c1,          c2,    translation, r0,        r1,       r2,
                     det, sh, knee_offset, foot_offset, norms, lower2,      hip_scale, target_ms};
  return true;
}

// The chain in the hip's parent space, its lengths and its reach: RunFast's second step, shared
// by both solves below. The input rotations are used as they are: a quaternion of squared
// length n turns vectors by v + (2 / n) (...), and each output is normalised at the end.
struct MeasuredChain {
  Float4 a_ps, t_ps, at;       // the hip, the target, t - a
  Float4 two_over_n;           // 2 / |qh|^2, 2 / |qk|^2 in lanes 0, 1
  Float4 lower;                // the lower bone in the hip's scaled frame: knee * foot_offset
  float l1, lower_length, l2;  // |ab|, |foot_offset|, |bc| = |hip scale| |foot_offset|
  float dd, hi, lo;            // |at|^2, l1 + l2, |l1 - l2|
  bool too_far, too_close;
  // The knee circle: x / d for the shorter bone measured from its end (back from t or out from
  // a) is g / (2 d^2), and radius^2 = l^2 - x^2 = (4 d^2 l^2 - g^2) / (4 d^2) for its length l.
  float diff;  // l1^2 - l2^2
  bool lower_shorter;
  float g, radius2_4dd;
  bool valid;  // the chain as ValidatePositions would take it, with a margin
};
IKPOSE_KERNEL MeasuredChain MeasureInParent(const TwoBoneJob& job, const CheckedChain& ch) {
  const Float4 a_ps = LoadVec3(&job.hip_ls.translation.x);
  const Float4 t_ps = DotEach(ch.target_ms - ch.translation, ch.r0, ch.r1, ch.r2) * (1.f / ch.det);
  const Float4 two_over_n = Splat(2.f) / ch.norms;
  const Float4 lower = RotateScaled4(ch.qk, IKPOSE_SHUF(two_over_n, 1, 1, 1, 1), ch.foot_offset);
  const float l1 = std::sqrt(ch.norms[3]);
  const float lower_length = std::sqrt(ch.lower2);
  const float l2 = ch.hip_scale * lower_length;
  const Float4 at = t_ps - a_ps;
  const float dd = Dot3(at, at)[0];
  const float hi = l1 + l2;
  const float lo = std::fabs(l1 - l2);
  // ValidatePositions' tests (bones of comparable length, the target off the hip), with a
  // margin so that what the general path would reject never gets here.
  const bool valid = (dd > 4e-12f * hi * hi) & (dd < 1e12f) & (Min(l1, l2) > 2e-6f * hi);
  const float diff = (l1 - l2) * (l1 + l2);
  const bool lower_shorter = l2 < l1;
  const float g = lower_shorter ? dd - diff : dd + diff;
  const float l = lower_shorter ? l2 : l1;
  const float radius2_4dd = Max(4.f * dd * (l * l) - g * g, 0.f);
  return {a_ps,        t_ps, at, two_over_n,   lower,        l1,   lower_length,  l2,
          dd,          hi,   lo, dd > hi * hi, dd < lo * lo, diff, lower_shorter, g,
          radius2_4dd, valid};
}

// A straight or folded limb's foot, which misses the target: its place in model space and its
// distance from the target.
IKPOSE_KERNEL void StoreMissedFoot(const CheckedChain& ch, Float4 foot_ps, TwoBoneOutput* out) {
  const Float4 foot_ms = Transform(ch.c0, ch.c1, ch.c2, ch.translation, foot_ps);
  StoreVec3(foot_ms, &out->foot_ms);
  const Float4 miss = VectorPart(foot_ms - ch.target_ms);  // the parent's fourth row dropped
  out->residual_ms = std::sqrt(Dot3(miss, miss)[0]);
}

// (f x t, f . t): the parts of the minimal turn's common form, (f x t, 1 + f . t) for unit f, t.
IKPOSE_KERNEL Float4 CrossAndDot(Float4 f, Float4 t) {
  return IKPOSE_SHUF2(Cross(f, t), Dot3(f, t), 0, 1, 2, 4);
}

template <bool kOrGeneral>
IKPOSE_KERNEL bool AnyPlane(const TwoBoneJob& job, TwoBoneOutput* output) {
  const auto decline = [&] { return kOrGeneral && RunGeneralNoReport(job, output); };
  CheckedChain ch;
  if (!LoadChecked(job, &ch)) return decline();
  const Float4 &qh = ch.qh, &qk = ch.qk, &c0 = ch.c0, &c1 = ch.c1, &c2 = ch.c2;
  const Float4 &translation = ch.translation, &r0 = ch.r0, &r1 = ch.r1, &r2 = ch.r2;
  const Float4 &sh = ch.sh, &knee_offset = ch.knee_offset;
  const Float4& norms = ch.norms;
  const float nh = norms[0], nk = norms[1];
  const bool use_pole = job.options.use_pole;
  const MeasuredChain m = MeasureInParent(job, ch);
  if (!m.valid) return decline();
  const Float4 &a_ps = m.a_ps, &t_ps = m.t_ps, &at = m.at, &lower = m.lower;
  const float l1 = m.l1, l2 = m.l2, dd = m.dd, hi = m.hi, lo = m.lo;
  const bool too_far = m.too_far, too_close = m.too_close;
  const float inv_det = 1.f / ch.det;
  const Float4 hip_k = IKPOSE_SHUF(m.two_over_n, 0, 0, 0, 0);
  const Float4 ab = RotateScaled4(qh, hip_k, knee_offset);
  const float inv_ab = 1.f / l1;
  const float inv_lower = 1.f / m.lower_length;
  // The hip's rotated frame h (the parent space turned back by the hip's rotation, not yet
  // unscaled): the turns are found there, so the knee reaches them without a turn of its own
  // after the positions step. at_h and ab_h are known as early as at and ab.
  const Float4 conj_qh = Conjugate(qh);
  const Float4 at_h = RotateScaled4(conj_qh, hip_k, at);
  const Float4 ab_h = RotateScaled4(conj_qh, hip_k, ab);
  Float4 knee_ps, foot_ps;
  Float4 knee_h, lower_h;  // b' - a and c' - b' in h
  if (!too_far & !too_close) [[likely]] {
    const bool lower_shorter = m.lower_shorter;
    // x / d for the shorter bone, measured from its end: back from t, or out from a. radius^2
    // as 4 d^2 radius^2 divides once, with the knee's side's length below, not twice in a row.
    const float k = m.g * (0.5f / dd);
    const float radius2_4dd = m.radius2_4dd;
    const float along = lower_shorter ? -k : k;
    const Float4 center = (lower_shorter ? t_ps : a_ps) + at * along;
    const Float4 center_h = (lower_shorter ? at_h : Float4{}) + at_h * along;  // minus a
    // The knee's side (KneeSide): the pole's part off the hip-target line, else the knee's,
    // both times d^2; u2 = d^4 |off the axis|^2, for the knee's d^2 |ab x at|^2 (a shorter wait
    // than |u|^2 from u itself).
    const float on_axis = kOnAxis * hi * dd;
    const float ab_at = Dot3(ab, at)[0];
    Float4 u = ab * dd - at * ab_at;
    // u in h, from ab turned back as at_h was (the knee's offset itself would differ from it by
    // ab's rounding, which u, where short, would magnify).
    Float4 u_h = ab_h * dd - at_h * Dot3(ab_h, at_h);
    const Float4 ab_x_at = Cross(ab, at);
    float u2 = dd * Dot3(ab_x_at, ab_x_at)[0];
    if (use_pole) {
      const Float4 pole_ps = DotEach(LoadVec3(&job.options.pole_ms.x) - translation, r0, r1, r2);
      const Float4 pa = pole_ps * inv_det - a_ps;
      const Float4 up = pa * dd - at * Dot3(pa, at);
      const float up2 = Dot3(up, up)[0];
      if (up2 > on_axis * on_axis) {
        u = up;
        u_h = RotateScaled4(conj_qh, hip_k, up);
        u2 = up2;
      }
    }
    if (u2 > on_axis * on_axis) [[likely]] {
      if (!(u2 > 1e-30f && u2 < 1e36f)) return decline();
      const float side = std::sqrt(radius2_4dd / (4.f * dd * u2));
      knee_ps = center + u * side;
      knee_h = center_h + u_h * side;
    } else {
      // The knee on the hip-target line: the general path's fixed side (KneeSide).
      const Float4 side = FromVec3(SideOffTheAxis(ToVec3(at), dd));
      const float radius = std::sqrt(radius2_4dd * (0.25f / dd));
      knee_ps = center + side * radius;
      knee_h = center_h + RotateScaled4(conj_qh, hip_k, side) * radius;
    }
    foot_ps = t_ps;
    lower_h = at_h - knee_h;
  } else {
    // Straight toward t, or folded with the longer bone toward it (the upper bone back from
    // the hip when it is the shorter one).
    const float inv_d = 1.f / std::sqrt(dd);
    const float knee_along = (too_far || l1 > l2 ? l1 : -l1) * inv_d;
    const float foot_along = (too_far ? hi : lo) * inv_d;
    knee_ps = a_ps + at * knee_along;
    foot_ps = a_ps + at * foot_along;
    knee_h = at_h * knee_along;
    lower_h = at_h * (foot_along - knee_along);
  }

  // Into the hip's scaled frame from h: a division by its scale, whose magnitude the knee's
  // turn takes as its target's length (times the lower bone's), leaving the scale's signs.
  // Magnitudes a few roundings apart (kFastScaleTolerance) count as |s_x|, as in l2 above.
  const Int4 scale_signs = std::bit_cast<Int4>(sh) & Int4{kSignBit, kSignBit, kSignBit, 0};

  // The hip's turn in h, unnormalised: from ab to b' - a, so hip' = hip * turn1
  // and |hip * turn1|^2 = |hip|^2 |turn1|^2.
  const Float4 f1 = ab_h * inv_ab, t1 = knee_h * inv_ab;
  const Float4 cos1_4 = Dot3(f1, t1);  // in every lane
  const float cos1 = cos1_4[0];
  Turn4 turn1;
  Float4 want;
  Float4 want_length;  // in every lane
  if (cos1 > -0.5f) [[likely]] {
    // The new lower bone turned back by the hip's turn (axis u = f1 x t1, w = 1 + c; f1 and
    // t1 unit as in MinimalTurn): R1^-1 v = (w (c v - u x v) + (u . v) u) / w, the unnormalised
    // quaternion's rotation in one step, beside the quaternion product the output needs.
    const Float4 u = Cross(f1, t1);
    const Float4 w = 1.f + cos1_4;
    const Float4 q1 = IKPOSE_SHUF2(u, w, 0, 1, 2, 7);
    turn1 = {q1, SumLanes(q1 * q1)[0]};
    const Float4 x = (lower_h * cos1_4 - Cross(u, lower_h)) * w + u * Dot3(u, lower_h);
    want = FlipSigns(x, scale_signs);  // of length w l2: the knee's turn takes it as it is
    want_length = w * l2;
  } else {
    turn1 = MinimalTurn(f1, t1);
    want = FlipSigns(RotateScaled4(Conjugate(turn1.q), Splat(2.f / turn1.norm2), lower_h),
                     scale_signs);
    want_length = Splat(l2);
  }
  const Float4 hip_turned = QuatMulByLate(qh, turn1.q);
  const float n_hip = turn1.norm2 * nh;
  const Turn4 turn2 = MinimalTurn(lower * inv_lower, want, want_length);

  TwoBoneOutput& out = *output;
  StoreQuat(hip_turned * (1.f / std::sqrt(n_hip)), &out.hip_rotation_ls);
  StoreQuat(QuatMul(turn2.q, qk) * (1.f / std::sqrt(turn2.norm2 * nk)), &out.knee_rotation_ls);
  out.foot_rotation_ls = job.foot_ls.rotation;
  out.reach = too_far ? Reach::kTooFar : (too_close ? Reach::kTooClose : Reach::kReachable);
  StoreVec3(Transform(c0, c1, c2, translation, knee_ps), &out.knee_ms);
  if (too_far | too_close) {
    StoreMissedFoot(ch, foot_ps, &out);
  } else {
    out.foot_ms = job.target_ms;  // c' = t
    out.residual_ms = 0.f;
  }
  out.limit_clamped = false;
  out.softened = false;
  return true;
}

// Each solve comes in two entries, one returning false for what it does not cover and one
// handing that to the general path itself: every call either makes is then its last step (a
// jump), and neither keeps registers across a call.
IKPOSE_JOB_CLONES [[gnu::noinline]] static bool SolveAnyPlane(const TwoBoneJob& job,
                                                              TwoBoneOutput* output) {
  return AnyPlane<false>(job, output);
}
IKPOSE_JOB_CLONES [[gnu::noinline]] static bool SolveAnyPlaneOrGeneral(const TwoBoneJob& job,
                                                                       TwoBoneOutput* output) {
  return AnyPlane<true>(job, output);
}

// The two turned rotations normalised, the foot's passed through, and no limit or soften: what
// both of RunFast's cases write besides the joints' places.
IKPOSE_KERNEL void StoreTurns(const TwoBoneJob& job, Float4 hip_turned, Float4 knee_turned,
                              TwoBoneOutput* out) {
  // The foot's first: its load from the job then comes before any store to the output, which
  // the compiler must assume may alias the job (about 1 tick a solve, paired).
  out->foot_rotation_ls = job.foot_ls.rotation;
  StoreQuat(hip_turned * InvSqrt(SumLanes(hip_turned * hip_turned)), &out->hip_rotation_ls);
  StoreQuat(knee_turned * InvSqrt(SumLanes(knee_turned * knee_turned)), &out->knee_rotation_ls);
  out->limit_clamped = false;
  out->softened = false;
}

// The seed's case with the knee kept in the plane of hip, knee and target (no pole, the knee
// off the hip-target line), both turns short of about 172 degrees: the common case, in fewer
// dependent steps. SolveAnyPlane takes everything else RunFast admits.
// - The knee is b' = a + at alpha + u sigma: alpha the circle's center (x1 / d) or the straight
//   or folded knee's place on the hip-target line, u = d^2 ab - (ab . at) at the knee's side
//   and sigma = radius / |u| (0 when not reachable), known as soon as the positions step is.
// - The hip's turn from ab to b' - a, (ab x (b' - a), |ab|^2 + ab . (b' - a)) in the hip's
//   rotated frame h (where ab is knee_offset), is linear in alpha and sigma: in the plane,
//   ab x u = -(ab . at) (ab x at) and ab . u = |ab x at|^2. So hip' = hip * turn is H0 + sigma H1,
//   with H0 and H1 found while sigma is.
// - The hip's turn R1 is about the plane's normal n = ab x at, so R1^-1 (c' - b'), the knee's
//   goal, is the new lower bone at the new knee angle beta from the old upper bone f1 = ab / l1,
//   turned toward the target: l2 (cos beta f1 + sin beta e) with e = (n x f1) / |n|. By the law
//   of cosines cos beta = (d^2 - l1^2 - l2^2) / (2 l1 l2), and sin beta e = sigma d^2 (n x ab) /
//   (l1^2 l2) (the knee's distance from the line is sigma |u|). The knee's turn from its lower
//   bone f2 to that, (f2 x w, 1 + f2 . w), is linear in cos beta and sigma too.
// - Straight and folded chains (sigma = 0, cos beta = 1 or -1) take a branch of their own.
// On this path at and u go between h and parent space as quaternion turns (two crosses each):
// fewer instructions than the rotation's matrix, which a solve pays for more than for the few
// cycles' longer wait (README, "The solver").
// Checked against the general path as the whole fast path is (TwoBoneJobFastPath.*).
// kOrGeneral: what it does not cover goes to the general path (Run's entry) instead of false.
template <bool kOrGeneral>
IKPOSE_KERNEL bool SeedCase(const TwoBoneJob& job, TwoBoneOutput* output) {
  const auto decline = [&] { return kOrGeneral && RunGeneralNoReport(job, output); };
  const auto any_plane = [&] {
    return kOrGeneral ? SolveAnyPlaneOrGeneral(job, output) : SolveAnyPlane(job, output);
  };
  if (job.options.use_pole) return any_plane();
  CheckedChain ch;
  if (!LoadChecked(job, &ch)) return decline();
  const Float4 &qh = ch.qh, &qk = ch.qk, &ab = ch.knee_offset;  // ab as seen in h
  const MeasuredChain m = MeasureInParent(job, ch);
  if (!m.valid) return decline();
  const Float4 &a_ps = m.a_ps, &at = m.at;
  const float ab2 = ch.norms[3], l1 = m.l1, l2 = m.l2, dd = m.dd;
  const Float4 hip_k = IKPOSE_SHUF(m.two_over_n, 0, 0, 0, 0);  // 2 / |qh|^2
  const Float4 at_h = RotateScaled4(Conjugate(qh), hip_k, at);
  const float ab_at = Dot3(ab, at_h)[0];
  // The knee's side u in h, turned into parent space (for the reachable case below): first, so
  // that it is under way while sigma is found.
  const Float4 u_ps = RotateScaled4(qh, hip_k, ab * dd - at_h * ab_at);
  const Float4 n_h = Cross(ab, at_h);  // the plane's normal, |ab| d sin(ab, at) long
  const float n2 = Dot3(n_h, n_h)[0];
  const float u2 = dd * n2;  // |u|^2
  const float on_axis = kOnAxis * m.hi * dd;
  if (!(u2 > on_axis * on_axis)) return any_plane();
  if (!(u2 > 1e-30f && u2 < 1e36f)) return decline();
  const Int4 scale_signs = std::bit_cast<Int4>(ch.sh) & Int4{kSignBit, kSignBit, kSignBit, 0};
  // Both cases below turn the hip by parts of hip * (n, 0), and the knee by (f2 x f1, f2 . f1)
  // from its lower bone f2 toward the old upper bone f1 (in the hip's scaled frame: h with the
  // hip scale's signs). Each case finds them itself, after the branch: written before it, both
  // cases measured slower (README, "The solver").
  const Float4 f2 = m.lower * (1.f / m.lower_length);
  const auto hip_n = [&] { return QuatMulByLateVector(qh, n_h); };
  const auto toward_f1 = [&] { return CrossAndDot(f2, FlipSigns(ab * (1.f / l1), scale_signs)); };
  TwoBoneOutput& out = *output;
  // knee_ms, then foot_ms with residual_ms, as two 16-byte stores, the second over the first's
  // fourth float (GCC stores three floats of a register through the stack, and the solve waits).
  static_assert(offsetof(TwoBoneOutput, foot_ms) == offsetof(TwoBoneOutput, knee_ms) + 12);
  static_assert(offsetof(TwoBoneOutput, residual_ms) == offsetof(TwoBoneOutput, foot_ms) + 12);
  char* const bytes = reinterpret_cast<char*>(output);

  if (m.too_far | m.too_close) [[unlikely]] {
    // Straight toward t or folded (sigma = 0): the knee at alpha along the hip-target line, the
    // lower bone along the upper one or back along it. A branch of its own: with fewer values
    // to keep, each case runs faster, even at 3 in 10 chosen at random.
    const float inv_d = 1.f / std::sqrt(dd);
    const float alpha = (m.too_far || l1 > l2 ? l1 : -l1) * inv_d;
    const float turn1_w = ab2 + alpha * ab_at;
    const float cos_beta = m.too_far ? 1.f : -1.f;
    const Float4 q_f = toward_f1();
    if (!(turn1_w > 0.01f * ab2) || !(q_f[3] * cos_beta > -0.99f)) return any_plane();
    const Float4 hip_turned = hip_n() * alpha + qh * turn1_w;
    const Float4 knee_turned = qk + QuatMul(q_f, qk) * cos_beta;
    StoreTurns(job, hip_turned, knee_turned, output);
    out.reach = m.too_far ? Reach::kTooFar : Reach::kTooClose;
    const Float4 knee_ms = Transform(ch.c0, ch.c1, ch.c2, ch.translation, a_ps + at * alpha);
    std::memcpy(bytes + offsetof(TwoBoneOutput, knee_ms), &knee_ms, sizeof knee_ms);
    StoreMissedFoot(ch, a_ps + at * ((m.too_far ? m.hi : m.lo) * inv_d), &out);
    return true;
  }

  // Reachable: alpha and sigma are the general path's circle, as in SolveAnyPlane.
  const float alpha = (dd + m.diff) * (0.5f / dd);
  const float sigma = std::sqrt(m.radius2_4dd) * InvSqrt(Splat(4.f * dd * u2))[0];

  // The hip: turn = (n (alpha - sigma ab.at), |ab|^2 + alpha ab.at + sigma |n|^2).
  const float turn1_w = ab2 + alpha * ab_at + sigma * n2;
  if (!(turn1_w > 0.01f * ab2)) return any_plane();
  const Float4 hip_n_turn = hip_n();
  const Float4 h0 = hip_n_turn * alpha + qh * (ab2 + alpha * ab_at);
  const Float4 h1 = qh * n2 - hip_n_turn * ab_at;
  const Float4 hip_turned = h0 + h1 * sigma;

  // The knee: turn = (f2 x w, 1 + f2 . w), w = cos beta f1 + sigma e, in the hip's scaled frame
  // (h with the hip scale's signs).
  const float cos_beta = Max(-1.f, Min((dd - ab2 - l2 * l2) * (0.5f / (l1 * l2)), 1.f));
  const Float4 e = FlipSigns(Cross(n_h, ab) * (dd / (ab2 * l2)), scale_signs);
  const Float4 q_f = toward_f1();
  const Float4 q_e = CrossAndDot(f2, e);
  if (!(q_f[3] * cos_beta + q_e[3] * sigma > -0.99f)) return any_plane();
  // (1 + q_f cos beta + q_e sigma) * knee, in one product.
  const Float4 knee_turned = QuatMul(Float4{0.f, 0.f, 0.f, 1.f} + q_f * cos_beta + q_e * sigma, qk);

  StoreTurns(job, hip_turned, knee_turned, output);
  out.reach = Reach::kReachable;
  // b' = a + at alpha + u sigma, with u as the hip's turn took it (in h: its parts along at and
  // ab nearly cancel for a knee near the hip-target line, so they are not split apart here).
  const Float4 knee_ms =
      Transform(ch.c0, ch.c1, ch.c2, ch.translation, a_ps + at * alpha + u_ps * sigma);
  std::memcpy(bytes + offsetof(TwoBoneOutput, knee_ms), &knee_ms, sizeof knee_ms);
  // c' = t, and 0 in the cleared fourth lane for residual_ms
  std::memcpy(bytes + offsetof(TwoBoneOutput, foot_ms), &ch.target_ms, sizeof ch.target_ms);
  return true;
}

IKPOSE_JOB_CLONES bool RunFast(const TwoBoneJob& job, TwoBoneOutput* output) {
  return SeedCase<false>(job, output);
}
IKPOSE_JOB_CLONES bool RunFastOrGeneral(const TwoBoneJob& job, TwoBoneOutput* output) {
  return SeedCase<true>(job, output);
}
}  // namespace ikpose::ik::detail
