// One road: `ikpose pose --json` and `ikpose render --report` build the same situation through
// the same code, so for any scenario (ladder snap, a clip with IK on top, poles, limits,
// soften, weight, from-rest, mirror) and command line they report the same pose, bone for bone.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "run_program.h"

namespace ikpose::test {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const fs::path kCharacter = fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb";

json ReadJson(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in);
}

double Distance(const json& a, const json& b) {
  double sum = 0.0;
  for (int i = 0; i < 3; ++i) {
    const double d = a[i].get<double>() - b[i].get<double>();
    sum += d * d;
  }
  return std::sqrt(sum);
}

double Height() {
  const ProgramResult r = RunIkpose({"inspect", kCharacter.string(), "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(r.out)["height"].get<double>();
}

struct Case {
  const char* name;
  const char* scenario;            // JSON without the model
  std::vector<std::string> extra;  // command-line options on top
};

class OneRoad : public ::testing::TestWithParam<Case> {};

TEST_P(OneRoad, RenderReportIsThePoseJson) {
  const Case& c = GetParam();
  const std::string dir = MakeTempDir();
  const std::string scene = dir + "/scene.json";
  std::string text = c.scenario;
  text.insert(1, R"("model": ")" + kCharacter.string() + R"(", )");
  std::ofstream(scene) << text;

  std::vector<std::string> pose = {"pose", "--scene", scene, "--json"};
  std::vector<std::string> render = {"render",   "--scene",       scene,    "--out", dir + "/x.png",
                                     "--report", dir + "/r.json", "--size", "64x64"};
  pose.insert(pose.end(), c.extra.begin(), c.extra.end());
  render.insert(render.end(), c.extra.begin(), c.extra.end());
  const ProgramResult posed = RunIkpose(pose);
  ASSERT_EQ(posed.exit_code, 0) << posed.err;
  const ProgramResult rendered = RunIkpose(render);
  ASSERT_EQ(rendered.exit_code, 0) << rendered.err;

  const json from_pose = json::parse(posed.out);
  const json from_render = ReadJson(dir + "/r.json");
  ASSERT_FALSE(from_pose["chains"].empty()) << "the case should solve something";
  const double height = Height();
  ASSERT_EQ(from_pose["bones"].size(), from_render["bones"].size());
  for (std::size_t i = 0; i < from_pose["bones"].size(); ++i) {
    const json& a = from_pose["bones"][i];
    const json& b = from_render["bones"][i];
    ASSERT_EQ(a["name"], b["name"]);
    EXPECT_LT(Distance(a["position_ms"], b["position_ms"]), 1e-5 * height) << a["name"];
  }
  EXPECT_EQ(from_pose, from_render) << "same fields, same values";
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(
    Scenarios, OneRoad,
    ::testing::Values(Case{"LadderSnap",
                           R"({"limbs": {"left_leg": {"target": [0.1, 0.4, 0.3]}},
                 "ladder": {"enabled": true, "snap": true, "base": [0, 0, 0.4]}})",
                           {}},
                      Case{"ClipWithIkAndPole",
                           R"({"clip": "ladder_climb", "time": 0.7,
                 "limbs": {"right_arm": {"target": [-0.25, 1.3, 0.3], "pole": [-0.5, 1.1, -0.4]}}})",
                           {}},
                      Case{"LimitsSoftenWeightFromRest",
                           R"({"clip": "walk", "time": 0.3,
                 "limbs": {"left_leg": {"target": [0.1, 0.35, 0.25], "from_rest": true,
                                        "limits": {"min_deg": 10, "max_deg": 120}},
                           "right_leg": {"target": [-0.1, 0.05, -0.1], "soften": 0.8,
                                         "weight": 0.6}}})",
                           {}},
                      Case{
                          "CommandLineOnTopOfTheScenario",
                          R"({"clip": "idle", "limbs": {"left_arm": {"target": [0.4, 1.2, 0.3]}}})",
                          {"--target", "right_leg=-0.1,0.3,0.2", "--pole", "right_leg=-0.1,0.5,1",
                           "--time", "0.4", "--target", "head=0,1.7,0.1"}},
                      Case{"MirrorLeftToRight",
                           R"({"limbs": {"left_arm": {"target": [0.45, 1.5, 0.2]}}})",
                           {"--mirror", "left-to-right"}},
                      Case{"MirrorFlipFromTheScenarioOnAClip",
                           R"({"clip": "walk", "time": 0.3, "mirror": "flip",
                 "limbs": {"right_leg": {"target": [-0.1, 0.3, 0.25]}}})",
                           {}}),
    [](const ::testing::TestParamInfo<Case>& param) { return std::string(param.param.name); });

// The repro of a ladder situation poses on the command line as in the window: snapped hands
// and feet on rungs, not the targets as written.
TEST(OneRoad, PoseSnapsToTheLadderLikeTheViewer) {
  const std::string dir = MakeTempDir();
  const std::string scene = dir + "/ladder.json";
  std::ofstream(scene) << R"({"model": ")" << kCharacter.string() << R"(",
      "limbs": {"left_leg": {"target": [0.1, 0.35, 0.3]}},
      "ladder": {"enabled": true, "snap": true, "base": [0, 0, 0.4], "rung_spacing": 0.3,
                 "first_rung_height": 0.25, "rung_radius": 0.02}})";
  const ProgramResult r = RunIkpose({"pose", "--scene", scene, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json chains = json::parse(r.out)["chains"];
  for (const char* limb : {"left_arm", "right_arm", "left_leg", "right_leg"}) {
    ASSERT_TRUE(chains.contains(limb)) << limb << " was snapped, so it is solved";
  }
  // The left foot's target, written at y 0.35, rests on the nearest rung's top: rung 0 at
  // 0.25 (rung 1 is at 0.55), whose top is 0.27.
  const json target = chains["left_leg"]["target"];
  EXPECT_NEAR(target[1].get<double>(), 0.25 + 0.02, 1e-5);
  EXPECT_NEAR(target[2].get<double>(), 0.4, 1e-5) << "on the rung, in the ladder's plane";
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ikpose::test
