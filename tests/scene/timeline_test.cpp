// The viewer's live recording: nothing kept while nothing changes, frames put back exactly, and
// a live frame under another policy posed as the one road poses it.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "anim/skeleton.h"
#include "scene/road/posing_request.h"
#include "scene/trace/timeline.h"
#include "scene/trace/trace_replay.h"
#include "support/rigs.h"

namespace ikpose::scene {
namespace {

constexpr int kLeftLeg = static_cast<int>(anim::Limb::kLeftLeg);

float LegLength(const anim::Model& model) {
  return LimbLengths(model.chains)[kLeftLeg];
}

// The left foot's target dragged forward and sideways across `frames` frames, one per frame.
glm::vec3 DragPoint(const PosingSession& session, int i) {
  const glm::vec3 foot = session.resting_target(anim::Limb::kLeftLeg);
  const float s = 0.02f * static_cast<float>(i);
  return foot + glm::vec3(0.3f * s, 0.5f * s, 0.8f * s);
}

TEST(Timeline, AnUntouchedSessionRecordsNothing) {
  const anim::Model model = test::TwoLegRig();
  PosingSession session(model);
  Timeline timeline(64);
  for (int i = 0; i < 100; ++i) {
    session.Evaluate();
    EXPECT_FALSE(RecordLive(session, 1.f / 60.f, timeline));
  }
  EXPECT_TRUE(timeline.recorder.empty());
}

TEST(Timeline, ADragIsRecordedOnceAFrameAndAStillFrameIsNotRepeated) {
  const anim::Model model = test::TwoLegRig();
  PosingSession session(model);
  Timeline timeline(64);
  session.Evaluate();
  RecordLive(session, 1.f / 60.f, timeline);  // the baseline
  for (int i = 1; i <= 10; ++i) {
    session.target(anim::Limb::kLeftLeg).target_ms = DragPoint(session, i);
    session.Evaluate();
    EXPECT_TRUE(RecordLive(session, 1.f / 60.f, timeline)) << i;
  }
  for (int i = 0; i < 20; ++i) {  // the drag holds still
    session.Evaluate();
    RecordLive(session, 1.f / 60.f, timeline);
  }
  ASSERT_EQ(timeline.recorder.size(), 11u);  // the baseline and ten moves
  EXPECT_FALSE(timeline.recorder[0].inputs[kLeftLeg].has_target);
  EXPECT_TRUE(timeline.recorder[10].inputs[kLeftLeg].has_target);
  EXPECT_EQ(timeline.recorder[10].frame, 10);
  EXPECT_NEAR(timeline.recorder[10].time, 10.f / 60.f, 1e-5f);
  EXPECT_EQ(timeline.shown, 10);
}

TEST(Timeline, RestoringAFrameGivesItsRecordedPoseAndKeepsTheRecording) {
  const anim::Model model = test::TwoLegRig();
  PosingSession session(model);
  Timeline timeline(64);
  session.Evaluate();
  RecordLive(session, 1.f / 60.f, timeline);
  LimbTarget& leg = session.target(anim::Limb::kLeftLeg);
  for (int i = 1; i <= 20; ++i) {
    leg.target_ms = DragPoint(session, i);
    if (i == 12) leg.options.policy = anim::KneePolicy::kSeed;  // a policy change mid-drag
    session.Evaluate();
    RecordLive(session, 1.f / 60.f, timeline);
  }
  ASSERT_EQ(timeline.recorder.size(), 21u);
  const float tolerance = 1e-5f * LegLength(model);
  for (int i : {0, 7, 15}) {
    const TraceFrame& recorded = timeline.recorder[static_cast<std::size_t>(i)];
    RestoreInput(recorded, session);
    session.Evaluate();
    const TraceFrame now = RecordFrame(session, recorded.frame, recorded.time, LiveInputs(session));
    EXPECT_EQ(now.limbs[kLeftLeg].solved, recorded.limbs[kLeftLeg].solved) << i;
    EXPECT_LE(glm::length(now.limbs[kLeftLeg].knee_ms - recorded.limbs[kLeftLeg].knee_ms),
              tolerance)
        << "frame " << i;
    // The pose drawn, not only the solver's report.
    const glm::vec3 knee_drawn =
        anim::PositionMs(session.pose(), session.chain(anim::Limb::kLeftLeg).lower);
    if (recorded.limbs[kLeftLeg].solved) {
      EXPECT_LE(glm::length(knee_drawn - recorded.limbs[kLeftLeg].knee_ms), tolerance) << i;
    } else {  // frame 0: the target not placed yet, the leg as its input pose has it
      EXPECT_FALSE(session.target(anim::Limb::kLeftLeg).given);
      EXPECT_LE(
          glm::length(knee_drawn - anim::PositionMs(session.base_pose(),
                                                    session.chain(anim::Limb::kLeftLeg).lower)),
          tolerance);
    }
  }
  EXPECT_EQ(timeline.recorder.size(), 21u);
}

TEST(Timeline, ALiveFrameUnderAPolicyIsWhatTheOneRoadGives) {
  const anim::Model model = test::TwoLegRig();
  PosingSession session(model);
  session.target(anim::Limb::kLeftLeg).target_ms = DragPoint(session, 15);
  session.Evaluate();
  const TraceFrame frame = RecordFrame(session, 0, 0.f, LiveInputs(session));
  for (anim::KneePolicy policy : {anim::KneePolicy::kSeed, anim::KneePolicy::kNatural}) {
    const TraceFrame live = SolveLive(session, frame, policy);
    TraceFrame road;
    std::string error;
    ASSERT_TRUE(SolveFrame(model, PosingRequest{}, frame, policy, &road, &error)) << error;
    EXPECT_LE(glm::length(live.limbs[kLeftLeg].knee_ms - road.limbs[kLeftLeg].knee_ms),
              1e-5f * LegLength(model))
        << anim::PolicyName(policy);
  }
}

}  // namespace
}  // namespace ikpose::scene

namespace ikpose::scene {
namespace {

// A game that moves only its ladder changes the situation: the move is recorded, and scrubbing
// back puts the ladder where it stood then (and off where it was off).
TEST(Timeline, AMovedLadderIsRecordedAndPutBackWhereItStood) {
  const anim::Model model = test::TwoLegRig();
  PosingSession session(model);
  Timeline timeline(64);
  session.Evaluate();
  RecordLive(session, 1.f / 60.f, timeline);  // the baseline: no ladder
  session.edits.ladder_enabled = true;
  session.edits.ladder.base_ms = {0.f, 0.f, 0.4f};
  session.edits.ladder.rung_spacing = 0.28f;
  session.Evaluate();
  EXPECT_TRUE(RecordLive(session, 1.f / 60.f, timeline));
  session.edits.ladder.base_ms.z = 0.6f;
  session.Evaluate();
  EXPECT_TRUE(RecordLive(session, 1.f / 60.f, timeline));
  ASSERT_EQ(timeline.recorder.size(), 3u);
  EXPECT_FALSE(timeline.recorder[0].ladder);
  ASSERT_TRUE(timeline.recorder[1].ladder);
  EXPECT_EQ(timeline.recorder[1].ladder->rung_spacing, 0.28f);

  RestoreInput(timeline.recorder[1], session);
  EXPECT_TRUE(session.edits.ladder_enabled);
  EXPECT_EQ(session.edits.ladder.base_ms.z, 0.4f);
  EXPECT_EQ(session.edits.ladder.rung_spacing, 0.28f);
  RestoreInput(timeline.recorder[0], session);
  EXPECT_FALSE(session.edits.ladder_enabled);
}

// Scrubbing puts back what a frame records and nothing else: the body the user moved, the
// bones turned and the mirror chosen since stay as they are.
TEST(Timeline, RestoringAFrameKeepsTheEditsItDoesNotRecord) {
  const anim::Model model = test::TwoLegRig();
  PosingSession session(model);
  Timeline timeline(64);
  session.Evaluate();
  RecordLive(session, 1.f / 60.f, timeline);
  session.target(anim::Limb::kLeftLeg).target_ms = DragPoint(session, 5);
  session.Evaluate();
  ASSERT_TRUE(RecordLive(session, 1.f / 60.f, timeline));
  const glm::vec3 recorded_ms = session.target(anim::Limb::kLeftLeg).target_ms;

  session.target(anim::Limb::kLeftLeg).target_ms = DragPoint(session, 9);
  session.edits.body.offset_ms = {0.f, -0.05f, 0.02f};
  session.edits.bone_turns_ls[0] = glm::angleAxis(0.3f, glm::vec3(0.f, 1.f, 0.f));
  session.edits.mirror = anim::MirrorMode::kLeftToRight;
  const PosingEdits before = session.edits;
  RestoreInput(timeline.recorder[1], session);

  EXPECT_EQ(session.target(anim::Limb::kLeftLeg).target_ms, recorded_ms);
  EXPECT_TRUE(session.target(anim::Limb::kLeftLeg).given);
  EXPECT_EQ(session.edits.body, before.body);
  EXPECT_EQ(session.edits.bone_turns_ls, before.bone_turns_ls);
  EXPECT_EQ(session.edits.mirror, before.mirror);
  EXPECT_EQ(session.edits.limits, before.limits);
  // The same value the restore assigns, worked out without touching the session.
  EXPECT_EQ(RestoredEdits(timeline.recorder[1], session), session.edits);
}

}  // namespace
}  // namespace ikpose::scene
