#include "ik/two_bone_job.h"

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "ik/two_bone_core.h"

namespace ikpose::ik {
namespace {

// True when no float of `p[0..n)` is NaN or infinite: an exponent of all ones plus one
// carries into the sign bit, and the OR of all of them keeps it (integer ops, vectorised).
bool AllFinite(const float* p, int n) {
  std::uint32_t any = 0;
  for (int i = 0; i < n; ++i)
    any |= (std::bit_cast<std::uint32_t>(p[i]) & 0x7f800000u) + 0x00800000u;
  return (any & 0x80000000u) == 0;
}
template <typename T>
bool AllFinite(const T& x) {
  static_assert(sizeof(T) % sizeof(float) == 0);
  float f[sizeof(T) / sizeof(float)];
  std::memcpy(f, &x, sizeof f);
  return AllFinite(f, int(sizeof f / sizeof(float)));
}

bool UniformMagnitude(const glm::vec3& v) {
  const glm::vec3 m = glm::abs(v);
  return std::fabs(m.x - m.y) <= 1e-5f * m.x && std::fabs(m.x - m.z) <= 1e-5f * m.x;
}

// |q|^2 within 2% of 1. Two Newton steps for 1/sqrt(|q|^2) from 1 normalise it to float
// precision without a square root or a division.
bool UnitEnough(const glm::quat& q, glm::quat* out) {
  const float n2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
  if (!(n2 > 0.98f && n2 < 1.02f)) return false;
  float r = 1.5f - 0.5f * n2;
  r = r * (1.5f - 0.5f * n2 * r * r);
  r = r * (1.5f - 0.5f * n2 * r * r);
  *out = glm::quat(q.w * r, q.x * r, q.y * r, q.z * r);
  return true;
}

// A product of unit quaternions, back onto the unit sphere (one Newton step: the drift is a
// few ulps).
glm::quat Renormalize(const glm::quat& q) {
  const float n2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
  const float r = 1.5f - 0.5f * n2;
  return glm::quat(q.w * r, q.x * r, q.y * r, q.z * r);
}

// q^w: the same axis, w times the angle.
glm::quat Power(const glm::quat& q_in, float w) {
  const glm::quat q = q_in.w < 0.f ? -q_in : q_in;
  const glm::vec3 v(q.x, q.y, q.z);
  const float s = glm::length(v);
  if (!(s > 0.f)) return glm::quat(1.f, 0.f, 0.f, 0.f);
  const float half = std::atan2(s, q.w) * w;
  return glm::quat(std::cos(half), v * (std::sin(half) / s));
}

glm::mat3 RotScale(const glm::quat& r, const glm::vec3& s) {
  const glm::mat3 m = glm::mat3_cast(r);
  return glm::mat3(m[0] * s.x, m[1] * s.y, m[2] * s.z);
}

// The chain in the hip's parent space, where the hip's rotation is rigid.
struct Mapped {
  Affine parent;
  glm::quat hip_rotation, knee_rotation, foot_rotation;  // normalised local rotations
  glm::quat target_rotation{1.f, 0.f, 0.f, 0.f};         // normalised, kTarget only
  glm::vec3 knee_offset;  // hip scale * knee translation: what the hip's rotation turns
  glm::vec3 foot_offset;  // knee scale * foot translation: what the knee's rotation turns
  PositionsInput input;   // a, b, c, t and the pole in parent space; weight 1
};

InputError Map(const TwoBoneJob& job, Mapped* m) {
  // hip_parent_ms, hip_ls, knee_ls, foot_ls and target_ms are 49 floats in a row.
  static_assert(sizeof(LocalTransform) == 10 * sizeof(float));
  static_assert(offsetof(TwoBoneJob, target_ms) == offsetof(TwoBoneJob, hip_parent_ms) + 46 * 4);
  if (!AllFinite(&job.hip_parent_ms[0][0], 49) ||
      (job.options.use_pole && !AllFinite(job.options.pole_ms)) ||
      (job.end_rotation == EndRotation::kTarget && !AllFinite(job.target_rotation_ms))) {
    return InputError::kNonFinite;
  }
  if (!UnitEnough(job.hip_ls.rotation, &m->hip_rotation) ||
      !UnitEnough(job.knee_ls.rotation, &m->knee_rotation) ||
      !UnitEnough(job.foot_ls.rotation, &m->foot_rotation) ||
      (job.end_rotation == EndRotation::kTarget &&
       !UnitEnough(job.target_rotation_ms, &m->target_rotation))) {
    return InputError::kBadRotation;
  }
  m->parent = AffineFromMat4(job.hip_parent_ms);
  const glm::vec3 hs = glm::abs(job.hip_ls.scale);
  const float hs_max = std::fmax(hs.x, std::fmax(hs.y, hs.z));
  const float hs_min = std::fmin(hs.x, std::fmin(hs.y, hs.z));
  // Points into the parent's space by Cramer's rule: p = L^-1 (x - T) has components
  // (x - T) . (c1 x c2), . (c2 x c0), . (c0 x c1), over det L. No inverse matrix is built.
  const glm::vec3& c0 = m->parent.linear[0];
  const glm::vec3& c1 = m->parent.linear[1];
  const glm::vec3& c2 = m->parent.linear[2];
  const glm::vec3 r0 = glm::cross(c1, c2);
  const glm::vec3 r1 = glm::cross(c2, c0);
  const glm::vec3 r2 = glm::cross(c0, c1);
  const float det = glm::dot(c0, r0);
  const float size2 = glm::dot(c0, c0) * glm::dot(c1, c1) * glm::dot(c2, c2);
  // |det| / (|c0||c1||c2|) is 1 for orthogonal columns and 0 for dependent ones.
  if (!(size2 > 0.f) || !(det * det > 1e-12f * size2) || !(size2 < 1e36f) ||
      !(hs_min > 1e-6f * hs_max)) {
    return InputError::kSingularTransform;
  }
  const float inv_det = 1.f / det;
  const glm::vec3 translation = m->parent.translation;
  const auto to_parent = [&](const glm::vec3& x) {
    const glm::vec3 v = x - translation;
    return glm::vec3(glm::dot(v, r0), glm::dot(v, r1), glm::dot(v, r2)) * inv_det;
  };
  m->knee_offset = job.hip_ls.scale * job.knee_ls.translation;
  m->foot_offset = job.knee_ls.scale * job.foot_ls.translation;
  const glm::vec3 a = job.hip_ls.translation;
  const glm::vec3 b = a + detail::Rotate(m->hip_rotation, m->knee_offset);
  const glm::vec3 lower = detail::Rotate(m->knee_rotation, m->foot_offset);
  const glm::vec3 c = b + detail::Rotate(m->hip_rotation, job.hip_ls.scale * lower);
  m->input.hip_ms = a;
  m->input.knee_ms = b;
  m->input.foot_ms = c;
  m->input.target_ms = to_parent(job.target_ms);
  m->input.options = job.options;
  if (job.options.use_pole) {
    m->input.options.pole_ms = to_parent(job.options.pole_ms);
  }
  return InputError::kNone;
}

// |q|^2 of a quaternion UnitEnough accepts.
IKPOSE_KERNEL bool UnitNorm2(float n2) {
  return n2 > 0.98f && n2 < 1.02f;
}
IKPOSE_KERNEL float Norm2(const glm::quat& q) {
  return q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
}
// GCC's straight-line vectoriser packs glm's 3-vectors into 4-lane registers and spends more
// on shuffles than it saves (about 15% of the fast path below); plain scalar code is faster.
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

// Run() for the seed's case: no report, default options at full weight, the foot following
// the knee, and a hip scale uniform in magnitude (where the job is exact). It solves the
// reachable and the too-far cases of well-scaled chains (squared lengths of bones and of the
// hip-target line within 1e-12..1e12, the knee off the hip-target axis) and returns false for
// anything else, valid or not, which the general path then takes. The same knee and rotations
// as the general path, with fewer steps that wait on each other:
// - lengths from the offsets before they are turned (rotations keep them): |ab| = |hip scale
//   * knee translation|, |bc| = |hip scale| |knee scale * foot translation|;
// - reachable: with at = t - a and d = |at|, the knee circle's center is a + at (x1 / d),
//   x1 / d = (d^2 + |ab|^2 - |bc|^2) / (2 d^2) (or back from t along the shorter bone, which
//   keeps that bone's digits), its radius^2 is l^2 - (x / d)^2 d^2, and the knee's side is
//   u = d^2 ab - (ab . at) at (ab without its part along at, times d^2), scaled by
//   radius / |u|: no square root of d^2 and one division, beside the rest;
// - the hip's turn is the minimal rotation R1 from b - a to b' - a in the hip's parent space,
//   so hip' = R1 * hip; the knee's is R2 from knee * (scale * foot translation) to the new
//   lower bone in the hip's scaled frame, so knee' = R2 * knee. Each pair is divided by the
//   bone's length, known before the positions step (RotationBetweenUnitBranchy).
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
IKPOSE_JOB_CLONES IKPOSE_SCALAR_GLM bool RunDefault(const TwoBoneJob& job, TwoBoneOutput* output) {
  static_assert(sizeof(LocalTransform) == 10 * sizeof(float));
  static_assert(offsetof(TwoBoneJob, target_ms) == offsetof(TwoBoneJob, hip_parent_ms) + 46 * 4);
  const float nh = Norm2(job.hip_ls.rotation);
  const float nk = Norm2(job.knee_ls.rotation);
  const float nf = Norm2(job.foot_ls.rotation);
  const glm::mat4& pm = job.hip_parent_ms;
  const glm::vec3 c0(pm[0]), c1(pm[1]), c2(pm[2]), translation(pm[3]);
  const glm::vec3 r0 = glm::cross(c1, c2);
  const glm::vec3 r1 = glm::cross(c2, c0);
  const glm::vec3 r2 = glm::cross(c0, c1);
  const float det = glm::dot(c0, r0);
  const float size2 = glm::dot(c0, c0) * glm::dot(c1, c1) * glm::dot(c2, c2);
  // Run() checked that the hip scale's magnitudes agree, so one nonzero is enough.
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
  // The target in the parent's space by Cramer's rule (Map's to_parent).
  const glm::vec3 v = job.target_ms - translation;
  const glm::vec3 t = glm::vec3(glm::dot(v, r0), glm::dot(v, r1), glm::dot(v, r2)) * (1.f / det);

  // The input rotations are used as they are: a quaternion of squared length n turns
  // vectors by v + (2 / n) (...), and the outputs are scaled by 1 / sqrt(n) at the end (the
  // minimal rotations are unit, so that is all the normalising they need).
  const glm::quat& qh = job.hip_ls.rotation;
  const glm::quat& qk = job.knee_ls.rotation;
  const glm::vec3 a = job.hip_ls.translation;
  const glm::vec3 ab = detail::RotateScaled(qh, 2.f * InverseNearOne(nh), knee_offset);
  const glm::vec3 lower = detail::RotateScaled(qk, 2.f * InverseNearOne(nk), foot_offset);
  const float inv_ab = 1.f / std::sqrt(ab2);
  const float inv_lower = 1.f / std::sqrt(lower2);
  const float l1 = ab2 * inv_ab;
  const float l2 = hip_scale * (lower2 * inv_lower);
  const glm::vec3 at = t - a;
  const float dd = glm::dot(at, at);
  const float hi = l1 + l2;
  const float lo = std::fabs(l1 - l2);
  // ValidatePositions' tests (bones of comparable length, the target off the hip), with a
  // margin so that what the general path would reject never gets here.
  if (!(dd > 4e-12f * hi * hi) || !(dd < 1e12f) || !(l1 > 2e-6f * hi) || !(l2 > 2e-6f * hi) ||
      !(dd >= lo * lo)) {  // too close: folded, rare
    return false;
  }
  const bool too_far = dd > hi * hi;
  glm::vec3 knee, foot;
  if (!too_far) [[likely]] {
    const float diff = (l1 - l2) * (l1 + l2);
    const bool lower_shorter = l2 < l1;
    // x / d for the shorter bone.
    const float k = (lower_shorter ? dd - diff : dd + diff) * (0.5f / dd);
    const float l = lower_shorter ? l2 : l1;
    const float radius = std::sqrt(detail::Max(l * l - k * k * dd, 0.f));
    const glm::vec3 center = lower_shorter ? t - at * k : a + at * k;
    const glm::vec3 u = ab * dd - at * glm::dot(ab, at);
    const float u2 = glm::dot(u, u);
    // u2 = d^4 |ab off the axis|^2.
    const float on_axis = detail::kOnAxis * hi * dd;
    if (!(u2 > on_axis * on_axis) || !(u2 > 1e-30f && u2 < 1e36f)) return false;
    knee = center + u * (radius / std::sqrt(u2));
    foot = t;
  } else {
    const glm::vec3 dir = at * (1.f / std::sqrt(dd));
    knee = a + dir * l1;
    foot = a + dir * hi;
  }

  // The hip's turn unnormalised: |turn1 * qh|^2 = |turn1|^2 |qh|^2 gives the k that turns by
  // it, one division where normalising first would add a square root to the knee's path.
  const detail::UnitTurn turn1 =
      detail::RotationBetweenUnitBranchy(ab * inv_ab, (knee - a) * inv_ab);
  const glm::quat hip_turned = MulLateW(turn1.q, qh);
  const float n_hip = turn1.norm2 * nh;
  const float inv_n_hip = 1.f / std::sqrt(n_hip);
  // Into the hip's scaled frame: divide by its scale (uniform in magnitude), to unit length;
  // 1 / s_x = s_y s_z / (s_x s_y s_z), one division.
  const float inv_volume = inv_lower / (sh.x * sh.y * sh.z);
  const glm::vec3 unscale = glm::vec3(sh.y * sh.z, sh.x * sh.z, sh.x * sh.y) * inv_volume;
  const glm::vec3 want =
      detail::RotateScaled(glm::conjugate(hip_turned), 2.f / n_hip, foot - knee) * unscale;
  const detail::UnitTurn turn2 = detail::RotationBetweenUnitBranchy(lower * inv_lower, want);

  TwoBoneOutput& out = *output;
  out.hip_rotation_ls = hip_turned * inv_n_hip;
  out.knee_rotation_ls = MulLateW(turn2.q, qk) * (1.f / std::sqrt(turn2.norm2 * nk));
  out.foot_rotation_ls = job.foot_ls.rotation;
  out.reach = too_far ? Reach::kTooFar : Reach::kReachable;
  const glm::mat3 linear(c0, c1, c2);
  out.knee_ms = linear * knee + translation;
  if (too_far) {
    out.foot_ms = linear * foot + translation;
    out.residual_ms = glm::length(out.foot_ms - job.target_ms);
  } else {
    out.foot_ms = job.target_ms;  // c' = t
    out.residual_ms = 0.f;
  }
  out.limit_clamped = false;
  out.softened = false;
  return true;
}

}  // namespace

InputError TwoBoneJob::Validate() const {
  Mapped m;
  const InputError error = Map(*this, &m);
  return error != InputError::kNone ? error : ValidatePositions(m.input);
}

bool TwoBoneJob::Run(TwoBoneOutput* output, TwoBoneReport* report) const {
  if (report == nullptr && end_rotation == EndRotation::kFollow && !options.use_pole &&
      !options.use_limits && options.soften == 1.f && options.weight == 1.f &&
      UniformMagnitude(hip_ls.scale)) {
    if (RunDefault(*this, output)) return true;
  }
  Mapped m;
  if (Map(*this, &m) != InputError::kNone) return false;
  // Validated with the caller's weight; the weight applies to the local rotations below.
  const TwoBoneOptions& o = m.input.options;
  const float weight = o.weight;
  detail::OptionsSolve s;
  glm::vec3 solved_knee, solved_foot;
  // The seed's case without a report: the branch-free kernel, all in registers.
  if (report == nullptr && !o.use_pole && !o.use_limits && o.soften == 1.f) {
    if (!(0.f <= weight && weight <= 1.f)) return false;
    const detail::DefaultPositions p = detail::SolveDefaultPositions(
        m.input.hip_ms, m.input.knee_ms, m.input.foot_ms, m.input.target_ms);
    if (!p.valid) return false;
    solved_knee = p.knee;
    solved_foot = p.foot;
    s.result.reach = static_cast<Reach>(p.reach);
    s.result.limit_clamped = false;
    s.result.softened = false;
  } else {
    if (detail::SolveWithOptions(m.input, &s, /*rotations=*/false, /*check_finite=*/false) !=
        InputError::kNone) {
      return false;
    }
    solved_knee = s.solved_knee;
    solved_foot = s.solved_foot;
  }

  const glm::vec3& a = m.input.hip_ms;
  const glm::vec3& sh = hip_ls.scale;
  // Hip: the minimal rotation, in the hip's frame before its scale, from the knee offset to
  // the direction of the new knee (the post's first GetRotationBetween, with the bone's own
  // frame taken between its rotation and its scale, where the rotation acts).
  glm::quat d1 = detail::RotationBetweenKernel(
      m.knee_offset, detail::Rotate(glm::conjugate(m.hip_rotation), solved_knee - a));
  const glm::quat hip_full = m.hip_rotation * d1;
  const glm::vec3 knee_full = a + detail::Rotate(hip_full, m.knee_offset);
  // Knee: in the turned hip's local frame, from the foot offset to the new foot (the post's
  // second GetRotationBetween, in the knee's frame before its scale).
  // The new lower bone in the hip's scaled frame is R^-1 (c' - b') / scale; only its
  // direction matters, so multiply by scale's cofactors (sy sz, sx sz, sx sy) times the sign
  // of sx sy sz instead of dividing.
  const float sign = sh.x * sh.y * sh.z < 0.f ? -1.f : 1.f;
  const glm::vec3 cofactors(sh.y * sh.z * sign, sh.x * sh.z * sign, sh.x * sh.y * sign);
  const glm::vec3 want_in_hip =
      detail::Rotate(glm::conjugate(hip_full), solved_foot - knee_full) * cofactors;
  glm::quat d2 = detail::RotationBetweenKernel(
      m.foot_offset, detail::Rotate(glm::conjugate(m.knee_rotation), want_in_hip));
  if (weight < 1.f) {
    d1 = Power(d1, weight);
    d2 = Power(d2, weight);
  }
  const glm::quat hip_new = Renormalize(m.hip_rotation * d1);
  const glm::quat knee_new = Renormalize(m.knee_rotation * d2);

  // The new joints in parent space. At full weight with a uniform hip scale the knee is the
  // one computed above and the foot lands on c' (to rounding); otherwise forward kinematics.
  const bool exact = UniformMagnitude(sh);
  glm::vec3 knee_p = knee_full;
  glm::vec3 foot_p = solved_foot;
  if (weight < 1.f || !exact) {
    knee_p = a + detail::Rotate(hip_new, m.knee_offset);
    const glm::vec3 lower_in_hip = detail::Rotate(knee_new, m.foot_offset);
    foot_p = knee_p + detail::Rotate(hip_new, sh * lower_in_hip);
  }

  TwoBoneOutput out;
  out.hip_rotation_ls = hip_new;
  out.knee_rotation_ls = knee_new;
  out.foot_rotation_ls = foot_ls.rotation;
  out.reach = s.result.reach;
  out.knee_ms = TransformPoint(m.parent, knee_p);
  out.foot_ms = TransformPoint(m.parent, foot_p);
  out.residual_ms = glm::length(out.foot_ms - target_ms);
  out.limit_clamped = s.result.limit_clamped;
  out.softened = s.result.softened;

  if (end_rotation != EndRotation::kFollow) {
    // The chain's linear maps from the foot's parent (the knee) up to the hip's parent,
    // before and after.
    const glm::mat3 chain_old =
        RotScale(m.hip_rotation, sh) * RotScale(m.knee_rotation, knee_ls.scale);
    const glm::mat3 chain_new = RotScale(hip_new, sh) * RotScale(knee_new, knee_ls.scale);
    glm::quat foot_new;
    if (end_rotation == EndRotation::kKeepModel) {
      // Same model-space frame: chain_new * R' = chain_old * R.
      foot_new = RotationOf(glm::inverse(chain_new) * chain_old * glm::mat3_cast(m.foot_rotation));
    } else {
      // Model rotation of the foot = RotationOf(parent * chain) * R'.
      const glm::quat old_model = RotationOf(m.parent.linear * chain_old) * m.foot_rotation;
      glm::quat goal = m.target_rotation;
      if (weight < 1.f) goal = glm::slerp(old_model, goal, weight);
      foot_new = glm::conjugate(RotationOf(m.parent.linear * chain_new)) * goal;
    }
    out.foot_rotation_ls = glm::normalize(foot_new);
  }

  if (report != nullptr) {
    const Affine& p = m.parent;
    PositionsReport& pr = report->positions;
    detail::FillReport(m.input, s, &pr);
    const glm::vec3 a_ms = TransformPoint(p, a);
    const glm::vec3 b_ms = TransformPoint(p, m.input.knee_ms);
    const glm::vec3 c_ms = TransformPoint(p, m.input.foot_ms);
    pr.result.knee_ms = out.knee_ms;
    pr.result.foot_ms = out.foot_ms;
    pr.length_ab = glm::length(b_ms - a_ms);
    pr.length_bc = glm::length(c_ms - b_ms);
    pr.length_at = glm::length(target_ms - a_ms);
    pr.reach_margin = std::fmin(pr.length_at - std::fabs(pr.length_ab - pr.length_bc),
                                pr.length_ab + pr.length_bc - pr.length_at);
    pr.circle.center_ms = TransformPoint(p, s.circle.center);
    pr.circle.normal_ms = glm::normalize(TransformVector(p, s.chain.dir));
    pr.circle.radius = glm::length(TransformVector(p, s.solved_knee - s.circle.center));
    const glm::vec3 upper_p = knee_p - a;
    const glm::vec3 lower_p = foot_p - knee_p;
    pr.knee_bend_deg = glm::degrees(
        std::atan2(glm::length(glm::cross(upper_p, lower_p)), glm::dot(upper_p, lower_p)));
    pr.knee_displacement = glm::length(out.knee_ms - b_ms);
    pr.residual = out.residual_ms;
    // Model-space rotations of the two bones: hip from (b - a) to (b' - a), knee from the
    // lower bone after the hip's turn to (c' - b').
    const glm::vec3 upper_old = b_ms - a_ms;
    const glm::vec3 upper_new = out.knee_ms - a_ms;
    const glm::quat hip_ms = detail::RotationBetweenKernel(upper_old, upper_new);
    const glm::vec3 lower_turned = TransformVector(
        p, detail::Rotate(hip_new, sh * detail::Rotate(m.knee_rotation, m.foot_offset)));
    const glm::vec3 lower_new = out.foot_ms - out.knee_ms;
    const glm::quat knee_ms = detail::RotationBetweenKernel(lower_turned, lower_new);
    pr.result.hip_rotation = hip_ms;
    pr.result.knee_rotation = knee_ms;
    pr.hip_rotation = DescribeRotation(hip_ms, upper_old);
    pr.knee_rotation = DescribeRotation(knee_ms, lower_turned);
    report->hip_delta_ls = DescribeRotation(d1, m.knee_offset);
    report->knee_delta_ls = DescribeRotation(d2, m.foot_offset);
    report->exact =
        exact && (end_rotation == EndRotation::kFollow || UniformMagnitude(knee_ls.scale));
  }
  *output = out;
  return true;
}

}  // namespace ikpose::ik
