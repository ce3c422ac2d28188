// Ready poses on the command line: `--ready NAME` and a scenario's "ready" are the same pose
// (one road), what the scenario and the command line add goes over it, and a name ikpose does
// not know is one line.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "run_program.h"

namespace ikpose::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

json PoseJson(const std::vector<std::string>& args) {
  std::vector<std::string> all = {"pose", "--json"};
  all.insert(all.end(), args.begin(), args.end());
  const ProgramResult r = RunIkpose(all);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? json::parse(r.out) : json();
}

const json& Bone(const json& pose, const std::string& name) {
  const json& bones = pose["bones"];
  return *std::find_if(bones.begin(), bones.end(),
                       [&](const json& b) { return b["name"] == name; });
}

TEST(ReadyCli, TheOptionAndTheScenarioGiveOnePoseAndTheScenarioGoesOverIt) {
  const std::string dir = MakeTempDir();
  const json by_option = PoseJson({"--ready", "sit-on-a-box"});
  std::ofstream(dir + "/sit.json") << R"({"ready": "sit on a box"})";
  const json by_scene = PoseJson({"--scene", dir + "/sit.json"});
  ASSERT_FALSE(by_option.is_null());
  EXPECT_EQ(by_option["bones"], by_scene["bones"]);
  // Sitting: the pelvis well below where it stands.
  const json rest = PoseJson({});
  EXPECT_LT(Bone(by_option, "pelvis")["position_ms"][1].get<float>(),
            Bone(rest, "pelvis")["position_ms"][1].get<float>() - 0.2f);

  // The scenario's own left hand target goes over the ready pose's; the other limbs keep theirs.
  std::ofstream(dir + "/wave.json")
      << R"({"ready": "sit-on-a-box", "limbs": {"left_arm": {"target": [0.45, 1.3, 0.2]}}})";
  const json waving = PoseJson({"--scene", dir + "/wave.json"});
  ASSERT_FALSE(waving.is_null());
  const json& hand = waving["chains"]["left_arm"]["target"];
  EXPECT_NEAR(hand[1].get<float>(), 1.3f, 1e-5f);
  for (const char* limb : {"right_arm", "left_leg", "right_leg"})
    EXPECT_EQ(waving["chains"][limb]["target"], by_option["chains"][limb]["target"]) << limb;
  // The command line's --ready over the scenario's.
  const json kneeling = PoseJson({"--scene", dir + "/sit.json", "--ready", "kneel"});
  EXPECT_EQ(kneeling["bones"], PoseJson({"--ready", "kneel"})["bones"]);
  fs::remove_all(dir);
}

TEST(ReadyCli, AnUnknownNameIsOneLine) {
  const ProgramResult option = RunIkpose({"pose", "--ready", "fly"});
  EXPECT_EQ(option.exit_code, 2);
  EXPECT_NE(option.err.find("sit-on-a-box"), std::string::npos) << option.err;
  EXPECT_EQ(std::count(option.err.begin(), option.err.end(), '\n'), 1) << option.err;

  const std::string dir = MakeTempDir();
  std::ofstream(dir + "/bad.json") << R"({"ready": 3})";
  const ProgramResult scene = RunIkpose({"pose", "--scene", dir + "/bad.json"});
  EXPECT_EQ(scene.exit_code, 1);
  EXPECT_NE(scene.err.find("bad.json"), std::string::npos) << scene.err;
  EXPECT_NE(scene.err.find("ready must be one of"), std::string::npos) << scene.err;
  EXPECT_EQ(std::count(scene.err.begin(), scene.err.end(), '\n'), 1) << scene.err;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ikpose::test
