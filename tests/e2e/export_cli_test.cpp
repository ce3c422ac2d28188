// `ikpose export` as a user runs it: a pose saved by `ikpose pose --out` (or targets given
// straight to export) comes out as a .glb whose node pose is that pose, checked by reading the
// file back with `ikpose inspect`; the file passes the Khronos validator (skipped, saying so,
// when node or the validator is not installed); every bad input is one line on stderr and
// leaves no file behind.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_program.h"

namespace ikpose::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const char* kFootTarget = "left_leg=0.14,0.35,0.25";
const char* kHandTarget = "right_arm=-0.3,1.25,0.35";

fs::path SharedModel(const char* file) {
  const fs::path path = fs::path(IKPOSE_SOURCE_DIR) / ".." / "shared" / "models" / file;
  return fs::exists(path) ? path.lexically_normal() : fs::path();
}

void ExpectOneLineError(const ProgramResult& r, const std::string& part) {
  EXPECT_NE(r.exit_code, 0);
  EXPECT_LT(r.exit_code, 128) << "crashed";
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("ikpose: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(part), std::string::npos) << r.err;
}

json Inspect(const fs::path& model) {
  const ProgramResult r = RunIkpose({"inspect", model.string(), "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(r.out);
}

// Bone name -> model-space position, from `inspect` (rest_position_ms) or `pose` (position_ms).
std::map<std::string, std::vector<double>> Positions(const json& bones, const char* field) {
  std::map<std::string, std::vector<double>> out;
  for (const json& b : bones) out[b["name"]] = b[field].get<std::vector<double>>();
  return out;
}

double Distance(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0;
  for (int i = 0; i < 3; ++i) d += (a[i] - b[i]) * (a[i] - b[i]);
  return std::sqrt(d);
}

// The exported file's node pose (its bones' rest positions) is the pose in `pose_json` (what
// `ikpose pose --json` printed), bone by bone.
void ExpectNodePoseIs(const fs::path& exported_file, const std::string& pose_json) {
  const auto want = Positions(json::parse(pose_json)["bones"], "position_ms");
  const json exported = Inspect(exported_file);
  const auto got = Positions(exported["bones"], "rest_position_ms");
  for (const auto& [name, position] : want) {
    EXPECT_LT(Distance(got.at(name), position), 1e-5 * exported["height"].get<double>()) << name;
  }
}

// The same for the pose `ikpose pose ARGS` reports.
void ExpectNodePoseIsPoses(const fs::path& exported_file, std::vector<std::string> pose_args) {
  pose_args.insert(pose_args.begin(), "pose");
  pose_args.push_back("--json");
  const ProgramResult posed = RunIkpose(pose_args);
  ASSERT_EQ(posed.exit_code, 0) << posed.err;
  ExpectNodePoseIs(exported_file, posed.out);
}

// Runs tools/validator on `file`; expects no errors unless it is not installed.
void ExpectValid(const fs::path& file) {
  const std::string command = std::string("sh '") + IKPOSE_SOURCE_DIR +
                              "/tests/assets/run_validator.sh' '" + IKPOSE_SOURCE_DIR +
                              "/tools/validator' '" + file.string() + "' 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  char buffer[4096];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof(buffer), pipe)) > 0) output.append(buffer, n);
  const int status = ::pclose(pipe);
  const int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (code == 77) {
    std::cout << "validator not run, " << output;
    return;
  }
  EXPECT_EQ(code, 0) << output;
}

std::vector<std::string> Files(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(ExportCli, SavedPoseComesOutAsTheExportedFilesNodePose) {
  const fs::path dir = MakeTempDir();
  const fs::path pose_file = dir / "pose.json";
  const ProgramResult posed = RunIkpose({"pose", "--target", kFootTarget, "--target", kHandTarget,
                                         "--json", "--out", pose_file.string()});
  ASSERT_EQ(posed.exit_code, 0) << posed.err;
  const json report = json::parse(posed.out);

  // No MODEL: the pose file names it.
  const fs::path out = dir / "posed.glb";
  const ProgramResult r =
      RunIkpose({"export", "--pose", pose_file.string(), "--out", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("wrote " + out.string()), std::string::npos) << r.out;
  EXPECT_EQ(Files(dir), (std::vector<std::string>{"pose.json", "posed.glb"}));

  const json exported = Inspect(out);
  const double tolerance = 1e-5 * exported["height"].get<double>();
  const auto want = Positions(report["bones"], "position_ms");
  const auto got = Positions(exported["bones"], "rest_position_ms");
  double worst = 0;
  for (const auto& [name, position] : want) {
    ASSERT_EQ(got.count(name), 1u) << name;
    worst = std::max(worst, Distance(got.at(name), position));
    EXPECT_LT(Distance(got.at(name), position), tolerance) << name;
  }
  std::cout << "worst joint difference through pose.json: " << worst << "\n";
  // The foot and hand of the exported file are on their targets.
  const std::string foot = report["chains"]["left_leg"]["joints"][2];
  const std::string hand = report["chains"]["right_arm"]["joints"][2];
  EXPECT_LT(Distance(got.at(foot), {0.14, 0.35, 0.25}), tolerance);
  EXPECT_LT(Distance(got.at(hand), {-0.3, 1.25, 0.35}), tolerance);
  EXPECT_TRUE(exported["clips"].empty());
  ExpectValid(out);
  fs::remove_all(dir);
}

TEST(ExportCli, TargetsGoStraightToAPosedFile) {
  const fs::path dir = MakeTempDir();
  const fs::path out = dir / "posed.glb";
  const ProgramResult r = RunIkpose(
      {"export", "--target", kFootTarget, "--target", kHandTarget, "--out", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("left_leg: reachable"), std::string::npos) << r.out;
  ExpectNodePoseIsPoses(out, {"--target", kFootTarget, "--target", kHandTarget});
  fs::remove_all(dir);
}

TEST(ExportCli, ScenarioClipAndLimbsArePosedLikePoseDoesIt) {
  const fs::path dir = MakeTempDir();
  const fs::path scene = dir / "scene.json";
  std::ofstream(scene) << R"({"model": ")"
                       << (fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb").string()
                       << R"(", "clip": "walk", "time": 0.3,
      "limbs": {"left_leg": {"target": [0.14, 0.3, 0.2]}}})";
  const fs::path out = dir / "walk.glb";
  const ProgramResult r = RunIkpose({"export", "--scene", scene.string(), "--out", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("from clip 'walk'"), std::string::npos) << r.out;
  ExpectNodePoseIsPoses(out, {"--scene", scene.string()});
  fs::remove_all(dir);
}

TEST(ExportCli, SharedModelWithDuplicateNamesRoundTrips) {
  const fs::path model = SharedModel("QuaterniusRobot/robot.glb");
  if (model.empty()) GTEST_SKIP() << "../shared/models is absent; test skipped";
  const fs::path dir = MakeTempDir();
  const fs::path pose_file = dir / "pose.json";
  const ProgramResult posed =
      RunIkpose({"pose", model.string(), "--target", "left_arm=1.2,3.4,1.0", "--target",
                 "right_leg=-0.64,0.8,0.8", "--json", "--out", pose_file.string()});
  ASSERT_EQ(posed.exit_code, 0) << posed.err;
  const fs::path out = dir / "robot-posed.glb";
  const ProgramResult r =
      RunIkpose({"export", "--pose", pose_file.string(), "--out", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ExpectNodePoseIs(out, posed.out);
  ExpectValid(out);
  fs::remove_all(dir);
}

TEST(ExportCli, BadInputGivesOneLineErrorsAndLeavesNoFile) {
  const fs::path dir = MakeTempDir();
  const std::string out = (dir / "posed.glb").string();
  const auto write = [&dir](const char* name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  };
  const std::string character = (fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb").string();
  const std::string good = write("good.json", R"({"model": ")" + character +
                                                  R"(", "bones": [{"name": "pelvis",
      "rotation_ls": [0, 0, 0, 1]}]})");
  ExpectOneLineError(RunIkpose({"export", "--pose", (dir / "nope.json").string(), "--out", out}),
                     "nope.json: file not found");
  ExpectOneLineError(
      RunIkpose({"export", "--pose", write("broken.json", "{\"bones\": [{"), "--out", out}),
      "broken.json: not valid JSON");
  ExpectOneLineError(
      RunIkpose({"export", "--pose", write("huge.json", R"({"bones": [{"name": "pelvis",
      "rotation_ls": [0, 0, 0, 1], "translation_ls": [0, 1e999, 0]}]})"),
                 "--out", out}),
      "huge.json: holds a non-finite number");
  ExpectOneLineError(
      RunIkpose({"export", "--pose", write("other.json", R"({"bones": [{"name": "Hips",
      "rotation_ls": [0, 0, 0, 1]}, {"name": "Spine", "rotation_ls": [0, 0, 0, 1]}]})"),
                 "--out", out}),
      "other.json: none of its 2 bones is in character.glb");
  ExpectOneLineError(
      RunIkpose({"export", "--pose", write("tail.json", R"({"bones": [{"name": "pelvis",
      "rotation_ls": [0, 0, 0, 1]}, {"name": "tail", "rotation_ls": [0, 0, 0, 1]}]})"),
                 "--out", out}),
      "tail.json: bone 'tail' is not in character.glb");
  ExpectOneLineError(RunIkpose({"export", "--pose", write("model.json", R"({"model": "missing.glb",
      "bones": [{"name": "pelvis", "rotation_ls": [0, 0, 0, 1]}]})"),
                                "--out", out}),
                     "missing.glb: file not found");
  ExpectOneLineError(RunIkpose({"export", "--pose", good}), "--out is required");
  ExpectOneLineError(RunIkpose({"export", "--pose", good, "--out", (dir / "x.gltf").string()}),
                     "must name a .glb file");
  ExpectOneLineError(RunIkpose({"export", "--out", out}), "nothing to pose");
  ExpectOneLineError(RunIkpose({"export", "--pose", good, "--clip", "walk", "--out", out}),
                     "both give the starting pose");
  ExpectOneLineError(
      RunIkpose({"export", "--pose", good, "--out", (dir / "missing" / "x.glb").string()}),
      "does not exist");
  ExpectOneLineError(RunIkpose({"export", "--target", "left_leg=nan,0,0", "--out", out}),
                     "not a finite point");
  ExpectOneLineError(RunIkpose({"export", "--target", "tail_tip=0,0,0", "--out", out}),
                     "no chain or bone named 'tail_tip'");
  // The model itself is never overwritten.
  fs::copy_file(character, dir / "hero.glb");
  ExpectOneLineError(RunIkpose({"export", (dir / "hero.glb").string(), "--pose", good, "--out",
                                (dir / "hero.glb").string()}),
                     "is the model itself");
  EXPECT_EQ(fs::file_size(dir / "hero.glb"), fs::file_size(character));
  // No .glb and no temporary file was left behind.
  for (const std::string& name : Files(dir)) {
    EXPECT_TRUE(name.ends_with(".json") || name == "hero.glb") << name;
  }
  // A failed export leaves an existing file as it was.
  write("posed.glb", "earlier export");
  ExpectOneLineError(RunIkpose({"export", "--pose", (dir / "tail.json").string(), "--out", out}),
                     "tail");
  std::ifstream earlier(out);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(earlier), {}), "earlier export");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ikpose::test
