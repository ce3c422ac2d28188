// The body helps, through the real program: `pose --target` a hand 1.2 arm lengths from its
// shoulder lands on its target within 1% of the body's height, with the feet where they were
// and no bone longer or shorter, on the bundled character and the shared ones (skipped when
// absent); `--body-help off` leaves it short. The ladder scene (four contacts): no leg more than
// 1 cm short of its rung, arms nearer straight than folded, knees on the climber's side of the
// rungs. Hands and feet on the floor (a crawl, a push-up): the body bends at the hips onto its
// knees or into a plank rather than sinking, every limb on its target; hands on the floor
// anywhere from close in front of the standing feet to a long crawl reach, hips off the floor.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "run_program.h"

namespace ikpose::test {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

struct V {
  double x = 0, y = 0, z = 0;
};
V At(const json& a) {
  return {a[0].get<double>(), a[1].get<double>(), a[2].get<double>()};
}
V operator+(V a, V b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
V operator-(V a, V b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
V operator*(double s, V a) {
  return {s * a.x, s * a.y, s * a.z};
}
double Length(V a) {
  return std::sqrt(a.x * a.x + a.y * a.y + a.z * a.z);
}
V Unit(V a) {
  return (1.0 / Length(a)) * a;
}
V Cross(V a, V b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

fs::path Model(const std::string& file) {
  if (file.empty()) return fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb";
  const fs::path path = fs::path(IKPOSE_SOURCE_DIR) / ".." / "shared" / "models" / file;
  return fs::exists(path) ? path.lexically_normal() : fs::path();
}

std::map<std::string, V> BonePositions(const json& bones, const char* field) {
  std::map<std::string, V> out;
  for (const json& b : bones) out[b["name"].get<std::string>()] = At(b[field]);
  return out;
}

// `inspect --json` of `model`; null when it failed (the failure is recorded).
json Inspect(const fs::path& model) {
  const ProgramResult info = RunIkpose({"inspect", model.string(), "--json"});
  EXPECT_EQ(info.exit_code, 0) << info.err;
  return info.exit_code == 0 ? json::parse(info.out) : json();
}

// What the checks read from `inspect --json`: the rig's description, height, forward and
// each bone's rest position by name.
struct Rig {
  json in;
  double height = 0;
  V forward;
  std::map<std::string, V> rest;
};
// `in` is null when inspect failed (the failure is recorded).
Rig LoadRig(const fs::path& model) {
  Rig rig;
  rig.in = Inspect(model);
  if (rig.in.is_null()) return rig;
  rig.height = rig.in["height"].get<double>();
  rig.forward = At(rig.in["forward"]);
  rig.rest = BonePositions(rig.in["bones"], "rest_position_ms");
  return rig;
}

// `pose --scene --json` on a scenario of `limbs` over `model`, written into `dir`; null when it
// failed (the failure is recorded).
json PoseLimbs(const std::string& dir, const fs::path& model, const json& limbs) {
  const std::string scene = dir + "/limbs.json";
  std::ofstream(scene) << json{{"model", model.generic_string()}, {"limbs", limbs}}.dump();
  const ProgramResult r = RunIkpose({"pose", "--scene", scene, "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? json::parse(r.out) : json();
}

void CheckOverReach(const std::string& file, bool both_arms) {
  const fs::path model = Model(file);
  if (model.empty()) GTEST_SKIP() << file << " is absent; test skipped";
  const Rig rig = LoadRig(model);
  ASSERT_FALSE(rig.in.is_null());
  const auto& [in, height, forward, rest] = rig;
  const V left = Unit(Cross(V{0, 1, 0}, forward));
  for (const char* arm : {"left_arm", "right_arm"}) {
    if (!both_arms && std::string(arm) == "right_arm") continue;
    const json& chain = in["chains"][arm];
    const double length = chain["lengths"][0].get<double>() + chain["lengths"][1].get<double>();
    const V shoulder = rest.at(chain["joints"][0].get<std::string>());
    const V out = std::string(arm) == "left_arm" ? left : -1.0 * left;
    const std::pair<const char*, V> directions[] = {
        {"forward", forward},
        {"sideways", out},
        {"forward and down", Unit(forward + V{0, -0.5, 0})}};
    for (const auto& [name, d] : directions) {
      SCOPED_TRACE(file + " " + arm + " " + name);
      const V t = shoulder + 1.2 * length * d;
      const std::string target = std::string(arm) + "=" + std::to_string(t.x) + "," +
                                 std::to_string(t.y) + "," + std::to_string(t.z);
      const ProgramResult r = RunIkpose({"pose", model.string(), "--target", target, "--json"});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const json j = json::parse(r.out);
      EXPECT_LT(j["chains"][arm]["error"].get<double>(), 0.01 * height) << "on its target";
      EXPECT_FALSE(j["body_help"]["bones"].empty()) << "the body helped";
      const std::map<std::string, V> now = BonePositions(j["bones"], "position_ms");
      for (const char* leg : {"left_leg", "right_leg"}) {
        if (!in["chains"].contains(leg)) continue;
        const std::string foot = in["chains"][leg]["joints"][2].get<std::string>();
        EXPECT_LT(Length(now.at(foot) - rest.at(foot)), 1e-3 * height) << foot << " stayed";
      }
      // No bone changed length: every bone's distance from its parent is the rest one.
      for (std::size_t b = 0; b < in["bones"].size(); ++b) {
        const int parent = in["bones"][b]["parent"].get<int>();
        // The pelvis may move by translation (from its parent, which is no bone of the body).
        if (parent < 0 || in["bones"][b]["name"] == in["humanoid"]["pelvis"]) continue;
        const std::string bone = in["bones"][b]["name"].get<std::string>();
        const std::string up = in["bones"][static_cast<std::size_t>(parent)]["name"];
        const double before = Length(rest.at(bone) - rest.at(up));
        const double after = Length(now.at(bone) - now.at(up));
        EXPECT_NEAR(after, before, 1e-4 * height) << bone;
      }
      if (std::string(name) == "forward") {
        const ProgramResult off =
            RunIkpose({"pose", model.string(), "--target", target, "--json", "--body-help", "off"});
        ASSERT_EQ(off.exit_code, 0) << off.err;
        EXPECT_GT(json::parse(off.out)["chains"][arm]["error"].get<double>(), 0.1 * length)
            << "off: the arm alone stops short";
      }
    }
  }
}

TEST(BodyHelpCli, OverReachBundled) {
  CheckOverReach("", true);
}
TEST(BodyHelpCli, OverReachHumanMale) {
  CheckOverReach("Mesh2MotionHumanMale/human-male.glb", false);
}
TEST(BodyHelpCli, OverReachMaleBaseMesh) {
  CheckOverReach("MaleBaseMesh/male_base_mesh.glb", false);
}
TEST(BodyHelpCli, OverReachRobot) {
  CheckOverReach("QuaterniusRobot/robot.glb", false);
}
TEST(BodyHelpCli, OverReachCesiumMan) {
  CheckOverReach("CesiumMan/CesiumMan.glb", false);
}

// The climber faces +z; the rungs' plane is z = the ladder's base.
void CheckClimber(const json& j, const std::string& when) {
  SCOPED_TRACE(when);
  const double rungs_z = j["ladder"]["base_ms"][2].get<double>();
  EXPECT_TRUE(j["body_help"]["four_contacts"].get<bool>());
  for (const auto& [limb, c] : j["chains"].items()) {
    SCOPED_TRACE(limb);
    const bool held = !c.contains("grip_weight");
    if (limb.find("leg") != std::string::npos) {
      if (held && c["reach"] == "too_far") {
        EXPECT_LT(c["error"].get<double>(), 0.01) << "a leg at most 1 cm short of its rung";
      }
      EXPECT_LT(At(c["b"]).z, rungs_z) << "the knee on the climber's side of the rungs";
    } else if (held) {
      // Nearer straight than folded, with margin (the hips close to the rungs leave the
      // shoulders a little nearer them: 117-124 deg on the bundled scene).
      EXPECT_GT(180.0 - c["knee_bend_deg"].get<double>(), 110.0) << "the elbow open past 110";
    }
  }
}

// The bundled ladder scene: four contacts place the pelvis and spine.
TEST(BodyHelpCli, TheLadderClimberReaches) {
  const fs::path still = fs::path(IKPOSE_SOURCE_DIR) / "assets" / "scenes" / "ladder.json";
  const ProgramResult r = RunIkpose({"pose", "--scene", still.string(), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  CheckClimber(json::parse(r.out), "ladder.json");
}

// Both hands and both feet on the floor, every target relative to the rig's rest: each foot
// `feet_back` legs ahead of where it stands (negative: behind), each hand beside its shoulder
// (across the facing), `hands_ahead` legs ahead of its foot, at the feet's height.
json OnTheFloor(const Rig& rig, double hands_ahead, double feet_back) {
  const json& chains = rig.in["chains"];
  const auto joint = [&](const char* limb, int i) {
    return rig.rest.at(chains[limb]["joints"][i].get<std::string>());
  };
  const double leg = chains["left_leg"]["lengths"][0].get<double>() +
                     chains["left_leg"]["lengths"][1].get<double>();
  const double floor_y = std::min(joint("left_leg", 2).y, joint("right_leg", 2).y);
  const V& forward = rig.forward;
  json limbs;
  for (const auto& [hand, foot] : {std::pair{"left_arm", "left_leg"}, {"right_arm", "right_leg"}}) {
    const V f = joint(foot, 2);
    V across = joint(hand, 0) - f;
    across.y = 0.0;
    const double along = across.x * forward.x + across.z * forward.z;
    across = across - along * V{forward.x, 0.0, forward.z};
    const V t_foot = f + feet_back * leg * forward;
    const V t_hand = V{f.x, floor_y, f.z} + across + hands_ahead * leg * forward;
    limbs[foot]["target"] = json::array({t_foot.x, t_foot.y, t_foot.z});
    limbs[hand]["target"] = json::array({t_hand.x, t_hand.y, t_hand.z});
  }
  return limbs;
}

// Both hands and both feet placed on the floor, as a user poses a crawl (hands most of a leg in
// front of the standing feet) and a push-up (the feet 1.3 legs back, the hands a third of a
// leg in front of where they stood), every target given relative to the rig's rest.
void CheckFloorContacts(const std::string& file) {
  const fs::path model = Model(file);
  if (model.empty()) GTEST_SKIP() << file << " is absent; test skipped";
  const Rig rig = LoadRig(model);
  ASSERT_FALSE(rig.in.is_null());
  const auto& [in, height, forward, rest] = rig;
  const json& chains = in["chains"];
  const auto joint = [&](const char* limb, int i) {
    return chains[limb]["joints"][i].get<std::string>();
  };
  const auto length = [&](const char* limb) {
    return chains[limb]["lengths"][0].get<double>() + chains[limb]["lengths"][1].get<double>();
  };
  const double leg = length("left_leg"), arm = length("left_arm");
  const double floor_y =
      std::min(rest.at(joint("left_leg", 2)).y, rest.at(joint("right_leg", 2)).y);
  const std::string dir = MakeTempDir();
  const std::pair<const char*, std::pair<double, double>> scenes[] = {{"crawl", {0.8, 0.0}},
                                                                      {"push-up", {0.35, -1.3}}};
  for (const auto& [name, placement] : scenes) {
    SCOPED_TRACE(file + " " + name);
    const auto [hands_ahead, feet_back] = placement;
    const json limbs = OnTheFloor(rig, hands_ahead, feet_back);
    const json j = PoseLimbs(dir, model, limbs);
    ASSERT_FALSE(j.is_null());
    EXPECT_TRUE(j["body_help"]["four_contacts"].get<bool>());
    double tilt = 0.0;
    for (const json& b : j["body_help"]["bones"])
      if (b["name"] == in["humanoid"]["pelvis"]) tilt = b["deg"].get<double>();
    // A body whose arms reach the floor from an upright kneel (the robot's are longer than its
    // shoulders' height above the hips plus a thigh) kneels upright; any other bends at the hips.
    const double kneeling_shoulder = rest.at(joint("left_arm", 0)).y -
                                     rest.at(joint("left_leg", 0)).y +
                                     chains["left_leg"]["lengths"][0].get<double>();
    if (kneeling_shoulder > arm) {
      EXPECT_GT(tilt, 5.0) << "the body bends at the hips";
    }
    const std::map<std::string, V> now = BonePositions(j["bones"], "position_ms");
    const double hips = now.at(in["humanoid"]["pelvis"].get<std::string>()).y;
    for (const auto& [limb, c] : j["chains"].items()) {
      SCOPED_TRACE(limb);
      EXPECT_LT(c["error"].get<double>(), 0.01 * height) << "on its target";
      if (limb.find("leg") != std::string::npos) {
        EXPECT_GT(At(c["b"]).y, floor_y - 0.08 * leg) << "the knee above the floor";
        EXPECT_GT(hips - At(c["b"]).y, 0.1 * leg) << "the hips above the knees, not sunk";
      } else {
        const V shoulder = now.at(joint(limb.c_str(), 0));
        const V off = At(c["c"]) - shoulder;
        EXPECT_LT(std::hypot(off.x, off.z), 0.45 * arm) << "the hand under its shoulder";
      }
    }
  }
  fs::remove_all(dir);
}

// Four targets a standing body already reaches (each at its hand or foot as it stands, then the
// hands forward at chest height, 0.8 arm lengths from the shoulders): the body stays standing,
// the pelvis neither tilted nor moved more than 1% of the height (a squat of a tenth of the
// height was what four placed targets gave).
void CheckStandingContacts(const std::string& file) {
  const fs::path model = Model(file);
  if (model.empty()) GTEST_SKIP() << file << " is absent; test skipped";
  const Rig rig = LoadRig(model);
  ASSERT_FALSE(rig.in.is_null());
  const auto& [in, height, forward, rest] = rig;
  const std::string dir = MakeTempDir();
  for (const char* name : {"at rest", "hands forward"}) {
    SCOPED_TRACE(file + " " + name);
    json limbs;
    for (const char* limb : {"left_arm", "right_arm", "left_leg", "right_leg"}) {
      const json& chain = in["chains"][limb];
      V t = rest.at(chain["joints"][2].get<std::string>());
      if (std::string(name) == "hands forward" &&
          std::string(limb).find("arm") != std::string::npos) {
        const double length = chain["lengths"][0].get<double>() + chain["lengths"][1].get<double>();
        t = rest.at(chain["joints"][0].get<std::string>()) + 0.8 * length * forward;
      }
      limbs[limb]["target"] = json::array({t.x, t.y, t.z});
    }
    const json j = PoseLimbs(dir, model, limbs);
    ASSERT_FALSE(j.is_null());
    EXPECT_TRUE(j["body_help"]["four_contacts"].get<bool>());
    EXPECT_LT(Length(At(j["body_help"]["pelvis_offset"])), 0.01 * height) << "still standing";
    EXPECT_LT(std::abs(j["body_help"]["pelvis_tilt_deg"].get<double>()), 1.0) << "upright";
    for (const auto& [limb, c] : j["chains"].items())
      EXPECT_LT(c["error"].get<double>(), 0.01 * height) << limb << " on its target";
  }
  fs::remove_all(dir);
}

TEST(BodyHelpCli, FourTargetsAStandingBodyReachesLeaveItStandingBundled) {
  CheckStandingContacts("");
}
TEST(BodyHelpCli, FourTargetsAStandingBodyReachesLeaveItStandingHumanMale) {
  CheckStandingContacts("Mesh2MotionHumanMale/human-male.glb");
}
TEST(BodyHelpCli, FourTargetsAStandingBodyReachesLeaveItStandingCesiumMan) {
  CheckStandingContacts("CesiumMan/CesiumMan.glb");
}

TEST(BodyHelpCli, HandsAndFeetOnTheFloorBundled) {
  CheckFloorContacts("");
}
TEST(BodyHelpCli, HandsAndFeetOnTheFloorHumanMale) {
  CheckFloorContacts("Mesh2MotionHumanMale/human-male.glb");
}
TEST(BodyHelpCli, HandsAndFeetOnTheFloorMaleBaseMesh) {
  CheckFloorContacts("MaleBaseMesh/male_base_mesh.glb");
}
TEST(BodyHelpCli, HandsAndFeetOnTheFloorRobot) {
  CheckFloorContacts("QuaterniusRobot/robot.glb");
}
TEST(BodyHelpCli, HandsAndFeetOnTheFloorCesiumMan) {
  CheckFloorContacts("CesiumMan/CesiumMan.glb");
}

// The feet where they stand and both hands on the floor, from close in front of them (a toe
// touch, a squat) out to a long crawl: every limb on its target. Hands 0.3 to 0.6 legs ahead
// left both feet 2 to 55 cm short: the solve held the hip-to-foot line within the hip's range,
// the limb solve then held the thigh, which a bent knee puts ahead of that line.
void CheckHandsOnTheFloor(const std::string& file) {
  const fs::path model = Model(file);
  if (model.empty()) GTEST_SKIP() << file << " is absent; test skipped";
  const Rig rig = LoadRig(model);
  ASSERT_FALSE(rig.in.is_null());
  const auto length = [&](const char* limb) {
    const json& lengths = rig.in["chains"][limb]["lengths"];
    return lengths[0].get<double>() + lengths[1].get<double>();
  };
  const std::string dir = MakeTempDir();
  for (int tenths = 3; tenths <= 12; ++tenths) {
    SCOPED_TRACE(file + " hands " + std::to_string(tenths) + " tenths of a leg ahead");
    const json j = PoseLimbs(dir, model, OnTheFloor(rig, 0.1 * tenths, 0.0));
    ASSERT_FALSE(j.is_null());
    for (const auto& [limb, c] : j["chains"].items())
      EXPECT_LT(c["error"].get<double>(), 0.01 * rig.height) << limb << " on its target";
    // Kneeling, squatting or folded, not lying: the hips a quarter of a leg or more above the
    // feet (a long crawl lay on the floor, torso upright, hips 0.15 legs up).
    for (const char* leg : {"left_leg", "right_leg"}) {
      const json& c = j["chains"][leg];
      EXPECT_GT(At(c["a"]).y - At(c["c"]).y, 0.25 * length(leg)) << leg << ": the hip up";
    }
  }
  fs::remove_all(dir);
}

TEST(BodyHelpCli, HandsOnTheFloorAnywhereAheadBundled) {
  CheckHandsOnTheFloor("");
}
TEST(BodyHelpCli, HandsOnTheFloorAnywhereAheadHumanMale) {
  CheckHandsOnTheFloor("Mesh2MotionHumanMale/human-male.glb");
}
TEST(BodyHelpCli, HandsOnTheFloorAnywhereAheadMaleBaseMesh) {
  CheckHandsOnTheFloor("MaleBaseMesh/male_base_mesh.glb");
}
TEST(BodyHelpCli, HandsOnTheFloorAnywhereAheadRobot) {
  CheckHandsOnTheFloor("QuaterniusRobot/robot.glb");
}

}  // namespace
}  // namespace ikpose::test
