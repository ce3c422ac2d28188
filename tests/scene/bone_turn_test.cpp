// Turning bones directly (the FK layer under the rings, the pose library and the hand presets):
// exactly the turned bone and its children move, by the asked rotation; a limb's bone turned
// lets the limb's target go so IK does not undo the turn, without the rest of the limb jumping;
// the turns ride on a playing clip, are one undo step and survive a scenario file.
#include <gtest/gtest.h>

#include <filesystem>

#include <glm/gtc/quaternion.hpp>

#include "anim/test_rigs.h"
#include "scene/files/scenario.h"
#include "scene/road/posing_request.h"
#include "scene/session/undo_history.h"

namespace ikpose::scene {
namespace {

using anim::Limb;

int Bone(const anim::Model& model, const char* name) {
  const int bone = model.skeleton.Find(name);
  EXPECT_GE(bone, 0) << name;
  return bone;
}

glm::vec3 Position(const PosingSession& s, int bone) {
  return anim::PositionMs(s.pose(), bone);
}

TEST(BoneTurn, MovesExactlyTheBoneAndItsChildrenByTheAskedAngle) {
  const anim::Model model = anim::test::MakeHumanoidModel();
  PosingSession session(model);
  const anim::Pose before = session.pose();
  const int neck = Bone(model, "spine_02");  // the chest: neck and arms below it
  const int hand = Bone(model, "hand_l");
  const auto n = static_cast<std::size_t>(neck);
  const glm::quat turn = glm::angleAxis(glm::radians(30.0f), glm::vec3(0, 0, 1));
  ASSERT_TRUE(session.SetBoneRotation(neck, before.locals_ls[n].rotation * turn));
  session.Evaluate();  // an edit is solved by the next Evaluate
  for (int b = 0; b < model.skeleton.size(); ++b) {
    const auto i = static_cast<std::size_t>(b);
    const bool below = model.skeleton.IsAncestorOrSelf(neck, b);
    const glm::mat3 delta =
        glm::mat3(session.pose().models_ms[i]) * glm::inverse(glm::mat3(before.models_ms[i]));
    const float angle = glm::degrees(glm::angle(glm::quat_cast(delta)));
    if (below) {
      EXPECT_NEAR(angle, 30.0f, 1e-3f) << model.skeleton.names[i] << " turned with the neck";
    } else {
      EXPECT_LT(angle, 1e-3f) << model.skeleton.names[i] << " stays";
      EXPECT_LT(glm::length(Position(session, b) - anim::PositionMs(before, b)), 1e-6f);
    }
  }
  EXPECT_TRUE(session.HasBoneTurns());
  session.ResetBoneTurns();
  session.Evaluate();  // an edit is solved by the next Evaluate
  EXPECT_FALSE(session.HasBoneTurns());
  EXPECT_LT(glm::length(Position(session, hand) - anim::PositionMs(before, hand)), 1e-6f);
}

TEST(BoneTurn, ALimbBoneTurnedLetsTheTargetGoWithoutTheLimbJumping) {
  const anim::Model model = anim::test::MakeHumanoidModel();
  PosingSession session(model);
  const anim::LimbChain& arm = session.chain(Limb::kLeftArm);
  session.target(Limb::kLeftArm).target_ms += glm::vec3(0.0f, 0.15f, 0.2f);
  session.Evaluate();
  ASSERT_TRUE(session.result(Limb::kLeftArm).ok);
  const anim::Pose solved = session.pose();
  const auto upper = static_cast<std::size_t>(arm.upper);
  const glm::quat turn = glm::angleAxis(glm::radians(20.0f), glm::vec3(0, 0, 1));
  ASSERT_TRUE(session.SetBoneRotation(arm.upper, solved.locals_ls[upper].rotation * turn));
  session.Evaluate();  // an edit is solved by the next Evaluate
  EXPECT_FALSE(session.target(Limb::kLeftArm).given) << "the target let go";
  EXPECT_FALSE(session.result(Limb::kLeftArm).ok) << "the arm is not solved any more";
  // The elbow and the wrist kept what IK gave them: the forearm turned with the upper arm only.
  for (int b : {arm.lower, arm.end}) {
    const auto i = static_cast<std::size_t>(b);
    EXPECT_GT(
        std::abs(glm::dot(session.pose().locals_ls[i].rotation, solved.locals_ls[i].rotation)),
        1.0f - 1e-6f)
        << model.skeleton.names[i];
  }
  const glm::vec3 shoulder = anim::PositionMs(solved, arm.upper);
  const glm::vec3 hand_before = anim::PositionMs(solved, arm.end) - shoulder;
  const glm::vec3 hand_after = Position(session, arm.end) - shoulder;
  // The upper arm turned by `turn` in its own frame, and the hand with it.
  const glm::mat3 swing =
      glm::mat3(session.pose().models_ms[upper]) * glm::inverse(glm::mat3(solved.models_ms[upper]));
  EXPECT_LT(glm::length(hand_after - swing * hand_before), 1e-5f);
  EXPECT_GT(glm::length(hand_after - hand_before), 0.05f) << "and the hand did move";
  EXPECT_NEAR(glm::degrees(glm::angle(glm::quat_cast(swing))), 20.0f, 1e-3f);
  EXPECT_LT(glm::length(session.target(Limb::kLeftArm).target_ms - Position(session, arm.end)),
            1e-6f)
      << "the target follows the hand";
}

TEST(BoneTurn, TurnsAreOneUndoStepAndSurviveAScenarioFile) {
  const anim::Model model = anim::test::MakeHumanoidModel();
  PosingSession session(model);
  UndoHistory history;
  history.Reset(session);
  const int neck = Bone(model, "spine_02");  // the chest: neck and arms below it
  const int hand = Bone(model, "hand_l");
  const glm::quat turned = session.pose().locals_ls[static_cast<std::size_t>(neck)].rotation *
                           glm::angleAxis(glm::radians(-25.0f), glm::normalize(glm::vec3(0, 1, 1)));
  ASSERT_TRUE(session.SetBoneRotation(neck, turned));
  session.Evaluate();  // an edit is solved by the next Evaluate
  EXPECT_TRUE(history.Commit(session));
  EXPECT_EQ(history.undo_label(), "turn bone");
  const glm::vec3 head = Position(session, hand);

  const auto path = std::filesystem::temp_directory_path() / "ikpose_bone_turns.json";
  std::string error;
  ASSERT_TRUE(SaveScenario(path.string(), CaptureScenario(session, "x.glb"), &error)) << error;
  ASSERT_TRUE(history.Undo(session));
  EXPECT_FALSE(session.HasBoneTurns());

  PosingRequest request;
  request.scenario.emplace();
  ASSERT_TRUE(LoadScenario(path.string(), &*request.scenario, &error)) << error;
  std::filesystem::remove(path);
  const auto loaded = BuildSession(model, request, &error);
  ASSERT_TRUE(loaded) << error;
  EXPECT_LT(glm::length(Position(*loaded, hand) - head), 1e-5f);

  request.scenario->bone_turns = {{"no_such_bone", glm::quat(1, 0, 0, 0)}};
  EXPECT_FALSE(BuildSession(model, request, &error));
  EXPECT_NE(error.find("no_such_bone"), std::string::npos) << error;
}

TEST(BoneTurn, ANonUnitOrNonFiniteTurnIsRefused) {
  const anim::Model model = anim::test::MakeHumanoidModel();
  PosingSession session(model);
  EXPECT_FALSE(session.SetBoneRotation(0, glm::quat(0, 0, 0, 0)));
  EXPECT_FALSE(session.SetBoneRotation(0, glm::quat(NAN, 0, 0, 0)));
  EXPECT_FALSE(session.SetBoneRotation(-1, glm::quat(1, 0, 0, 0)));
  EXPECT_FALSE(session.SetBoneRotation(model.skeleton.size(), glm::quat(1, 0, 0, 0)));
  EXPECT_FALSE(session.HasBoneTurns());
  Scenario scenario;
  std::string error;
  EXPECT_FALSE(
      ParseScenario(R"({"bone_turns": {"spine_02": [0, 0, 0, 0]}})", "s.json", &scenario, &error));
  EXPECT_NE(error.find("bone_turns.spine_02"), std::string::npos) << error;
}

}  // namespace
}  // namespace ikpose::scene
