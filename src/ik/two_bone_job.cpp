#include "ik/two_bone_job.h"

#include <cmath>
#include <cstddef>

#include <glm/gtc/type_ptr.hpp>

#include "ik/two_bone_core.h"
#include "ik/two_bone_fast.h"

namespace ikpose::ik {
namespace {

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

glm::mat3 RotScale(const glm::quat& r, const glm::vec3& s) {
  const glm::mat3 m = glm::mat3_cast(r);
  return glm::mat3(m[0] * s.x, m[1] * s.y, m[2] * s.z);
}

// The job's rotations, normalised.
struct UnitRotations {
  glm::quat hip, knee, foot;
  glm::quat target{1.f, 0.f, 0.f, 0.f};  // EndRotation::kTarget only
};

// Step 1, validate: everything finite, rotations near unit length (then normalised), the
// parent invertible and the hip's scale nonzero. The positions step checks the rest.
InputError ValidateJob(const TwoBoneJob& job, UnitRotations* r) {
  // hip_parent_ms, hip_ls, knee_ls, foot_ls and target_ms are 49 floats in a row.
  static_assert(sizeof(LocalTransform) == 10 * sizeof(float));
  static_assert(offsetof(TwoBoneJob, target_ms) == offsetof(TwoBoneJob, hip_parent_ms) + 46 * 4);
  const bool target_rotation = job.end_rotation == EndRotation::kTarget;
  if (!detail::AllFinite(&job.hip_parent_ms[0][0], 49) ||
      (job.options.use_pole && !detail::AllFinite(glm::value_ptr(job.options.pole_ms), 3)) ||
      (target_rotation && !detail::AllFinite(glm::value_ptr(job.target_rotation_ms), 4))) {
    return InputError::kNonFinite;
  }
  if (!UnitEnough(job.hip_ls.rotation, &r->hip) || !UnitEnough(job.knee_ls.rotation, &r->knee) ||
      !UnitEnough(job.foot_ls.rotation, &r->foot) ||
      (target_rotation && !UnitEnough(job.target_rotation_ms, &r->target))) {
    return InputError::kBadRotation;
  }
  const glm::vec3 hs = glm::abs(job.hip_ls.scale);
  const float hs_max = std::fmax(hs.x, std::fmax(hs.y, hs.z));
  const float hs_min = std::fmin(hs.x, std::fmin(hs.y, hs.z));
  if (!detail::Invertible(detail::ParentInverse(job.hip_parent_ms)) || !(hs_min > 1e-6f * hs_max)) {
    return InputError::kSingularTransform;
  }
  return InputError::kNone;
}

// The chain in the hip's parent space (`_ps`), where the hip's rotation is rigid.
struct ChainPs {
  Affine parent;          // parent space -> model space
  glm::vec3 knee_offset;  // hip scale * knee translation: what the hip's rotation turns
  glm::vec3 foot_offset;  // knee scale * foot translation: what the knee's rotation turns
  glm::vec3 hip_ps, knee_ps, foot_ps, target_ps;  // a, b, c, t
  TwoBoneOptions options;                         // the caller's, the pole (if any) as pole_ps
  glm::vec3 pole_ps{0.f};

  // The positions step's input, whose fields are named for a chain in model space; the job
  // solves it in parent space.
  PositionsInput Positions() const {
    PositionsInput in;
    in.hip_ms = hip_ps;
    in.knee_ms = knee_ps;
    in.foot_ms = foot_ps;
    in.target_ms = target_ps;
    in.options = options;
    in.options.pole_ms = pole_ps;
    return in;
  }
};

// Step 2, map into the hip's parent space: the joints by forward kinematics from the hip's
// local transform, the target and the pole through the parent's inverse.
ChainPs MapToParentSpace(const TwoBoneJob& job, const UnitRotations& r) {
  const detail::ToParentSpace to_parent = detail::ParentInverse(job.hip_parent_ms);
  ChainPs ch;
  ch.parent = AffineFromMat4(job.hip_parent_ms);
  ch.knee_offset = job.hip_ls.scale * job.knee_ls.translation;
  ch.foot_offset = job.knee_ls.scale * job.foot_ls.translation;
  ch.hip_ps = job.hip_ls.translation;
  ch.knee_ps = ch.hip_ps + detail::Rotate(r.hip, ch.knee_offset);
  const glm::vec3 lower_ls = detail::Rotate(r.knee, ch.foot_offset);
  ch.foot_ps = ch.knee_ps + detail::Rotate(r.hip, job.hip_ls.scale * lower_ls);
  ch.target_ps = detail::PointToParent(to_parent, job.target_ms);
  ch.options = job.options;
  if (job.options.use_pole) ch.pole_ps = detail::PointToParent(to_parent, job.options.pole_ms);
  return ch;
}

// Step 4, turn the bones: the local deltas at full weight (new_local = old_local * delta).
struct Turns {
  glm::quat hip, knee;
};
Turns TurnBones(const TwoBoneJob& job, const ChainPs& ch, const UnitRotations& r,
                const detail::OptionsSolve& solved) {
  const glm::vec3& a_ps = ch.hip_ps;
  const glm::vec3& sh = job.hip_ls.scale;
  Turns turns;
  // Hip: the minimal rotation, in the hip's frame before its scale, from the knee offset to
  // the direction of the new knee (the post's first GetRotationBetween, with the bone's own
  // frame taken between its rotation and its scale, where the rotation acts).
  turns.hip = RotationBetween(ch.knee_offset,
                              detail::Rotate(glm::conjugate(r.hip), solved.solved_knee - a_ps));
  const glm::quat hip_full = r.hip * turns.hip;
  const glm::vec3 knee_full_ps = a_ps + detail::Rotate(hip_full, ch.knee_offset);
  // Knee: in the turned hip's local frame, from the foot offset to the new foot (the post's
  // second GetRotationBetween, in the knee's frame before its scale).
  // The new lower bone in the hip's scaled frame is R^-1 (c' - b') / scale; only its
  // direction matters, so multiply by scale's cofactors (sy sz, sx sz, sx sy) times the sign
  // of sx sy sz instead of dividing.
  const float sign = sh.x * sh.y * sh.z < 0.f ? -1.f : 1.f;
  const glm::vec3 cofactors(sh.y * sh.z * sign, sh.x * sh.z * sign, sh.x * sh.y * sign);
  const glm::vec3 want_in_hip =
      detail::Rotate(glm::conjugate(hip_full), solved.solved_foot - knee_full_ps) * cofactors;
  turns.knee = RotationBetween(ch.foot_offset, detail::Rotate(glm::conjugate(r.knee), want_in_hip));
  return turns;
}

// Step 5, weight: each delta scaled by the weight, the new local rotations, and the new
// joints in parent space (forward kinematics where the solved ones are not reached exactly).
struct NewPose {
  Turns turns;  // weighted
  glm::quat hip, knee;
  glm::vec3 knee_ps, foot_ps;
};
NewPose ApplyWeight(const TwoBoneJob& job, const ChainPs& ch, const UnitRotations& r,
                    const detail::OptionsSolve& solved, Turns turns) {
  const float weight = job.options.weight;
  if (weight < 1.f) {
    turns.hip = detail::Power(turns.hip, weight);
    turns.knee = detail::Power(turns.knee, weight);
  }
  NewPose pose;
  pose.turns = turns;
  pose.hip = Renormalize(r.hip * turns.hip);
  pose.knee = Renormalize(r.knee * turns.knee);
  // At full weight with a uniform hip scale the new joints are b' and c' (to rounding).
  const glm::vec3& sh = job.hip_ls.scale;
  const glm::vec3& a_ps = ch.hip_ps;
  if (weight < 1.f || !detail::UniformMagnitude(sh)) {
    pose.knee_ps = a_ps + detail::Rotate(pose.hip, ch.knee_offset);
    const glm::vec3 lower_ls = detail::Rotate(pose.knee, ch.foot_offset);
    pose.foot_ps = pose.knee_ps + detail::Rotate(pose.hip, sh * lower_ls);
  } else {
    pose.knee_ps = a_ps + detail::Rotate(r.hip * turns.hip, ch.knee_offset);
    pose.foot_ps = solved.solved_foot;
  }
  return pose;
}

// Step 6, end rotation: the foot's new local rotation (unchanged when it follows the knee).
glm::quat EndRotationLs(const TwoBoneJob& job, const ChainPs& ch, const UnitRotations& r,
                        const NewPose& pose) {
  if (job.end_rotation == EndRotation::kFollow) return job.foot_ls.rotation;
  // The chain's linear maps from the foot's parent (the knee) up to the hip's parent,
  // before and after.
  const glm::vec3& sh = job.hip_ls.scale;
  const glm::mat3 chain_old = RotScale(r.hip, sh) * RotScale(r.knee, job.knee_ls.scale);
  const glm::mat3 chain_new = RotScale(pose.hip, sh) * RotScale(pose.knee, job.knee_ls.scale);
  glm::quat foot_new;
  if (job.end_rotation == EndRotation::kKeepModel) {
    // Same model-space frame: chain_new * R' = chain_old * R.
    foot_new = RotationOf(glm::inverse(chain_new) * chain_old * glm::mat3_cast(r.foot));
  } else {
    // Model rotation of the foot = RotationOf(parent * chain) * R'.
    const glm::quat old_model = RotationOf(ch.parent.linear * chain_old) * r.foot;
    glm::quat goal = r.target;
    if (job.options.weight < 1.f) goal = glm::slerp(old_model, goal, job.options.weight);
    foot_new = glm::conjugate(RotationOf(ch.parent.linear * chain_new)) * goal;
  }
  return glm::normalize(foot_new);
}

// v / |v|, or +x for a zero vector (DescribeRotation's bone axis).
glm::vec3 UnitOr(const glm::vec3& v) {
  const float len = glm::length(v);
  return len > 0.f ? v / len : glm::vec3(1.f, 0.f, 0.f);
}

// Step 7, report: the positions step mapped to model space, the rotations described.
void Report(const TwoBoneJob& job, const ChainPs& ch, const UnitRotations& r,
            const detail::OptionsSolve& solved, const NewPose& pose, const TwoBoneOutput& out,
            TwoBoneReport* report, ReportDetail level) {
  const Affine& p = ch.parent;
  const glm::vec3& a_ps = ch.hip_ps;
  PositionsReport& pr = report->positions;
  // The positions step ran without rotations: the job describes its own (below).
  detail::FillReport(ch.Positions(), solved, &pr, /*rotations=*/false);
  const glm::vec3 a_ms = TransformPoint(p, a_ps);
  const glm::vec3 b_ms = TransformPoint(p, ch.knee_ps);
  const glm::vec3 c_ms = TransformPoint(p, ch.foot_ps);
  pr.result.knee_ms = out.knee_ms;
  pr.result.foot_ms = out.foot_ms;
  pr.length_ab = glm::length(b_ms - a_ms);
  pr.length_bc = glm::length(c_ms - b_ms);
  pr.length_at = glm::length(job.target_ms - a_ms);
  pr.reach_margin = std::fmin(pr.length_at - std::fabs(pr.length_ab - pr.length_bc),
                              pr.length_ab + pr.length_bc - pr.length_at);
  pr.circle.center_ms = TransformPoint(p, solved.circle.center);
  pr.circle.normal_ms = glm::normalize(TransformVector(p, solved.chain.dir));
  pr.circle.radius = glm::length(TransformVector(p, solved.solved_knee - solved.circle.center));
  const glm::vec3 upper_ps = pose.knee_ps - a_ps;
  const glm::vec3 lower_ps = pose.foot_ps - pose.knee_ps;
  pr.knee_bend_deg = glm::degrees(
      std::atan2(glm::length(glm::cross(upper_ps, lower_ps)), glm::dot(upper_ps, lower_ps)));
  pr.knee_displacement = glm::length(out.knee_ms - b_ms);
  pr.residual = out.residual_ms;
  const glm::vec3& sh = job.hip_ls.scale;
  report->exact = detail::UniformMagnitude(sh) && (job.end_rotation == EndRotation::kFollow ||
                                                   detail::UniformMagnitude(job.knee_ls.scale));
  if (level == ReportDetail::kGeometry) {
    // The deltas themselves with their bones, as DescribeRotation would keep them; the rest
    // of each RotationReport stays default.
    report->hip_delta_ls = RotationReport{};
    report->hip_delta_ls.rotation = pose.turns.hip;
    report->hip_delta_ls.bone_axis = UnitOr(ch.knee_offset);
    report->knee_delta_ls = RotationReport{};
    report->knee_delta_ls.rotation = pose.turns.knee;
    report->knee_delta_ls.bone_axis = UnitOr(ch.foot_offset);
    pr.hip_rotation = RotationReport{};
    pr.knee_rotation = RotationReport{};
    return;
  }
  // Model-space rotations of the two bones: hip from (b - a) to (b' - a), knee from the
  // lower bone after the hip's turn to (c' - b').
  const glm::vec3 upper_old = b_ms - a_ms;
  const glm::vec3 upper_new = out.knee_ms - a_ms;
  const glm::quat hip_ms = RotationBetween(upper_old, upper_new);
  const glm::vec3 lower_turned =
      TransformVector(p, detail::Rotate(pose.hip, sh * detail::Rotate(r.knee, ch.foot_offset)));
  const glm::vec3 lower_new = out.foot_ms - out.knee_ms;
  const glm::quat knee_ms = RotationBetween(lower_turned, lower_new);
  pr.result.hip_rotation = hip_ms;
  pr.result.knee_rotation = knee_ms;
  pr.hip_rotation = DescribeRotation(hip_ms, upper_old);
  pr.knee_rotation = DescribeRotation(knee_ms, lower_turned);
  report->hip_delta_ls = DescribeRotation(pose.turns.hip, ch.knee_offset);
  report->knee_delta_ls = DescribeRotation(pose.turns.knee, ch.foot_offset);
}

// Run's general path, out of line so that the fast path's call starts without its frame.
[[gnu::noinline]] bool RunGeneral(const TwoBoneJob& job, TwoBoneOutput* output,
                                  TwoBoneReport* report, ReportDetail level) {
  UnitRotations r;
  if (ValidateJob(job, &r) != InputError::kNone) return false;
  const ChainPs chain = MapToParentSpace(job, r);
  // Step 3, positions: b' and c' in parent space (validated with the caller's weight, which
  // applies to the local rotations in step 5).
  detail::OptionsSolve solved;
  if (detail::SolveWithOptions(chain.Positions(), &solved, /*rotations=*/false,
                               /*check_finite=*/false) != InputError::kNone) {
    return false;
  }
  const NewPose pose = ApplyWeight(job, chain, r, solved, TurnBones(job, chain, r, solved));

  TwoBoneOutput out;
  out.hip_rotation_ls = pose.hip;
  out.knee_rotation_ls = pose.knee;
  out.foot_rotation_ls = EndRotationLs(job, chain, r, pose);
  out.reach = solved.result.reach;
  out.knee_ms = TransformPoint(chain.parent, pose.knee_ps);
  out.foot_ms = TransformPoint(chain.parent, pose.foot_ps);
  out.residual_ms = glm::length(out.foot_ms - job.target_ms);
  out.limit_clamped = solved.result.limit_clamped;
  out.softened = solved.result.softened;
  if (report != nullptr) Report(job, chain, r, solved, pose, out, report, level);
  *output = out;
  return true;
}

}  // namespace

InputError TwoBoneJob::Validate() const {
  UnitRotations r;
  const InputError error = ValidateJob(*this, &r);
  return error != InputError::kNone ? error
                                    : ValidatePositions(MapToParentSpace(*this, r).Positions());
}

bool TwoBoneJob::Run(TwoBoneOutput* output, TwoBoneReport* report, ReportDetail level) const {
  // Without a report: the seed's case in fewer dependent steps, which hands anything else to
  // the general path (detail::RunGeneralNoReport).
  if (report == nullptr) return detail::RunFastOrGeneral(*this, output);
  return RunGeneral(*this, output, report, level);
}

bool detail::RunGeneralNoReport(const TwoBoneJob& job, TwoBoneOutput* output) {
  return RunGeneral(job, output, nullptr, ReportDetail::kFull);
}

}  // namespace ikpose::ik
