// The bundled ladder scene (assets/scenes/ladder.json, the README's picture) poses like a
// climber: every hand and foot on its rung and reached, hands gripping (the wrist sent off the
// rung so the grip's centre is on the axis, the hand turned), knees toward the ladder, the
// pelvis fitted close to it.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "run_program.h"

namespace ikpose::test {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

double Component(const json& v, int i) {
  return v[i].get<double>();
}

// How far `p` is in front of the line from `a` to `c`, along +z (the character faces +z).
double InFrontOfLine(const json& a, const json& p, const json& c) {
  double ac[3], ap[3];
  for (int i = 0; i < 3; ++i) {
    ac[i] = Component(c, i) - Component(a, i);
    ap[i] = Component(p, i) - Component(a, i);
  }
  const double t = (ac[0] * ap[0] + ac[1] * ap[1] + ac[2] * ap[2]) /
                   (ac[0] * ac[0] + ac[1] * ac[1] + ac[2] * ac[2]);
  return ap[2] - t * ac[2];
}

TEST(LadderScene, HandsGripFeetStandKneesTowardTheLadder) {
  const fs::path scene = fs::path(IKPOSE_SOURCE_DIR) / "assets" / "scenes" / "ladder.json";
  const ProgramResult r = RunIkpose({"pose", "--scene", scene.string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json chains = json::parse(r.out)["chains"];
  const double rung_z = 0.45, radius = 0.018, spacing = 0.3, first = 0.3;
  for (const char* limb : {"left_arm", "right_arm", "left_leg", "right_leg"}) {
    SCOPED_TRACE(limb);
    ASSERT_TRUE(chains.contains(limb));
    const json& c = chains[limb];
    EXPECT_EQ(c["reach"], "reachable");
    EXPECT_LT(c["error"].get<double>(), 1e-4) << "the end joint reached its goal";
    const bool leg = std::string(limb).find("leg") != std::string::npos;
    // The target is on a rung: its axis for hands, its top for feet, at the ladder's depth.
    const double y = Component(c["target"], 1) - (leg ? radius : 0.0);
    const double rung = (y - first) / spacing;
    EXPECT_NEAR(rung, std::round(rung), 1e-4) << "on a rung";
    EXPECT_NEAR(Component(c["target"], 2), rung_z, 1e-5);
    // Gripping and standing send the wrist and ankle off the rung: behind it (toward the
    // climber), the wrist below the axis (fingers up over it), the ankle above the rung's top.
    ASSERT_TRUE(c.contains("end_target")) << "a snapped limb grips or stands";
    EXPECT_LT(Component(c["end_target"], 2), rung_z);
    if (leg) {
      EXPECT_GT(Component(c["end_target"], 1), Component(c["target"], 1));
      // (1.5 cm: the lower leg stands nearly straight.)
      EXPECT_GT(InFrontOfLine(c["a"], c["b"], c["c"]), 0.015) << "knee toward the ladder";
    } else {
      EXPECT_LT(Component(c["end_target"], 1), Component(c["target"], 1));
    }
  }
  // The pelvis: fitted close to the ladder, above the feet.
  const json hip = chains["left_leg"]["a"];
  // Four contacts place it (scene/session/body_solve.h), the high knee turned out to clear the
  // rungs (0.35 m here; 0.44 m when the knee could only go forward).
  EXPECT_LT(rung_z - Component(hip, 2), 0.37) << "close to the ladder";
  EXPECT_GT(rung_z - Component(hip, 2), 0.15) << "not in it";
}

// "grip": false puts the wrist itself on the rung's axis, as a plain snap does.
TEST(LadderScene, GripOffSendsTheWristToTheRung) {
  const fs::path scene = fs::path(IKPOSE_SOURCE_DIR) / "assets" / "scenes" / "ladder.json";
  std::ifstream in(scene);
  json j = json::parse(in);
  j["model"] = (scene.parent_path() / j["model"].get<std::string>()).string();
  j["limbs"]["left_arm"]["grip"] = false;
  const std::string dir = MakeTempDir();
  std::ofstream(dir + "/no_grip.json") << j.dump();
  const ProgramResult r = RunIkpose({"pose", "--scene", dir + "/no_grip.json", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json chains = json::parse(r.out)["chains"];
  EXPECT_FALSE(chains["left_arm"].contains("end_target")) << "the wrist goes to the target";
  EXPECT_TRUE(chains["right_arm"].contains("end_target")) << "the other hand still grips";
  fs::remove_all(dir);
}

// Snapping without the feet's targets: each foot goes onto the rung nearest where it stands,
// on its own side of the ladder (the scene is built unsolved; the snap still reads the feet
// where the pose has them, not an unplaced target at the origin).
TEST(LadderScene, SnappedFeetWithoutTargetsStandOnTheirOwnSides) {
  const fs::path scene = fs::path(IKPOSE_SOURCE_DIR) / "assets" / "scenes" / "ladder.json";
  std::ifstream in(scene);
  json j = json::parse(in);
  j["model"] = (scene.parent_path() / j["model"].get<std::string>()).string();
  j["limbs"].erase("left_leg");
  j["limbs"].erase("right_leg");
  const std::string dir = MakeTempDir();
  std::ofstream(dir + "/feet_free.json") << j.dump();
  const ProgramResult r = RunIkpose({"pose", "--scene", dir + "/feet_free.json", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json chains = json::parse(r.out)["chains"];
  // The character faces +z: its left foot at +x, its right at -x (about 0.1 m either side).
  EXPECT_GT(Component(chains["left_leg"]["target"], 0), 0.05);
  EXPECT_LT(Component(chains["right_leg"]["target"], 0), -0.05);
  fs::remove_all(dir);
}

// The bundled ladder_climb clip climbs in place; with the ladder following it, sampled at 20
// times over the clip: at least two limbs hold at every time, every held hand reaches its rung
// exactly (the wrist on the goal that puts the grip's centre on the rung's axis), every held
// foot too or the report says it is too far, the rungs held are whole spacings apart, and
// every knee points toward the ladder.
TEST(LadderScene, TheLadderClipClimbsOnRungs) {
  const fs::path model = fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb";
  const double spacing = 0.3, radius = 0.015, rung_z = 0.35;
  const std::string dir = MakeTempDir();
  std::ofstream(dir + "/climb.json") << R"({"model": ")" << model.string() << R"(",
      "clip": "ladder_climb",
      "ladder": {"enabled": true, "follow_clip": true, "base": [0, 0, 0.35], "rung_spacing": 0.3,
                 "first_rung_height": 0.3, "rung_radius": 0.015, "rail_width": 0.55,
                 "rung_count": 14}})";
  for (int i = 0; i < 20; ++i) {
    const double t = 2.0 * i / 20.0;
    SCOPED_TRACE("t = " + std::to_string(t));
    const ProgramResult r =
        RunIkpose({"pose", "--scene", dir + "/climb.json", "--time", std::to_string(t), "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json chains = json::parse(r.out)["chains"];
    int holding = 0;
    double first_axis = 0.0;
    for (const auto& [limb, c] : chains.items()) {
      SCOPED_TRACE(limb);
      EXPECT_FALSE(c["limit_clamped"].get<bool>());
      EXPECT_EQ(c["policy"], "natural");
      const bool leg = limb.find("leg") != std::string::npos;
      if (leg) {
        // Toward the ladder, or on the line when the leg is straight.
        EXPECT_GT(InFrontOfLine(c["a"], c["b"], c["c"]), -1e-5) << "knee toward the ladder";
      }
      if (c.contains("grip_weight")) continue;  // moving between rungs, blended in
      ++holding;
      // A foot at the bottom of its stroke may be a straight leg short of its rung: the report
      // says so ("too_far"); everything else reaches its rung within a millimetre.
      if (!(leg && c["reach"] == "too_far")) {
        EXPECT_EQ(c["reach"], "reachable");
        EXPECT_LT(c["error"].get<double>(), 1e-3) << "on its rung within a millimetre";
      }
      EXPECT_NEAR(Component(c["target"], 2), rung_z, 1e-5);
      const double axis = Component(c["target"], 1) - (leg ? radius : 0.0);
      if (holding == 1) first_axis = axis;
      const double rungs = (axis - first_axis) / spacing;
      EXPECT_NEAR(rungs, std::round(rungs), 1e-4) << "held rungs are whole spacings apart";
    }
    EXPECT_GE(holding, 2) << "a climber holds on with two limbs at least";
  }
  fs::remove_all(dir);
}

// The bundled climb, sampled every quarter second as a user scrubs it: the pelvis within a third
// of a metre of the rungs (a climber close to the ladder, not hanging back), no leg that holds a
// rung more than 1 cm short of it, every held hand on its rung, and no bone's axis inside a rung or
// rail (a listed bone's depth under its limb's radius: a thigh's or shin's skin may touch a rung as
// the knee passes it).
TEST(LadderScene, TheClimberKeepsItsHipsCloseAndItsLimbsOnTheRungs) {
  const fs::path scene = fs::path(IKPOSE_SOURCE_DIR) / "assets" / "scenes" / "ladder_climb.json";
  const double rung_z = 0.35;
  for (int i = 0; i <= 8; ++i) {
    const double t = 0.25 * i;
    SCOPED_TRACE("t = " + std::to_string(t));
    const ProgramResult r =
        RunIkpose({"pose", "--scene", scene.string(), "--time", std::to_string(t), "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json j = json::parse(r.out);
    for (const json& p : j["penetrations"])
      EXPECT_LT(p["depth"].get<double>(), p["radius"].get<double>()) << p.dump();
    bool found = false;
    for (const json& bone : j["bones"]) {
      if (bone["name"] != "pelvis") continue;
      found = true;
      const double behind = rung_z - Component(bone["position_ms"], 2);
      EXPECT_LT(behind, 1.0 / 3.0) << "within a third of a metre of the ladder";
      EXPECT_GT(behind, 0.15) << "not in it";
    }
    EXPECT_TRUE(found);
    for (const auto& [limb, c] : j["chains"].items()) {
      SCOPED_TRACE(limb);
      if (c.contains("grip_weight")) continue;  // moving between rungs
      const bool leg = limb.find("leg") != std::string::npos;
      EXPECT_LT(c["error"].get<double>(), leg ? 0.01 : 0.003) << "on its rung";
    }
  }
}

}  // namespace
}  // namespace ikpose::test
