// `ikpose export` as a user runs it: a pose saved by `ikpose pose --out` (or targets given
// straight to export) comes out as a .glb whose node pose is that pose, checked by reading the
// file back with `ikpose inspect`; the file passes the Khronos validator (skipped, saying so,
// when node or the validator is not installed); every bad input is one line on stderr and
// leaves no file behind.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

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

// --- export --bake ---------------------------------------------------------------------------

// Every joint of `baked` playing `clip` at each time in `times` lies within `tolerance` (times
// the body's height) of `ikpose pose POSE_ARGS --time t`; returns the largest difference.
// `ground` false: both with the ground off (a clip's own keys, not the ground's re-solve of them).
double ExpectBakedIsPose(const fs::path& baked, const std::string& clip,
                         const std::vector<std::string>& pose_args,
                         const std::vector<std::string>& times, double tolerance,
                         bool ground = true) {
  const double height = Inspect(baked)["height"].get<double>();
  double worst = 0;
  for (const std::string& t : times) {
    std::vector<std::string> want_args{"pose"};
    want_args.insert(want_args.end(), pose_args.begin(), pose_args.end());
    // Without a clip (targets alone) the pose has no time; the bake's frame holds that target.
    const bool clip_played =
        std::find(pose_args.begin(), pose_args.end(), "--clip") != pose_args.end() ||
        std::find(pose_args.begin(), pose_args.end(), "--scene") != pose_args.end();
    if (clip_played) want_args.insert(want_args.end(), {"--time", t});
    want_args.push_back("--json");
    if (!ground) want_args.insert(want_args.end(), {"--ground", "off"});
    const ProgramResult want = RunIkpose(want_args);
    std::vector<std::string> got_args{"pose", baked.string(), "--clip", clip, "--time",
                                      t,      "--json"};
    if (!ground) got_args.insert(got_args.end(), {"--ground", "off"});
    const ProgramResult got = RunIkpose(got_args);
    EXPECT_EQ(want.exit_code, 0) << want.err;
    EXPECT_EQ(got.exit_code, 0) << got.err;
    if (want.exit_code != 0 || got.exit_code != 0) return 1e9;
    const auto a = Positions(json::parse(want.out)["bones"], "position_ms");
    const auto b = Positions(json::parse(got.out)["bones"], "position_ms");
    for (const auto& [name, position] : a) {
      EXPECT_EQ(b.count(name), 1u) << name;
      if (b.count(name) == 0) continue;
      worst = std::max(worst, Distance(position, b.at(name)));
      EXPECT_LT(Distance(position, b.at(name)), tolerance * height) << name << " at " << t;
    }
  }
  return worst;
}

std::map<std::string, double> ClipDurations(const fs::path& model) {
  std::map<std::string, double> out;
  const json report = Inspect(model);  // alive through the loop
  for (const json& c : report["clips"]) {
    out[c["name"].get<std::string>()] = c["duration"].get<double>();
  }
  return out;
}

TEST(BakeCli, LadderClimbBakedPlaysBackThePoseAtEveryHalfSecond) {
  const fs::path dir = MakeTempDir();
  const fs::path out = dir / "climb.glb";
  const std::string scene = std::string(IKPOSE_SOURCE_DIR) + "/assets/scenes/ladder_climb.json";
  const ProgramResult r =
      RunIkpose({"export", "--scene", scene, "--bake", "--fps", "10", "--out", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find("clip 'ladder_climb' baked: 21 frames at 10 fps"), std::string::npos)
      << r.out;
  // 1 mm for a 1.8 m body, as the contract says.
  const double worst = ExpectBakedIsPose(out, "ladder_climb", {"--scene", scene},
                                         {"0", "0.5", "1", "1.5", "2"}, 0.001 / 1.8);
  std::cout << "ladder_climb baked at 10 fps: largest joint difference " << worst << "\n";
  // The model's other clips are kept as they were; the baked one keeps its length.
  EXPECT_EQ(ClipDurations(out),
            ClipDurations(fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb"));
  ExpectBakedIsPose(out, "walk", {"--clip", "walk"}, {"0.3"}, 1e-6, false);
  ExpectValid(out);
  fs::remove_all(dir);
}

TEST(BakeCli, AWalkWithAFootTargetIsBakedWithTheTarget) {
  const fs::path dir = MakeTempDir();
  const fs::path out = dir / "walk.glb";
  const ProgramResult r = RunIkpose({"export", "--clip", "walk", "--target", kFootTarget, "--bake",
                                     "--fps", "10", "--out", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ExpectBakedIsPose(out, "walk", {"--clip", "walk", "--target", kFootTarget}, {"0", "0.5", "1"},
                    0.001 / 1.8);
  fs::remove_all(dir);
}

TEST(BakeCli, AnotherCharactersWalkWithAFootTarget) {
  const fs::path robot = SharedModel("QuaterniusRobot/robot.glb");
  if (robot.empty()) GTEST_SKIP() << "../shared/models is not beside the checkout";
  const fs::path dir = MakeTempDir();
  const fs::path out = dir / "robot.glb";
  const char* target = "left_leg=0.3,0.3,0.4";  // its feet are IK-target bones off the leg
  const ProgramResult r =
      RunIkpose({"export", robot.string(), "--clip", "Robot_Walking", "--target", target, "--bake",
                 "--fps", "10", "--out", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ExpectBakedIsPose(out, "Robot_Walking",
                    {robot.string(), "--clip", "Robot_Walking", "--target", target}, {"0", "0.5"},
                    0.001 / 1.8);
  EXPECT_EQ(ClipDurations(out), ClipDurations(robot));
  fs::remove_all(dir);
}

TEST(BakeCli, TargetsOverTimeBakeAClipCalledIk) {
  const fs::path dir = MakeTempDir();
  const fs::path targets = dir / "targets.jsonl";
  {
    std::ofstream file(targets);
    for (const char* line :
         {R"({"time": 0, "limbs": {"left_leg": {"target": [0.14, 0.35, 0.25]}}})",
          R"({"time": 0.5, "limbs": {"left_leg": {"target": [0.14, 0.45, 0.3]}}})",
          R"({"time": 1, "limbs": {}})"}) {
      file << line << "\n";
    }
  }
  const fs::path out = dir / "ik.glb";
  const ProgramResult r = RunIkpose(
      {"export", "--targets", targets.string(), "--bake", "--fps", "4", "--out", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("clip 'ik' baked: 5 frames"), std::string::npos) << r.out;
  const auto durations = ClipDurations(out);
  ASSERT_EQ(durations.count("ik"), 1u);
  EXPECT_EQ(durations.at("ik"), 1.0);
  // A target holds until the next line moves it, as in `ikpose trace`.
  ExpectBakedIsPose(out, "ik", {"--target", "left_leg=0.14,0.35,0.25"}, {"0", "0.25"}, 1e-6);
  ExpectBakedIsPose(out, "ik", {"--target", "left_leg=0.14,0.45,0.3"}, {"0.5", "0.75"}, 1e-6);
  fs::remove_all(dir);
}

TEST(BakeCli, MaxErrorDropsKeysWithinTheStatedDistance) {
  const fs::path dir = MakeTempDir();
  const std::string scene = std::string(IKPOSE_SOURCE_DIR) + "/assets/scenes/ladder_climb.json";
  const fs::path full = dir / "full.glb";
  const fs::path reduced = dir / "reduced.glb";
  ASSERT_EQ(RunIkpose({"export", "--scene", scene, "--bake", "--out", full.string()}).exit_code, 0);
  const ProgramResult r = RunIkpose(
      {"export", "--scene", scene, "--bake", "--max-error", "0.001", "--out", reduced.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("keys reduced"), std::string::npos) << r.out;
  EXPECT_LT(fs::file_size(reduced), fs::file_size(full));
  // Played back, the reduced file stays within 1 mm of the full one (and of the one road).
  for (const char* t : {"0.1", "0.55", "1.3", "1.95"}) {
    const auto a = Positions(json::parse(RunIkpose({"pose", full.string(), "--clip", "ladder_climb",
                                                    "--time", t, "--json"})
                                             .out)["bones"],
                             "position_ms");
    const auto b = Positions(json::parse(RunIkpose({"pose", reduced.string(), "--clip",
                                                    "ladder_climb", "--time", t, "--json"})
                                             .out)["bones"],
                             "position_ms");
    for (const auto& [name, position] : a) EXPECT_LE(Distance(position, b.at(name)), 0.001) << name;
  }
  ExpectValid(reduced);
  fs::remove_all(dir);
}

TEST(BakeCli, CtrlCDuringABakeLeavesNoFile) {
  const fs::path dir = MakeTempDir();
  const std::string out = (dir / "long.glb").string();
  const std::string scene = std::string(IKPOSE_SOURCE_DIR) + "/assets/scenes/ladder_climb.json";
  // 1000 frames a second over 20 s (the clip loops): many seconds of work, interrupted at 1 s
  // the way a terminal's Ctrl+C does (SIGINT with its default action).
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ::signal(SIGINT, SIG_DFL);
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 1);
    ::dup2(null, 2);
    ::execl(IKPOSE_EXE, IKPOSE_EXE, "export", "--scene", scene.c_str(), "--bake", "--fps", "1000",
            "--to", "20", "--out", out.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  ::sleep(1);
  ::kill(pid, SIGINT);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << status;
  EXPECT_TRUE(Files(dir).empty()) << Files(dir).front();
  fs::remove_all(dir);
}

TEST(BakeCli, BadBakeRequestsAreOneLineErrors) {
  const fs::path dir = MakeTempDir();
  const std::string out = (dir / "x.glb").string();
  const std::string scene = std::string(IKPOSE_SOURCE_DIR) + "/assets/scenes/ladder_climb.json";
  auto bake = [&](std::vector<std::string> more) {
    std::vector<std::string> args{"export", "--scene", scene, "--bake", "--out", out};
    args.insert(args.end(), more.begin(), more.end());
    return RunIkpose(args);
  };
  ExpectOneLineError(bake({"--fps", "0"}), "--fps");
  ExpectOneLineError(bake({"--fps", "nan"}), "--fps");
  ExpectOneLineError(bake({"--from", "2", "--to", "1"}), "--from");
  ExpectOneLineError(bake({"--from", "-1"}), "--from");
  ExpectOneLineError(bake({"--max-error", "-0.1"}), "--max-error");
  ExpectOneLineError(bake({"--time", "1"}), "--time");
  ExpectOneLineError(bake({"--to", "100000"}), "frames");
  ExpectOneLineError(bake({"--targets", (dir / "missing.jsonl").string()}), "missing.jsonl");
  std::ofstream(dir / "bad.jsonl")
      << "{\"time\": 0, \"limbs\": {\"left_leg\": {\"target\": [1]}}}\n";
  ExpectOneLineError(bake({"--targets", (dir / "bad.jsonl").string()}), "bad.jsonl");
  ExpectOneLineError(RunIkpose({"export", "--clip", "dance", "--bake", "--out", out}), "dance");
  ExpectOneLineError(RunIkpose({"export", "--bake", "--out", out}), "nothing to bake");
  ExpectOneLineError(RunIkpose({"export", "--clip", "walk", "--lock-feet", "--out", out}),
                     "need --bake");
  for (const ProgramResult& usage :
       {bake({"--fps", "0"}), RunIkpose({"export", "--bake", "--out", out})}) {
    EXPECT_EQ(usage.exit_code, 2);
  }
  EXPECT_TRUE(Files(dir).size() == 1 && Files(dir)[0] == "bad.jsonl");
  fs::remove_all(dir);
}

TEST(BakeCli, LockFeetSaysHowFarEachFootSlidBeforeAndAfter) {
  const fs::path dir = MakeTempDir();
  const fs::path out = dir / "idle.glb";
  const ProgramResult r =
      RunIkpose({"export", "--clip", "idle", "--bake", "--lock-feet", "--out", out.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The bundled idle sways its planted feet by a few millimetres; locked, they stay put.
  for (const char* leg : {"left_leg", "right_leg"}) {
    const std::string prefix = std::string("foot lock ") + leg + ": 1 plants";
    EXPECT_NE(r.out.find(prefix), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("before, 0.0 mm after", r.out.find(prefix)), std::string::npos) << r.out;
  }
  // The bundled walk walks in place: its planted feet are held to the moving ground.
  const ProgramResult walk = RunIkpose(
      {"export", "--clip", "walk", "--bake", "--lock-feet", "--out", (dir / "walk.glb").string()});
  ASSERT_EQ(walk.exit_code, 0) << walk.err;
  for (const char* leg : {"left_leg", "right_leg"}) {
    const std::size_t at = walk.out.find(std::string("foot lock ") + leg + ": 1 plants");
    ASSERT_NE(at, std::string::npos) << walk.out;
    EXPECT_NE(walk.out.find("before, 0.0 mm after", at), std::string::npos) << walk.out;
    EXPECT_EQ(walk.out.find(" 0.0 mm before", at), std::string::npos) << walk.out;  // it slid
  }
  // `ikpose trace` of the same clip at the same rate states the same slide before the lock.
  const ProgramResult trace =
      RunIkpose({"trace", "--clip", "walk", "--to", "1", "--fps", "30", "--json"});
  ASSERT_EQ(trace.exit_code, 0) << trace.err;
  const json feet = json::parse(trace.out)["feet"];
  for (const char* leg : {"left_leg", "right_leg"}) {
    ASSERT_TRUE(feet.contains(leg)) << trace.out;
    EXPECT_EQ(feet[leg]["plants"], 1);
    char said[64];
    std::snprintf(said, sizeof(said), "slide %.1f mm before", feet[leg]["slide_mm"].get<double>());
    EXPECT_NE(walk.out.find(said, walk.out.find(std::string("foot lock ") + leg)),
              std::string::npos)
        << said << " in " << walk.out;
  }
  // The baked feet do not move: read back from the file at several times.
  const std::string foot = Inspect(out)["chains"]["left_leg"]["joints"][2];
  std::vector<double> first;
  for (const char* t : {"0", "0.7", "1.4", "2.1", "2.8"}) {
    const auto p = Positions(
        json::parse(RunIkpose({"pose", out.string(), "--clip", "idle", "--time", t, "--json"})
                        .out)["bones"],
        "position_ms");
    if (first.empty()) first = p.at(foot);
    EXPECT_LT(Distance(p.at(foot), first), 1e-4) << t;
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ikpose::test
