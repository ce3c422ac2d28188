// The recorder, the pop detector and trace files on a small two-leg rig.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "anim/clip.h"
#include "anim/skeleton.h"
#include "anim/test_rigs.h"
#include "ik/two_bone_positions.h"
#include "scene/files/trace_file.h"
#include "scene/road/posing_request.h"
#include "scene/session/trace.h"
#include "scene/trace/pop_detector.h"
#include "scene/trace/trace_replay.h"
#include "scene/world/ladder.h"
#include "support/leg_sweep.h"
#include "support/rigs.h"

namespace ikpose::scene {
namespace {

constexpr int kLeftLeg = static_cast<int>(anim::Limb::kLeftLeg);

using test::LeftLegSweep;
using Sweep = test::LegSweep;

// Frames of the sweep from `from_deg` to `to_deg`, solved under `policy`, as ikpose trace does.
std::vector<TraceFrame> Solve(const anim::Model& model, const Sweep& sweep, float from_deg,
                              float to_deg, int frames, anim::KneePolicy policy) {
  std::vector<TraceFrame> inputs;
  for (int i = 0; i < frames; ++i) {
    TraceFrame in;
    in.frame = i;
    in.time = static_cast<float>(i) / 60.f;
    in.inputs[kLeftLeg].has_target = true;
    in.inputs[kLeftLeg].target_ms = sweep.At(Sweep::Angle(from_deg, to_deg, i, frames));
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
  const test::KneeJump seed = test::SeedKneeJump(sweep, -30.f, 30.f, frames);
  ASSERT_GT(seed.frame, 0);
  const std::vector<Pop> pops = DetectPops(trace, LimbLengths(model.chains));
  ASSERT_EQ(pops.size(), 1u);
  EXPECT_EQ(pops[0].limb, anim::Limb::kLeftLeg);
  EXPECT_EQ(pops[0].frame, seed.frame);
  EXPECT_NEAR(pops[0].knee_jump, seed.jump, 1e-4f);
  EXPECT_EQ(pops[0].cause, PopCause::kKneeReferenceCrossedAxis);
  // The explanation: the knee left one side of the circle for the other.
  EXPECT_NEAR(glm::distance(pops[0].other_knee_ms, pops[0].circle.center_ms), pops[0].circle.radius,
              1e-4f);
  EXPECT_LT(glm::distance(pops[0].other_knee_ms, pops[0].previous_knee_ms), 0.5f * seed.jump);
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

// A humanoid whose pelvis sways over a one-second clip.
anim::Model SwayingHumanoid() {
  anim::Model model = anim::test::MakeHumanoidModel();
  anim::Clip clip;
  clip.name = "sway";
  clip.duration = 1.f;
  anim::BoneTrack pelvis;
  pelvis.bone = model.skeleton.Find("pelvis");
  for (int i = 0; i <= 10; ++i) {
    const float t = static_cast<float>(i) / 10.f;
    pelvis.translation.times.push_back(t);
    pelvis.translation.values.push_back(
        model.skeleton.rest_ls[static_cast<std::size_t>(pelvis.bone)].translation +
        glm::vec3(0.05f * std::sin(6.283f * t), 0.f, 0.f));
  }
  clip.tracks = {pelvis};
  model.clips.push_back(clip);
  return model;
}

TEST(TraceReplay, ASituationBuiltOnceSolvesEveryPolicyAsBuildingItForEachDoes) {
  // `ikpose trace` builds a frame's situation once (the clip sampled once) and solves it as
  // given and under each policy; each must be byte for byte what the one road gives when the
  // frame is built for that policy alone.
  const anim::Model model = SwayingHumanoid();
  PosingRequest base;
  base.clip = "sway";
  for (int i = 0; i < 6; ++i) {
    TraceFrame in;
    in.frame = i;
    in.time = 0.17f * static_cast<float>(i);
    in.clip_time = in.time;
    const float s = std::sin(2.f * in.time);
    LimbInput& leg = in.inputs[kLeftLeg];
    leg.has_target = true;
    leg.target_ms = glm::vec3(0.12f + 0.05f * s, 0.3f, 0.2f);
    leg.pole_ms = glm::vec3(0.12f, 0.5f, 1.f);
    LimbInput& arm = in.inputs[static_cast<int>(anim::Limb::kRightArm)];
    arm.has_target = true;
    arm.target_ms = glm::vec3(-0.4f, 1.1f + 0.1f * s, 0.25f);
    std::string error;
    const auto situation = FrameSituation(model, base, in, &error);
    ASSERT_TRUE(situation) << error;
    for (const std::optional<anim::KneePolicy> policy :
         {std::optional<anim::KneePolicy>(), std::optional(anim::KneePolicy::kSeed),
          std::optional(anim::KneePolicy::kNatural), std::optional(anim::KneePolicy::kPole)}) {
      SCOPED_TRACE(::testing::Message()
                   << "frame " << i << ", policy " << (policy ? PolicyName(*policy) : "as given"));
      TraceFrame shared, own;
      const auto a = SolveFrame(*situation, base, in, policy, &shared, &error);
      ASSERT_TRUE(a) << error;
      // The one road itself: the frame's request, under the policy, built whole.
      PosingRequest request = FrameRequest(base, in);
      if (policy) request = WithPolicy(request, in, *policy);
      const auto b = BuildSession(model, request, &error);
      ASSERT_TRUE(b) << error;
      own = RecordFrame(*b, in.frame, in.time, in.inputs);
      EXPECT_EQ(TraceFrameLine(shared, nullptr), TraceFrameLine(own, nullptr));
      EXPECT_EQ(a->pose().models_ms, b->pose().models_ms);
    }
  }
}

TEST(TraceReplay, ASessionSamplesItsClipAgainWhenItsTimeOrStartPoseChanges) {
  // The clip pose a session keeps between evaluations is for one clip time over one start
  // pose: moving either must sample again, as a session built afresh does.
  const anim::Model model = SwayingHumanoid();
  PosingRequest request;
  request.clip = "sway";
  request.time = 0.2f;
  std::string error;
  const auto session = BuildSession(model, request, &error);
  ASSERT_TRUE(session) << error;
  session->edits.playback.time = 0.7f;
  session->Evaluate();
  request.time = 0.7f;
  const auto fresh = BuildSession(model, request, &error);
  ASSERT_TRUE(fresh) << error;
  EXPECT_EQ(session->pose().models_ms, fresh->pose().models_ms);

  std::vector<anim::Transform> start = model.skeleton.rest_ls;
  start[static_cast<std::size_t>(model.skeleton.Find("spine_01"))].rotation =
      glm::angleAxis(0.3f, glm::vec3(1.f, 0.f, 0.f));
  session->SetStartPose(start);
  session->Evaluate();
  request.start_pose_ls = start;
  const auto started = BuildSession(model, request, &error);
  ASSERT_TRUE(started) << error;
  EXPECT_EQ(session->pose().models_ms, started->pose().models_ms);
  EXPECT_NE(session->pose().models_ms, fresh->pose().models_ms);
}

TEST(TraceFile, FramesReadBackEqual) {
  const anim::Model model = test::TwoLegRig();
  std::vector<TraceFrame> frames =
      Solve(model, LeftLegSweep(model), -30.f, 30.f, 12, anim::KneePolicy::kSeed);
  // And one frame with every field its own value, so that no two fields can be swapped.
  LimbSample& s = frames[0].limbs[static_cast<int>(anim::Limb::kRightArm)];
  s.solved = true;
  s.policy = anim::KneePolicy::kPole;
  s.reach = ik::Reach::kTooClose;
  s.reach_margin = -0.25f;
  s.flip_margin = 0.5f;
  s.bend_deg = 33.f;
  s.swivel_deg = -12.5f;
  s.hip_swing_deg = 1.f;
  s.hip_twist_deg = 2.f;
  s.knee_swing_deg = 3.f;
  s.knee_twist_deg = 4.f;
  s.target_ms = {1, 2, 3};
  s.pole_ms = glm::vec3(4, 5, 6);
  s.hip_ms = {7, 8, 9};
  s.knee_ms = {10, 11, 12};
  s.end_ms = {13, 14, 15};
  s.input_knee_ms = {16, 17, 18};
  s.circle = {glm::vec3(19, 20, 21), 0.125f, glm::vec3(0, 0.6f, 0.8f)};
  s.natural_ms = {0.6f, 0.8f, 0};
  s.limit_clamped = true;
  s.swivel_clamped = true;
  s.softened = false;
  frames[0].inputs[static_cast<int>(anim::Limb::kRightArm)] = {true, glm::vec3(0.1f, 0.2f, 0.3f),
                                                               glm::vec3(1e-7f, -3e5f, 0.7f)};
  frames[0].clip_time = 0.1f;
  TraceHeader header;
  header.model = "rig.glb";
  header.clip = "idle";
  header.policies = {"seed"};
  std::string text = TraceHeaderLine(header) + "\n";
  for (const TraceFrame& f : frames) text += TraceFrameLine(f, nullptr) + "\n";
  TraceHeader read_header;
  std::vector<TraceFrame> read;
  std::string error;
  ASSERT_TRUE(ParseTrace(text, "t.jsonl", &read_header, &read, &error)) << error;
  EXPECT_EQ(read_header, header);
  ASSERT_EQ(read.size(), frames.size());
  for (std::size_t i = 0; i < frames.size(); ++i) EXPECT_EQ(read[i], frames[i]) << "frame " << i;
}

// A game's ladder and props are written where they change and read back held on every frame
// between; the header keeps what was on. A replay needs them on every frame, the file only once.
TEST(TraceFile, TheLadderAndPropsInForceReadBackOnEveryFrameWrittenOnlyWhereTheyChange) {
  std::vector<TraceFrame> frames(6);
  Ladder sized;
  sized.base_ms = {0.1f, 0.f, 0.4f};
  sized.rung_spacing = 0.28f;
  sized.rung_count = 9;
  sized.rail_width = 0.45f;
  sized.rung_radius = 0.025f;
  sized.first_rung_height = 0.3f;
  for (int i = 0; i < 6; ++i) {
    TraceFrame& f = frames[static_cast<std::size_t>(i)];
    f.frame = i;
    f.time = static_cast<float>(i) / 60.f;
    if (i >= 1 && i <= 3) f.ladder = LadderInput::Whole(sized);  // none again from frame 4
    if (i >= 2) f.props = {{0, glm::vec3(0.8f, 0.f, 1.f), 20.f}};
    if (i >= 3) f.props.push_back({2, glm::vec3(-1.f, 0.5f, 0.f), -90.f});
  }
  frames[3].ladder->base_ms.z = 0.5f;  // the game moved its ladder
  TraceHeader header;
  header.limits = false;
  header.body_help = true;
  header.ground = false;
  std::string text = TraceHeaderLine(header) + "\n";
  const TraceFrame* previous = nullptr;
  std::vector<std::string> lines;
  for (const TraceFrame& f : frames) {
    lines.push_back(TraceFrameLine(f, previous));
    text += lines.back() + "\n";
    previous = &f;
  }
  // Written on frames 1 (given), 3 (moved) and 4 (gone); props on 2 and 3.
  for (int i = 0; i < 6; ++i) {
    const std::string& line = lines[static_cast<std::size_t>(i)];
    EXPECT_EQ(line.find("\"ladder\"") != std::string::npos, i == 1 || i == 3 || i == 4) << line;
    EXPECT_EQ(line.find("\"props\"") != std::string::npos, i == 2 || i == 3) << line;
  }
  EXPECT_NE(lines[1].find("\"rung_spacing\":0.28"), std::string::npos) << lines[1];
  EXPECT_NE(lines[4].find("\"ladder\":null"), std::string::npos) << lines[4];
  TraceHeader read_header;
  std::vector<TraceFrame> read;
  std::string error;
  ASSERT_TRUE(ParseTrace(text, "t.jsonl", &read_header, &read, &error)) << error;
  EXPECT_EQ(read_header, header);
  ASSERT_EQ(read.size(), frames.size());
  for (std::size_t i = 0; i < frames.size(); ++i) EXPECT_EQ(read[i], frames[i]) << "frame " << i;
  EXPECT_EQ(read[2].ladder->Over(Ladder{}), sized);
  // A header without them (an older trace) says nothing, and a replay keeps the scenario's.
  ASSERT_TRUE(
      ParseTrace(TraceHeaderLine(TraceHeader{}) + "\n", "t.jsonl", &read_header, &read, &error));
  EXPECT_FALSE(read_header.limits || read_header.body_help || read_header.ground);
}

}  // namespace
}  // namespace ikpose::scene

namespace ikpose::scene {
namespace {

// Two frames of one limb (left leg, length 1): a knee that moves `knee_jump` along +z while the
// target moves `target_move` and the input knee `input_move`, both along +x.
std::vector<TraceFrame> TwoFrames(float knee_jump, float target_move, float input_move) {
  std::vector<TraceFrame> frames(2);
  for (int i = 0; i < 2; ++i) {
    TraceFrame& f = frames[static_cast<std::size_t>(i)];
    f.frame = i;
    f.time = static_cast<float>(i) / 60.f;
    LimbSample& s = f.limbs[kLeftLeg];
    s.solved = true;
    s.bend_deg = 60.f;
    s.hip_ms = {0.f, 1.f, 0.f};
    s.target_ms = {i * target_move, 0.2f, 0.f};
    s.input_knee_ms = {i * input_move, 0.6f, 0.1f};
    s.knee_ms = {0.f, 0.6f, 0.1f + i * knee_jump};
    s.circle.center_ms = {0.f, 0.6f, 0.f};
    s.circle.normal_ms = {0.f, -1.f, 0.f};
  }
  return frames;
}

const std::array<float, 4> kUnitLegs = {0.f, 0.f, 1.f, 1.f};

TEST(PopDetector, ThresholdIsATenthOfTheLimbBeyondWhatTheMotionExplains) {
  // Excess 0.099 of the limb: smooth enough; 0.101: a pop.
  EXPECT_TRUE(DetectPops(TwoFrames(0.099f, 0.f, 0.f), kUnitLegs).empty());
  EXPECT_EQ(DetectPops(TwoFrames(0.101f, 0.f, 0.f), kUnitLegs).size(), 1u);
  // The same jump explained by the target's and the input pose's motion is not a pop...
  EXPECT_TRUE(DetectPops(TwoFrames(0.3f, 0.15f, 0.06f), kUnitLegs).empty());
  // ...and by a little less, it is.
  const std::vector<Pop> pops = DetectPops(TwoFrames(0.3f, 0.15f, 0.04f), kUnitLegs);
  ASSERT_EQ(pops.size(), 1u);
  EXPECT_NEAR(pops[0].excess, 0.11f, 1e-5f);
  // The limb's length scales it: on a 4 m leg 0.3 is under 0.4.
  EXPECT_TRUE(DetectPops(TwoFrames(0.3f, 0.f, 0.f), {0.f, 0.f, 4.f, 4.f}).empty());
}

PopCause CauseOf(std::vector<TraceFrame> frames) {
  const std::vector<Pop> pops = DetectPops(frames, kUnitLegs);
  EXPECT_EQ(pops.size(), 1u);
  return pops.empty() ? PopCause::kUnexplained : pops[0].cause;
}

TEST(PopDetector, CausesAreNamedAtTheirThresholds) {
  // A knee from +z to -z across its circle: the side turned 180 deg.
  std::vector<TraceFrame> flip = TwoFrames(-0.2f, 0.f, 0.f);
  EXPECT_EQ(CauseOf(flip), PopCause::kKneeReferenceCrossedAxis);
  std::vector<TraceFrame> pole = flip;
  pole[1].limbs[kLeftLeg].policy = anim::KneePolicy::kPole;
  pole[1].limbs[kLeftLeg].pole_ms = glm::vec3(0.f, 0.6f, -1.f);
  EXPECT_EQ(CauseOf(pole), PopCause::kTargetCrossedPoleLine);
  // A turn of just under 90 deg is not a change of side: unexplained.
  std::vector<TraceFrame> turn = TwoFrames(0.f, 0.f, 0.f);
  const float a = glm::radians(89.f);
  turn[1].limbs[kLeftLeg].knee_ms = {0.5f * std::sin(a), 0.6f, 0.5f * std::cos(a)};
  turn[0].limbs[kLeftLeg].knee_ms = {0.f, 0.6f, 0.5f};
  EXPECT_EQ(CauseOf(turn), PopCause::kUnexplained);
  const float b = glm::radians(91.f);
  turn[1].limbs[kLeftLeg].knee_ms = {0.5f * std::sin(b), 0.6f, 0.5f * std::cos(b)};
  EXPECT_EQ(CauseOf(turn), PopCause::kKneeReferenceCrossedAxis);
  // Bent less than 10 deg in either frame: full extension; 10 deg is bent.
  std::vector<TraceFrame> straight = flip;
  straight[0].limbs[kLeftLeg].bend_deg = 9.9f;
  EXPECT_EQ(CauseOf(straight), PopCause::kFullExtension);
  straight[0].limbs[kLeftLeg].bend_deg = 10.f;
  EXPECT_EQ(CauseOf(straight), PopCause::kKneeReferenceCrossedAxis);
  straight[1].limbs[kLeftLeg].reach = ik::Reach::kTooFar;
  EXPECT_EQ(CauseOf(straight), PopCause::kFullExtension);
  // A clamped hinge comes first.
  std::vector<TraceFrame> limited = straight;
  limited[1].limbs[kLeftLeg].limit_clamped = true;
  EXPECT_EQ(CauseOf(limited), PopCause::kHingeLimit);
  // The input knee moving more than the threshold by itself: the input jumped.
  std::vector<TraceFrame> input = TwoFrames(0.35f, 0.f, 0.101f);
  EXPECT_EQ(CauseOf(input), PopCause::kInputPoseJumped);
  input = TwoFrames(0.35f, 0.f, 0.099f);
  EXPECT_NE(CauseOf(input), PopCause::kInputPoseJumped);
}

TEST(PopDetector, CauseNamesAreStable) {
  for (PopCause cause : {PopCause::kKneeReferenceCrossedAxis, PopCause::kTargetCrossedPoleLine,
                         PopCause::kFullExtension, PopCause::kHingeLimit,
                         PopCause::kInputPoseJumped, PopCause::kUnexplained}) {
    PopCause back = PopCause::kUnexplained;
    ASSERT_TRUE(ParsePopCause(PopCauseName(cause), &back));
    EXPECT_EQ(back, cause);
  }
  EXPECT_EQ(PopCauseName(PopCause::kKneeReferenceCrossedAxis), "knee_reference_crossed_axis");
  EXPECT_EQ(PopCauseName(PopCause::kTargetCrossedPoleLine), "target_crossed_pole_line");
}

TEST(TraceRecorder, KeepsTheLatestFramesInOrder) {
  TraceRecorder recorder(3);
  for (int i = 0; i < 5; ++i) {
    TraceFrame f;
    f.frame = i;
    recorder.Push(f);
  }
  ASSERT_EQ(recorder.size(), 3u);
  EXPECT_EQ(recorder.dropped(), 2u);
  EXPECT_EQ(recorder[0].frame, 2);
  EXPECT_EQ(recorder[2].frame, 4);
  EXPECT_EQ(recorder.Frames().back().frame, 4);
  recorder.Clear();
  EXPECT_TRUE(recorder.empty());
}

TEST(TraceFile, MalformedLineIsOneErrorNamingItsLineAndField) {
  const std::string header = TraceHeaderLine(TraceHeader{}) + "\n";
  const std::string frame0 = "{\"frame\": 0, \"time\": 0, \"limbs\": {}}\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{\"frame\": 1, \"time\": 0.5, \"limbs\": ", "t.jsonl:3: not valid JSON"},
      {"{\"frame\": 1, \"limbs\": {}}", "t.jsonl:3: time: missing"},
      {"{\"frame\": 1, \"time\": 0, \"limbs\": {}}", "t.jsonl:3: time: not after"},
      {"{\"frame\": 1, \"time\": 1e400, \"limbs\": {}}", "t.jsonl:3: "},
      {"{\"frame\": 1, \"time\": 1, \"limbs\": {\"tail\": {\"solved\": false}}}",
       "t.jsonl:3: limbs.tail: unknown limb"},
      {"{\"frame\": 1, \"time\": 1, \"limbs\": {\"left_leg\": {\"solved\": true}}}",
       "t.jsonl:3: limbs.left_leg.policy: missing"},
      {"{\"frame\": 1, \"time\": 1, \"limbs\": {\"left_leg\": {\"input\": {\"target\": [1, "
       "\"x\", 0]}, \"solved\": false}}}",
       "t.jsonl:3: limbs.left_leg.input.target: not a number"},
      {std::string(kMaxTraceLineBytes + 1, ' ') + "{}", "t.jsonl:3: line longer than"},
      {std::string(20, '[') + std::string(20, ']'), "t.jsonl:3: nested deeper"},
      // A ladder or props no situation can have.
      {"{\"frame\": 1, \"time\": 1, \"limbs\": {}, \"ladder\": {\"base\": [0, 0, 0], "
       "\"rung_count\": 0}}",
       "t.jsonl:3: ladder.rung_count: not a whole number in 1..1000"},
      {"{\"frame\": 1, \"time\": 1, \"limbs\": {}, \"ladder\": {\"base\": [0, 0, 0], "
       "\"rung_spacing\": -0.3}}",
       "t.jsonl:3: ladder.rung_spacing: not over 0"},
      {"{\"frame\": 1, \"time\": 1, \"limbs\": {}, \"ladder\": {\"base\": [0, 1e39, 0]}}",
       "t.jsonl:3: ladder.base: not a finite number"},
      {"{\"frame\": 1, \"time\": 1, \"limbs\": {}, \"ladder\": 7}",
       "t.jsonl:3: ladder: not an object"},
      {"{\"frame\": 1, \"time\": 1, \"limbs\": {}, \"props\": {}}",
       "t.jsonl:3: props: not an array"},
      {"{\"frame\": 1, \"time\": 1, \"limbs\": {}, \"props\": [{\"index\": -1, \"position\": "
       "[0, 0, 0]}]}",
       "t.jsonl:3: props[0].index: not a whole number in 0..63"},
      {"{\"frame\": 1, \"time\": 1, \"limbs\": {}, \"props\": [{\"index\": 0, \"position\": "
       "[0, 0, 0], \"yaw_deg\": \"x\"}]}",
       "t.jsonl:3: props[0].yaw_deg: not a number"}};
  for (const auto& [bad, says] : cases) {
    TraceHeader h;
    std::vector<TraceFrame> frames;
    std::string error;
    EXPECT_FALSE(ParseTrace(header + frame0 + bad + "\n", "t.jsonl", &h, &frames, &error)) << bad;
    EXPECT_EQ(error.rfind(says, 0), 0u) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos);
  }
  TraceHeader h;
  std::vector<TraceFrame> frames;
  std::string error;
  EXPECT_FALSE(ParseTrace("{\"frame\": 0}\n", "t.jsonl", &h, &frames, &error));
  EXPECT_EQ(error, "t.jsonl:1: ikpose_trace: missing");
  std::string switched = TraceHeaderLine(TraceHeader{});
  switched.insert(switched.size() - 1, ", \"limits\": \"on\"");
  EXPECT_FALSE(ParseTrace(switched + "\n", "t.jsonl", &h, &frames, &error));
  EXPECT_EQ(error, "t.jsonl:1: limits: not true or false");
}

TEST(TraceFile, TargetsHoldUntilALaterLineMovesThem) {
  std::vector<TargetKey> keys;
  std::string error;
  ASSERT_TRUE(ParseTargets(
      "{\"time\": 0, \"limbs\": {\"left_leg\": {\"target\": [1, 2, 3], \"pole\": [0, 0, 1]}}}\n"
      "{\"time\": 0.5, \"limbs\": {\"right_arm\": {\"target\": [4, 5, 6]}}}\n"
      "{\"time\": 1, \"limbs\": {\"left_leg\": {\"target\": [7, 8, 9]}}}\n",
      "p.jsonl", &keys, &error))
      << error;
  const int arm = static_cast<int>(anim::Limb::kRightArm);
  EXPECT_FALSE(TargetsAt(keys, 0.25f)[arm].has_target);
  EXPECT_EQ(TargetsAt(keys, 0.75f)[kLeftLeg].target_ms, glm::vec3(1, 2, 3));  // held, not blended
  EXPECT_EQ(TargetsAt(keys, 0.75f)[kLeftLeg].pole_ms, glm::vec3(0, 0, 1));
  EXPECT_EQ(TargetsAt(keys, 0.75f)[arm].target_ms, glm::vec3(4, 5, 6));
  EXPECT_EQ(TargetsAt(keys, 1.f)[kLeftLeg].target_ms, glm::vec3(7, 8, 9));
  EXPECT_FALSE(TargetsAt(keys, 1.f)[kLeftLeg].pole_ms.has_value());
}

// A targets file as a game writes it: several lines a frame, times not on the trace's frames,
// limbs placed on some lines only. `lines` lines from 0 s, `per_second` a second.
std::string GameTargets(int lines, double per_second) {
  std::string text;
  const char* limbs[] = {"left_leg", "right_arm", "left_arm", "right_leg"};
  for (int i = 0; i < lines; ++i) {
    const double t = i / per_second + (i % 3) * 1e-5;
    text += "{\"time\": " + std::to_string(t) + ", \"limbs\": {\"" + limbs[(i * 7) % 4] +
            "\": {\"target\": [" + std::to_string(i) + ", " + std::to_string(i % 17) + ", 1]" +
            (i % 5 == 0 ? ", \"pole\": [0, 0, 1]" : "") + "}}}\n";
  }
  return text;
}

std::filesystem::path WriteTemp(const std::string& name, const std::string& text) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(TraceFile, TargetsReadLineByLineGiveEveryFrameWhatEveryLineGivesWithOneKeyAFrame) {
  // 1,500 lines at 250 a second, traced at 60 and 24 fps: about four and ten lines a frame.
  const std::string text = GameTargets(1500, 250.0);
  std::vector<TargetKey> all;
  std::string error;
  ASSERT_TRUE(ParseTargets(text, "t.jsonl", &all, &error)) << error;
  const std::filesystem::path path = WriteTemp("ikpose-targets-index.jsonl", text);
  for (const double fps : {60.0, 24.0}) {
    for (const std::optional<double> from : {std::optional<double>{}, std::optional<double>{1.3}}) {
      SCOPED_TRACE(fps);
      std::vector<TargetKey> read;
      ASSERT_TRUE(ReadTargetsFile(path, {fps, from, std::nullopt}, &read, &error)) << error;
      EXPECT_EQ(read.front().time, all.front().time);
      EXPECT_EQ(read.back().time, all.back().time);
      const double start = from.value_or(all.front().time);
      const int frames = static_cast<int>(std::floor((all.back().time - start) * fps + 0.01)) + 1;
      EXPECT_LE(read.size(), static_cast<std::size_t>(frames) + 2);  // and the first and last
      for (int i = 0; i < frames; ++i) {
        const float t = static_cast<float>(start + i / fps);  // as ikpose trace samples
        ASSERT_EQ(TargetsAt(read, t), TargetsAt(all, t)) << "frame " << i;
      }
    }
  }
  std::filesystem::remove(path);
}

TEST(TraceFile, TargetsRunningPastTheLongestTraceAreRefusedAtTheFirstLineThatDoes) {
  // The second line is eleven minutes in; the rest of the file is never read (it is broken).
  std::string text = GameTargets(2, 1.0 / 660.0);
  for (int i = 0; i < 1000; ++i) text += "not json\n";
  const std::filesystem::path path = WriteTemp("ikpose-targets-long.jsonl", text);
  std::vector<TargetKey> keys;
  std::string error;
  EXPECT_FALSE(ReadTargetsFile(path, {60.0, std::nullopt, std::nullopt}, &keys, &error));
  EXPECT_EQ(error.rfind(path.string() + ":2: time: ", 0), 0u) << error;
  EXPECT_NE(error.find("36000 frames"), std::string::npos) << error;
  // With --to, the lines after the end are not read either: the broken ones do not matter.
  ASSERT_TRUE(ReadTargetsFile(path, {60.0, std::nullopt, 10.0}, &keys, &error)) << error;
  EXPECT_EQ(keys.size(), 1u);
  std::filesystem::remove(path);
}

TEST(TraceFile, ATargetsLineTooLongIsRefusedWithoutReadingItWhole) {
  const std::string text = GameTargets(3, 10.0) + std::string(5u << 20, ' ') + "x\n";
  const std::filesystem::path path = WriteTemp("ikpose-targets-wide.jsonl", text);
  std::vector<TargetKey> keys;
  std::string error;
  EXPECT_FALSE(ReadTargetsFile(path, {60.0, std::nullopt, std::nullopt}, &keys, &error));
  EXPECT_EQ(error, path.string() + ":4: line longer than 65536 bytes");
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace ikpose::scene
