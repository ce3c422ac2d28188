// The recorder, the pop detector and trace files on a small two-leg rig.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "anim/skeleton.h"
#include "ik/two_bone_positions.h"
#include "scene/pop_detector.h"
#include "scene/posing_request.h"
#include "scene/trace.h"
#include "scene/trace_file.h"
#include "scene/trace_replay.h"
#include "support/rigs.h"

namespace ikpose::scene {
namespace {

constexpr int kLeftLeg = static_cast<int>(anim::Limb::kLeftLeg);

// A foot target swung about the hip through the rest knee's direction: at angle 0 the
// hip-target axis passes through the rest knee, which is the seed's reference in every frame.
struct Sweep {
  glm::vec3 hip_ms, knee_ms, foot_ms, along, across;
  float radius;
  glm::vec3 Target(float angle_deg) const {
    const float a = glm::radians(angle_deg);
    return hip_ms + radius * (std::cos(a) * along + std::sin(a) * across);
  }
};

Sweep LeftLegSweep(const anim::Model& model) {
  const anim::Pose rest = anim::RestPose(model.skeleton);
  const anim::LimbChain& chain = model.chains[anim::Limb::kLeftLeg];
  Sweep s;
  s.hip_ms = anim::PositionMs(rest, chain.upper);
  s.knee_ms = anim::PositionMs(rest, chain.lower);
  s.foot_ms = anim::PositionMs(rest, chain.end);
  s.along = glm::normalize(s.knee_ms - s.hip_ms);
  const glm::vec3 forward = model.chains.forward_ms;
  s.across = glm::normalize(forward - glm::dot(forward, s.along) * s.along);
  s.radius = 0.7f * (chain.upper_length + chain.lower_length);
  return s;
}

// Frames of the sweep from `from_deg` to `to_deg`, solved under `policy`, as ikpose trace does.
std::vector<TraceFrame> Solve(const anim::Model& model, const Sweep& sweep, float from_deg,
                              float to_deg, int frames, anim::KneePolicy policy) {
  std::vector<TraceFrame> inputs;
  for (int i = 0; i < frames; ++i) {
    TraceFrame in;
    in.frame = i;
    in.time = static_cast<float>(i) / 60.f;
    in.inputs[kLeftLeg].has_target = true;
    in.inputs[kLeftLeg].target_ms =
        sweep.Target(from_deg + (to_deg - from_deg) * static_cast<float>(i) / (frames - 1));
    inputs.push_back(in);
  }
  std::vector<TraceFrame> out;
  std::string error;
  EXPECT_TRUE(ReplayUnder(model, PosingRequest{}, inputs, policy, &out, &error)) << error;
  return out;
}

TEST(PopDetector, SeedSweepAcrossTheLegPopsWhereTheSeedsKneeJumps) {
  const anim::Model model = test::TwoLegRig();
  const Sweep sweep = LeftLegSweep(model);
  const int frames = 40;
  const std::vector<TraceFrame> trace =
      Solve(model, sweep, -30.f, 30.f, frames, anim::KneePolicy::kSeed);
  // Independently: the seed's positions step from the rest pose, frame by frame.
  int expected = -1;
  float biggest = 0.f;
  glm::vec3 last_knee{0.f};
  for (int i = 0; i < frames; ++i) {
    ik::PositionsInput in;
    in.hip_ms = sweep.hip_ms;
    in.knee_ms = sweep.knee_ms;
    in.foot_ms = sweep.foot_ms;
    in.target_ms = sweep.Target(-30.f + 60.f * static_cast<float>(i) / (frames - 1));
    ik::PositionsResult r;
    ASSERT_EQ(ik::SolvePositions(in, &r), ik::InputError::kNone);
    if (i > 0 && glm::distance(r.knee_ms, last_knee) > biggest) {
      biggest = glm::distance(r.knee_ms, last_knee);
      expected = i;
    }
    last_knee = r.knee_ms;
  }
  const std::vector<Pop> pops = DetectPops(trace, LimbLengths(model.chains));
  ASSERT_EQ(pops.size(), 1u);
  EXPECT_EQ(pops[0].limb, anim::Limb::kLeftLeg);
  EXPECT_EQ(pops[0].frame, expected);
  EXPECT_NEAR(pops[0].knee_jump, biggest, 1e-4f);
  EXPECT_EQ(pops[0].cause, PopCause::kKneeReferenceCrossedAxis);
  // The explanation: the knee left one side of the circle for the other.
  EXPECT_NEAR(glm::distance(pops[0].other_knee_ms, pops[0].circle.center_ms), pops[0].circle.radius,
              1e-4f);
  EXPECT_LT(glm::distance(pops[0].other_knee_ms, pops[0].previous_knee_ms), 0.5f * biggest);
}

TEST(PopDetector, NaturalPolicyKeepsTheSameSweepSmooth) {
  const anim::Model model = test::TwoLegRig();
  const std::vector<TraceFrame> trace =
      Solve(model, LeftLegSweep(model), -30.f, 30.f, 40, anim::KneePolicy::kNatural);
  EXPECT_TRUE(DetectPops(trace, LimbLengths(model.chains)).empty());
}

TEST(PopDetector, SmoothPathFarFromTheAxisHasNoPopUnderEitherPolicy) {
  const anim::Model model = test::TwoLegRig();
  for (anim::KneePolicy policy : {anim::KneePolicy::kSeed, anim::KneePolicy::kNatural}) {
    const std::vector<TraceFrame> trace = Solve(model, LeftLegSweep(model), 20.f, 60.f, 40, policy);
    EXPECT_TRUE(DetectPops(trace, LimbLengths(model.chains)).empty()) << PolicyName(policy);
  }
}

TEST(TraceFile, FramesReadBackEqual) {
  const anim::Model model = test::TwoLegRig();
  const std::vector<TraceFrame> frames =
      Solve(model, LeftLegSweep(model), -30.f, 30.f, 12, anim::KneePolicy::kSeed);
  TraceHeader header;
  header.model = "rig.glb";
  header.clip = "idle";
  header.policies = {"seed"};
  std::string text = TraceHeaderLine(header) + "\n";
  for (const TraceFrame& f : frames) text += TraceFrameLine(f) + "\n";
  TraceHeader read_header;
  std::vector<TraceFrame> read;
  std::string error;
  ASSERT_TRUE(ParseTrace(text, "t.jsonl", &read_header, &read, &error)) << error;
  EXPECT_EQ(read_header, header);
  ASSERT_EQ(read.size(), frames.size());
  for (std::size_t i = 0; i < frames.size(); ++i) EXPECT_EQ(read[i], frames[i]) << "frame " << i;
}

}  // namespace
}  // namespace ikpose::scene
