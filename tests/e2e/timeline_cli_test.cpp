// `ikpose render --trace`: a trace written by `ikpose trace --out` opens on the timeline, its
// pop is found and selected, the frame shown poses as the trace recorded it, and the seed ghost
// is what `ikpose pose --policy seed` gives for that frame.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_program.h"

namespace ikpose::test {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using Vec = std::array<double, 3>;

Vec Get(const Json& j) {
  return {j[0].get<double>(), j[1].get<double>(), j[2].get<double>()};
}
double Distance(const Vec& a, const Vec& b) {
  return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                   (a[2] - b[2]) * (a[2] - b[2]));
}
Vec Normalized(Vec v) {
  const double n = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  return {v[0] / n, v[1] / n, v[2] / n};
}

// The bundled character's left foot target swept at 0.7 leg lengths from the hip through the
// rest knee's direction, forward and back: one degree a frame, the hip-target axis passing
// the rest knee (the seed's reference) between frames 29 and 30.
struct Sweep {
  std::string targets_path;
  std::vector<Vec> targets;
};

Sweep WriteSweep(const std::string& dir) {
  const ProgramResult inspect = RunIkpose({"inspect", "--json"});
  EXPECT_EQ(inspect.exit_code, 0) << inspect.err;
  const Json model = Json::parse(inspect.out);
  const Json& leg = model["chains"]["left_leg"];
  Vec hip{}, knee{};
  for (const Json& bone : model["bones"]) {
    if (bone["name"] == leg["joints"][0]) hip = Get(bone["rest_position_ms"]);
    if (bone["name"] == leg["joints"][1]) knee = Get(bone["rest_position_ms"]);
  }
  const Vec along = Normalized({knee[0] - hip[0], knee[1] - hip[1], knee[2] - hip[2]});
  // Forward (+z, where the bundled character faces) without its part along the thigh.
  const double d = along[2];
  const Vec across = Normalized({-d * along[0], -d * along[1], 1 - d * along[2]});
  const double radius = 0.7 * (leg["lengths"][0].get<double>() + leg["lengths"][1].get<double>());
  Sweep sweep;
  sweep.targets_path = dir + "/sweep.jsonl";
  std::ofstream out(sweep.targets_path);
  for (int i = 0; i <= 60; ++i) {
    const double a = (-29.5 + i) * M_PI / 180.0;
    Vec t;
    for (int k = 0; k < 3; ++k)
      t[k] = hip[k] + radius * (std::cos(a) * along[k] + std::sin(a) * across[k]);
    sweep.targets.push_back(t);
    out << Json{{"time", i / 60.0}, {"limbs", {{"left_leg", {{"target", t}}}}}}.dump() << "\n";
  }
  return sweep;
}

Json ReadJson(const std::string& path) {
  std::ifstream in(path);
  return Json::parse(in);
}

TEST(TimelineCli, TraceOpensOnTheTimelineWithItsPopSelectedAndExplained) {
  const std::string dir = MakeTempDir();
  const Sweep sweep = WriteSweep(dir);
  const std::string trace = dir + "/seed.jsonl";
  const ProgramResult traced = RunIkpose(
      {"trace", "--targets", sweep.targets_path, "--policy", "seed", "--out", trace, "--json"});
  ASSERT_EQ(traced.exit_code, 0) << traced.err;
  const Json summary = Json::parse(traced.out);
  ASSERT_EQ(summary["pops"].size(), 1u) << traced.out;
  const int pop_frame = summary["pops"][0]["frame"].get<int>();
  EXPECT_EQ(pop_frame, 30);  // where the target passes the rest knee's side of the axis

  // Opened at frame 0: every frame on the timeline, the pop found as ikpose trace found it.
  const std::string report0 = dir + "/report0.json";
  const ProgramResult opened = RunIkpose({"render", "--trace", trace, "--out", dir + "/0.png",
                                          "--size", "640x400", "--report", report0});
  ASSERT_EQ(opened.exit_code, 0) << opened.err;
  const Json timeline0 = ReadJson(report0)["viewer"]["timeline"];
  EXPECT_EQ(timeline0["frames"], 61);
  EXPECT_EQ(timeline0["current_frame"], 0);
  ASSERT_EQ(timeline0["pops"].size(), 1u) << timeline0.dump();
  EXPECT_EQ(timeline0["pops"][0]["frame"], pop_frame);
  EXPECT_EQ(timeline0["pops"][0]["limb"], "left_leg");
  EXPECT_EQ(timeline0["pops"][0]["cause"], summary["pops"][0]["cause"]);
  EXPECT_EQ(timeline0["policies"]["seed"]["pops"], 1);
  EXPECT_EQ(timeline0["policies"]["natural"]["pops"], 0);

  // Scrubbed to the pop: selected, the pose shown is the trace's frame, the seed ghost is what
  // `ikpose pose --policy seed` gives for that frame's target.
  const std::string report = dir + "/report.json";
  const ProgramResult at_pop =
      RunIkpose({"render", "--trace", trace, "--frame", std::to_string(pop_frame), "--out",
                 dir + "/pop.png", "--size", "640x400", "--overlay", "--report", report});
  ASSERT_EQ(at_pop.exit_code, 0) << at_pop.err;
  const Json shown = ReadJson(report);
  const Json& timeline = shown["viewer"]["timeline"];
  EXPECT_EQ(timeline["current_frame"], pop_frame);
  EXPECT_EQ(timeline["selected_pop"], 0);

  std::ifstream lines(trace);
  std::string line;
  for (int i = 0; i <= pop_frame + 1 && std::getline(lines, line); ++i) {
  }
  const Json recorded = Json::parse(line)["limbs"]["left_leg"];
  const double tolerance = 1e-5 * 1.8;  // of the character's height
  EXPECT_LE(Distance(Get(shown["chains"]["left_leg"]["b"]), Get(recorded["knee"])), tolerance)
      << "the knee shown is not the trace's";

  const Vec target = Get(recorded["input"]["target"]);
  char point[128];
  std::snprintf(point, sizeof point, "left_leg=%.9g,%.9g,%.9g", target[0], target[1], target[2]);
  const ProgramResult pose = RunIkpose({"pose", "--json", "--policy", "seed", "--target", point});
  ASSERT_EQ(pose.exit_code, 0) << pose.err;
  const Vec seed_knee = Get(Json::parse(pose.out)["chains"]["left_leg"]["b"]);
  EXPECT_LE(Distance(Get(timeline["ghosts"]["seed"]["left_leg"]["knee"]), seed_knee), 1e-4)
      << "the seed ghost is not what pose --policy seed gives";
  EXPECT_GT(Distance(Get(timeline["ghosts"]["natural"]["left_leg"]["knee"]), seed_knee), 0.1)
      << "the natural ghost should keep the knee in front, away from the seed's";
}

// A game's ladder (where it stands and its sizes), the props it moved, and limits and body help
// switched off: `trace --out` keeps them, written where they change, and the trace opened again
// poses every frame with them, as the trace solved it.
TEST(TimelineCli, ATraceKeepsTheLaddersSizesThePropsAndTheSwitchesAndOpensWithThem) {
  const std::string dir = MakeTempDir();
  const std::string targets = dir + "/game.jsonl";
  std::ofstream(targets)
      << "{\"time\": 0, \"limbs\": {\"left_leg\": {\"target\": [0.14, 0.35, 0.25]}}}\n"
         "{\"time\": 0.1, \"limbs\": {}, \"ladder\": {\"base\": [0.05, 0, 0.4], "
         "\"rung_spacing\": 0.28, \"first_rung_height\": 0.3, \"rung_radius\": 0.025, "
         "\"rail_width\": 0.45, \"rung_count\": 9}}\n"
         "{\"time\": 0.2, \"limbs\": {}, \"props\": [{\"index\": 0, \"position\": [0.8, 0, "
         "1], \"yaw_deg\": 20}]}\n"
         "{\"time\": 0.3, \"limbs\": {\"left_leg\": {\"target\": [0.3, 0.6, 0.5]}}}\n";
  const std::string box = std::string(IKPOSE_SOURCE_DIR) + "/assets/props/box.glb";
  const std::string trace = dir + "/game_trace.jsonl";
  const ProgramResult traced =
      RunIkpose({"trace", "--targets", targets, "--prop", box + "@1,0,1", "--limits", "off",
                 "--body-help", "off", "--fps", "10", "--out", trace, "--json"});
  ASSERT_EQ(traced.exit_code, 0) << traced.err;

  std::ifstream in(trace);
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  const Json header = Json::parse(line);
  EXPECT_EQ(header["limits"], false) << line;
  EXPECT_EQ(header["body_help"], false) << line;
  EXPECT_EQ(header["ground"], true) << line;      // the feet stand on the prop
  ASSERT_EQ(header["props"].size(), 1u) << line;  // --prop, named from the trace's folder
  // The same file, however the relative name walks there (a checkout beside the temporary
  // folder gets "../").
  EXPECT_EQ((fs::path(dir) / header["props"][0]["file"].get<std::string>()).lexically_normal(),
            fs::path(box).lexically_normal())
      << line;
  std::vector<Json> frames;
  while (std::getline(in, line)) frames.push_back(Json::parse(line));
  ASSERT_EQ(frames.size(), 4u);
  // Written where they change only: the ladder whole on frame 1, the prop on frame 2.
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(frames[static_cast<std::size_t>(i)].contains("ladder"), i == 1) << i;
    EXPECT_EQ(frames[static_cast<std::size_t>(i)].contains("props"), i == 2) << i;
  }
  const Json& ladder = frames[1]["ladder"];
  EXPECT_EQ(ladder["rung_count"], 9);
  EXPECT_NEAR(ladder["rung_spacing"].get<double>(), 0.28, 1e-6);
  EXPECT_NEAR(ladder["first_rung_height"].get<double>(), 0.3, 1e-6);
  EXPECT_NEAR(ladder["rung_radius"].get<double>(), 0.025, 1e-6);
  EXPECT_NEAR(ladder["rail_width"].get<double>(), 0.45, 1e-6);

  // Opened at frame 1 (the prop not moved yet) and frame 3 (moved): the same ladder, props,
  // switches and knee as the trace.
  for (const int at : {1, 3}) {
    const std::string report = dir + "/report" + std::to_string(at) + ".json";
    const ProgramResult opened =
        RunIkpose({"render", "--trace", trace, "--frame", std::to_string(at), "--out",
                   dir + "/x.png", "--size", "160x120", "--report", report});
    ASSERT_EQ(opened.exit_code, 0) << opened.err;
    const Json shown = ReadJson(report);
    ASSERT_TRUE(shown.contains("ladder")) << at;
    EXPECT_LE(Distance(Get(shown["ladder"]["base_ms"]), {0.05, 0.0, 0.4}), 1e-6) << at;
    EXPECT_EQ(shown["ladder"]["rung_count"], 9) << at;
    EXPECT_NEAR(shown["ladder"]["rung_spacing"].get<double>(), 0.28, 1e-6) << at;
    EXPECT_NEAR(shown["ladder"]["rail_width"].get<double>(), 0.45, 1e-6) << at;
    ASSERT_EQ(shown["props"].size(), 1u) << at;
    const Vec prop = at == 1 ? Vec{1.0, 0.0, 1.0} : Vec{0.8, 0.0, 1.0};
    EXPECT_LE(Distance(Get(shown["props"][0]["position_ms"]), prop), 1e-6) << at;
    EXPECT_NEAR(shown["props"][0]["yaw_deg"].get<double>(), at == 1 ? 0.0 : 20.0, 1e-4) << at;
    EXPECT_EQ(shown["limits"]["enabled"], false) << at;
    EXPECT_EQ(shown["body_help"]["enabled"], false) << at;
    const Json& recorded = frames[static_cast<std::size_t>(at)]["limbs"]["left_leg"];
    EXPECT_LE(Distance(Get(shown["chains"]["left_leg"]["b"]), Get(recorded["knee"])), 2e-5) << at;
  }
}

// A trace file whose ladder or props no situation can have: one error line naming it.
TEST(TimelineCli, ATraceWithAnImpossibleLadderOrPropIsOneErrorLine) {
  const std::string dir = MakeTempDir();
  const std::string header =
      "{\"ikpose_trace\": 1, \"model\": \"\", \"scene\": \"\", \"clip\": \"\", "
      "\"policies\": [], \"fps\": 60}\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{\"frame\": 0, \"time\": 0, \"limbs\": {}, \"ladder\": {\"base\": [0, 0, 0], "
       "\"rung_count\": 1e9}}\n",
       "ladder.jsonl:2: ladder.rung_count: "},
      {"{\"frame\": 0, \"time\": 0, \"limbs\": {}, \"props\": [{\"index\": 3, "
       "\"position\": [0, 0, 0]}]}\n",
       "no prop 3"}};
  for (const auto& [frame, says] : cases) {
    const std::string trace =
        dir + (says.rfind("ladder", 0) == 0 ? "/ladder.jsonl" : "/prop.jsonl");
    std::ofstream(trace) << header << frame;
    const ProgramResult r = RunIkpose({"render", "--trace", trace, "--out", dir + "/x.png"});
    EXPECT_NE(r.exit_code, 0);
    EXPECT_EQ(r.err.rfind("ikpose: error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

TEST(TimelineCli, ABrokenTraceIsOneErrorLineNamingItsLine) {
  const std::string dir = MakeTempDir();
  const std::string trace = dir + "/broken.jsonl";
  std::ofstream(trace) << "{\"ikpose_trace\": 1, \"model\": \"\", \"scene\": \"\", \"clip\": \"\", "
                          "\"policies\": [], \"fps\": 60}\n{\"frame\": \n";
  const ProgramResult r = RunIkpose({"render", "--trace", trace, "--out", dir + "/x.png"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_EQ(r.err.rfind("ikpose: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("broken.jsonl:2"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

}  // namespace
}  // namespace ikpose::test
