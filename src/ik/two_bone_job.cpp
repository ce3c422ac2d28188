#include "ik/two_bone_job.h"

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
  std::uint32_t bits[64];
  std::memcpy(bits, p, sizeof(float) * n);
  std::uint32_t any = 0;
  for (int i = 0; i < n; ++i) any |= (bits[i] & 0x7f800000u) + 0x00800000u;
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

// Run() for the seed's case: no report, default options at full weight, the foot following
// the knee, and a hip scale uniform in magnitude (where the job is exact). The same checks as
// Map and the positions step, and the same rotations, found in fewer steps:
// - the hip's turn is the minimal rotation R1 from b - a to b' - a in the hip's parent space,
//   so hip' = R1 * hip (the same as hip * d1 with d1 from hip^-1 (b - a) to hip^-1 (b' - a),
//   without turning both into the hip's frame);
// - the knee's turn is R2 from knee * (scale * foot translation) to the new lower bone in the
//   hip's scaled frame, so knee' = R2 * knee;
// - both pairs have equal lengths (the bones keep theirs), so each is divided by one length
//   known before the positions step and RotationBetweenUnitKernel needs a single square root.
// The new knee is b' itself (forward kinematics from hip' gives it to rounding).
IKPOSE_SCALAR_GLM bool RunDefault(const TwoBoneJob& job, TwoBoneOutput* output) {
  static_assert(sizeof(LocalTransform) == 10 * sizeof(float));
  static_assert(offsetof(TwoBoneJob, target_ms) == offsetof(TwoBoneJob, hip_parent_ms) + 46 * 4);
  const float nh = Norm2(job.hip_ls.rotation);
  const float nk = Norm2(job.knee_ls.rotation);
  const float nf = Norm2(job.foot_ls.rotation);
  if (!AllFinite(&job.hip_parent_ms[0][0], 49) ||
      !(UnitNorm2(nh) & UnitNorm2(nk) & UnitNorm2(nf))) {
    return false;
  }
  const glm::mat4& pm = job.hip_parent_ms;
  const glm::vec3 c0(pm[0]), c1(pm[1]), c2(pm[2]), translation(pm[3]);
  const glm::vec3 r0 = glm::cross(c1, c2);
  const glm::vec3 r1 = glm::cross(c2, c0);
  const glm::vec3 r2 = glm::cross(c0, c1);
  const float det = glm::dot(c0, r0);
  const float size2 = glm::dot(c0, c0) * glm::dot(c1, c1) * glm::dot(c2, c2);
  const glm::vec3& sh = job.hip_ls.scale;
  const glm::vec3 hs = glm::abs(sh);
  const float hs_max = detail::Max(hs.x, detail::Max(hs.y, hs.z));
  const float hs_min = detail::Min(hs.x, detail::Min(hs.y, hs.z));
  if (!(size2 > 0.f) || !(det * det > 1e-12f * size2) || !(size2 < 1e36f) ||
      !(hs_min > 1e-6f * hs_max)) {
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
  const float kh = 2.f / nh;
  const float kk = 2.f / nk;
  const float inv_len_k = 1.f / std::sqrt(nk);
  const glm::vec3 a = job.hip_ls.translation;
  const glm::vec3 ab = detail::RotateScaled(qh, kh, sh * job.knee_ls.translation);
  const glm::vec3 lower = detail::RotateScaled(qk, kk, job.knee_ls.scale * job.foot_ls.translation);
  const glm::vec3 b = a + ab;
  const glm::vec3 c = b + detail::RotateScaled(qh, kh, sh * lower);
  // Off the critical path: the unit old directions and what maps the new ones to unit length.
  const float inv_ab = 1.f / std::sqrt(glm::dot(ab, ab));
  const float inv_lower = 1.f / std::sqrt(glm::dot(lower, lower));
  const glm::vec3 from1 = ab * inv_ab;
  const glm::vec3 from2 = lower * inv_lower;
  // Into the hip's scaled frame: divide by its scale (uniform in magnitude), to unit length.
  const glm::vec3 unscale = (1.f / sh) * inv_lower;

  const detail::DefaultPositions p = detail::SolveDefaultPositions(a, b, c, t);
  if (!p.valid) return false;
  // The hip's turn unnormalised: |turn1 * qh|^2 = |turn1|^2 |qh|^2 gives the k that turns by
  // it, one division where normalising first would add a square root to the knee's path.
  const glm::quat turn1 =
      detail::RotationBetweenUnitBranchyUnnormalized(from1, (p.knee - a) * inv_ab);
  const float n1 = Norm2(turn1);
  const glm::quat hip_turned = turn1 * qh;
  const glm::vec3 want =
      detail::RotateScaled(glm::conjugate(hip_turned), 2.f / (n1 * nh), p.foot - p.knee) * unscale;
  const glm::quat turn2 = detail::RotationBetweenUnitBranchy(from2, want);

  TwoBoneOutput& out = *output;
  out.hip_rotation_ls = hip_turned * (1.f / std::sqrt(n1 * nh));
  out.knee_rotation_ls = (turn2 * qk) * inv_len_k;
  out.foot_rotation_ls = job.foot_ls.rotation;
  out.reach = static_cast<Reach>(p.reach);
  const glm::mat3 linear(c0, c1, c2);
  out.knee_ms = linear * p.knee + translation;
  out.foot_ms = linear * p.foot + translation;
  out.residual_ms = glm::length(out.foot_ms - job.target_ms);
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
    return RunDefault(*this, output);
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
    const auto uniform = [](const glm::vec3& v) {
      const glm::vec3 mag = glm::abs(v);
      return std::fabs(mag.x - mag.y) <= 1e-5f * mag.x && std::fabs(mag.x - mag.z) <= 1e-5f * mag.x;
    };
    report->exact = uniform(sh) && (end_rotation == EndRotation::kFollow || uniform(knee_ls.scale));
  }
  *output = out;
  return true;
}

}  // namespace ikpose::ik
