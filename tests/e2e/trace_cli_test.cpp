// `ikpose trace` on the bundled character: pops found where the seed's knee jumps, none under
// the natural policy, the bundled clips' counts and margins, one road with `ikpose pose`, exit
// codes and one-line errors.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "anim/clip.h"
#include "anim/skeleton.h"
#include "asset/load_model.h"
#include "ik/two_bone_positions.h"
#include "run_program.h"
#include "support/leg_sweep.h"

namespace ikpose::test {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const fs::path kCharacter = fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb";
const fs::path kLadderClimb =
    fs::path(IKPOSE_SOURCE_DIR) / "assets" / "scenes" / "ladder_climb.json";

anim::Model Character() {
  anim::Model model;
  std::string error;
  EXPECT_TRUE(asset::TryLoadModel(kCharacter, &model, &error)) << error;
  return model;
}

std::string Vec(const glm::vec3& v) {
  std::ostringstream s;
  s.precision(9);
  s << "[" << v.x << ", " << v.y << ", " << v.z << "]";
  return s.str();
}

std::string Write(const std::string& name, const std::string& text) {
  const std::string path = MakeTempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

using Sweep = LegSweep;

constexpr int kFrames = 40;

float Angle(float from, float to, int i) {
  return LegSweep::Angle(from, to, i, kFrames);
}

// One line a frame at 60 fps, the frame's time printed as the program computes it.
std::string SweepTargets(const Sweep& s, float from, float to) {
  std::ostringstream lines;
  lines.precision(9);
  for (int i = 0; i < kFrames; ++i) {
    lines << "{\"time\": " << static_cast<float>(i / 60.0) << ", \"limbs\": {\"left_leg\": "
          << "{\"target\": " << Vec(s.At(Angle(from, to, i))) << "}}}\n";
  }
  return lines.str();
}

json Trace(const std::vector<std::string>& args, int expected_exit = 0) {
  std::vector<std::string> all = {"trace", kCharacter.string(), "--json"};
  all.insert(all.end(), args.begin(), args.end());
  const ProgramResult r = RunIkpose(all);
  EXPECT_EQ(r.exit_code, expected_exit) << r.err;
  return r.exit_code == expected_exit && !r.out.empty() ? json::parse(r.out) : json();
}

TEST(TraceCli, SeedSweepAcrossTheLegPopsAtTheFrameTheSeedsKneeJumps) {
  const anim::Model model = Character();
  const Sweep s = LeftLegSweep(model);
  // Independently: the seed's positions step from the rest pose, frame by frame.
  const KneeJump expected = SeedKneeJump(s, -30.f, 30.f, kFrames);
  ASSERT_GT(expected.frame, 0);
  const std::string targets = Write("sweep.jsonl", SweepTargets(s, -30.f, 30.f));
  const json seed = Trace({"--targets", targets, "--policy", "seed", "--fail-on-pop"}, 1);
  ASSERT_TRUE(seed.is_object());
  EXPECT_EQ(seed["frames"], kFrames);
  ASSERT_EQ(seed["pops"].size(), 1u) << seed.dump(1);
  EXPECT_EQ(seed["pops"][0]["limb"], "left_leg");
  EXPECT_EQ(seed["pops"][0]["frame"], expected.frame);
  EXPECT_NEAR(seed["pops"][0]["knee_jump"].get<double>(), expected.jump, 1e-3);
  EXPECT_EQ(seed["pops"][0]["cause"], "knee_reference_crossed_axis");
  EXPECT_EQ(seed["policies"]["seed"]["pops"], 1);
  EXPECT_EQ(seed["policies"]["natural"]["pops"], 0);

  const json natural = Trace({"--targets", targets, "--policy", "natural", "--fail-on-pop"}, 0);
  ASSERT_TRUE(natural.is_object());
  EXPECT_TRUE(natural["pops"].empty()) << natural.dump(1);
}

TEST(TraceCli, SmoothPathFarFromTheAxisHasNoPopUnderEitherPolicy) {
  const std::string targets =
      Write("far.jsonl", SweepTargets(LeftLegSweep(Character()), 20.f, 60.f));
  for (const char* policy : {"seed", "natural"}) {
    const json j = Trace({"--targets", targets, "--policy", policy, "--fail-on-pop"}, 0);
    ASSERT_TRUE(j.is_object());
    EXPECT_TRUE(j["pops"].empty()) << policy << ": " << j.dump(1);
  }
}

// The walk with its feet planted as a game's foot pass would: each frame's target is the clip's
// own ankle, lowered onto the ground (the ankle's lowest height in the clip) while within 2 cm of
// it. The README states these numbers.
TEST(TraceCli, WalkWithPlantedFeetHasNoPopAndItsMargins) {
  const anim::Model model = Character();
  const int clip = anim::FindClip(model, "walk");
  ASSERT_GE(clip, 0);
  anim::Pose pose = anim::RestPose(model.skeleton);
  std::vector<std::array<glm::vec3, 2>> feet;
  float ground = 1e9f;
  for (int i = 0; i <= 60; ++i) {
    anim::SampleClip(model.clips[static_cast<std::size_t>(clip)], static_cast<float>(i / 60.0),
                     pose.locals_ls);
    anim::UpdateModels(model.skeleton, pose);
    feet.push_back({anim::EndPositionMs(model.chains[anim::Limb::kLeftLeg], pose),
                    anim::EndPositionMs(model.chains[anim::Limb::kRightLeg], pose)});
    ground = std::min({ground, feet.back()[0].y, feet.back()[1].y});
  }
  std::ostringstream lines;
  lines.precision(9);
  for (int i = 0; i <= 60; ++i) {
    for (glm::vec3& foot : feet[static_cast<std::size_t>(i)]) {
      if (foot.y < ground + 0.02f) foot.y = ground;
    }
    lines << "{\"time\": " << static_cast<float>(i / 60.0) << ", \"limbs\": {\"left_leg\": "
          << "{\"target\": " << Vec(feet[static_cast<std::size_t>(i)][0])
          << "}, \"right_leg\": {\"target\": " << Vec(feet[static_cast<std::size_t>(i)][1])
          << "}}}\n";
  }
  const std::string targets = Write("walk.jsonl", lines.str());
  const json j = Trace({"--clip", "walk", "--targets", targets});
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["frames"], 61);
  EXPECT_TRUE(j["pops"].empty()) << j.dump(1);
  EXPECT_EQ(j["policies"]["seed"]["pops"], 0);
  EXPECT_EQ(j["policies"]["natural"]["pops"], 0);
  for (const char* leg : {"left_leg", "right_leg"}) {
    EXPECT_EQ(j["limbs"][leg]["solved_frames"], 61);
    // A planted foot at full stride is 1.1 cm beyond the leg's reach alone; the body help
    // lowers the pelvis so that it reaches (scene/session/body_solve.h), within a millimetre.
    EXPECT_GT(j["limbs"][leg]["min_margin"].get<double>(), 0.0) << leg;
    EXPECT_LT(j["limbs"][leg]["min_margin"].get<double>(), 0.001) << leg;
  }
}

TEST(TraceCli, LadderClimbHasNoPopAndItsMargins) {
  const json j = Trace({"--scene", kLadderClimb.string()});
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["frames"], 121);
  EXPECT_TRUE(j["pops"].empty()) << j.dump(1);
  EXPECT_EQ(j["policies"]["seed"]["pops"], 0);
  EXPECT_EQ(j["policies"]["natural"]["pops"], 0);
  // Every frame at 60 frames a second: the hands reach their rungs to 3 mm, and no foot that
  // holds a rung is more than 1 cm short of it (the climber's hips are close enough to the
  // ladder and high enough for the lower leg).
  for (const char* arm : {"left_arm", "right_arm"}) {
    EXPECT_GT(j["limbs"][arm]["min_margin"].get<double>(), -0.003) << arm;
  }
  for (const char* leg : {"left_leg", "right_leg"}) {
    EXPECT_GT(j["limbs"][leg]["min_margin"].get<double>(), -0.01) << leg;
  }
}

// A frame of the trace poses exactly as `ikpose pose --scene F --time t` does.
TEST(TraceCli, FramesPoseLikeThePoseCommand) {
  const std::string out = MakeTempDir() + "/climb.jsonl";
  const ProgramResult r = RunIkpose(
      {"trace", "--scene", kLadderClimb.string(), "--from", "0.5", "--to", "0.6", "--out", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(out);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(json::parse(line)["clip"], "ladder_climb");
  int compared = 0;
  while (std::getline(in, line)) {
    const json frame = json::parse(line);
    std::ostringstream time;
    time.precision(17);
    time << frame["time"].get<double>();  // 0.5 s and on: the trace's clock is the clip's
    EXPECT_EQ(frame["clip_time"], frame["time"]);
    const ProgramResult pose =
        RunIkpose({"pose", "--scene", kLadderClimb.string(), "--time", time.str(), "--json"});
    ASSERT_EQ(pose.exit_code, 0) << pose.err;
    const json chains = json::parse(pose.out)["chains"];
    for (const auto& [limb, sample] : frame["limbs"].items()) {
      if (!sample["solved"].get<bool>()) continue;
      ASSERT_TRUE(chains.contains(limb)) << limb;
      // `pose --json` prints 7 significant digits.
      for (int i = 0; i < 3; ++i) {
        EXPECT_NEAR(sample["knee"][i].get<double>(), chains[limb]["b"][i].get<double>(), 2e-6)
            << limb << " at " << time.str();
        EXPECT_NEAR(sample["end"][i].get<double>(), chains[limb]["c"][i].get<double>(), 2e-6)
            << limb << " at " << time.str();
      }
      ++compared;
    }
  }
  EXPECT_GE(compared, 6 * 2);
}

TEST(TraceCli, UsageErrorsExitTwoWithOneLine) {
  for (const std::vector<std::string>& args : {std::vector<std::string>{"--fps", "0"},
                                               {"--fps", "nan"},
                                               {"--fps", "5000"},
                                               {"--from", "2", "--to", "1"},
                                               {"--from", "0", "--to", "1000"},
                                               {"--policy", "sideways"}}) {
    std::vector<std::string> all = {"trace", kCharacter.string()};
    all.insert(all.end(), args.begin(), args.end());
    const ProgramResult r = RunIkpose(all);
    EXPECT_EQ(r.exit_code, 2) << args[0] << " " << args[1] << ": " << r.err;
    EXPECT_EQ(r.err.rfind("ikpose: error: ", 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

TEST(TraceCli, BadTargetsLineIsOneErrorNamingItsLine) {
  const std::string good =
      "{\"time\": 0, \"limbs\": {\"left_leg\": {\"target\": [0, 0.2, 0.1]}}}\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{\"time\": 1, \"limbs\": {\"left_leg\": {\"target\": [0, 0.2]}}}", "limbs.left_leg.target"},
      {"{\"time\": 1, \"limbs\": {\"left_foot\": {\"target\": [0, 0.2, 0]}}}", "limbs.left_foot"},
      {"{\"time\": 0, \"limbs\": {}}", "time"},
      {"{\"limbs\": {}}", "time: missing"},
      {"{\"time\": 1e999, \"limbs\": {}}", ":2:"},
      {"{\"time\": 1, \"limbs\": {", "not valid JSON"}};
  for (const auto& [bad, says] : cases) {
    const std::string path = Write("bad.jsonl", good + bad + "\n");
    const ProgramResult r = RunIkpose({"trace", kCharacter.string(), "--targets", path});
    EXPECT_EQ(r.exit_code, 1) << bad;
    EXPECT_NE(r.err.find("bad.jsonl:2: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

// `frames` frames at 60 fps of all four limbs, each hand and foot circling near where it rests.
std::string FourLimbTargets(const anim::Model& model, int frames) {
  const anim::Pose rest = anim::RestPose(model.skeleton);
  std::ostringstream lines;
  lines.precision(9);
  for (int i = 0; i < frames; ++i) {
    const float a = static_cast<float>(i) * 0.05f;
    lines << "{\"time\": " << static_cast<float>(i / 60.0) << ", \"limbs\": {";
    for (anim::Limb limb : anim::kLimbs) {
      const glm::vec3 end = anim::EndPositionMs(model.chains[limb], rest) +
                            0.05f * glm::vec3(std::sin(a), 0.5f + 0.5f * std::cos(a), 0.5f);
      lines << (limb == anim::Limb::kLeftArm ? "" : ", ") << "\"" << anim::LimbName(limb)
            << "\": {\"target\": " << Vec(end) << "}";
    }
    lines << "}}\n";
  }
  return lines.str();
}

// Runs `ikpose trace` on `targets` with --out under a 2 GB address-space cap (prlimit --as) and
// returns the run's peak resident memory in bytes (from a child that waits for it alone).
long TracePeakBytes(const std::string& targets, const std::string& out) {
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) return -1;
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(pipe_fds[0]);
    const ProgramResult r =
        RunIkposeUnder({"prlimit", "--as=2000000000", "--"},
                       {"trace", kCharacter.string(), "--targets", targets, "--out", out});
    rusage usage{};
    ::getrusage(RUSAGE_CHILDREN, &usage);
    const long bytes = r.exit_code == 0 ? usage.ru_maxrss * 1024l : -1;
    if (::write(pipe_fds[1], &bytes, sizeof bytes) != sizeof bytes) std::_Exit(1);
    std::_Exit(0);
  }
  ::close(pipe_fds[1]);
  long bytes = -1;
  if (::read(pipe_fds[0], &bytes, sizeof bytes) != sizeof bytes) bytes = -1;
  ::close(pipe_fds[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  return bytes;
}

// A trace of all four limbs runs under an address-space cap, and its peak resident memory grows
// by under 2 KB a frame from 10 to 1,000 frames (what it keeps: the solved frames, 800 bytes
// each, and the targets index), so the longest trace, 36,000 frames, stays under 100 MB over
// the program's own. The model's load peaks above what 1,000 frames keep, so only a growth of
// tens of kilobytes a frame shows here.
TEST(TraceCli, WhatATraceKeepsGrowsByAboutAKilobyteAFrame) {
  if (BuiltWithAddressSanitizer()) GTEST_SKIP() << "ASan's shadow memory needs the address space";
  const anim::Model model = Character();
  const std::string dir = MakeTempDir();
  long peak[2] = {0, 0};
  const int frames[2] = {10, 1000};
  for (int k = 0; k < 2; ++k) {
    const std::string targets = dir + "/t" + std::to_string(k) + ".jsonl";
    std::ofstream(targets) << FourLimbTargets(model, frames[k]);
    peak[k] = TracePeakBytes(targets, dir + "/trace.jsonl");
    ASSERT_GT(peak[k], 0) << frames[k] << " frames: the trace failed";
  }
  const double per_frame = static_cast<double>(peak[1] - peak[0]) / (frames[1] - frames[0]);
  EXPECT_LT(per_frame, 2048.0) << "bytes a frame (peaks " << peak[0] << ", " << peak[1] << ")";
  EXPECT_LT(per_frame * 36000.0, 100e6);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ikpose::test
