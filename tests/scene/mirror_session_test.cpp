// The mirror in the posing session: applied last in Evaluate, saved in scenario files, one
// undo step, overridden by the command line's request, and which limbs it takes over.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "scene/files/scenario.h"
#include "scene/road/posing_request.h"
#include "scene/session/undo_history.h"
#include "support/rigs.h"

namespace ikpose::scene {
namespace {

namespace fs = std::filesystem;
using anim::Limb;
using anim::MirrorMode;

glm::vec3 End(const PosingSession& session, Limb limb) {
  return anim::EndPositionMs(session.chain(limb), session.pose());
}

// The left foot lifted and forward; the right foot is not placed.
void LiftLeftFoot(PosingSession& session) {
  session.target(Limb::kLeftLeg).target_ms += glm::vec3(0.0f, 0.3f, 0.2f);
  session.Evaluate();
}

TEST(MirrorSession, LeftToRightIsAppliedAfterTheSolve) {
  const anim::Model model = test::TwoLegRig();
  PosingSession session(model);
  ASSERT_TRUE(session.mirror_map().symmetric());
  LiftLeftFoot(session);
  const glm::vec3 target = session.target(Limb::kLeftLeg).target_ms;
  const glm::vec3 rest_right = End(session, Limb::kRightLeg);
  session.edits.mirror = MirrorMode::kLeftToRight;
  session.Evaluate();
  EXPECT_LT(glm::length(End(session, Limb::kLeftLeg) - target), 1e-5f);
  EXPECT_LT(glm::length(End(session, Limb::kRightLeg) - session.mirror_map().plane.Reflect(target)),
            1e-5f);
  EXPECT_GT(glm::length(End(session, Limb::kRightLeg) - rest_right), 0.1f);
  EXPECT_TRUE(session.Mirrored(Limb::kRightLeg));
  EXPECT_FALSE(session.Mirrored(Limb::kLeftLeg));
  session.edits.mirror = MirrorMode::kOff;
  session.Evaluate();
  EXPECT_LT(glm::length(End(session, Limb::kRightLeg) - rest_right), 1e-6f) << "off undoes it";
}

TEST(MirrorSession, WhichLimbsEachModeTakesOver) {
  const anim::Model model = test::TwoLegRig();
  PosingSession session(model);
  for (Limb limb : {Limb::kLeftLeg, Limb::kRightLeg}) EXPECT_FALSE(session.Mirrored(limb));
  session.edits.mirror = MirrorMode::kRightToLeft;
  EXPECT_TRUE(session.Mirrored(Limb::kLeftLeg));
  EXPECT_FALSE(session.Mirrored(Limb::kRightLeg));
  session.edits.mirror = MirrorMode::kFlip;
  EXPECT_TRUE(session.Mirrored(Limb::kLeftLeg));
  EXPECT_TRUE(session.Mirrored(Limb::kRightLeg));
  EXPECT_FALSE(session.Mirrored(Limb::kLeftArm)) << "the rig has no arms";
}

TEST(MirrorSession, ScenarioSavesAndLoadsTheMirrorAndTheRequestOverridesIt) {
  const anim::Model model = test::TwoLegRig();
  PosingSession session(model);
  LiftLeftFoot(session);
  session.edits.mirror = MirrorMode::kFlip;
  session.Evaluate();
  const fs::path dir = fs::temp_directory_path() / ("ikpose-mirror-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / "flip.json").string();
  std::string error;
  ASSERT_TRUE(SaveScenario(path, CaptureScenario(session, "model.glb"), &error)) << error;
  PosingRequest request;
  request.scenario.emplace();
  ASSERT_TRUE(LoadScenario(path, &*request.scenario, &error)) << error;
  EXPECT_EQ(request.scenario->mirror, MirrorMode::kFlip);
  std::unique_ptr<PosingSession> built = BuildSession(model, request, &error);
  ASSERT_TRUE(built) << error;
  EXPECT_EQ(built->edits.mirror, MirrorMode::kFlip);
  for (std::size_t i = 0; i < session.pose().models_ms.size(); ++i) {
    EXPECT_LT(glm::length(glm::vec3(session.pose().models_ms[i][3]) -
                          glm::vec3(built->pose().models_ms[i][3])),
              1e-6f)
        << model.skeleton.names[i];
  }
  request.mirror = MirrorMode::kOff;  // the command line's --mirror off
  built = BuildSession(model, request, &error);
  ASSERT_TRUE(built) << error;
  EXPECT_EQ(built->edits.mirror, MirrorMode::kOff);
  fs::remove_all(dir);
}

TEST(MirrorSession, ScenarioWithABadMirrorSaysSoInOneLine) {
  Scenario scenario;
  std::string error;
  EXPECT_FALSE(ParseScenario(R"({"mirror": "sideways"})", "s.json", &scenario, &error));
  EXPECT_NE(error.find("s.json: mirror must be"), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos);
  EXPECT_FALSE(ParseScenario(R"({"mirror": 1})", "s.json", &scenario, &error));
}

TEST(MirrorSession, TurningTheMirrorOnIsOneUndoStep) {
  const anim::Model model = test::TwoLegRig();
  PosingSession session(model);
  LiftLeftFoot(session);
  UndoHistory history;
  history.Reset(session);
  const glm::vec3 right_before = End(session, Limb::kRightLeg);
  session.edits.mirror = MirrorMode::kLeftToRight;
  session.Evaluate();
  ASSERT_TRUE(history.Commit(session));
  EXPECT_EQ(history.undo_label(), "mirror left-to-right");
  ASSERT_TRUE(history.Undo(session));
  EXPECT_EQ(session.edits.mirror, MirrorMode::kOff);
  EXPECT_LT(glm::length(End(session, Limb::kRightLeg) - right_before), 1e-6f);
  ASSERT_TRUE(history.Redo(session));
  EXPECT_EQ(session.edits.mirror, MirrorMode::kLeftToRight);
}

}  // namespace
}  // namespace ikpose::scene
