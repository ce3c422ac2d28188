// Finding pops in a recording: frames where a knee (elbow) jumps more than its motion explains.
//
// What: `DetectPops` walks consecutive frames of each limb solved in both and reports a pop
// where the knee moved more than the target and the input pose explain:
//   excess = |knee_i - knee_{i-1}| - (|target_i - target_{i-1}| + |input_knee_i -
//   input_knee_{i-1}|) pop    when excess > excess_fraction * limb length (|ab| + |bc|).
// Each pop gets a named cause, tried in this order:
//   hinge_limit             a hinge limit clamped in either frame;
//   input_pose_jumped       the input pose's knee (clip or rest, before IK) moved more than the
//                           pop threshold itself: the jump came in with the input;
//   full_extension          either frame is out of reach or bent less than straight_bend_deg:
//                           the knee's circle is born or collapses (the knee moves as the square
//                           root of the distance to full extension);
//   target_crossed_pole_line  (pole policy) the knee turned more than side_turn_deg about the
//                           hip-target axis: the target passed the line through hip and pole;
//   knee_reference_crossed_axis  (seed, natural) the same turn: the knee's reference (the input
//                           knee) crossed the hip-target axis, and "the nearest knee" changed side;
//   unexplained             none of those.
// And what the viewer needs to explain it: both candidate knees of that frame (the chosen one
// and the opposite point of the knee circle), the circle (its normal is the hip-target axis),
// and the reference direction (pole, natural direction, or the input knee's side).
// Why these thresholds: a knee that follows a smooth target moves about as far as the target
// and the body move it; what a viewer sees as a pop is a knee that covers a tenth of the limb
// (9 cm on a 0.9 m leg) in one frame beyond that. Smooth motion near full extension amplifies
// the target's motion (a 1 cm step from straight moves the knee ~7 cm on a 0.9 m leg) and stays
// under 0.1; a seed flip moves the knee across its circle (twice its radius) and is far over it
// unless the limb is nearly straight. 90 deg of turn about the axis separates "changed side"
// from the swivel's smooth drift; 10 deg of bend is where the circle's radius is under a tenth
// of the upper bone. The thresholds are per frame: at a lower frame rate each frame's motion
// is larger, and so is what explains it.
// Limits: a pop needs two consecutive solved frames of the limb; a jump spread over several
// frames, each under the threshold, is not a pop (the summary's max knee speed shows it).
#pragma once

#include <array>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>

#include "anim/chains.h"
#include "ik/two_bone_positions.h"
#include "scene/session/trace.h"

namespace ikpose::scene {

enum class PopCause {
  kKneeReferenceCrossedAxis,
  kTargetCrossedPoleLine,
  kFullExtension,
  kHingeLimit,
  kInputPoseJumped,
  kUnexplained,
};
// Stable names: "knee_reference_crossed_axis", "target_crossed_pole_line", "full_extension",
// "hinge_limit", "input_pose_jumped", "unexplained".
std::string_view PopCauseName(PopCause cause);
bool ParsePopCause(std::string_view text, PopCause* cause);

struct PopThresholds {
  float excess_fraction = 0.1f;    // of the limb length, in one frame
  float straight_bend_deg = 10.f;  // below: full extension
  float side_turn_deg = 90.f;      // turn about the hip-target axis: the knee changed side
};

struct Pop {
  anim::Limb limb = anim::Limb::kLeftLeg;
  int frame = 0;              // the frame the knee arrived in (TraceFrame::frame)
  int index = 0;              // its index in the frames given
  float time = 0.f;           // TraceFrame::time
  float knee_jump = 0.f;      // |knee_i - knee_{i-1}|, model units
  float excess = 0.f;         // knee_jump minus what the target and the input pose explain
  float side_turn_deg = 0.f;  // the knee's turn about the hip-target axis since the last frame
  PopCause cause = PopCause::kUnexplained;
  // The explanation, at the pop's frame (model space).
  glm::vec3 previous_knee_ms{0.f};
  glm::vec3 knee_ms{0.f};        // the candidate chosen
  glm::vec3 other_knee_ms{0.f};  // the opposite candidate on the circle
  ik::KneeCircle circle;         // normal: the hip-target axis
  // Unit, perpendicular to the axis: the pole's side (pole), the natural direction (natural) or
  // the input knee's side (seed); zero when the reference is on the axis.
  glm::vec3 reference_dir_ms{0.f};
};

// |ab| + |bc| of each limb (0 for a limb the model lacks).
std::array<float, 4> LimbLengths(const anim::ChainSet& chains);

// Pops in frame order, limbs in anim::kLimbs order within a frame.
std::vector<Pop> DetectPops(const std::vector<TraceFrame>& frames,
                            const std::array<float, 4>& limb_lengths,
                            const PopThresholds& thresholds = {});

// Per limb over a recording: what the summary of `ikpose trace --json` says.
struct LimbSummary {
  int solved_frames = 0;
  float min_reach_margin = 0.f;  // over the solved frames
  float min_flip_margin = 0.f;
  float max_knee_speed = 0.f;  // model units per second, between consecutive solved frames
  int pops = 0;
};
std::array<LimbSummary, 4> SummarizeLimbs(const std::vector<TraceFrame>& frames,
                                          const std::vector<Pop>& pops);

}  // namespace ikpose::scene
