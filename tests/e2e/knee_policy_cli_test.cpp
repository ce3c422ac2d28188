// The knee policy through the real `ikpose pose --json`: the natural policy by default bends a
// stepping knee forward; `--policy seed` is exactly `ikpose solve` (the knee behind); the
// scenario's "policy" and "swivel_deg"; contradictions are one-line errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_program.h"

namespace ikpose::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kCharacter = (fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb").string();

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
json Array(Vec a) {
  return json::array({a.x, a.y, a.z});
}

// The left leg of the bundled character as `ikpose inspect --json` describes it.
struct Leg {
  Vec knee_rest, foot_rest, forward;
  double length = 0;
  Vec step_up;  // 0.45 leg-lengths up and 0.40 forward of the resting foot
};

Leg InspectLeftLeg() {
  const ProgramResult r = RunIkpose({"inspect", kCharacter, "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const json info = json::parse(r.out);
  const json& chain = info["chains"]["left_leg"];
  Leg leg;
  leg.knee_rest = V(info["bones"][chain["bone_indices"][1].get<int>()]["rest_position_ms"]);
  leg.foot_rest = V(info["bones"][chain["bone_indices"][2].get<int>()]["rest_position_ms"]);
  leg.forward = V(info["forward"]);
  leg.length = chain["lengths"][0].get<double>() + chain["lengths"][1].get<double>();
  leg.step_up = leg.foot_rest + leg.length * (Vec{0, 0.45, 0} + 0.40 * leg.forward);
  return leg;
}

// The left leg's entry of `ikpose pose --json` with `args` after the target.
json PoseLeftLeg(const Leg& leg, const std::vector<std::string>& args = {}) {
  std::vector<std::string> all = {"pose", kCharacter, "--json", "--target",
                                  "left_leg=" + Arg(leg.step_up)};
  all.insert(all.end(), args.begin(), args.end());
  const ProgramResult r = RunIkpose(all);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.exit_code == 0 ? json::parse(r.out)["chains"]["left_leg"] : json::object();
}

// How far the reported knee `b` sits along forward off the line from hip `a` to foot `c`.
double KneeAhead(const json& chain, Vec forward) {
  const Vec axis = (1.0 / Norm(V(chain["c"]) - V(chain["a"]))) * (V(chain["c"]) - V(chain["a"]));
  const Vec offset = V(chain["b"]) - V(chain["a"]);
  return Dot(offset - Dot(offset, axis) * axis, forward);
}

void ExpectSingleErrorLine(const ProgramResult& r, const std::vector<std::string>& parts) {
  EXPECT_NE(r.exit_code, 0);
  EXPECT_LT(r.exit_code, 128) << "crashed";
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("ikpose: error: ", 0), 0u) << r.err;
  for (const std::string& part : parts) EXPECT_NE(r.err.find(part), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(KneePolicyCli, PoseDefaultsToNaturalWithTheSteppingKneeInFront) {
  const Leg leg = InspectLeftLeg();
  const json chain = PoseLeftLeg(leg);
  ASSERT_TRUE(chain.contains("b")) << chain;
  EXPECT_EQ(chain["policy"], "natural");
  EXPECT_EQ(chain["reach"], "reachable");
  EXPECT_LT(chain["error"].get<double>(), 1e-5);
  EXPECT_EQ(chain["swivel_range_deg"].get<double>(), 45.0);
  EXPECT_LE(std::abs(chain["swivel_deg"].get<double>()), 45.0);
  ASSERT_TRUE(chain.contains("swivel_reference_deg") && chain.contains("swivel_clamped"));
  // The natural direction reported is a unit vector on the forward side.
  EXPECT_NEAR(Norm(V(chain["natural_ms"])), 1.0, 1e-4);
  EXPECT_GT(Dot(V(chain["natural_ms"]), leg.forward), 0.5);
  EXPECT_GT(KneeAhead(chain, leg.forward), 0.05 * leg.length);
}

TEST(KneePolicyCli, SeedPolicyIsWhatSolveReturnsWithTheKneeBehind) {
  const Leg leg = InspectLeftLeg();
  const json seed = PoseLeftLeg(leg, {"--policy", "left_leg=seed"});
  ASSERT_TRUE(seed.contains("b")) << seed;
  EXPECT_EQ(seed["policy"], "seed");
  EXPECT_LT(KneeAhead(seed, leg.forward), -0.05 * leg.length);
  // One policy for every chain says the same for this leg.
  const json seed_for_all = PoseLeftLeg(leg, {"--policy", "seed"});
  ASSERT_TRUE(seed_for_all.contains("b")) << seed_for_all;
  EXPECT_LT(Norm(V(seed_for_all["b"]) - V(seed["b"])), 1e-6);

  // `ikpose solve` on the same hip, rest knee, rest foot and target.
  const json line = {{"a", seed["a"]},
                     {"b", Array(leg.knee_rest)},
                     {"c", Array(leg.foot_rest)},
                     {"t", Array(leg.step_up)}};
  const ProgramResult r = RunIkpose({"solve"}, line.dump() + "\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json solved = json::parse(r.out);
  ASSERT_TRUE(solved.contains("b")) << r.out;
  EXPECT_EQ(solved["reach"], seed["reach"]);
  EXPECT_LT(Norm(V(solved["b"]) - V(seed["b"])), 1e-5 * leg.length) << solved << seed;
  EXPECT_LT(Norm(V(solved["c"]) - V(seed["c"])), 1e-5 * leg.length) << solved << seed;
}

TEST(KneePolicyCli, ScenarioPolicyAndSwivelRangeAreUsed) {
  const Leg leg = InspectLeftLeg();
  const std::string dir = MakeTempDir();
  const auto scenario = [&](const std::string& name, const json& limb) {
    json s = {{"model", kCharacter}, {"limbs", {{"left_leg", limb}}}};
    s["limbs"]["left_leg"]["target"] = Array(leg.step_up);
    const std::string path = dir + "/" + name + ".json";
    std::ofstream(path) << s.dump();
    return path;
  };
  const ProgramResult seed =
      RunIkpose({"pose", "--json", "--scene", scenario("seed", {{"policy", "seed"}})});
  ASSERT_EQ(seed.exit_code, 0) << seed.err;
  const json seed_chain = json::parse(seed.out)["chains"]["left_leg"];
  EXPECT_EQ(seed_chain["policy"], "seed");
  EXPECT_LT(Norm(V(seed_chain["b"]) - V(PoseLeftLeg(leg, {"--policy", "seed"})["b"])), 1e-6);

  const ProgramResult narrow =
      RunIkpose({"pose", "--json", "--scene",
                 scenario("narrow", {{"policy", "natural"}, {"swivel_deg", 10.0}})});
  ASSERT_EQ(narrow.exit_code, 0) << narrow.err;
  const json narrow_chain = json::parse(narrow.out)["chains"]["left_leg"];
  EXPECT_EQ(narrow_chain["policy"], "natural");
  EXPECT_EQ(narrow_chain["swivel_range_deg"].get<double>(), 10.0);
  EXPECT_LE(std::abs(narrow_chain["swivel_deg"].get<double>()), 10.0 + 1e-4);
  EXPECT_GT(KneeAhead(narrow_chain, leg.forward), 0.05 * leg.length);
}

TEST(KneePolicyCli, PolePolicyWithoutAPoleIsAOneLineError) {
  const Leg leg = InspectLeftLeg();
  ExpectSingleErrorLine(RunIkpose({"pose", kCharacter, "--json", "--target",
                                   "left_leg=" + Arg(leg.step_up), "--policy", "left_leg=pole"}),
                        {"--policy left_leg=pole", "--pole"});
  ExpectSingleErrorLine(RunIkpose({"pose", kCharacter, "--policy", "left_leg=sideways"}),
                        {"--policy"});
}

TEST(KneePolicyCli, ScenarioWithSeedPolicyAndAPoleIsAOneLineErrorNamingTheField) {
  const std::string dir = MakeTempDir();
  const std::string path = dir + "/contradiction.json";
  std::ofstream(path) << json{{"model", kCharacter},
                              {"limbs",
                               {{"left_leg",
                                 {{"target", {0.105, 0.35, 0.25}},
                                  {"pole", {0.1, 0.6, 1.0}},
                                  {"policy", "seed"}}}}}}
                             .dump();
  ExpectSingleErrorLine(RunIkpose({"pose", "--json", "--scene", path}),
                        {"limbs.left_leg", "pole", "policy \"seed\""});
}

}  // namespace
}  // namespace ikpose::test
