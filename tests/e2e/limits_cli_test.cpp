// Joint limits through the real program: `pose` with a foot sent 60 degrees behind the hip (past
// the hip's 30 degrees of extension) stops the leg at the hip's range and lists the hip in the
// report (`--json` and text); `--limits off` and a scenario's "limits": false reach the target
// and say the hip is past its limit; a bad switch is one line.
#include <gtest/gtest.h>

#include <algorithm>
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

// The left foot's target, 60 degrees behind the left hip, 0.98 leg lengths from it.
std::string BehindTarget() {
  const ProgramResult info = RunIkpose({"inspect", kCharacter.string(), "--json"});
  EXPECT_EQ(info.exit_code, 0) << info.err;
  const json in = json::parse(info.out);
  const json& leg = in["chains"]["left_leg"];
  const double length = leg["lengths"][0].get<double>() + leg["lengths"][1].get<double>();
  json hip;
  for (const json& b : in["bones"]) {
    if (b["name"] == leg["joints"][0]) hip = b["rest_position_ms"];
  }
  const json& f = in["forward"];
  const double down = std::cos(M_PI / 3.0), back = std::sin(M_PI / 3.0);
  std::string out = "left_leg=";
  for (int i = 0; i < 3; ++i) {
    const double v =
        hip[i].get<double>() + 0.98 * length * (-back * f[i].get<double>() - (i == 1 ? down : 0.0));
    out += (i ? "," : "") + std::to_string(v);
  }
  return out;
}

const json* HipEntry(const json& report) {
  for (const json& j : report["limits"]["at_limit"]) {
    if (j["part"] == "hip" && j["kind"] == "bend") return &j;
  }
  return nullptr;
}

TEST(LimitsCli, AHipAskedPastItsRangeStopsThereAndTheReportSaysSo) {
  const std::string target = BehindTarget();
  const ProgramResult on = RunIkpose({"pose", kCharacter.string(), "--target", target, "--json"});
  ASSERT_EQ(on.exit_code, 0) << on.err;
  const json a = json::parse(on.out);
  EXPECT_TRUE(a["limits"]["enabled"].get<bool>());
  const json* hip = HipEntry(a);
  ASSERT_NE(hip, nullptr) << a["limits"].dump();
  EXPECT_NEAR((*hip)["deg"].get<double>(), 30.0, 0.5) << "the hip's extension";
  EXPECT_FALSE((*hip)["past"].get<bool>());
  EXPECT_GT(a["chains"]["left_leg"]["error"].get<double>(), 0.05) << "the foot stops short";

  const ProgramResult text = RunIkpose({"pose", kCharacter.string(), "--target", target});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("(hip) at its limit: 30 deg of 30 deg bend"), std::string::npos)
      << text.out;

  // Off, on the command line or in a scenario: the foot lands, the hip is past its range.
  const fs::path dir = fs::path(MakeTempDir());
  const fs::path scene = dir / "off.json";
  std::ofstream(scene) << R"({"model": ")" << kCharacter.generic_string()
                       << R"(", "limits": false})";
  for (const std::vector<std::string>& off :
       {std::vector<std::string>{"pose", kCharacter.string(), "--limits", "off"},
        std::vector<std::string>{"pose", "--scene", scene.string()}}) {
    std::vector<std::string> args = off;
    args.insert(args.end(), {"--target", target, "--json"});
    const ProgramResult r = RunIkpose(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json b = json::parse(r.out);
    EXPECT_FALSE(b["limits"]["enabled"].get<bool>());
    EXPECT_LT(b["chains"]["left_leg"]["error"].get<double>(), 1e-3);
    const json* past = HipEntry(b);
    ASSERT_NE(past, nullptr);
    EXPECT_TRUE((*past)["past"].get<bool>());
    EXPECT_GT((*past)["deg"].get<double>(), 45.0);
  }
}

TEST(LimitsCli, ABadSwitchIsOneLine) {
  const ProgramResult r = RunIkpose({"pose", kCharacter.string(), "--limits", "maybe"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "ikpose: error: --limits must be on or off, got 'maybe'\n");
  const fs::path scene = fs::path(MakeTempDir()) / "bad.json";
  std::ofstream(scene) << R"({"model": ")" << kCharacter.generic_string()
                       << R"(", "limits": "yes"})";
  const ProgramResult s = RunIkpose({"pose", "--scene", scene.string()});
  EXPECT_NE(s.exit_code, 0);
  EXPECT_EQ(std::count(s.err.begin(), s.err.end(), '\n'), 1) << s.err;
  EXPECT_EQ(s.err.rfind("ikpose: error: ", 0), 0u) << s.err;
}

}  // namespace
}  // namespace ikpose::test
