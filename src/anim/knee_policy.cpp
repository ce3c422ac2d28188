#include "anim/knee_policy.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/constants.hpp>
#include <glm/gtc/quaternion.hpp>

#include "ik/rotation.h"

namespace ikpose::anim {

namespace {

constexpr float kRestBendFraction = 0.02f;  // rest knee this far off the line: a bend
constexpr float kReferenceFade = 0.05f;     // current knee nearer the axis: its side fades
// The hanging arm the elbow's natural bend starts from: down, tilted forward (relaxed arms hang
// slightly in front of the body); the elbow points back, a little out.
constexpr float kArmHangForward = 0.35f;  // about 20 degrees
constexpr float kElbowOutward = 0.1f;     // about 6 degrees

glm::vec3 PerpendicularPart(const glm::vec3& v, const glm::vec3& unit_axis) {
  return v - glm::dot(v, unit_axis) * unit_axis;
}

// Signed angle from unit `a` to unit `b`, both perpendicular to unit `axis`, in degrees.
float SignedAngleDeg(const glm::vec3& a, const glm::vec3& b, const glm::vec3& axis) {
  return glm::degrees(std::atan2(glm::dot(glm::cross(a, b), axis), glm::dot(a, b)));
}

// Identity within +-range; beyond, it holds at the range and folds back to 0 at +-180, so the
// map is continuous around the whole circle.
float FoldIntoRange(float deg, float range) {
  const float a = std::abs(deg);
  if (a <= range) return deg;
  const float hold_until = 0.5f * (180.f + range);
  const float folded = a <= hold_until ? range : range * (180.f - a) / (180.f - hold_until);
  return std::copysign(folded, deg);
}

}  // namespace

const char* PolicyName(KneePolicy policy) {
  switch (policy) {
    case KneePolicy::kSeed:
      return "seed";
    case KneePolicy::kNatural:
      return "natural";
    case KneePolicy::kPole:
      return "pole";
  }
  return "?";
}

bool ParsePolicy(std::string_view text, KneePolicy* policy) {
  for (KneePolicy p : {KneePolicy::kSeed, KneePolicy::kNatural, KneePolicy::kPole}) {
    if (text == PolicyName(p)) {
      *policy = p;
      return true;
    }
  }
  return false;
}

NaturalBend RestNaturalBend(const glm::vec3& hip_ms, const glm::vec3& knee_ms,
                            const glm::vec3& foot_ms, const glm::mat3& parent_rotation_ms,
                            bool is_leg, const glm::vec3& forward_ms, const glm::vec3& toe_dir_ms) {
  NaturalBend bend;
  const glm::vec3 reach = foot_ms - hip_ms;
  const float limb = glm::length(knee_ms - hip_ms) + glm::length(foot_ms - knee_ms);
  if (!(glm::length(reach) > 1e-6f * limb) || !(limb > 0.f)) return bend;
  const glm::vec3 up(0.f, 1.f, 0.f);
  const glm::mat3 to_parent = glm::transpose(parent_rotation_ms);  // rotation: inverse
  glm::vec3 forward_h = forward_ms - glm::dot(forward_ms, up) * up;
  forward_h = glm::length(forward_h) > 1e-6f ? glm::normalize(forward_h) : glm::vec3(0, 0, 1);
  glm::vec3 axis = glm::normalize(reach);
  glm::vec3 side;
  if (is_leg) {
    // Knees track the toes: the foot's own direction, else the facing.
    glm::vec3 toward = forward_h;
    glm::vec3 toe_h = toe_dir_ms - glm::dot(toe_dir_ms, up) * up;
    if (glm::length(toe_h) > 1e-6f && glm::dot(toe_h, forward_h) > 0.f) {
      toward = glm::normalize(toe_h);
    }
    glm::vec3 facing = PerpendicularPart(toward, axis);
    if (!(glm::length(facing) > 1e-6f)) facing = ik::AnyPerpendicular(axis);
    side = PerpendicularPart(knee_ms - hip_ms, axis);
    // A rest knee behind the leg is the rig's noise, not a bend: taken as natural it would
    // bend against the joint.
    bend.from_rest = glm::length(side) >= kRestBendFraction * limb && glm::dot(side, facing) > 0.f;
    if (!bend.from_rest) side = facing;
  } else {
    // An arm's natural rest is hanging at the side, a little forward, whatever the rig's rest
    // (a T-pose arm bent from its level rest would put the elbow out, a chicken wing); from
    // there the elbow points back and a little out. Carried to a forward reach at chest height
    // this puts the elbow under the arm.
    glm::vec3 outward = PerpendicularPart(reach - glm::dot(reach, up) * up, forward_h);
    outward = glm::length(outward) > 1e-6f ? glm::normalize(outward) : glm::vec3(0.f);
    axis = glm::normalize(-up + kArmHangForward * forward_h);
    side = PerpendicularPart(-forward_h + kElbowOutward * outward, axis);
    bend.from_rest = false;
  }
  bend.bend_ps = glm::normalize(to_parent * glm::normalize(side));
  bend.reach_ps = glm::normalize(to_parent * axis);
  bend.range_deg = 45.f;
  bend.valid = std::isfinite(bend.bend_ps.x + bend.bend_ps.y + bend.bend_ps.z) &&
               std::isfinite(bend.reach_ps.x + bend.reach_ps.y + bend.reach_ps.z);
  return bend;
}

SwivelChoice ChooseSwivel(const NaturalBend& bend, const glm::mat3& parent_rotation_ms,
                          const glm::vec3& hip_ms, const glm::vec3& knee_ms,
                          const glm::vec3& target_ms, float limb_length, float range_deg,
                          const glm::vec3* current_end_ms) {
  SwivelChoice choice;
  const glm::vec3 to_target = target_ms - hip_ms;
  if (!bend.valid || !(glm::length(to_target) > 1e-6f * limb_length)) return choice;
  const glm::vec3 axis = glm::normalize(to_target);
  const glm::vec3 bend_ms = parent_rotation_ms * bend.bend_ps;
  const glm::vec3 reach_ms = parent_rotation_ms * bend.reach_ps;
  // Swing the rest bend along with the limb: from the rest hip-foot direction to the axis.
  glm::vec3 natural = PerpendicularPart(ik::RotationBetween(reach_ms, axis) * bend_ms, axis);
  if (!(glm::length(natural) > 1e-3f)) natural = PerpendicularPart(bend_ms, axis);
  if (!(glm::length(natural) > 1e-3f)) natural = ik::AnyPerpendicular(axis);
  natural = glm::normalize(natural);

  choice.range_deg = range_deg > 0.f ? range_deg : bend.range_deg;
  const glm::vec3 side = PerpendicularPart(knee_ms - hip_ms, axis);
  const float side_length = glm::length(side);
  if (side_length > 1e-6f * limb_length) {
    choice.reference_deg = SignedAngleDeg(natural, side / side_length, axis);
  }
  float weight = std::clamp(side_length / (kReferenceFade * limb_length), 0.f, 1.f);
  if (current_end_ms != nullptr) {
    const glm::vec3 own = *current_end_ms - hip_ms;
    const float own_length = glm::length(own);
    const float bent = own_length > 1e-6f * limb_length
                           ? glm::length(PerpendicularPart(knee_ms - hip_ms, own / own_length))
                           : 0.f;
    weight = std::min(weight, std::clamp(bent / (kReferenceFade * limb_length), 0.f, 1.f));
  }
  choice.clamped = std::abs(choice.reference_deg) > choice.range_deg;
  choice.swivel_deg = weight * FoldIntoRange(choice.reference_deg, choice.range_deg);
  choice.natural_ms = natural;
  choice.knee_dir_ms =
      glm::normalize(glm::angleAxis(glm::radians(choice.swivel_deg), axis) * natural);
  choice.valid = true;
  return choice;
}

glm::vec3 KneeOnCircle(const glm::vec3& hip_ms, const glm::vec3& target_ms, float upper,
                       float lower, const glm::vec3& knee_dir_ms) {
  const glm::vec3 to_target = target_ms - hip_ms;
  const float length = glm::length(to_target);
  if (!(length > 1e-9f)) return hip_ms + upper * knee_dir_ms;
  const float d = std::clamp(length, std::abs(upper - lower), upper + lower);
  const float along = (upper * upper - lower * lower + d * d) / (2.f * d);
  const float off = std::sqrt(std::max(0.f, upper * upper - along * along));
  return hip_ms + along * (to_target / length) + off * knee_dir_ms;
}

namespace {

// How far (signed, radians) the swivel may go from `now` toward `to` before the knee on the
// circle (centre, radius r, swivel 0 along n, +90 deg along b) leaves the plane's sideways
// bound: the whole way when it stays within it, 0 when it is already out and turning further
// out. The knee's distance along the rungs is a sinusoid of the swivel, so it meets each side
// where an arccos says.
float StopAtSides(const KneeClearance& plane, const glm::vec3& center, float r, const glm::vec3& n,
                  const glm::vec3& b, float now, float to) {
  const float turn = to - now;
  const float sign = turn >= 0.f ? 1.f : -1.f;
  const float base = glm::dot(center - plane.point_ms, plane.along_ms);
  const float a = r * glm::dot(n, plane.along_ms), c = r * glm::dot(b, plane.along_ms);
  const auto side = [&](float t) { return base + a * std::cos(t) + c * std::sin(t); };
  const float w = plane.half_width;
  if (std::abs(side(now)) >= w) {
    // Out already: no further out (the slope of |side| along the turn), else the whole way.
    const float slope = sign * (c * std::cos(now) - a * std::sin(now));
    return (side(now) > 0.f) == (slope > 0.f) ? 0.f : turn;
  }
  const float amplitude = std::sqrt(a * a + c * c);
  float stop = std::abs(turn);
  if (!(amplitude > 1e-9f)) return turn;
  const float peak = std::atan2(c, a);
  for (float bound : {w, -w}) {
    const float x = (bound - base) / amplitude;
    if (std::abs(x) > 1.f) continue;
    const float half = std::acos(x);
    for (float root : {peak - half, peak + half}) {
      float ahead = std::remainder(sign * (root - now), 2.f * glm::pi<float>());
      if (ahead < 0.f) ahead += 2.f * glm::pi<float>();
      if (ahead > 0.f) stop = std::min(stop, ahead);
    }
  }
  return sign * stop;
}

}  // namespace

void KeepKneeBehind(const KneeClearance& plane, const glm::vec3& hip_ms, const glm::vec3& target_ms,
                    float upper, float lower, SwivelChoice* choice) {
  if (!plane.valid || !choice->valid) return;
  const glm::vec3 to_target = target_ms - hip_ms;
  const float length = glm::length(to_target);
  if (!(length > 1e-6f)) return;
  const glm::vec3 axis = to_target / length;
  const glm::vec3 n = choice->natural_ms;
  const glm::vec3 b = glm::cross(axis, n);  // swivel +90 deg
  // Height over the plane at swivel t: base + r (cos t * a + sin t * c).
  const glm::vec3 center = KneeOnCircle(hip_ms, target_ms, upper, lower, glm::vec3(0.f));
  const float r = glm::length(KneeOnCircle(hip_ms, target_ms, upper, lower, n) - center);
  const float base = glm::dot(center - plane.point_ms, plane.normal_ms);
  const float a = r * glm::dot(n, plane.normal_ms), c = r * glm::dot(b, plane.normal_ms);
  const float now = glm::radians(choice->swivel_deg);
  const auto height = [&](float t) { return base + a * std::cos(t) + c * std::sin(t); };
  if (height(now) >= plane.clearance) return;
  const float amplitude = std::sqrt(a * a + c * c);
  if (!(amplitude > 1e-6f)) return;
  // Clear where cos(t - peak) >= need: the arc within `half` of the peak. Its two edges, as
  // swivels reached from the current one (or the range's ends when no swivel clears); take the
  // one that turns the knee out (toward its side), then hold the range.
  const float range = glm::radians(choice->range_deg);
  const float peak = std::atan2(c, a);
  const float need = (plane.clearance - base) / amplitude;
  float edge[2] = {-range, range};
  if (need <= 1.f) {
    const float half = std::acos(std::max(-1.f, need));
    const auto wrap = [](float t) { return std::remainder(t, 2.f * glm::pi<float>()); };
    edge[0] = now + wrap(peak - half - now);
    edge[1] = now + wrap(peak + half - now);
  }
  const auto outwardness = [&](float t) {
    return glm::dot(std::cos(t) * n + std::sin(t) * b, plane.outward_ms);
  };
  const float wanted = outwardness(edge[0]) >= outwardness(edge[1]) ? edge[0] : edge[1];
  float chosen = std::clamp(wanted, -range, range);
  if (plane.half_width > 0.f) chosen = now + StopAtSides(plane, center, r, n, b, now, chosen);
  if (!(height(chosen) > height(now))) return;
  choice->cleared_deg = glm::degrees(chosen - now);
  choice->swivel_deg = glm::degrees(chosen);
  choice->knee_dir_ms = glm::normalize(glm::angleAxis(chosen, axis) * n);
}

glm::vec3 NaturalPoleMs(const SwivelChoice& choice, const glm::vec3& hip_ms,
                        const glm::vec3& target_ms, float limb_length) {
  return 0.5f * (hip_ms + target_ms) + limb_length * choice.knee_dir_ms;
}

}  // namespace ikpose::anim
