#include "scene/trace/pop_detector.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ikpose::scene {

namespace {

constexpr std::array<std::string_view, 6> kCauseNames = {"knee_reference_crossed_axis",
                                                         "target_crossed_pole_line",
                                                         "full_extension",
                                                         "hinge_limit",
                                                         "input_pose_jumped",
                                                         "unexplained"};

glm::vec3 PerpendicularUnit(const glm::vec3& v, const glm::vec3& axis) {
  const glm::vec3 p = v - glm::dot(v, axis) * axis;
  const float length = glm::length(p);
  return length > 1e-6f ? p / length : glm::vec3(0.f);
}

// The knee's side about the hip-target axis, unit (zero for a straight limb).
glm::vec3 KneeSide(const LimbSample& s) {
  return PerpendicularUnit(s.knee_ms - s.hip_ms, s.circle.normal_ms);
}

glm::vec3 ReferenceDir(const LimbSample& s) {
  const glm::vec3& axis = s.circle.normal_ms;
  if (s.pole_ms) return PerpendicularUnit(*s.pole_ms - s.hip_ms, axis);
  if (s.policy == anim::KneePolicy::kNatural && s.natural_ms != glm::vec3(0.f)) {
    return PerpendicularUnit(s.natural_ms, axis);
  }
  return PerpendicularUnit(s.input_knee_ms - s.hip_ms, axis);
}

PopCause CauseOf(const LimbSample& before, const LimbSample& now, float input_move, float threshold,
                 float turn_deg, const PopThresholds& t) {
  if (before.limit_clamped || now.limit_clamped) return PopCause::kHingeLimit;
  if (input_move > threshold) return PopCause::kInputPoseJumped;
  if (before.reach != ik::Reach::kReachable || now.reach != ik::Reach::kReachable ||
      std::min(before.bend_deg, now.bend_deg) < t.straight_bend_deg) {
    return PopCause::kFullExtension;
  }
  if (turn_deg > t.side_turn_deg) {
    return now.policy == anim::KneePolicy::kPole ? PopCause::kTargetCrossedPoleLine
                                                 : PopCause::kKneeReferenceCrossedAxis;
  }
  return PopCause::kUnexplained;
}

}  // namespace

std::string_view PopCauseName(PopCause cause) {
  return kCauseNames[static_cast<int>(cause)];
}

bool ParsePopCause(std::string_view text, PopCause* cause) {
  for (std::size_t i = 0; i < kCauseNames.size(); ++i) {
    if (kCauseNames[i] == text) {
      *cause = static_cast<PopCause>(i);
      return true;
    }
  }
  return false;
}

std::array<float, 4> LimbLengths(const anim::ChainSet& chains) {
  std::array<float, 4> lengths{};
  for (anim::Limb limb : anim::kLimbs) {
    const anim::LimbChain& c = chains[limb];
    lengths[static_cast<int>(limb)] = c.valid() ? c.upper_length + c.lower_length : 0.f;
  }
  return lengths;
}

std::vector<Pop> DetectPops(const std::vector<TraceFrame>& frames,
                            const std::array<float, 4>& limb_lengths,
                            const PopThresholds& thresholds) {
  std::vector<Pop> pops;
  for (std::size_t i = 1; i < frames.size(); ++i) {
    for (anim::Limb limb : anim::kLimbs) {
      const int l = static_cast<int>(limb);
      const LimbSample& before = frames[i - 1].limbs[l];
      const LimbSample& now = frames[i].limbs[l];
      if (!before.solved || !now.solved || !(limb_lengths[l] > 0.f)) continue;
      const float knee_jump = glm::distance(now.knee_ms, before.knee_ms);
      const float input_move = glm::distance(now.input_knee_ms, before.input_knee_ms);
      const float excess =
          knee_jump - (glm::distance(now.target_ms, before.target_ms) + input_move);
      const float threshold = thresholds.excess_fraction * limb_lengths[l];
      if (!(excess > threshold)) continue;
      const float cosine = std::clamp(glm::dot(KneeSide(before), KneeSide(now)), -1.f, 1.f);
      Pop pop;
      pop.limb = limb;
      pop.frame = frames[i].frame;
      pop.index = static_cast<int>(i);
      pop.time = frames[i].time;
      pop.knee_jump = knee_jump;
      pop.excess = excess;
      pop.side_turn_deg = glm::degrees(std::acos(cosine));
      pop.cause = CauseOf(before, now, input_move, threshold, pop.side_turn_deg, thresholds);
      pop.previous_knee_ms = before.knee_ms;
      pop.knee_ms = now.knee_ms;
      pop.other_knee_ms = 2.f * now.circle.center_ms - now.knee_ms;
      pop.circle = now.circle;
      pop.reference_dir_ms = ReferenceDir(now);
      pops.push_back(pop);
    }
  }
  return pops;
}

std::array<LimbSummary, 4> SummarizeLimbs(const std::vector<TraceFrame>& frames,
                                          const std::vector<Pop>& pops) {
  std::array<LimbSummary, 4> out{};
  constexpr float kInf = std::numeric_limits<float>::infinity();
  for (LimbSummary& s : out) s.min_reach_margin = s.min_flip_margin = kInf;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    for (int l = 0; l < 4; ++l) {
      const LimbSample& now = frames[i].limbs[l];
      if (!now.solved) continue;
      LimbSummary& s = out[l];
      ++s.solved_frames;
      s.min_reach_margin = std::min(s.min_reach_margin, now.reach_margin);
      s.min_flip_margin = std::min(s.min_flip_margin, now.flip_margin);
      if (i == 0 || !frames[i - 1].limbs[l].solved) continue;
      const float dt = frames[i].time - frames[i - 1].time;
      if (dt > 0.f) {
        const float speed = glm::distance(now.knee_ms, frames[i - 1].limbs[l].knee_ms) / dt;
        s.max_knee_speed = std::max(s.max_knee_speed, speed);
      }
    }
  }
  for (LimbSummary& s : out) {
    if (s.solved_frames == 0) s.min_reach_margin = s.min_flip_margin = 0.f;
  }
  for (const Pop& p : pops) ++out[static_cast<int>(p.limb)].pops;
  return out;
}

}  // namespace ikpose::scene
