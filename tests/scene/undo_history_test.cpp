#include "scene/session/undo_history.h"

#include <gtest/gtest.h>

#include "scene/world/solid_shapes.h"
#include "support/rigs.h"

namespace ikpose::scene {
namespace {

constexpr anim::Limb kLeg = anim::Limb::kLeftLeg;

class UndoHistoryTest : public ::testing::Test {
 protected:
  void SetUp() override { history.Reset(session); }

  glm::vec3& target() { return session.target(kLeg).target_ms; }
  glm::vec3 foot_ms() const { return anim::EndPositionMs(session.chain(kLeg), session.pose()); }
  // Moves the left foot's target by `delta` and commits it as one step.
  void MoveAndCommit(const glm::vec3& delta) {
    target() += delta;
    session.Evaluate();
    ASSERT_TRUE(history.Commit(session));
  }

  anim::Model model = test::TwoLegRig();
  PosingSession session{model};
  UndoHistory history;
};

// Undo keeps the whole of PosingEdits: the switches are steps too, named, and undone.
TEST_F(UndoHistoryTest, EverySwitchOfTheEditsIsAStepThatUndoes) {
  const PosingSnapshot start = CaptureSnapshot(session);
  session.edits.limits = false;
  ASSERT_TRUE(history.Commit(session));
  EXPECT_EQ(history.undo_label(), "limits off");
  session.edits.body_help = false;
  session.edits.floor = false;
  ASSERT_TRUE(history.Commit(session));
  EXPECT_EQ(history.undo_label(), "floor off and 1 more");
  ASSERT_TRUE(history.Undo(session));
  EXPECT_TRUE(session.edits.body_help);
  EXPECT_FALSE(session.edits.limits);
  ASSERT_TRUE(history.Undo(session));
  EXPECT_TRUE(CaptureSnapshot(session) == start);
}

TEST_F(UndoHistoryTest, AFreshHistoryHasNothingToUndoOrRedo) {
  EXPECT_FALSE(history.CanUndo());
  EXPECT_FALSE(history.CanRedo());
  EXPECT_EQ(history.undo_label(), "");
  const glm::vec3 start = target();
  EXPECT_FALSE(history.Undo(session));
  EXPECT_FALSE(history.Redo(session));
  EXPECT_EQ(target(), start);
}

TEST_F(UndoHistoryTest, UndoRestoresThePreviousTargetAndResolves) {
  const glm::vec3 start = target();
  const glm::vec3 start_foot_ms = foot_ms();
  MoveAndCommit({0.0f, 0.2f, 0.15f});
  EXPECT_GT(glm::length(foot_ms() - start_foot_ms), 0.1f);
  EXPECT_EQ(history.undo_label(), "move left_leg target");

  ASSERT_TRUE(history.Undo(session));
  EXPECT_EQ(target(), start);
  EXPECT_LT(glm::length(foot_ms() - start_foot_ms), 1e-5f) << "the IK re-solved from it";
  EXPECT_FALSE(history.CanUndo());
}

TEST_F(UndoHistoryTest, RedoReappliesTheUndoneStep) {
  MoveAndCommit({0.0f, 0.2f, 0.15f});
  const glm::vec3 moved = target();
  const glm::vec3 moved_foot_ms = foot_ms();
  ASSERT_TRUE(history.Undo(session));
  EXPECT_TRUE(history.CanRedo());
  EXPECT_EQ(history.redo_label(), "move left_leg target");

  ASSERT_TRUE(history.Redo(session));
  EXPECT_EQ(target(), moved);
  EXPECT_LT(glm::length(foot_ms() - moved_foot_ms), 1e-5f);
  EXPECT_FALSE(history.CanRedo());
  EXPECT_TRUE(history.CanUndo());
}

TEST_F(UndoHistoryTest, ANewEditAfterUndoClearsRedo) {
  MoveAndCommit({0.0f, 0.2f, 0.0f});
  MoveAndCommit({0.0f, 0.0f, 0.1f});
  ASSERT_TRUE(history.Undo(session));
  ASSERT_TRUE(history.Undo(session));
  EXPECT_EQ(history.redo_steps(), 2);

  MoveAndCommit({0.1f, 0.0f, 0.0f});
  EXPECT_FALSE(history.CanRedo());
  const glm::vec3 now = target();
  EXPECT_FALSE(history.Redo(session));
  EXPECT_EQ(target(), now);
  EXPECT_EQ(history.undo_steps(), 1);
}

TEST_F(UndoHistoryTest, TheBoundDropsTheOldestSteps) {
  UndoHistory small(3);
  small.Reset(session);
  std::vector<glm::vec3> states{target()};
  for (int i = 0; i < 5; ++i) {
    target() += glm::vec3(0.0f, 0.01f, 0.0f);
    ASSERT_TRUE(small.Commit(session));
    states.push_back(target());
  }
  EXPECT_EQ(small.undo_steps(), 3);
  while (small.Undo(session)) {
  }
  EXPECT_EQ(target(), states[2]) << "the two oldest states are gone";

  UndoHistory standard;
  standard.Reset(session);
  for (int i = 0; i < UndoHistory::kDefaultCapacity + 10; ++i) {
    target() += glm::vec3(0.0f, 0.001f, 0.0f);
    ASSERT_TRUE(standard.Commit(session));
  }
  EXPECT_EQ(standard.undo_steps(), UndoHistory::kDefaultCapacity);
}

TEST_F(UndoHistoryTest, IdenticalSnapshotsAreNotPushed) {
  EXPECT_FALSE(history.Commit(session)) << "a click without a move adds nothing";
  MoveAndCommit({0.0f, 0.1f, 0.0f});
  EXPECT_FALSE(history.Commit(session));
  EXPECT_FALSE(history.Commit(session, "targets to hands and feet"));
  EXPECT_EQ(history.undo_steps(), 1);

  // Moving away and back within one gesture is no edit either.
  const glm::vec3 dropped = target();
  target() += glm::vec3(0.3f, 0.0f, 0.0f);
  target() = dropped;
  EXPECT_FALSE(history.Commit(session));
  EXPECT_EQ(history.undo_steps(), 1);
}

TEST_F(UndoHistoryTest, UndoAfterADragRestoresTheWholeDragInOneStep) {
  const glm::vec3 start = target();
  for (int i = 1; i <= 20; ++i) {  // one drag: many moves, committed when it ends
    target() = start + glm::vec3(0.0f, 0.01f, 0.005f) * static_cast<float>(i);
    session.Evaluate();
  }
  ASSERT_TRUE(history.Commit(session));
  EXPECT_EQ(history.undo_steps(), 1);
  ASSERT_TRUE(history.Undo(session));
  EXPECT_EQ(target(), start);
  EXPECT_FALSE(history.CanUndo());
}

TEST_F(UndoHistoryTest, UndoTakesBackAnEditNotYetCommitted) {
  const glm::vec3 start = target();
  target() += glm::vec3(0.0f, 0.1f, 0.0f);
  ASSERT_TRUE(history.Undo(session));
  EXPECT_EQ(target(), start);
  EXPECT_TRUE(history.CanRedo());
}

TEST_F(UndoHistoryTest, PolesOptionsLadderAndClipAreUndoneToo) {
  LimbTarget& leg = session.target(kLeg);
  leg.options.solver.use_pole = true;
  leg.options.solver.pole_ms = {0.1f, 0.6f, 1.0f};
  ASSERT_TRUE(history.Commit(session));
  EXPECT_EQ(history.undo_label(), "left_leg pole on");
  leg.options.solver.pole_ms.y += 0.2f;
  ASSERT_TRUE(history.Commit(session));
  EXPECT_EQ(history.undo_label(), "move left_leg pole");
  leg.options.solver.soften = 0.8f;
  leg.from_rest = true;
  ASSERT_TRUE(history.Commit(session));
  EXPECT_EQ(history.undo_label(), "left_leg options");
  leg.enabled = false;
  ASSERT_TRUE(history.Commit(session));
  EXPECT_EQ(history.undo_label(), "turn off left_leg");
  session.edits.ladder_enabled = true;
  session.edits.ladder.rung_spacing = 0.25f;
  ASSERT_TRUE(history.Commit(session));
  EXPECT_EQ(history.undo_label(), "ladder");
  session.edits.playback.clip = 0;
  ASSERT_TRUE(history.Commit(session));
  EXPECT_EQ(history.undo_label(), "choose clip");
  session.edits.playback.time = 0.5f;
  ASSERT_TRUE(history.Commit(session));
  EXPECT_EQ(history.undo_label(), "set clip time");

  while (history.Undo(session)) {
  }
  const LimbTarget& back = session.target(kLeg);
  EXPECT_TRUE(back.enabled);
  EXPECT_FALSE(back.options.solver.use_pole);
  EXPECT_FLOAT_EQ(back.options.solver.soften, 1.0f);
  EXPECT_FALSE(back.from_rest);
  EXPECT_FALSE(session.edits.ladder_enabled);
  EXPECT_FLOAT_EQ(session.edits.ladder.rung_spacing, Ladder{}.rung_spacing);
  EXPECT_EQ(session.edits.playback.clip, -1);
  EXPECT_EQ(session.edits.playback.time, 0.0f);
}

TEST_F(UndoHistoryTest, ButtonsNameTheirStepAndLadderSnapIsOneStep) {
  session.edits.ladder_enabled = true;
  session.edits.ladder.base_ms = {0.0f, 0.0f, 0.3f};
  session.SnapToRungs();
  ASSERT_TRUE(history.Commit(session, "snap to rungs"));
  EXPECT_EQ(history.undo_label(), "snap to rungs");
  const int rung = session.target(kLeg).rung;
  ASSERT_GE(rung, 0);
  ASSERT_TRUE(session.StepRungs(+1));
  ASSERT_TRUE(history.Commit(session, "step up"));
  EXPECT_EQ(session.target(kLeg).rung, rung + 1);

  ASSERT_TRUE(history.Undo(session));
  EXPECT_EQ(session.target(kLeg).rung, rung) << "rungs come back with their targets";
  ASSERT_TRUE(history.Undo(session));
  EXPECT_EQ(session.target(kLeg).rung, -1);
  EXPECT_FALSE(session.edits.ladder_enabled);
}

TEST_F(UndoHistoryTest, PlaybackAdvancingTheClipTimeIsNotAnEdit) {
  session.edits.playback.clip = 0;
  ASSERT_TRUE(history.Commit(session));
  session.edits.playback.playing = true;
  EXPECT_FALSE(history.Commit(session)) << "play is not an edit";
  session.Advance(0.3f);
  history.FollowPlayback(session);
  session.edits.playback.playing = false;  // pausing after the advance
  EXPECT_FALSE(history.Commit(session));
  EXPECT_EQ(history.undo_steps(), 1);

  // A drag while the clip plays is an edit, recorded with the time it ended at.
  session.edits.playback.playing = true;
  session.Advance(0.2f);
  target() += glm::vec3(0.0f, 0.1f, 0.0f);
  ASSERT_TRUE(history.Commit(session));
  EXPECT_EQ(history.undo_label(), "move left_leg target");
  EXPECT_TRUE(session.edits.playback.playing);
}

TEST_F(UndoHistoryTest, SeveralTargetsMovedAtOnceAreOneNamedStep) {
  for (anim::Limb limb : {anim::Limb::kLeftLeg, anim::Limb::kRightLeg}) {
    session.target(limb).target_ms.y += 0.1f;
  }
  ASSERT_TRUE(history.Commit(session));
  EXPECT_EQ(history.undo_label(), "move 2 targets");
  session.target(kLeg).target_ms.y += 0.1f;
  session.target(kLeg).options.solver.weight = 0.5f;
  ASSERT_TRUE(history.Commit(session));
  EXPECT_EQ(history.undo_label(), "move left_leg target and 1 more");
}

// A streaming game (the live link) moves the right foot every frame, far more frames than the
// history holds: none is a step, the user's own edit before and after stays undoable, and undo
// takes back exactly the user's edit, not the game's frames.
TEST_F(UndoHistoryTest, LiveFramesAreNotStepsAndNeverPushTheUsersStepsOut) {
  constexpr anim::Limb kGameLeg = anim::Limb::kRightLeg;
  const glm::vec3 start = target();
  MoveAndCommit({0.0f, 0.2f, 0.15f});  // the user's edit
  const glm::vec3 edited = target();
  const glm::vec3 game_start = session.target(kGameLeg).target_ms;
  for (int frame = 0; frame < 2 * UndoHistory::kDefaultCapacity; ++frame) {
    LimbTarget& t = session.target(kGameLeg);
    t.target_ms = game_start + glm::vec3(0.0f, 0.001f * static_cast<float>(frame % 100), 0.0f);
    t.given = true;
    history.FollowLive(session, {false, false, false, true}, false, false, false);
    // The viewer commits whatever changed once a frame.
    EXPECT_FALSE(history.Commit(session)) << frame;
  }
  EXPECT_EQ(history.undo_steps(), 1);
  EXPECT_EQ(history.undo_label(), "move left_leg target");
  // The user edits again while the game streams: one step.
  MoveAndCommit({0.0f, 0.0f, 0.05f});
  EXPECT_EQ(history.undo_steps(), 2);
  ASSERT_TRUE(history.Undo(session));
  EXPECT_EQ(target(), edited);
  ASSERT_TRUE(history.Undo(session));
  EXPECT_EQ(target(), start);
  EXPECT_FALSE(history.CanUndo());
}

// Props are part of the edit: adding, moving, turning and removing one are steps that undo and
// redo, each named as what the user did.
TEST_F(UndoHistoryTest, AddingAndMovingAPropAreStepsThatUndo) {
  const auto world_with_box_at = [](const glm::vec3& at_ms, float yaw_deg = 0.0f) {
    std::vector<glm::vec3> v, n;
    std::vector<std::uint32_t> i;
    AppendBox({-0.1f, 0.0f, -0.1f}, {0.1f, 0.2f, 0.1f}, &v, &n, &i);
    Prop box;
    box.path = box.placement.file = "box";
    box.placement.position_ms = at_ms;
    box.placement.yaw_deg = yaw_deg;
    box.model = std::make_shared<anim::Model>(
        StaticModel("box", std::move(v), std::move(n), std::move(i), glm::vec4(1.0f)));
    std::string error;
    std::shared_ptr<const World> world = World::Build({box}, &error);
    EXPECT_TRUE(world) << error;
    return world;
  };
  session.edits.world = world_with_box_at({0.3f, 0.0f, 0.3f});
  session.Evaluate();
  ASSERT_TRUE(history.Commit(session));
  EXPECT_EQ(history.undo_label(), "add prop");  // the ground is on by default
  const std::shared_ptr<const World> added = session.edits.world;
  session.edits.world = world_with_box_at({0.5f, 0.0f, 0.3f});
  session.Evaluate();
  ASSERT_TRUE(history.Commit(session));
  EXPECT_EQ(history.undo_label(), "move prop");
  const std::shared_ptr<const World> moved = session.edits.world;
  session.edits.world = world_with_box_at({0.5f, 0.0f, 0.3f}, 90.0f);  // the turn ring
  session.Evaluate();
  ASSERT_TRUE(history.Commit(session));
  EXPECT_EQ(history.undo_label(), "turn prop");
  ASSERT_TRUE(history.Undo(session));
  EXPECT_EQ(session.edits.world, moved);

  ASSERT_TRUE(history.Undo(session));
  EXPECT_EQ(session.edits.world, added);
  ASSERT_TRUE(history.Undo(session));
  EXPECT_EQ(session.edits.world, nullptr);
  ASSERT_TRUE(history.Redo(session));
  EXPECT_EQ(session.edits.world, added);
  // Turning the ground off is a step of its own.
  session.edits.ground = false;
  session.Evaluate();
  ASSERT_TRUE(history.Commit(session));
  EXPECT_EQ(history.undo_label(), "ground off");
  ASSERT_TRUE(history.Undo(session));
  EXPECT_TRUE(session.edits.ground);
}

}  // namespace
}  // namespace ikpose::scene
