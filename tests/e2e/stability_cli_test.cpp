// `ikpose pose --stability CHAIN` through the real program: the grid's flip cells are where a
// sweep traced by `ikpose trace` pops, its reach-out cells are the targets beyond the limb's
// length, every cell is what `pose --target` poses there, and bad input is one error line. The
// window's slice (`render --stability`) is that same grid, drawn.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <stb_image.h>
#include <nlohmann/json.hpp>

#include "run_program.h"

namespace ikpose::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kSweep = fs::path(IKPOSE_SOURCE_DIR) / "assets" / "traces" / "left_leg_sweep.jsonl";

struct Vec {
  double x = 0, y = 0, z = 0;
};
Vec V(const json& j) {
  return {j[0].get<double>(), j[1].get<double>(), j[2].get<double>()};
}
Vec operator-(Vec a, Vec b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
Vec operator+(Vec a, Vec b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
Vec operator*(double s, Vec a) {
  return {s * a.x, s * a.y, s * a.z};
}
double Dot(Vec a, Vec b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
double Norm(Vec a) {
  return std::sqrt(Dot(a, a));
}
std::string Arg(Vec a) {
  std::ostringstream out;
  out.precision(9);
  out << a.x << ',' << a.y << ',' << a.z;
  return out.str();
}

std::vector<Vec> SweepTargets() {
  std::ifstream in(kSweep);
  std::vector<Vec> targets;
  for (std::string line; std::getline(in, line);) {
    targets.push_back(V(json::parse(line)["limbs"]["left_leg"]["target"]));
  }
  return targets;
}

struct Leg {
  Vec hip, knee;
  double length = 0;
};
Leg LeftLeg() {
  const ProgramResult inspect = RunIkpose({"inspect", "--json"});
  EXPECT_EQ(inspect.exit_code, 0) << inspect.err;
  const json model = json::parse(inspect.out);
  const json& chain = model["chains"]["left_leg"];
  Leg leg;
  for (const json& bone : model["bones"]) {
    if (bone["name"] == chain["joints"][0]) leg.hip = V(bone["rest_position_ms"]);
    if (bone["name"] == chain["joints"][1]) leg.knee = V(bone["rest_position_ms"]);
  }
  leg.length = chain["lengths"][0].get<double>() + chain["lengths"][1].get<double>();
  return leg;
}

// The grid of the seed's left leg seen from the character's left side, centred on a target;
// the ground off: the grid maps the solve's answer to targets below the floor too.
json SideGrid(Vec target) {
  const ProgramResult run =
      RunIkpose({"pose", "--policy", "seed", "--target", "left_leg=" + Arg(target), "--stability",
                 "left_leg", "--stability-view", "90,0", "--ground", "off", "--json"});
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return json::parse(run.out)["stability"];
}

TEST(StabilityCli, FlipCellsLieWhereTheTracedSweepPops) {
  const ProgramResult trace =
      RunIkpose({"trace", "--targets", kSweep.string(), "--policy", "seed", "--json"});
  ASSERT_EQ(trace.exit_code, 0) << trace.err;
  const json pops = json::parse(trace.out)["pops"];
  ASSERT_EQ(pops.size(), 1u);
  ASSERT_EQ(pops[0]["cause"], "knee_reference_crossed_axis");
  const int frame = pops[0]["frame"].get<int>();
  const std::vector<Vec> targets = SweepTargets();
  const Vec before = targets[static_cast<std::size_t>(frame - 1)];
  const Vec after = targets[static_cast<std::size_t>(frame)];

  // A grid centred a little way from the pop (the sweep is in this plane to within a few mm).
  const Vec centre = targets[static_cast<std::size_t>(frame - 6)];
  const json grid = SideGrid(centre);
  ASSERT_EQ(grid["policy"], "seed");
  ASSERT_FALSE(grid["flip_line"].empty());
  const Vec right = V(grid["plane"]["right"]), up = V(grid["plane"]["up"]);
  const double spacing = grid["spacing"].get<double>();
  const int cells = grid["cells_per_side"].get<int>();
  const double half = (cells - 1) / 2.0;
  // The cell each of the two frames' targets falls in.
  auto cell_of = [&](Vec p) {
    const Vec d = p - centre;
    const int column = static_cast<int>(std::lround(Dot(d, right) / spacing + half));
    const int row = static_cast<int>(std::lround(Dot(d, up) / spacing + half));
    return grid["cells"][static_cast<std::size_t>(row * cells + column)];
  };
  const json cell_before = cell_of(before), cell_after = cell_of(after);
  EXPECT_TRUE(cell_before["flip"].get<bool>() || cell_after["flip"].get<bool>())
      << "the sweep pops between " << Arg(before) << " and " << Arg(after);
  // Some flip edge lies within a cell of where the sweep crossed.
  const Vec crossing = 0.5 * (before + after);
  double nearest = 1e9;
  for (const json& edge : grid["flip_line"]) {
    nearest = std::min(nearest, Norm(0.5 * (V(edge[0]) + V(edge[1])) - crossing));
  }
  EXPECT_LT(nearest, 1.5 * spacing);

  // And every flip cell is near the line through the hip and the rest knee (the seed's
  // reference: the knee changes side where the hip-target axis passes it), none elsewhere.
  const Leg leg = LeftLeg();
  const Vec along = (1.0 / Norm(leg.knee - leg.hip)) * (leg.knee - leg.hip);
  int flips = 0;
  for (const json& cell : grid["cells"]) {
    if (!cell["flip"].get<bool>()) continue;
    ++flips;
    const Vec d = V(cell["target"]) - leg.hip;
    EXPECT_LT(Norm(d - Dot(d, along) * along), 2.0 * spacing) << cell.dump();
  }
  EXPECT_GT(flips, 4);
}

TEST(StabilityCli, ReachOutCellsAreBeyondTheLegAndSensitivityIsFiniteEverywhere) {
  const Leg leg = LeftLeg();
  const json grid = SideGrid(SweepTargets()[20]);
  EXPECT_EQ(grid["cells_per_side"], 25);
  EXPECT_EQ(grid["cells"].size(), 625u);
  EXPECT_NEAR(grid["spacing"].get<double>(), leg.length / 20, 1e-6);
  EXPECT_NEAR(grid["extent"].get<double>(), 12 * leg.length / 20, 1e-6);
  EXPECT_EQ(grid["view"]["given"], true);
  int out = 0;
  for (const json& cell : grid["cells"]) {
    const double distance = Norm(V(cell["target"]) - leg.hip);
    const double s = cell["sensitivity"].get<double>();
    EXPECT_TRUE(std::isfinite(s) && s >= 0) << cell.dump();
    if (std::abs(distance - leg.length) < 1e-4 * leg.length) continue;  // on the shell itself
    EXPECT_EQ(cell["reach_out"].get<bool>(), distance > leg.length) << cell.dump();
    out += cell["reach_out"].get<bool>() ? 1 : 0;
  }
  EXPECT_GT(out, 20);
  EXPECT_FALSE(grid["reach_line"].empty());
  // Far from the hip-knee line and inside the reach, a knee moves about as far as its target.
  const json& corner = grid["cells"][static_cast<std::size_t>(24 * 25 + 0)];
  EXPECT_FALSE(corner["reach_out"].get<bool>());
  EXPECT_LT(corner["sensitivity"].get<double>(), 3.0) << corner.dump();
}

TEST(StabilityCli, EachCellPosesAsPoseDoesWithThatTarget) {
  const json grid = SideGrid(SweepTargets()[20]);
  for (std::size_t i : {std::size_t{3 * 25 + 20}, std::size_t{18 * 25 + 4}}) {
    const json& cell = grid["cells"][i];
    const ProgramResult pose =
        RunIkpose({"pose", "--policy", "seed", "--target", "left_leg=" + Arg(V(cell["target"])),
                   "--ground", "off", "--json"});
    ASSERT_EQ(pose.exit_code, 0) << pose.err;
    const Vec knee = V(json::parse(pose.out)["chains"]["left_leg"]["b"]);
    EXPECT_LT(Norm(knee - V(cell["knee"])), 1e-5) << cell.dump();
  }
}

TEST(StabilityCli, TheDefaultViewIsTheWindowsOpeningOneAndTheTextFormIsAMap) {
  const ProgramResult json_run =
      RunIkpose({"pose", "--stability", "left_leg", "--json", "--stability-cells", "5"});
  ASSERT_EQ(json_run.exit_code, 0) << json_run.err;
  const json grid = json::parse(json_run.out)["stability"];
  EXPECT_EQ(grid["view"]["given"], false);
  EXPECT_EQ(grid["view"]["yaw_deg"], 0);
  EXPECT_EQ(grid["view"]["pitch_deg"], 10);
  // In front of the character (it faces +z), 10 degrees above.
  const Vec toward = V(grid["view"]["toward_viewer"]);
  EXPECT_NEAR(toward.z, std::cos(10 * M_PI / 180), 1e-5);
  EXPECT_NEAR(toward.y, std::sin(10 * M_PI / 180), 1e-5);
  EXPECT_EQ(grid["cells"].size(), 25u);

  const ProgramResult text =
      RunIkpose({"pose", "--stability", "left_leg", "--stability-cells", "5"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("stability of left_leg (natural policy): 5x5 targets"), std::string::npos)
      << text.out;
  // Five rows of five cells under the legend, the target in the middle of the middle one.
  std::istringstream lines(text.out.substr(text.out.find("screen up is up\n") + 16));
  std::vector<std::string> rows(5);
  for (std::string& row : rows) std::getline(lines, row);
  for (const std::string& row : rows) EXPECT_EQ(row.size(), 7u) << row;
  EXPECT_EQ(rows[2].substr(2, 5).find('+'), 2u) << rows[2];
}

TEST(StabilityCli, BadChainsAndNumbersAreOneErrorLine) {
  struct Case {
    std::vector<std::string> args;
    int exit_code;
  };
  const std::vector<Case> cases = {
      {{"--stability", "tail"}, 1},
      {{"--stability", "left_leg", "--stability-spacing", "nan"}, 2},
      {{"--stability", "left_leg", "--stability-spacing", "-1"}, 2},
      {{"--stability", "left_leg", "--stability-view", "nan,0"}, 2},
      {{"--stability", "left_leg", "--stability-view", "90"}, 2},
      {{"--stability", "left_leg", "--stability-cells", "4"}, 2},
      {{"--stability", "left_leg", "--stability-cells", "1001"}, 2},
      {{"--stability-view", "0,0"}, 2},
      {{"--stability", "left_leg", "--target", "left_leg=nan,0,0"}, 2},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"pose", "--json"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    const ProgramResult run = RunIkpose(args);
    EXPECT_EQ(run.exit_code, c.exit_code) << c.args[1] << ": " << run.err;
    EXPECT_EQ(run.err.rfind("ikpose: error: ", 0), 0u) << run.err;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
    EXPECT_TRUE(run.out.empty()) << run.out.substr(0, 200);
  }
}

// Magenta pixels: the flip line's colour (scene::kFlipLineColor) blended by multisampling; no
// other part of the frame (skin, shirt, the slice's green to red cells, the floor) is magenta.
int FlipLinePixels(const std::string& path) {
  int w = 0, h = 0, channels = 0;
  unsigned char* data = stbi_load(path.c_str(), &w, &h, &channels, 4);
  EXPECT_NE(data, nullptr) << path;
  if (data == nullptr) return 0;
  int count = 0;
  for (int i = 0; i < w * h; ++i) {
    const unsigned char* p = data + 4 * i;
    if (p[0] > p[1] + 60 && p[2] > p[1] + 60) ++count;
  }
  stbi_image_free(data);
  return count;
}

TEST(StabilityCli, TheRenderedSliceIsPosesGridForTheCamerasViewWithItsFlipLineDrawn) {
  const std::string dir = ::testing::TempDir() + "/stability_render";
  fs::create_directories(dir);
  const Vec target = SweepTargets()[23];
  const std::vector<std::string> situation = {"--policy", "seed", "--target",
                                              "left_leg=" + Arg(target)};
  auto render = [&](const std::string& name, bool with_slice) {
    std::vector<std::string> args = {"render",   "--size",
                                     "480x360",  "--no-panel",
                                     "--camera", "90,0,1.8",
                                     "--out",    dir + "/" + name + ".png",
                                     "--report", dir + "/" + name + ".json"};
    args.insert(args.end(), situation.begin(), situation.end());
    if (with_slice) args.insert(args.end(), {"--stability", "left_leg"});
    const ProgramResult run = RunIkpose(args);
    EXPECT_EQ(run.exit_code, 0) << run.err;
    std::ifstream in(dir + "/" + name + ".json");
    return json::parse(in);
  };
  const json with = render("with", true);
  const json without = render("without", false);
  EXPECT_FALSE(without.contains("stability"));
  std::vector<std::string> args = {"pose", "--stability", "left_leg", "--stability-view",
                                   "90,0", "--json"};
  args.insert(args.end(), situation.begin(), situation.end());
  const ProgramResult pose = RunIkpose(args);
  ASSERT_EQ(pose.exit_code, 0) << pose.err;
  ASSERT_TRUE(with.contains("stability"));
  EXPECT_EQ(with["stability"], json::parse(pose.out)["stability"]);
  EXPECT_GT(FlipLinePixels(dir + "/with.png"), 50);
  EXPECT_EQ(FlipLinePixels(dir + "/without.png"), 0);
}

}  // namespace
}  // namespace ikpose::test
