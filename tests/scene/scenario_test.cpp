#include "scene/files/scenario.h"

#include "scene/road/posing_request.h"

#include <gtest/gtest.h>

#include "support/files.h"
#include "support/rigs.h"

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <glm/gtc/quaternion.hpp>

namespace ikpose::scene {
namespace {

namespace fs = std::filesystem;

std::string TempFile(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("ikpose-scenario-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return (dir / name).string();
}

void Write(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

TEST(Scenario, SavedSessionReplaysToTheSamePose) {
  const anim::Model model = test::TwoLegRig();
  PosingSession session(model);
  LimbTarget& left = session.target(anim::Limb::kLeftLeg);
  ASSERT_TRUE(left.available);
  left.target_ms += glm::vec3(0.0f, 0.25f, 0.2f);
  left.given = true;
  left.options.solver.use_pole = true;
  left.options.solver.pole_ms = {0.1f, 0.6f, 1.0f};
  left.options.solver.soften = 0.9f;
  session.edits.ladder_enabled = true;
  session.Evaluate();
  // A folder of its own, so that any temporary file left beside the scenario shows.
  const fs::path dir = fs::path(TempFile("replay"));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = (dir / "replay.json").string();
  std::string error;
  ASSERT_TRUE(SaveScenario(path, CaptureScenario(session, "model.glb"), &error)) << error;
  EXPECT_EQ(test::Listing(dir), std::vector<std::string>{"replay.json"});

  Scenario loaded;
  ASSERT_TRUE(LoadScenario(path, &loaded, &error)) << error;
  EXPECT_EQ(loaded.ModelPath(), (fs::path(path).parent_path() / "model.glb").string());
  PosingRequest request;
  request.scenario = loaded;
  const std::unique_ptr<PosingSession> built = BuildSession(model, request, &error);
  ASSERT_TRUE(built) << error;
  const PosingSession& replay = *built;
  for (std::size_t i = 0; i < session.pose().models_ms.size(); ++i) {
    const glm::vec3 a(session.pose().models_ms[i][3]);
    const glm::vec3 b(replay.pose().models_ms[i][3]);
    EXPECT_LT(glm::length(a - b), 1e-6f) << model.skeleton.names[i];
  }
  EXPECT_TRUE(replay.edits.ladder_enabled);
  EXPECT_TRUE(replay.target(anim::Limb::kLeftLeg).options.solver.use_pole);
}

// Every edit the scenario names survives its file: the edits read back are the edits written
// (props, floor and ground contact are BuildSession's, left at their defaults here).
TEST(Scenario, EveryEditRoundTripsThroughAFile) {
  const anim::Model model = test::TwoLegRig();
  PosingSession session(model);
  PosingEdits& edits = session.edits;
  LimbTarget& left = edits.target(anim::Limb::kLeftLeg);
  ASSERT_TRUE(left.available);
  left.target_ms += glm::vec3(0.0f, 0.25f, 0.2f);
  left.given = true;
  left.enabled = false;
  left.from_rest = true;
  left.pinned = false;
  left.grip = false;
  left.pull_body = 0.25f;
  left.options.policy = anim::KneePolicy::kPole;  // a pole is the pole policy's
  left.options.solver.use_pole = true;
  left.options.solver.pole_ms = {0.1f, 0.6f, 1.0f};
  left.options.solver.soften = 0.9f;
  edits.body.offset_ms = {0.01f, -0.1f, 0.02f};
  edits.body.turn_ms = glm::angleAxis(0.25f, glm::vec3(0.0f, 1.0f, 0.0f));
  edits.bone_turns_ls.at(1) = glm::angleAxis(0.5f, glm::vec3(1.0f, 0.0f, 0.0f));
  edits.mirror = anim::MirrorMode::kFlip;
  edits.body_help = false;
  edits.limits = false;
  edits.ladder_enabled = true;
  edits.ladder_follows_clip = true;
  edits.ladder.rung_spacing = 0.33f;

  const std::string path = TempFile("edits.json");
  std::string error;
  ASSERT_TRUE(SaveScenario(path, CaptureScenario(session, "model.glb"), &error)) << error;
  Scenario loaded;
  ASSERT_TRUE(LoadScenario(path, &loaded, &error)) << error;
  fs::remove(path);
  PosingEdits read = PosingSession(model).edits;
  ASSERT_TRUE(ApplyScenarioEdits(loaded, model, /*ladder_prop=*/false, &read, &error)) << error;
  const LimbTarget& back = read.target(anim::Limb::kLeftLeg);
  EXPECT_EQ(back.target_ms, left.target_ms);
  EXPECT_TRUE(back.options == left.options);
  EXPECT_EQ(back.pull_body, left.pull_body);
  EXPECT_EQ(read.body.offset_ms, edits.body.offset_ms);
  EXPECT_EQ(read.bone_turns_ls, edits.bone_turns_ls);
  // Field by field above for the messages; then the whole value, whatever fields it grows.
  EXPECT_TRUE(read == edits);
}

TEST(Scenario, MalformedJsonSaysWhereAndLoadsNothing) {
  const std::string path = TempFile("broken.json");
  Write(path, "{\"limbs\": {\"left_leg\": {\"target\": [1, 2,");
  Scenario s;
  s.clip = "untouched";
  std::string error;
  EXPECT_FALSE(LoadScenario(path, &s, &error));
  EXPECT_NE(error.find("not valid JSON"), std::string::npos) << error;
  EXPECT_EQ(s.clip, "untouched");
  EXPECT_EQ(error.find('\n'), std::string::npos) << "one line";
}

// A leg's end rotation is "level" unless the file says otherwise; "follow" and "keep_model"
// stay options, and each reads back as it was written.
TEST(Scenario, LegsLandFlatUnlessTheFileSaysFollow) {
  const auto parse = [](const std::string& text) {
    Scenario s;
    std::string error;
    EXPECT_TRUE(ParseScenario(text, "s.json", &s, &error)) << error;
    return s;
  };
  Scenario s = parse(R"({"limbs": {"left_leg": {}, "left_arm": {}}})");
  EXPECT_TRUE(s.limbs[static_cast<int>(anim::Limb::kLeftLeg)].options.level_end);
  EXPECT_FALSE(s.limbs[static_cast<int>(anim::Limb::kLeftArm)].options.level_end);
  s = parse(R"({"limbs": {"left_leg": {"end_rotation": "follow"},
                          "right_leg": {"end_rotation": "keep_model"},
                          "left_arm": {"end_rotation": "level"}}})");
  const anim::ChainSolveOptions& follow = s.limbs[static_cast<int>(anim::Limb::kLeftLeg)].options;
  EXPECT_FALSE(follow.level_end);
  EXPECT_EQ(follow.end_rotation, ik::EndRotation::kFollow);
  EXPECT_EQ(s.limbs[static_cast<int>(anim::Limb::kRightLeg)].options.end_rotation,
            ik::EndRotation::kKeepModel);
  EXPECT_TRUE(s.limbs[static_cast<int>(anim::Limb::kLeftArm)].options.level_end);
  const std::string path = TempFile("level.json");
  std::string error;
  ASSERT_TRUE(SaveScenario(path, s, &error)) << error;
  Scenario back;
  ASSERT_TRUE(LoadScenario(path, &back, &error)) << error;
  for (anim::Limb l : anim::kLimbs) {
    EXPECT_EQ(back.limbs[static_cast<int>(l)].options, s.limbs[static_cast<int>(l)].options)
        << anim::LimbName(l);
  }
}

TEST(Scenario, RejectsBadFieldsByName) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"limbs": {"left_leg": {"target": [1, "a", 2]}}})", "limbs.left_leg.target[1]"},
      {R"({"limbs": {"left_tail": {}}})", "unknown limb 'left_tail'"},
      {R"({"limbs": {"left_leg": {"soften": 1.5}}})", "limbs.left_leg.soften"},
      {R"({"limbs": {"left_leg": {"end_rotation": "flat"}}})", "\"level\", \"follow\""},
      {R"({"limbs": {"left_leg": {"limits": {"min_deg": 90, "max_deg": 10}}}})", "limits"},
      {R"({"ladder": {"rung_spacing": 0}})", "ladder"},
      {R"({"time": 1e999})", "out of range"},
      {R"([1, 2])", "top level"},
  };
  for (const auto& [text, expected] : cases) {
    const std::string path = TempFile("bad.json");
    Write(path, text);
    Scenario s;
    std::string error;
    EXPECT_FALSE(LoadScenario(path, &s, &error)) << text;
    EXPECT_NE(error.find(expected), std::string::npos) << text << " -> " << error;
  }
}

TEST(Scenario, UnknownClipIsAnErrorNotASilentRestPose) {
  const anim::Model model = test::TwoLegRig();
  PosingRequest request;
  request.scenario.emplace();
  request.scenario->file = "x.json";
  request.scenario->clip = "moonwalk";
  std::string error;
  EXPECT_FALSE(BuildSession(model, request, &error));
  EXPECT_NE(error.find("moonwalk"), std::string::npos);
}

}  // namespace
}  // namespace ikpose::scene
