// The whole-body posing contract through the real program, as a user meets it: scenarios with
// only targets or a body move, written to a folder and posed with `ikpose pose --scene S --json`
// and no options. Forward (inspect) is the torso's facing; a step-up puts the knee over the
// toes and lands the lifted foot at its rest pitch; a forward reach hangs the elbow under the
// shoulder-hand line; a crouch keeps the knees over the toes and apart. On the bundled character
// and the shared ones (skipped when absent).
#include <gtest/gtest.h>

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

// The contract's limits, degrees.
constexpr double kForwardDeg = 15.0;
constexpr double kKneeOverToesDeg = 30.0;
constexpr double kFootPitchDeg = 8.0;
constexpr double kElbowDownDeg = 60.0;

struct V {
  double x = 0, y = 0, z = 0;
};
V At(const json& a) {
  return {a[0].get<double>(), a[1].get<double>(), a[2].get<double>()};
}
json ToJson(V a) {
  return json::array({a.x, a.y, a.z});
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
double Dot(V a, V b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
double Length(V a) {
  return std::sqrt(Dot(a, a));
}
V Unit(V a) {
  return (1.0 / Length(a)) * a;
}
V Cross(V a, V b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
V Horizontal(V a) {
  return {a.x, 0.0, a.z};
}
V Across(V v, V axis) {
  const V a = Unit(axis);
  return v - Dot(v, a) * a;
}
double AngleDeg(V a, V b) {
  const double c = Dot(Unit(a), Unit(b));
  return std::acos(std::max(-1.0, std::min(1.0, c))) * 180.0 / M_PI;
}
constexpr V kUp{0, 1, 0};

struct Character {
  const char* name;
  const char* file;  // under the shared models; null: the bundled character
};

fs::path ModelPath(const Character& c) {
  if (c.file == nullptr) return fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb";
  const fs::path path = fs::path(IKPOSE_SOURCE_DIR) / ".." / "shared" / "models" / c.file;
  return fs::exists(path) ? path.lexically_normal() : fs::path();
}

std::map<std::string, V> Positions(const json& bones, const char* field) {
  std::map<std::string, V> out;
  for (const json& b : bones) out[b["name"].get<std::string>()] = At(b[field]);
  return out;
}

class PosingContractCli : public ::testing::TestWithParam<Character> {
 protected:
  void SetUp() override {
    model_ = ModelPath(GetParam());
    if (model_.empty()) GTEST_SKIP() << GetParam().name << " is absent; test skipped";
    const ProgramResult info = RunIkpose({"inspect", model_.string(), "--json"});
    ASSERT_EQ(info.exit_code, 0) << info.err;
    in_ = json::parse(info.out);
    rest_ = Positions(in_["bones"], "rest_position_ms");
    dir_ = fs::path(MakeTempDir());
  }

  // `pose --scene` on a scenario of `fields` over this model, its report.
  json Pose(const std::string& name, json fields) {
    fields["model"] = model_.generic_string();
    const fs::path scene = dir_ / (name + ".json");
    std::ofstream(scene) << fields.dump();
    const ProgramResult r = RunIkpose({"pose", "--scene", scene.string(), "--json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.exit_code == 0 ? json::parse(r.out) : json();
  }

  const json& Chain(const char* limb) const { return in_["chains"][limb]; }
  double LimbLength(const char* limb) const {
    return Chain(limb)["lengths"][0].get<double>() + Chain(limb)["lengths"][1].get<double>();
  }
  V Rest(const json& name) const { return rest_.at(name.get<std::string>()); }
  // The torso's facing from the rest: the mean of the hips' and shoulders' facings.
  V TorsoFacing() const {
    const auto facing = [&](const char* left, const char* right) {
      return Unit(
          Cross(Horizontal(Rest(Chain(left)["joints"][0]) - Rest(Chain(right)["joints"][0])), kUp));
    };
    return Unit(facing("left_leg", "right_leg") + facing("left_arm", "right_arm"));
  }
  // Foot to toe in `positions` (the humanoid map's toe), else none.
  bool Toe(const char* leg, const std::map<std::string, V>& positions, V* out) const {
    const json& toes = in_["humanoid"]["toes"];
    const char* side = std::string(leg) == "left_leg" ? "left" : "right";
    if (!toes.contains(side) || !toes[side].is_string()) return false;
    *out = positions.at(toes[side].get<std::string>()) -
           positions.at(Chain(leg)["joints"][2].get<std::string>());
    return true;
  }
  // Seen along the hip-foot line, the knee's angle from the toes' side of it.
  double KneeOffToes(const json& report, const char* leg) const {
    const json& c = report["chains"][leg];
    const std::map<std::string, V> now = Positions(report["bones"], "position_ms");
    const V hip = now.at(Chain(leg)["joints"][0].get<std::string>());
    V toe;
    if (!Toe(leg, now, &toe)) toe = TorsoFacing();
    const V axis = At(c["c"]) - hip;
    return AngleDeg(Across(At(c["b"]) - hip, axis), Across(Horizontal(toe), axis));
  }

  fs::path model_;
  json in_;
  std::map<std::string, V> rest_;
  fs::path dir_;
};

TEST_P(PosingContractCli, ForwardIsTheTorsosFacing) {
  EXPECT_LT(AngleDeg(At(in_["forward"]), TorsoFacing()), kForwardDeg);
}

TEST_P(PosingContractCli, StepUpKneeOverTheToesFootAtItsRestPitch) {
  for (const char* leg : {"left_leg", "right_leg"}) {
    SCOPED_TRACE(leg);
    const double length = LimbLength(leg);
    const V target = Rest(Chain(leg)["joints"][2]) + length * (0.45 * kUp + 0.4 * TorsoFacing());
    const json r =
        Pose(std::string("step_") + leg, {{"limbs", {{leg, {{"target", ToJson(target)}}}}}});
    ASSERT_TRUE(r.contains("chains")) << "posed";
    EXPECT_LT(r["chains"][leg]["error"].get<double>(), 1e-3 * length);
    EXPECT_LT(KneeOffToes(r, leg), kKneeOverToesDeg);
    V toe_rest, toe_now;
    if (Toe(leg, rest_, &toe_rest) && Toe(leg, Positions(r["bones"], "position_ms"), &toe_now)) {
      const auto pitch = [](V d) { return std::asin(Unit(d).y) * 180.0 / M_PI; };
      EXPECT_NEAR(pitch(toe_now), pitch(toe_rest), kFootPitchDeg);
    }
  }
}

TEST_P(PosingContractCli, ForwardReachElbowDown) {
  for (const char* arm : {"left_arm", "right_arm"}) {
    SCOPED_TRACE(arm);
    const double length = LimbLength(arm);
    const V target = Rest(Chain(arm)["joints"][0]) + length * (0.8 * TorsoFacing() - 0.15 * kUp);
    const json r =
        Pose(std::string("reach_") + arm, {{"limbs", {{arm, {{"target", ToJson(target)}}}}}});
    ASSERT_TRUE(r.contains("chains")) << "posed";
    const json& c = r["chains"][arm];
    EXPECT_LT(c["error"].get<double>(), 1e-3 * length);
    const V shoulder =
        Positions(r["bones"], "position_ms").at(Chain(arm)["joints"][0].get<std::string>());
    const V axis = At(c["c"]) - shoulder;
    EXPECT_LT(AngleDeg(Across(At(c["b"]) - shoulder, axis), Across(-1.0 * kUp, axis)),
              kElbowDownDeg);
  }
}

TEST_P(PosingContractCli, CrouchKneesOverTheToesAndApart) {
  const double leg = LimbLength("left_leg");
  const json r = Pose("crouch", {{"body", {{"offset", json::array({0.0, -0.3 * leg, 0.0})}}}});
  ASSERT_TRUE(r.contains("chains")) << "posed";
  for (const char* l : {"left_leg", "right_leg"}) {
    SCOPED_TRACE(l);
    ASSERT_TRUE(r["chains"].contains(l)) << "the pinned foot re-solved";
    EXPECT_LT(KneeOffToes(r, l), kKneeOverToesDeg);
  }
  const V left = Unit(Cross(kUp, TorsoFacing()));
  const std::map<std::string, V> now = Positions(r["bones"], "position_ms");
  const double hips = Dot(now.at(Chain("left_leg")["joints"][0].get<std::string>()) -
                              now.at(Chain("right_leg")["joints"][0].get<std::string>()),
                          left);
  const double knees =
      Dot(At(r["chains"]["left_leg"]["b"]) - At(r["chains"]["right_leg"]["b"]), left);
  EXPECT_GT(knees, 0.5 * hips);
}

INSTANTIATE_TEST_SUITE_P(
    Characters, PosingContractCli,
    ::testing::Values(Character{"bundled", nullptr},
                      Character{"human_male", "Mesh2MotionHumanMale/human-male.glb"},
                      Character{"male_base_mesh", "MaleBaseMesh/male_base_mesh.glb"},
                      Character{"robot", "QuaterniusRobot/robot.glb"},
                      Character{"cesium_man", "CesiumMan/CesiumMan.glb"},
                      Character{"rigged_figure", "RiggedFigure/RiggedFigure.glb"}),
    [](const ::testing::TestParamInfo<Character>& c) { return std::string(c.param.name); });

}  // namespace
}  // namespace ikpose::test
