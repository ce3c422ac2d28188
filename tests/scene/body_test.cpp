// The body follows: moving the pelvis keeps pinned feet where they are (the legs re-solve, the
// soles stay flat), carries unpinned hands along, is one undo step, survives a scenario file,
// and climbs with the ladder's steps.
#include <gtest/gtest.h>

#include <filesystem>

#include "anim/test_rigs.h"
#include "scene/files/scenario.h"
#include "scene/road/posing_request.h"
#include "scene/session/undo_history.h"

namespace ikpose::scene {
namespace {

using anim::Limb;

glm::vec3 End(const PosingSession& s, Limb limb) {
  return anim::EndPositionMs(s.chain(limb), s.pose());
}

TEST(Body, PelvisIsTheCommonParentOfTheLegs) {
  const anim::Model model = anim::test::MakeHumanoidModel();
  const PosingSession session(model);
  ASSERT_GE(session.body_bone(), 0);
  EXPECT_EQ(model.skeleton.names[static_cast<std::size_t>(session.body_bone())], "pelvis");
}

TEST(Body, ACrouchKeepsPinnedFeetAndCarriesTheHands) {
  const anim::Model model = anim::test::MakeHumanoidModel();
  PosingSession session(model);
  const glm::vec3 foot = End(session, Limb::kLeftLeg);
  const glm::vec3 hand = End(session, Limb::kLeftArm);
  const glm::quat sole = glm::quat_cast(glm::mat3(
      session.pose().models_ms[static_cast<std::size_t>(session.chain(Limb::kLeftLeg).end)]));
  ASSERT_TRUE(session.target(Limb::kLeftLeg).pinned) << "feet are pinned by default";
  ASSERT_FALSE(session.target(Limb::kLeftArm).pinned) << "hands are not";
  const glm::vec3 down(0.0f, -0.15f, 0.0f);
  session.MoveBody(down);
  session.Evaluate();  // an edit is solved by the next Evaluate
  EXPECT_LT(glm::length(End(session, Limb::kLeftLeg) - foot), 1e-5f) << "the foot held";
  EXPECT_LT(glm::length(End(session, Limb::kRightLeg) - End(session, Limb::kRightLeg)), 1e-6f);
  EXPECT_LT(glm::length(End(session, Limb::kLeftArm) - (hand + down)), 1e-5f)
      << "the hand went down with the body";
  const glm::quat sole_after = glm::quat_cast(glm::mat3(
      session.pose().models_ms[static_cast<std::size_t>(session.chain(Limb::kLeftLeg).end)]));
  EXPECT_GT(std::abs(glm::dot(sole, sole_after)), 1.0f - 1e-6f) << "the sole stays flat";
  const float pelvis_drop =
      session.BodyPositionMs().y - anim::PositionMs(session.rest_pose(), session.body_bone()).y;
  EXPECT_NEAR(pelvis_drop, -0.15f, 1e-5f);
}

TEST(Body, UnpinnedPlacedTargetsMoveAndPinnedPlacedTargetsStay) {
  const anim::Model model = anim::test::MakeHumanoidModel();
  PosingSession session(model);
  session.target(Limb::kLeftArm).target_ms += glm::vec3(0.0f, 0.1f, 0.2f);
  session.Evaluate();
  const glm::vec3 arm = session.target(Limb::kLeftArm).target_ms;
  session.target(Limb::kRightArm).pinned = true;
  session.target(Limb::kRightArm).target_ms += glm::vec3(0.0f, 0.05f, 0.1f);
  session.Evaluate();
  const glm::vec3 pinned_arm = session.target(Limb::kRightArm).target_ms;
  session.MoveBody({0.0f, 0.0f, 0.1f});
  EXPECT_LT(glm::length(session.target(Limb::kLeftArm).target_ms - (arm + glm::vec3(0, 0, 0.1f))),
            1e-6f);
  EXPECT_EQ(session.target(Limb::kRightArm).target_ms, pinned_arm);
  const anim::ChainSolveResult& held = session.result(Limb::kRightArm);
  ASSERT_TRUE(held.ok);
  EXPECT_EQ(held.target_ms, pinned_arm) << "the arm solved toward the held target";
  if (held.output.reach == ik::Reach::kReachable) {
    EXPECT_LT(glm::length(End(session, Limb::kRightArm) - pinned_arm), 1e-4f);
  }
}

TEST(Body, AMoveIsOneUndoStepNamedMoveBody) {
  const anim::Model model = anim::test::MakeHumanoidModel();
  PosingSession session(model);
  UndoHistory history;
  history.Reset(session);
  const glm::vec3 foot = End(session, Limb::kLeftLeg);
  const glm::vec3 pelvis = session.BodyPositionMs();
  session.MoveBody({0.0f, -0.1f, 0.0f});
  ASSERT_TRUE(history.Commit(session));
  EXPECT_EQ(history.undo_label(), "move body");
  ASSERT_TRUE(history.Undo(session));
  EXPECT_LT(glm::length(session.BodyPositionMs() - pelvis), 1e-6f);
  EXPECT_LT(glm::length(End(session, Limb::kLeftLeg) - foot), 1e-6f);
}

TEST(Body, ScenarioFilesKeepTheBodyAndThePins) {
  const anim::Model model = anim::test::MakeHumanoidModel();
  PosingSession session(model);
  session.target(Limb::kLeftArm).pinned = true;
  session.target(Limb::kRightLeg).pinned = false;
  session.MoveBody({0.02f, -0.12f, 0.03f}, glm::angleAxis(0.2f, glm::vec3(0, 1, 0)));
  session.Evaluate();  // an edit is solved by the next Evaluate
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("ikpose-body-" + std::to_string(::getpid()) + ".json"))
                               .string();
  std::string error;
  ASSERT_TRUE(SaveScenario(path, CaptureScenario(session, "model.glb"), &error)) << error;
  PosingRequest request;
  request.scenario.emplace();
  ASSERT_TRUE(LoadScenario(path, &*request.scenario, &error)) << error;
  std::filesystem::remove(path);
  const std::unique_ptr<PosingSession> replay = BuildSession(model, request, &error);
  ASSERT_TRUE(replay) << error;
  EXPECT_TRUE(replay->target(Limb::kLeftArm).pinned);
  EXPECT_FALSE(replay->target(Limb::kRightLeg).pinned);
  for (std::size_t i = 0; i < session.pose().models_ms.size(); ++i) {
    EXPECT_LT(glm::length(glm::vec3(session.pose().models_ms[i][3]) -
                          glm::vec3(replay->pose().models_ms[i][3])),
              1e-5f)
        << model.skeleton.names[i];
  }
}

TEST(Body, StepUpMovesTheBodyOneRungUp) {
  const anim::Model model = anim::test::MakeHumanoidModel();
  PosingSession session(model);
  // The fit (or step) itself; with the body help on, four contacts then refine the pelvis
  // (scene/session/body_solve.h, tested in body_help_test.cpp).
  session.edits.body_help = false;
  session.edits.ladder = LadderFor(1.8f, {0, 0, 0}, {0, 0, 1});
  session.edits.ladder_enabled = true;
  session.SnapToRungs();
  session.Evaluate();
  const glm::vec3 pelvis = session.BodyPositionMs();
  ASSERT_TRUE(session.StepRungs(+1));
  session.Evaluate();
  EXPECT_NEAR(session.BodyPositionMs().y - pelvis.y, session.edits.ladder.rung_spacing, 1e-5f);
  EXPECT_NEAR(session.BodyPositionMs().z, pelvis.z, 1e-6f);
}

TEST(Body, FitToTheLadderPutsThePelvisBehindTheRungsAboveTheFeet) {
  const anim::Model model = anim::test::MakeHumanoidModel();
  PosingSession session(model);
  // The fit (or step) itself; with the body help on, four contacts then refine the pelvis
  // (scene/session/body_solve.h, tested in body_help_test.cpp).
  session.edits.body_help = false;
  session.edits.ladder = LadderFor(1.8f, {0, 0, 0}, {0, 0, 1});
  session.edits.ladder_enabled = true;
  session.SnapToRungs();
  session.FitBodyToLadder();
  const glm::vec3 pelvis = session.BodyPositionMs();
  const float leg =
      session.chain(Limb::kLeftLeg).upper_length + session.chain(Limb::kLeftLeg).lower_length;
  EXPECT_NEAR(pelvis.z, session.edits.ladder.base_ms.z - 0.3f * leg, 1e-4f) << "0.3 of a leg";
  const float feet = 0.5f * (session.target(Limb::kLeftLeg).target_ms.y +
                             session.target(Limb::kRightLeg).target_ms.y);
  EXPECT_GT(pelvis.y - feet, 0.6f * leg) << "above the feet";
  EXPECT_LT(pelvis.y - feet, leg) << "knees bent";
  for (Limb limb : anim::kLimbs) EXPECT_TRUE(session.result(limb).ok) << anim::LimbName(limb);
}

}  // namespace
}  // namespace ikpose::scene
