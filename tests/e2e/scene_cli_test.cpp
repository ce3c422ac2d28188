// Scenario files replay a posing situation headlessly: `ikpose render --scene FILE` poses the
// model exactly as the same targets given on the command line would.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "run_program.h"

namespace ikpose::test {
namespace {

namespace fs = std::filesystem;

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(SceneCli, MalformedSceneIsOneLineErrorNamingTheFile) {
  const std::string dir = MakeTempDir();
  const std::string scene = dir + "/broken.json";
  std::ofstream(scene) << "{\"limbs\": ";
  const ProgramResult r =
      RunIkpose({"render", "--scene", scene, "--out", dir + "/x.png", "--size", "64x64"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(r.err.rfind("ikpose: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("broken.json"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(fs::exists(dir + "/x.png"));
  fs::remove_all(dir);
}

TEST(SceneCli, SceneTargetsPoseLikeCommandLineTargets) {
  const fs::path model = fs::path(IKPOSE_SOURCE_DIR) / ".." / "shared" / "models" / "RiggedFigure" /
                         "RiggedFigure.glb";
  if (!fs::exists(model)) GTEST_SKIP() << model << " is absent";
  const std::string dir = MakeTempDir();
  const std::string scene = dir + "/lift.json";
  std::ofstream(scene) << R"({"model": ")" << fs::absolute(model).string()
                       << R"(", "limbs": {"left_leg": {"target": [0.1, 0.3, 0.15]}}})";
  const std::vector<std::string> common = {"--size", "200x200", "--no-panel"};
  auto a = std::vector<std::string>{"render", "--scene", scene, "--out", dir + "/scene.png"};
  a.insert(a.end(), common.begin(), common.end());
  auto b = std::vector<std::string>{"render",         model.string(), "--out",
                                    dir + "/cli.png", "--target",     "left_leg=0.1,0.3,0.15"};
  b.insert(b.end(), common.begin(), common.end());
  auto c = std::vector<std::string>{"render", model.string(), "--out", dir + "/rest.png"};
  c.insert(c.end(), common.begin(), common.end());
  ASSERT_EQ(RunIkpose(a).exit_code, 0);
  ASSERT_EQ(RunIkpose(b).exit_code, 0);
  ASSERT_EQ(RunIkpose(c).exit_code, 0);
  EXPECT_EQ(ReadBytes(dir + "/scene.png"), ReadBytes(dir + "/cli.png"));
  EXPECT_NE(ReadBytes(dir + "/scene.png"), ReadBytes(dir + "/rest.png"));
  fs::remove_all(dir);
}

TEST(SceneCli, PoseSolvesTheScenesLimbsWithTheirOptions) {
  const std::string dir = MakeTempDir();
  const std::string scene = dir + "/step.json";
  const fs::path model = fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb";
  // A foot on a step in front, and a hand target the limits cannot reach straight.
  std::ofstream(scene) << R"({"model": ")" << model.string() << R"(", "clip": "idle", "time": 0.5,
    "limbs": {"left_leg": {"target": [0.1, 0.3, 0.25], "pole": [0.1, 0.6, 1.0]},
              "right_arm": {"target": [-0.3, 1.2, 0.3], "limits": {"min_deg": 40, "max_deg": 150}}}})";
  const ProgramResult r = RunIkpose({"pose", "--scene", scene, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto json = nlohmann::json::parse(r.out);
  const auto& leg = json["chains"]["left_leg"];
  EXPECT_EQ(leg["reach"], "reachable");
  EXPECT_LT(leg["error"].get<double>(), 1e-4);
  EXPECT_TRUE(json["chains"].contains("right_arm"));
  EXPECT_FALSE(json["chains"].contains("right_leg")) << "only the scene's limbs are solved";
  // The same target on the command line overrides the scene's.
  const ProgramResult over =
      RunIkpose({"pose", "--scene", scene, "--json", "--target", "left_leg=0.1,0.35,0.2"});
  ASSERT_EQ(over.exit_code, 0) << over.err;
  const auto target = nlohmann::json::parse(over.out)["chains"]["left_leg"]["target"];
  EXPECT_NEAR(target[1].get<double>(), 0.35, 1e-6);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ikpose::test
