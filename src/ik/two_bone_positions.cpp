#include "ik/two_bone_positions.h"

#include <cmath>

#include "ik/two_bone_core.h"

namespace ikpose::ik {
namespace {

constexpr float kPi = 3.14159265358979f;
constexpr float kDegToRad = kPi / 180.f;
// Bones or a hip-target distance shorter than this, times the limb length, are degenerate.
constexpr float kTiny = 1e-6f;
// Beyond this the squares in the law of cosines overflow a float.
constexpr float kHuge = 1e18f;

}  // namespace

std::string_view ReachName(Reach reach) {
  switch (reach) {
    case Reach::kReachable:
      return "reachable";
    case Reach::kTooFar:
      return "too_far";
    case Reach::kTooClose:
      return "too_close";
  }
  return "reachable";
}

std::string_view InputErrorMessage(InputError error) {
  switch (error) {
    case InputError::kNone:
      return "no error";
    case InputError::kNonFinite:
      return "an input is NaN, infinite or too large (over 1e18)";
    case InputError::kZeroLengthUpper:
      return "the upper bone (hip to knee) has zero length";
    case InputError::kZeroLengthLower:
      return "the lower bone (knee to foot) has zero length";
    case InputError::kTargetOnHip:
      return "the target is on the hip";
    case InputError::kBadLimits:
      return "hinge limits must satisfy 0 <= min_deg <= max_deg <= 180";
    case InputError::kBadSoften:
      return "soften must be in [0, 1]";
    case InputError::kBadWeight:
      return "weight must be in [0, 1]";
    case InputError::kSingularTransform:
      return "a transform above or in the chain has a zero scale or is singular";
    case InputError::kBadRotation:
      return "a rotation quaternion is far from unit length";
  }
  return "unknown error";
}

std::string_view InputErrorName(InputError error) {
  switch (error) {
    case InputError::kNone:
      return "none";
    case InputError::kNonFinite:
      return "non_finite";
    case InputError::kZeroLengthUpper:
      return "zero_length_upper";
    case InputError::kZeroLengthLower:
      return "zero_length_lower";
    case InputError::kTargetOnHip:
      return "target_on_hip";
    case InputError::kBadLimits:
      return "bad_limits";
    case InputError::kBadSoften:
      return "bad_soften";
    case InputError::kBadWeight:
      return "bad_weight";
    case InputError::kSingularTransform:
      return "singular_transform";
    case InputError::kBadRotation:
      return "bad_rotation";
  }
  return "unknown";
}

namespace detail {

InputError ValidateMeasured(const PositionsInput& in, const Chain& ch, bool check_finite) {
  const TwoBoneOptions& o = in.options;
  // x * 0 is 0 for a finite x and NaN for NaN or an infinity: one test for all inputs.
  float nan_if_bad = 0.f;
  const auto add = [&](float x) { nan_if_bad += x * 0.f; };
  const auto add3 = [&](const glm::vec3& v) {
    add(v.x);
    add(v.y);
    add(v.z);
  };
  if (check_finite) {
    add3(in.hip_ms);
    add3(in.knee_ms);
    add3(in.foot_ms);
    add3(in.target_ms);
    if (o.use_pole) add3(o.pole_ms);
  }
  if (o.use_limits) {
    add(o.limits.min_deg);
    add(o.limits.max_deg);
  }
  add(o.soften);
  add(o.weight);
  if (check_finite && !(nan_if_bad == 0.f)) return InputError::kNonFinite;
  const float limb = ch.l1 + ch.l2;
  if (!(limb < kHuge) || !(ch.d < kHuge)) return InputError::kNonFinite;
  if (!(ch.l1 > kTiny * limb)) return InputError::kZeroLengthUpper;
  if (!(ch.l2 > kTiny * limb)) return InputError::kZeroLengthLower;
  if (!(ch.d > kTiny * limb)) return InputError::kTargetOnHip;
  if (o.use_limits && !(0.f <= o.limits.min_deg && o.limits.min_deg <= o.limits.max_deg &&
                        o.limits.max_deg <= 180.f)) {
    return InputError::kBadLimits;
  }
  if (!(0.f <= o.soften && o.soften <= 1.f)) return InputError::kBadSoften;
  if (!(0.f <= o.weight && o.weight <= 1.f)) return InputError::kBadWeight;
  return InputError::kNone;
}

}  // namespace detail

InputError ValidatePositions(const PositionsInput& in) {
  return detail::ValidateMeasured(in,
                                  detail::Measure(in.hip_ms, in.knee_ms, in.foot_ms, in.target_ms));
}

namespace detail {

InputError SolveWithOptions(const PositionsInput& in, OptionsSolve* out, bool rotations,
                            bool check_finite) {
  const TwoBoneOptions& o = in.options;
  const glm::vec3& a = in.hip_ms;
  const Chain ch = Measure(a, in.knee_ms, in.foot_ms, in.target_ms);
  const InputError error = ValidateMeasured(in, ch, check_finite);
  if (error != InputError::kNone) return error;
  const float lo = std::fabs(ch.l1 - ch.l2);
  const float hi = ch.l1 + ch.l2;
  PositionsResult& r = out->result;
  r.reach = ch.d > hi ? Reach::kTooFar : (ch.d < lo ? Reach::kTooClose : Reach::kReachable);

  // The distances the limits allow. With bend phi at the knee (0 = straight), the law of
  // cosines gives d^2 = |ab|^2 + |bc|^2 + 2|ab||bc| cos(phi), written with half angles:
  // d^2 = (|ab|+|bc|)^2 - 4|ab||bc| sin^2(phi/2) = (|ab|-|bc|)^2 + 4|ab||bc| cos^2(phi/2).
  float lo_lim = lo;
  float hi_lim = hi;
  if (o.use_limits) {
    if (o.limits.min_deg > 0.f) {
      const float s = std::sin(0.5f * o.limits.min_deg * kDegToRad);
      hi_lim = std::sqrt(Max(hi * hi - 4.f * ch.l1 * ch.l2 * s * s, 0.f));
    }
    if (o.limits.max_deg < 180.f) {
      const float c = std::cos(0.5f * o.limits.max_deg * kDegToRad);
      lo_lim = std::sqrt(lo * lo + 4.f * ch.l1 * ch.l2 * c * c);
    }
    hi_lim = Max(hi_lim, lo_lim);
  }

  // Soften: past start = soften * reach, d' = start + span (1 - exp(-(d - start) / span)),
  // span = reach - start. Value and slope match at start; d' tends to the reach as d grows.
  float d_soft = ch.d;
  r.softened = false;
  if (o.soften < 1.f) {
    const float start = o.soften * hi_lim;
    const float span = hi_lim - start;
    if (ch.d > start && span > 0.f) {
      d_soft = start + span * (1.f - std::exp(-(ch.d - start) / span));
      r.softened = true;
    }
  }
  const float d_eff = Min(Max(d_soft, lo_lim), hi_lim);
  r.limit_clamped =
      o.use_limits && ((d_soft > hi_lim && hi_lim < hi) || (d_soft < lo_lim && lo_lim > lo));

  const glm::vec3 foot = d_eff == ch.d ? in.target_ms : a + ch.dir * d_eff;
  const Circle circle = KneeCircleAt(a, foot, ch, d_eff, d_eff >= hi, d_eff <= lo);

  // The side the knee goes: the pole's, else the current knee's, else a fixed perpendicular.
  glm::vec3 u = OffAxis(a, ch.dir, in.knee_ms);
  out->used_pole = false;
  if (o.use_pole) {
    const glm::vec3 up = OffAxis(a, ch.dir, o.pole_ms);
    if (!OnAxis(glm::dot(up, up), hi)) {
      u = up;
      out->used_pole = true;
    }
  }
  const float u2 = glm::dot(u, u);
  out->fallback_side = OnAxis(u2, hi);
  out->flip_margin = std::sqrt(u2) / hi;

  const glm::vec3 knee = circle.center + KneeSide(u, u2, ch.dir, hi) * circle.radius;
  out->chain = ch;
  out->lo = lo;
  out->hi = hi;
  out->circle = circle;
  out->solved_knee = knee;
  out->solved_foot = foot;
  r.knee_ms = knee;
  r.foot_ms = foot;
  if (!rotations) return InputError::kNone;
  const glm::quat q1 = RotationBetween(ch.ab, knee - a);
  const glm::quat q2 = RotationBetween(Rotate(q1, ch.bc), foot - knee);
  if (o.weight >= 1.f) {
    r.hip_rotation = q1;
    r.knee_rotation = q2;
    return InputError::kNone;
  }
  // Each bone's rotation scaled by the weight, as the job does it on local rotations: the
  // knee's correction is the one found in the fully turned hip's frame, so in this space it is
  // X = q1w q1^-1 q2w q1 q1w^-1, applied after the hip's q1w.
  const glm::quat q1w = Power(q1, o.weight);
  const glm::quat q2w = Power(q2, o.weight);
  const glm::quat x = glm::normalize(q1w * glm::conjugate(q1) * q2w * q1 * glm::conjugate(q1w));
  r.hip_rotation = q1w;
  r.knee_rotation = x;
  r.knee_ms = a + Rotate(q1w, ch.ab);
  r.foot_ms = r.knee_ms + Rotate(x, Rotate(q1w, ch.bc));
  return InputError::kNone;
}

void FillReport(const PositionsInput& in, const OptionsSolve& s, PositionsReport* rep,
                bool rotations) {
  const PositionsResult& r = s.result;
  rep->result = r;
  rep->length_ab = s.chain.l1;
  rep->length_bc = s.chain.l2;
  rep->length_at = s.chain.d;
  rep->reach_margin = Min(s.chain.d - s.lo, s.hi - s.chain.d);
  rep->circle.center_ms = s.circle.center;
  rep->circle.radius = s.circle.radius;
  rep->circle.normal_ms = s.chain.dir;
  rep->cos_theta = s.circle.cos_theta;
  rep->theta_rad = std::acos(s.circle.cos_theta);
  const glm::vec3 upper = r.knee_ms - in.hip_ms;
  const glm::vec3 lower = r.foot_ms - r.knee_ms;
  rep->knee_bend_deg =
      std::atan2(glm::length(glm::cross(upper, lower)), glm::dot(upper, lower)) / kDegToRad;
  rep->knee_displacement = glm::length(r.knee_ms - in.knee_ms);
  rep->residual = glm::length(r.foot_ms - in.target_ms);
  rep->flip_margin = s.flip_margin;
  rep->used_pole = s.used_pole;
  rep->used_fallback_side = s.fallback_side;
  if (!rotations) return;
  rep->hip_rotation = DescribeRotation(r.hip_rotation, s.chain.ab);
  rep->knee_rotation = DescribeRotation(r.knee_rotation, Rotate(r.hip_rotation, s.chain.bc));
}

}  // namespace detail

InputError SolvePositions(const PositionsInput& input, PositionsResult* result,
                          PositionsReport* report) {
  detail::OptionsSolve solve;
  const InputError error = detail::SolveWithOptions(input, &solve, /*rotations=*/true);
  if (error != InputError::kNone) return error;
  if (result != nullptr) *result = solve.result;
  if (report != nullptr) detail::FillReport(input, solve, report);
  return InputError::kNone;
}

}  // namespace ikpose::ik
