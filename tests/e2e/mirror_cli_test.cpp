// `--mirror` through the real program: after `--target left_arm=T --mirror left-to-right` the
// right hand is on T's mirror image (and the same for legs, right to left); the report says
// what was mirrored; a bad value is one line and exit 2.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "run_program.h"

namespace ikpose::test {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const fs::path kCharacter = fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb";

struct Vec {
  double x, y, z;
};
Vec V(const json& j) {
  return {j[0].get<double>(), j[1].get<double>(), j[2].get<double>()};
}
double Distance(Vec a, Vec b) {
  return std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) +
                   (a.z - b.z) * (a.z - b.z));
}
// `p` reflected across the plane the report gives.
Vec Reflect(Vec p, const json& plane) {
  const Vec o = V(plane["point"]), n = V(plane["normal"]);
  const double d = (p.x - o.x) * n.x + (p.y - o.y) * n.y + (p.z - o.z) * n.z;
  return {p.x - 2 * d * n.x, p.y - 2 * d * n.y, p.z - 2 * d * n.z};
}

json Inspect() {
  const ProgramResult r = RunIkpose({"inspect", kCharacter.string(), "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(r.out);
}

// The model-space position of the bone called `name` in a pose report.
Vec BonePosition(const json& report, const std::string& name) {
  for (const json& b : report["bones"]) {
    if (b["name"] == name) return V(b["position_ms"]);
  }
  ADD_FAILURE() << "no bone " << name;
  return {0, 0, 0};
}

struct Case {
  const char* target_limb;
  const char* mirrored_limb;
  const char* mode;
  const char* target;  // x,y,z
  Vec t;
};

TEST(MirrorCli, MirroredEndLandsOnTheTargetsMirrorImage) {
  const json model = Inspect();
  const double height = model["height"].get<double>();
  const Case cases[] = {
      {"left_arm", "right_arm", "left-to-right", "0.45,1.5,0.2", {0.45, 1.5, 0.2}},
      {"right_leg", "left_leg", "right-to-left", "-0.12,0.35,0.3", {-0.12, 0.35, 0.3}}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.mode);
    const ProgramResult r =
        RunIkpose({"pose", "--target", std::string(c.target_limb) + "=" + c.target, "--mirror",
                   c.mode, "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err, "") << "the bundled character's rest is symmetric: no warning";
    const json report = json::parse(r.out);
    const json& mirror = report["mirror"];
    EXPECT_EQ(mirror["mode"], c.mode);
    EXPECT_TRUE(mirror["rest_symmetric"].get<bool>());
    // The bundled character stands on its own x = 0 plane.
    EXPECT_NEAR(std::abs(mirror["plane"]["normal"][0].get<double>()), 1.0, 1e-5);
    const std::string end = model["chains"][c.mirrored_limb]["joints"][2];
    const Vec expected = Reflect(c.t, mirror["plane"]);
    EXPECT_LT(Distance(BonePosition(report, end), expected), 1e-3 * height);
    const json& landed = mirror["chains"][c.mirrored_limb];
    EXPECT_EQ(landed["from"], c.target_limb);
    EXPECT_LT(Distance(V(landed["target"]), expected), 1e-6);
    EXPECT_LT(landed["error"].get<double>(), 1e-3 * height);
    // The solved chain keeps its fixed fields; the source limb is where it was asked.
    EXPECT_LT(report["chains"][c.target_limb]["error"].get<double>(), 1e-4);
  }
}

TEST(MirrorCli, WithoutMirrorTheReportHasNoMirrorField) {
  const ProgramResult r = RunIkpose({"pose", "--target", "left_arm=0.45,1.5,0.2", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(json::parse(r.out).contains("mirror"));
}

TEST(MirrorCli, BadValueIsOneLineAndExitTwo) {
  for (const char* command : {"pose", "export", "render"}) {
    std::vector<std::string> args = {command, "--mirror", "sideways", "--target",
                                     "left_arm=0.45,1.5,0.2"};
    if (std::string(command) == "export") args.insert(args.end(), {"--out", "/tmp/never.glb"});
    if (std::string(command) == "render") args.insert(args.end(), {"--out", "/tmp/never.png"});
    const ProgramResult r = RunIkpose(args);
    EXPECT_EQ(r.exit_code, 2) << command;
    EXPECT_EQ(r.err,
              "ikpose: error: --mirror must be left-to-right, right-to-left, flip or off, got "
              "'sideways'\n")
        << command;
  }
}

TEST(MirrorCli, ScenarioWithABadMirrorNamesTheFile) {
  const std::string dir = MakeTempDir();
  const std::string scene = dir + "/bad.json";
  std::ofstream(scene) << R"({"mirror": "both"})";
  const ProgramResult r = RunIkpose({"pose", "--scene", scene});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("ikpose: error: " + scene + ": mirror must be", 0), 0u) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line";
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ikpose::test
