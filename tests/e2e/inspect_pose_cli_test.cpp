// `ikpose inspect` and `ikpose pose` as a user runs them: the JSON shapes docs/DESIGN.md fixes, the
// IK contract on real characters, and one-line errors for bad input. Tests that need
// ../shared/models or Debian's assimp-testmodels skip, saying so, when those are absent.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_program.h"

namespace ikpose::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path SharedModel(const char* file) {
  const fs::path path = fs::path(IKPOSE_SOURCE_DIR) / ".." / "shared" / "models" / file;
  return fs::exists(path) ? path.lexically_normal() : fs::path();
}

fs::path TestModel(const char* file) {
  const fs::path path = fs::path("/usr/share/assimp/models") / file;
  return fs::exists(path) ? path : fs::path();
}

#define REQUIRE_FILE(path, what)                        \
  if ((path).empty()) {                                 \
    GTEST_SKIP() << what << " is absent; test skipped"; \
  }

int LineCount(const std::string& text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

void ExpectOneLineError(const ProgramResult& r, const std::string& part) {
  EXPECT_NE(r.exit_code, 0);
  EXPECT_LT(r.exit_code, 128) << "crashed";
  EXPECT_EQ(LineCount(r.err), 1) << r.err;
  EXPECT_EQ(r.err.rfind("ikpose: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(part), std::string::npos) << r.err;
}

double Distance(const json& a, const std::vector<double>& b) {
  double d = 0;
  for (int i = 0; i < 3; ++i) d += (a[i].get<double>() - b[i]) * (a[i].get<double>() - b[i]);
  return std::sqrt(d);
}

const json* Bone(const json& bones, const std::string& name) {
  for (const json& b : bones) {
    if (b["name"] == name) return &b;
  }
  return nullptr;
}

TEST(InspectCli, JsonHasTheFixedShape) {
  const fs::path model = SharedModel("RiggedFigure/RiggedFigure.glb");
  REQUIRE_FILE(model, "../shared/models");
  const ProgramResult r = RunIkpose({"inspect", model.string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["file"], model.string());
  EXPECT_NEAR(j["height"].get<double>(), 1.45, 0.02);
  ASSERT_FALSE(j["bones"].empty());
  for (const json& b : j["bones"]) {
    EXPECT_TRUE(b["name"].is_string());
    EXPECT_TRUE(b["parent"].is_number_integer());
    EXPECT_LT(b["parent"].get<int>(), static_cast<int>(j["bones"].size()));
    EXPECT_EQ(b["rest_position_ms"].size(), 3u);
  }
  ASSERT_EQ(j["meshes"].size(), 1u);
  EXPECT_EQ(j["meshes"][0]["skinned"], true);
  EXPECT_GT(j["meshes"][0]["vertices"].get<int>(), 0);
  EXPECT_GT(j["meshes"][0]["triangles"].get<int>(), 0);
  ASSERT_EQ(j["clips"].size(), 1u);
  EXPECT_NEAR(j["clips"][0]["duration"].get<double>(), 1.25, 1e-3);
  for (const char* limb : {"left_arm", "right_arm", "left_leg", "right_leg"}) {
    ASSERT_TRUE(j["chains"].contains(limb)) << limb;
    EXPECT_EQ(j["chains"][limb]["joints"].size(), 3u);
    EXPECT_EQ(j["chains"][limb]["lengths"].size(), 2u);
  }
  EXPECT_EQ(j["chains"]["left_leg"]["joints"][2], "leg_joint_L_3");
  EXPECT_TRUE(j["warnings"].is_array());
}

TEST(InspectCli, TextNamesChainsAndWarnings) {
  const fs::path model = SharedModel("Greenman/greenman.glb");
  REQUIRE_FILE(model, "../shared/models");
  const ProgramResult r = RunIkpose({"inspect", model.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("chains: 0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("shorter than 2 bones"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("hip_L"), std::string::npos) << r.out;
}

TEST(InspectCli, UnnamedJointsStillGiveFourLimbs) {
  const fs::path model = SharedModel("CesiumMan/CesiumMan.glb");
  REQUIRE_FILE(model, "../shared/models");
  const ProgramResult r = RunIkpose({"inspect", model.string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["chains"].size(), 4u);
  EXPECT_EQ(j["chains"]["left_leg"]["joints"], json::array({"nodes[7]", "nodes[8]", "nodes[9]"}));
}

TEST(InspectCli, StaticModelLoadsWithAWarning) {
  const fs::path model = TestModel("glTF2/BoxBadNormals-glTF-Binary/BoxBadNormals.glb");
  REQUIRE_FILE(model, "assimp-testmodels");
  const ProgramResult r = RunIkpose({"inspect", model.string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["meshes"][0]["skinned"], false);
  EXPECT_NE(j["warnings"].dump().find("static"), std::string::npos);
}

TEST(InspectCli, DefaultCharacterWhenNoModelIsGiven) {
  const ProgramResult r = RunIkpose({"inspect", "--json"});
  const fs::path character = fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb";
  if (!fs::exists(character)) {
    ExpectOneLineError(r, "character.glb");
    return;
  }
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["chains"].size(), 4u);
}

TEST(PoseCli, DefaultCharacterOnAClipReachesEveryLimbTarget) {
  const fs::path character = fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb";
  if (!fs::exists(character)) GTEST_SKIP() << "assets/character.glb does not exist yet";
  const ProgramResult info = RunIkpose({"inspect", "--json"});
  ASSERT_EQ(info.exit_code, 0) << info.err;
  const json inspect = json::parse(info.out);
  ASSERT_FALSE(inspect["clips"].empty());
  const std::string clip = inspect["clips"][0]["name"];
  std::vector<std::string> args = {"pose", "--clip", clip, "--time", "0.4", "--json"};
  std::map<std::string, std::vector<double>> targets;
  for (const auto& [limb, chain] : inspect["chains"].items()) {
    const json* upper = Bone(inspect["bones"], chain["joints"][0]);
    ASSERT_NE(upper, nullptr);
    const double reach =
        0.7 * (chain["lengths"][0].get<double>() + chain["lengths"][1].get<double>());
    const bool leg = limb.find("leg") != std::string::npos;
    std::vector<double> t;
    for (int i = 0; i < 3; ++i) t.push_back((*upper)["rest_position_ms"][i].get<double>());
    t[1] -= leg ? reach : 0.5 * reach;
    t[2] += leg ? 0.1 : 0.5 * reach;
    targets[limb] = t;
    args.push_back("--target");
    args.push_back(limb + "=" + std::to_string(t[0]) + "," + std::to_string(t[1]) + "," +
                   std::to_string(t[2]));
  }
  const ProgramResult r = RunIkpose(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json report = json::parse(r.out);
  ASSERT_EQ(report["chains"].size(), 4u);
  for (const auto& [limb, t] : targets) {
    EXPECT_LT(report["chains"][limb]["error"].get<double>(), 1e-4) << limb;
    EXPECT_LT(Distance(report["chains"][limb]["c"], t), 1e-4) << limb;
  }
}

TEST(PoseCli, ReachableTargetsAreReachedAndOtherBonesStay) {
  const fs::path model = SharedModel("QuaterniusRobot/robot.glb");
  REQUIRE_FILE(model, "../shared/models");
  const ProgramResult rest = RunIkpose({"inspect", model.string(), "--json"});
  ASSERT_EQ(rest.exit_code, 0) << rest.err;
  const json inspect = json::parse(rest.out);
  const ProgramResult r = RunIkpose({"pose", model.string(), "--target", "left_leg=0.7,0.3,0.4",
                                     "--target", "right_arm=-2,1.5,0.5", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  const json& leg = j["chains"]["left_leg"];
  EXPECT_EQ(leg["reach"], "reachable");
  EXPECT_LT(leg["error"].get<double>(), 1e-4);
  EXPECT_LT(Distance(leg["c"], {0.7, 0.3, 0.4}), 1e-4);
  EXPECT_EQ(leg["joints"], json::array({"UpperLeg.L", "LowerLeg.L", "Foot.L"}));
  EXPECT_LT(j["chains"]["right_arm"]["error"].get<double>(), 1e-4);
  // The foot bone (not a child of the shin in this rig) moved onto the target.
  const json* foot = Bone(j["bones"], "Foot.L");
  ASSERT_NE(foot, nullptr);
  EXPECT_LT(Distance((*foot)["position_ms"], {0.7, 0.3, 0.4}), 1e-4);
  // Bones outside the chains are where inspect says they rest.
  for (const char* name : {"Head", "Foot.R", "UpperLeg.R", "LowerArm.L", "Hips"}) {
    const json* after = Bone(j["bones"], name);
    const json* before = Bone(inspect["bones"], name);
    ASSERT_NE(after, nullptr) << name;
    ASSERT_NE(before, nullptr) << name;
    std::vector<double> p;
    for (const json& v : (*before)["rest_position_ms"]) p.push_back(v.get<double>());
    EXPECT_LT(Distance((*after)["position_ms"], p), 1e-5) << name;
    EXPECT_EQ((*after)["changed"], false) << name;
  }
  // Bone lengths kept: hip-knee distance equals the chain's first length.
  const json* hip = Bone(j["bones"], "UpperLeg.L");
  const json* knee = Bone(j["bones"], "LowerLeg.L");
  std::vector<double> k;
  for (const json& v : (*knee)["position_ms"]) k.push_back(v.get<double>());
  EXPECT_NEAR(Distance((*hip)["position_ms"], k),
              inspect["chains"]["left_leg"]["lengths"][0].get<double>(), 1e-4);
  for (const json& b : j["bones"]) {
    EXPECT_EQ(b["rotation_ls"].size(), 4u);
    EXPECT_EQ(b["euler_deg"].size(), 3u);
    EXPECT_EQ(b["position_ms"].size(), 3u);
  }
}

TEST(PoseCli, ClipIsSampledBeforeSolving) {
  const fs::path model = SharedModel("CesiumMan/CesiumMan.glb");
  REQUIRE_FILE(model, "../shared/models");
  const ProgramResult plain =
      RunIkpose({"pose", model.string(), "--clip", "0", "--time", "0.5", "--json"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  const ProgramResult r = RunIkpose({"pose", model.string(), "--clip", "0", "--time", "0.5",
                                     "--target", "left_leg=0.2,0.2,-0.1", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_LT(Distance(j["chains"]["left_leg"]["c"], {0.2, 0.2, -0.1}), 1e-4);
  // The clip moved the arms away from rest; the leg solve leaves them as the clip put them.
  const json plain_json = json::parse(plain.out);
  const json* arm_clip = Bone(plain_json["bones"], "nodes[18]");
  const json* arm_ik = Bone(j["bones"], "nodes[18]");
  ASSERT_NE(arm_clip, nullptr);
  std::vector<double> p;
  for (const json& v : (*arm_clip)["position_ms"]) p.push_back(v.get<double>());
  EXPECT_LT(Distance((*arm_ik)["position_ms"], p), 1e-5);
}

TEST(PoseCli, PoleChoosesTheElbowSide) {
  const fs::path model = SharedModel("Mesh2MotionHumanMale/human-male.glb");
  REQUIRE_FILE(model, "../shared/models");
  for (const double z : {1.0, -1.0}) {
    const std::string pole = "left_arm=0.45,1.2," + std::to_string(z);
    const ProgramResult r = RunIkpose(
        {"pose", model.string(), "--target", "left_arm=0.55,1.1,0.1", "--pole", pole, "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json report = json::parse(r.out);
    const json& arm = report["chains"]["left_arm"];
    EXPECT_TRUE(arm["used_pole"].get<bool>());
    EXPECT_GT(arm["b"][2].get<double>() * z, 0.0) << pole;
    EXPECT_LT(arm["error"].get<double>(), 1e-4);
  }
}

TEST(PoseCli, OutWritesTheReportThroughARename) {
  const fs::path model = SharedModel("RiggedFigure/RiggedFigure.glb");
  REQUIRE_FILE(model, "../shared/models");
  const fs::path dir = MakeTempDir();
  const fs::path out = dir / "pose.json";
  const ProgramResult r = RunIkpose(
      {"pose", model.string(), "--target", "right_leg=-0.1,0.2,0.15", "--out", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("right_leg"), std::string::npos);  // text on stdout
  std::ifstream in(out);
  const json saved = json::parse(in);
  // The model is named as scenario files name it: resolved against the pose file's folder.
  EXPECT_TRUE(fs::equivalent(dir / saved["model"].get<std::string>(), model)) << saved["model"];
  EXPECT_LT(Distance(saved["chains"]["right_leg"]["c"], {-0.1, 0.2, 0.15}), 1e-4);
  for (const json& b : saved["bones"]) {
    EXPECT_EQ(b["translation_ls"].size(), 3u);
    EXPECT_EQ(b["scale_ls"].size(), 3u);
  }
  int files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 1) << "a temporary file was left behind";
  fs::remove_all(dir);
}

TEST(PoseCli, BadInputGivesOneLineErrors) {
  const fs::path figure = SharedModel("RiggedFigure/RiggedFigure.glb");
  REQUIRE_FILE(figure, "../shared/models");
  const std::string m = figure.string();
  ExpectOneLineError(RunIkpose({"pose", "/nonexistent/nope.glb", "--target", "left_leg=0,0,0"}),
                     "/nonexistent/nope.glb: file not found");
  ExpectOneLineError(RunIkpose({"pose", m, "--target", "left_leg=nan,0,0"}), "not a finite point");
  ExpectOneLineError(RunIkpose({"pose", m, "--target", "left_leg=inf,0,0"}), "not a finite point");
  ExpectOneLineError(RunIkpose({"pose", m, "--target", "left_leg=1,2"}), "three numbers");
  ExpectOneLineError(RunIkpose({"pose", m, "--target", "left_leg"}), "CHAIN=x,y,z");
  ExpectOneLineError(
      RunIkpose({"pose", m, "--target", "left_leg=1,2,3", "--target", "left_leg=1,2,3"}),
      "two targets");
  ExpectOneLineError(RunIkpose({"pose", m, "--target", "tail_tip=0,0,0"}),
                     "no chain or bone named 'tail_tip'");
  ExpectOneLineError(RunIkpose({"pose", m, "--clip", "walk"}), "no clip named 'walk'");
  ExpectOneLineError(RunIkpose({"pose", m, "--time", "1"}), "--time needs --clip");
  ExpectOneLineError(
      RunIkpose({"pose", m, "--target", "left_leg=0,0,0", "--pole", "right_leg=0,0,1"}),
      "no --target");
  // A target on the hip joint itself has no direction to reach in.
  const ProgramResult rest = RunIkpose({"inspect", m, "--json"});
  const json inspect = json::parse(rest.out);
  const json legs = inspect["chains"]["left_leg"]["joints"];
  std::string hip_target = "left_leg=";
  for (const json& b : inspect["bones"]) {
    if (b["name"] == legs[0]) {
      hip_target += b["rest_position_ms"][0].dump() + "," + b["rest_position_ms"][1].dump() + "," +
                    b["rest_position_ms"][2].dump();
    }
  }
  ExpectOneLineError(RunIkpose({"pose", m, "--target", hip_target}), "cannot be solved");
  const fs::path dir = MakeTempDir();
  ExpectOneLineError(RunIkpose({"pose", m, "--target", "left_leg=0.1,0.2,0.1", "--out",
                                (dir / "missing" / "pose.json").string()}),
                     "cannot write");
  fs::remove_all(dir);
}

TEST(PoseCli, LimbTheModelDoesNotHaveIsAnError) {
  const fs::path model = SharedModel("Greenman/greenman.glb");
  REQUIRE_FILE(model, "../shared/models");
  ExpectOneLineError(RunIkpose({"pose", model.string(), "--target", "left_leg=0,0,0"}),
                     "no left_leg chain");
  // A custom chain by end bone name works where no limb was detected.
  const ProgramResult r =
      RunIkpose({"pose", model.string(), "--target", "leg_L=0.45,0.1,0.1", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json report = json::parse(r.out);
  EXPECT_EQ(report["chains"]["leg_L"]["joints"], json::array({"root", "hip_L", "leg_L"}));
}

TEST(InspectCli, BrokenFilesGiveOneLineErrors) {
  const fs::path dir = TestModel("glTF2");
  REQUIRE_FILE(dir, "assimp-testmodels");
  const std::pair<const char*, const char*> cases[] = {
      {"glTF2/wrongTypes/badArray.gltf", "primitives"},
      {"glTF2/IndexOutOfRange/IndexOutOfRange.gltf", "out-of-range"},
      {"glTF2/BoxWithInfinites-glTF-Binary/BoxWithInfinites.glb", "non-finite"},
      {"glTF2/RecursiveNodes/RecursiveNodes.gltf", "recursive"},
      {"invalid/OutOfMemory.off", "OFF header"},
      {"invalid/readme.txt", "No suitable reader"},
  };
  for (const auto& [file, reason] : cases) {
    const fs::path path = TestModel(file);
    if (path.empty()) continue;
    const ProgramResult r = RunIkpose({"inspect", path.string()});
    ExpectOneLineError(r, path.string() + ": ");
    EXPECT_NE(r.err.find(reason), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
  }
}

// A chain's "bone_indices" index the "bones" array printed beside it, so a script can go from a
// chain to its bones' positions and rotations: on the bundled character and every shared model,
// in `inspect --json` and in `pose --json` (detected limbs and a chain named by its end bone).
class ChainBoneIndices : public ::testing::TestWithParam<const char*> {};

// Every chain of `report`: bones[bone_indices[i]].name is joints[i].
void ExpectIndicesNameTheJoints(const json& report, const std::string& what) {
  const json& bones = report["bones"];
  for (const auto& [name, chain] : report["chains"].items()) {
    ASSERT_EQ(chain["bone_indices"].size(), 3u) << what << " " << name;
    for (std::size_t i = 0; i < 3; ++i) {
      const int index = chain["bone_indices"][i].get<int>();
      ASSERT_GE(index, 0) << what << " " << name << " joint " << i;
      ASSERT_LT(index, static_cast<int>(bones.size())) << what << " " << name << " joint " << i;
      EXPECT_EQ(bones[static_cast<std::size_t>(index)]["name"], chain["joints"][i])
          << what << " " << name << " joint " << i;
    }
  }
}

std::string PointArg(const std::string& chain, const json& point) {
  std::ostringstream text;
  text.precision(9);
  text << chain << "=" << point[0].get<double>() << "," << point[1].get<double>() << ","
       << point[2].get<double>();
  return text.str();
}

// The last joint whose parent and grandparent are joints a bone length apart, named once and not
// the end of a detected limb: a chain `pose --target NAME=...` builds from the skeleton.
const json* CustomChainEnd(const json& inspect) {
  const json& bones = inspect["bones"];
  std::map<std::string, int> uses;
  for (const json& b : bones) ++uses[b["name"].get<std::string>()];
  for (const auto& [name, chain] : inspect["chains"].items())
    ++uses[chain["joints"][2].get<std::string>()];
  for (std::size_t i = bones.size(); i-- > 0;) {
    const json& end = bones[i];
    const int lower = end["parent"].get<int>();
    if (!end["joint"].get<bool>() || uses[end["name"].get<std::string>()] != 1 || lower < 0)
      continue;
    const json& knee = bones[static_cast<std::size_t>(lower)];
    const int upper = knee["parent"].get<int>();
    if (!knee["joint"].get<bool>() || upper < 0) continue;
    const json& hip = bones[static_cast<std::size_t>(upper)];
    const auto far = [&](const json& a, const json& b) {
      const json& p = b["rest_position_ms"];
      const std::vector<double> to = {p[0].get<double>(), p[1].get<double>(), p[2].get<double>()};
      return Distance(a["rest_position_ms"], to) > 1e-3 * inspect["height"].get<double>();
    };
    if (hip["joint"].get<bool>() && far(hip, knee) && far(knee, end)) return &end;
  }
  return nullptr;
}

TEST_P(ChainBoneIndices, NameTheChainsJointsInInspectAndPose) {
  const std::string file = GetParam();
  const fs::path model = file.empty() ? fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb"
                                      : SharedModel(file.c_str());
  const std::string source = file.empty() ? "assets/character.glb" : "../shared/models";
  REQUIRE_FILE(fs::exists(model) ? model : fs::path(), source);
  const ProgramResult inspected = RunIkpose({"inspect", model.string(), "--json"});
  ASSERT_EQ(inspected.exit_code, 0) << inspected.err;
  const json inspect = json::parse(inspected.out);
  ExpectIndicesNameTheJoints(inspect, "inspect");

  // Every detected limb's end on its rest position, and one chain named by its end bone.
  std::vector<std::string> args = {"pose", model.string(), "--json"};
  for (const auto& [name, chain] : inspect["chains"].items()) {
    const int end = chain["bone_indices"][2].get<int>();
    args.push_back("--target");
    args.push_back(
        PointArg(name, inspect["bones"][static_cast<std::size_t>(end)]["rest_position_ms"]));
  }
  const json* custom = CustomChainEnd(inspect);
  if (custom) {
    args.push_back("--target");
    args.push_back(PointArg((*custom)["name"], (*custom)["rest_position_ms"]));
  }
  const ProgramResult posed = RunIkpose(args);
  ASSERT_EQ(posed.exit_code, 0) << posed.err;
  const json pose = json::parse(posed.out);
  EXPECT_EQ(pose["chains"].size(), inspect["chains"].size() + (custom ? 1u : 0u));
  ASSERT_EQ(pose["bones"].size(), inspect["bones"].size());
  ExpectIndicesNameTheJoints(pose, "pose");
}

INSTANTIATE_TEST_SUITE_P(
    BundledAndSharedModels, ChainBoneIndices,
    ::testing::Values("", "CesiumMan/CesiumMan.glb", "RiggedFigure/RiggedFigure.glb",
                      "RiggedSimple/RiggedSimple.glb", "Fox/Fox.glb",
                      "MaleBaseMesh/male_base_mesh.glb", "Mesh2MotionHumanMale/human-male.glb",
                      "QuaterniusRobot/robot.glb", "Greenman/greenman.glb"),
    [](const ::testing::TestParamInfo<const char*>& model) {
      std::string name = model.param[0] ? fs::path(model.param).stem().string() : "character";
      for (char& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      }
      return name;
    });

}  // namespace
}  // namespace ikpose::test
