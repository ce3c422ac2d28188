// The C interface <ikpose/ikpose.h> against the program it promises to match: `ikpose solve`
// (run in-process through its own source, app/cmd_solve.cpp) for the two-bone and pole
// solves, bit for bit, and `ikpose pose`'s natural policy (anim::SolveChainOnPose) on a
// detected humanoid limb.
#include <gtest/gtest.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <glm/gtc/quaternion.hpp>
#include <nlohmann/json.hpp>

#include "anim/apply_ik.h"
#include "anim/chains.h"
#include "app/cmd_solve.h"
#include "ikpose/ikpose.h"
#include "test_rigs.h"

namespace ikpose {
namespace {

using nlohmann::json;

struct Case {
  float a[3], b[3], c[3], t[3];
  float pole[3];
  bool use_pole = false;
};

// The shortest digits that read back to the same float: what `ikpose solve` reads is exactly
// the float the C call gets.
std::string Digits(float x) {
  char buf[32];
  const auto res = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, res.ptr);
}

std::string Array(const float* v) {
  return "[" + Digits(v[0]) + "," + Digits(v[1]) + "," + Digits(v[2]) + "]";
}

std::string Line(const Case& k) {
  std::string line = "{\"a\":" + Array(k.a) + ",\"b\":" + Array(k.b) + ",\"c\":" + Array(k.c) +
                     ",\"t\":" + Array(k.t);
  if (k.use_pole) line += ",\"pole\":" + Array(k.pole);
  return line + "}";
}

// `ikpose solve` on every case, one output object per case.
std::vector<json> SolveCommand(const std::vector<Case>& cases) {
  std::string input;
  for (const Case& k : cases) input += Line(k) + "\n";
  std::istringstream in(input);
  std::ostringstream out, err;
  app::RunSolve(in, out, err, false);
  std::vector<json> lines;
  std::istringstream text(out.str());
  for (std::string line; std::getline(text, line);) lines.push_back(json::parse(line));
  return lines;
}

// The C return code that an `ikpose solve` error line stands for ("... (target_on_hip)").
int ExpectedCode(const json& line) {
  if (!line.contains("error_message")) return IKPOSE_OK;
  const std::string message = line["error_message"];
  if (message.find("(zero_length_upper)") != std::string::npos) {
    return IKPOSE_ERROR_ZERO_LENGTH_UPPER;
  }
  if (message.find("(zero_length_lower)") != std::string::npos) {
    return IKPOSE_ERROR_ZERO_LENGTH_LOWER;
  }
  if (message.find("(target_on_hip)") != std::string::npos) return IKPOSE_ERROR_TARGET_ON_HIP;
  if (message.find("(non_finite)") != std::string::npos) return IKPOSE_ERROR_NON_FINITE;
  return -1;
}

// The float `ikpose solve` printed (shortest digits of a float, so it reads back exactly).
float Printed(const json& v) {
  return static_cast<float>(v.get<double>());
}

bool SameBits(float x, float y) {
  return std::memcmp(&x, &y, sizeof x) == 0;
}

void Set(float* out, const glm::vec3& v) {
  out[0] = v.x;
  out[1] = v.y;
  out[2] = v.z;
}

// Random chains over every regime: reachable, too far, too close, nearly straight, nearly
// folded, knee on the hip-target line, target near the hip, degenerate bones, large and small
// scales, and magnitudes past the solver's 1e18 bound.
std::vector<Case> RandomCases(int count, bool with_pole, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> unit(-1.f, 1.f);
  std::uniform_real_distribution<float> length(0.05f, 1.f);
  std::uniform_int_distribution<int> kind(0, 11);
  std::uniform_int_distribution<int> exponent(-3, 3);
  const auto dir = [&] {
    glm::vec3 v(unit(rng), unit(rng), unit(rng));
    if (glm::length(v) < 1e-3f) v = {0.f, -1.f, 0.f};
    return glm::normalize(v);
  };
  std::vector<Case> cases;
  for (int i = 0; i < count; ++i) {
    const float scale = std::pow(10.f, static_cast<float>(exponent(rng)));
    const glm::vec3 a = scale * glm::vec3(unit(rng), unit(rng), unit(rng));
    const float l1 = scale * length(rng);
    const float l2 = scale * length(rng);
    glm::vec3 b = a + l1 * dir();
    glm::vec3 c = b + l2 * dir();
    glm::vec3 t;
    const glm::vec3 d = dir();
    const float lo = std::abs(l1 - l2), hi = l1 + l2;
    switch (kind(rng)) {
      case 0:  // too far
        t = a + (hi * (1.f + 2.f * length(rng))) * d;
        break;
      case 1:  // too close
        t = a + (lo * length(rng)) * d;
        break;
      case 2:  // at full extension, within rounding
        t = a + hi * (1.f + 1e-6f * unit(rng)) * d;
        break;
      case 3:  // at the fold, within rounding
        t = a + lo * (1.f + 1e-5f * unit(rng)) * d;
        break;
      case 4:  // the knee on the hip-target line: no side from the current knee
        t = a + (0.5f * (lo + hi)) * glm::normalize(b - a);
        break;
      case 5:  // target (almost) on the hip
        t = a + (hi * 1e-7f * length(rng)) * d;
        break;
      case 6:  // a zero-length bone
        if (length(rng) < 0.5f) {
          b = a;
        } else {
          c = b;
        }
        t = a + hi * length(rng) * d;
        break;
      case 7:  // beyond the solver's magnitude bound
        t = a + 1e19f * d;
        break;
      default:  // reachable
        t = a + (lo + (hi - lo) * length(rng)) * d;
        break;
    }
    Case k;
    Set(k.a, a);
    Set(k.b, b);
    Set(k.c, c);
    Set(k.t, t);
    k.use_pole = with_pole;
    const glm::vec3 pole =
        (i % 7 == 0) ? 0.5f * (a + t) : a + hi * glm::vec3(dir());  // on-axis too
    Set(k.pole, pole);
    cases.push_back(k);
  }
  return cases;
}

void ExpectMatchesSolveCommand(const std::vector<Case>& cases) {
  const std::vector<json> lines = SolveCommand(cases);
  ASSERT_EQ(lines.size(), cases.size());
  int solved = 0, refused = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& k = cases[i];
    const json& line = lines[i];
    float b_out[3] = {-7.f, -7.f, -7.f};
    float c_out[3] = {-7.f, -7.f, -7.f};
    const int code = k.use_pole
                         ? ikpose_solve_limb_pole(k.a, k.b, k.c, k.t, k.pole, b_out, c_out, nullptr)
                         : ikpose_solve_two_bone(k.a, k.b, k.c, k.t, b_out, c_out);
    const int expected = ExpectedCode(line);
    ASSERT_NE(expected, -1) << line.dump();
    ASSERT_EQ(code, expected) << Line(k) << "\n" << line.dump();
    if (code != IKPOSE_OK) {
      ++refused;
      for (int j = 0; j < 3; ++j) EXPECT_EQ(b_out[j], -7.f) << "written on a refusal";
      continue;
    }
    ++solved;
    for (int j = 0; j < 3; ++j) {
      EXPECT_TRUE(SameBits(b_out[j], Printed(line["b"][j])))
          << Line(k) << "\n  b[" << j << "] " << Digits(b_out[j]) << " vs " << line["b"][j];
      EXPECT_TRUE(SameBits(c_out[j], Printed(line["c"][j])))
          << Line(k) << "\n  c[" << j << "] " << Digits(c_out[j]) << " vs " << line["c"][j];
    }
  }
  // The mix covers both outcomes in earnest.
  EXPECT_GT(solved, static_cast<int>(cases.size()) / 2);
  EXPECT_GT(refused, static_cast<int>(cases.size()) / 20);
}

TEST(CApiTwoBone, MatchesIkposeSolveBitForBitOnRandomChainsOfEveryKind) {
  ExpectMatchesSolveCommand(RandomCases(3000, /*with_pole=*/false, 21));
}

TEST(CApiTwoBone, CoversEveryReachKindOfIkposeSolve) {
  const std::vector<json> lines = SolveCommand(RandomCases(600, false, 5));
  int reachable = 0, too_far = 0, too_close = 0;
  for (const json& line : lines) {
    if (!line.contains("reach")) continue;
    reachable += line["reach"] == "reachable";
    too_far += line["reach"] == "too_far";
    too_close += line["reach"] == "too_close";
  }
  EXPECT_GT(reachable, 50);
  EXPECT_GT(too_far, 30);
  EXPECT_GT(too_close, 30);
}

TEST(CApiPole, MatchesIkposeSolveWithAPoleBitForBit) {
  ExpectMatchesSolveCommand(RandomCases(2000, /*with_pole=*/true, 7));
}

const float kA[3] = {0.f, 1.f, 0.f};
const float kB[3] = {0.f, 0.5f, 0.1f};
const float kC[3] = {0.f, 0.f, 0.f};
const float kT[3] = {0.2f, 0.2f, 0.1f};

TEST(CApiTwoBone, NullPointersAreRefusedWithoutWriting) {
  float b_out[3] = {9.f, 9.f, 9.f}, c_out[3] = {9.f, 9.f, 9.f};
  EXPECT_EQ(ikpose_solve_two_bone(nullptr, kB, kC, kT, b_out, c_out), IKPOSE_ERROR_NULL_POINTER);
  EXPECT_EQ(ikpose_solve_two_bone(kA, nullptr, kC, kT, b_out, c_out), IKPOSE_ERROR_NULL_POINTER);
  EXPECT_EQ(ikpose_solve_two_bone(kA, kB, nullptr, kT, b_out, c_out), IKPOSE_ERROR_NULL_POINTER);
  EXPECT_EQ(ikpose_solve_two_bone(kA, kB, kC, nullptr, b_out, c_out), IKPOSE_ERROR_NULL_POINTER);
  EXPECT_EQ(ikpose_solve_two_bone(kA, kB, kC, kT, nullptr, c_out), IKPOSE_ERROR_NULL_POINTER);
  EXPECT_EQ(ikpose_solve_two_bone(kA, kB, kC, kT, b_out, nullptr), IKPOSE_ERROR_NULL_POINTER);
  EXPECT_EQ(ikpose_solve_limb_pole(kA, kB, kC, kT, nullptr, b_out, c_out, nullptr),
            IKPOSE_ERROR_NULL_POINTER);
  EXPECT_EQ(b_out[0], 9.f);
  EXPECT_EQ(c_out[0], 9.f);
}

TEST(CApiTwoBone, NanAndInfinityInAnyCoordinateAreRefused) {
  for (float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                    -std::numeric_limits<float>::infinity(), 2e18f}) {
    for (int slot = 0; slot < 12; ++slot) {
      float p[12];
      std::memcpy(p, kA, sizeof kA);
      std::memcpy(p + 3, kB, sizeof kB);
      std::memcpy(p + 6, kC, sizeof kC);
      std::memcpy(p + 9, kT, sizeof kT);
      p[slot] = bad;
      float b_out[3] = {9.f, 9.f, 9.f}, c_out[3] = {9.f, 9.f, 9.f};
      EXPECT_EQ(ikpose_solve_two_bone(p, p + 3, p + 6, p + 9, b_out, c_out),
                IKPOSE_ERROR_NON_FINITE)
          << "slot " << slot << " value " << bad;
      EXPECT_EQ(b_out[1], 9.f);
    }
    // A far pole is only a direction (as in `ikpose solve`); a NaN or infinite one is refused.
    if (std::isfinite(bad)) continue;
    const float pole[3] = {bad, 0.f, 1.f};
    float b_out[3], c_out[3];
    EXPECT_EQ(ikpose_solve_limb_pole(kA, kB, kC, kT, pole, b_out, c_out, nullptr),
              IKPOSE_ERROR_NON_FINITE);
  }
}

TEST(CApiTwoBone, ZeroLengthBonesAndATargetOnTheHipHaveTheirOwnCodes) {
  float b_out[3], c_out[3];
  EXPECT_EQ(ikpose_solve_two_bone(kA, kA, kC, kT, b_out, c_out), IKPOSE_ERROR_ZERO_LENGTH_UPPER);
  EXPECT_EQ(ikpose_solve_two_bone(kA, kB, kB, kT, b_out, c_out), IKPOSE_ERROR_ZERO_LENGTH_LOWER);
  EXPECT_EQ(ikpose_solve_two_bone(kA, kB, kC, kA, b_out, c_out), IKPOSE_ERROR_TARGET_ON_HIP);
  for (int code = IKPOSE_OK; code <= IKPOSE_ERROR_BAD_REST; ++code) {
    ASSERT_NE(ikpose_error_message(code), nullptr);
    EXPECT_GT(std::strlen(ikpose_error_message(code)), 5u) << code;
  }
  EXPECT_STREQ(ikpose_error_message(IKPOSE_ERROR_TARGET_ON_HIP), "the target is on the hip");
  EXPECT_STREQ(ikpose_error_message(-3), "unknown error code");
}

TEST(CApiTwoBone, OutputsMayOverwriteTheInputs) {
  float expected_b[3], expected_c[3];
  ASSERT_EQ(ikpose_solve_two_bone(kA, kB, kC, kT, expected_b, expected_c), IKPOSE_OK);
  float b[3] = {kB[0], kB[1], kB[2]}, c[3] = {kC[0], kC[1], kC[2]};
  ASSERT_EQ(ikpose_solve_two_bone(kA, b, c, kT, b, c), IKPOSE_OK);
  for (int j = 0; j < 3; ++j) {
    EXPECT_EQ(b[j], expected_b[j]);
    EXPECT_EQ(c[j], expected_c[j]);
  }
}

TEST(CApiPole, RotationsTurnTheOldBonesOntoTheNewOnes) {
  const float pole[3] = {1.f, 0.5f, 0.f};
  float b_out[3], c_out[3], rotations[8];
  ASSERT_EQ(ikpose_solve_limb_pole(kA, kB, kC, kT, pole, b_out, c_out, rotations), IKPOSE_OK);
  const glm::quat hip(rotations[3], rotations[0], rotations[1], rotations[2]);
  const glm::quat knee(rotations[7], rotations[4], rotations[5], rotations[6]);
  const glm::vec3 a(kA[0], kA[1], kA[2]), b(kB[0], kB[1], kB[2]), c(kC[0], kC[1], kC[2]);
  const glm::vec3 b_new(b_out[0], b_out[1], b_out[2]), c_new(c_out[0], c_out[1], c_out[2]);
  EXPECT_LT(glm::length(a + hip * (b - a) - b_new), 1e-5f);
  EXPECT_LT(glm::length(b_new + knee * (hip * (c - b)) - c_new), 1e-5f);
  EXPECT_LT(glm::length(c_new - glm::vec3(kT[0], kT[1], kT[2])), 1e-5f);
  EXPECT_GT(b_out[0], 0.f) << "the knee bends toward the pole (+x)";
}

TEST(CApiVersion, HeaderAndLibraryCarryTheProjectVersion) {
  EXPECT_EQ(ikpose_version(), IKPOSE_VERSION_NUMBER);
  EXPECT_EQ(std::string(IKPOSE_VERSION_STRING), IKPOSE_PROJECT_VERSION);
  EXPECT_EQ(IKPOSE_VERSION_NUMBER,
            IKPOSE_VERSION_MAJOR * 10000L + IKPOSE_VERSION_MINOR * 100L + IKPOSE_VERSION_PATCH);
}

// The natural policy through C against SolveChainOnPose (`ikpose pose`) on a detected limb, the
// body turned so the hip's parent frame is not the identity.
TEST(CApiNatural, MatchesSolveChainOnPoseOnEveryHumanoidLimb) {
  const anim::Skeleton skeleton = anim::test::MakeHumanoid(anim::test::BlenderNames());
  const anim::Pose rest = anim::RestPose(skeleton);
  const anim::ChainSet chains = anim::DetectChains(skeleton, rest);
  anim::Pose turned = rest;
  turned.locals_ls[0].rotation = glm::angleAxis(0.4f, glm::normalize(glm::vec3(0.2f, 1.f, 0.1f)));
  anim::UpdateModels(skeleton, turned);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> unit(-1.f, 1.f);
  int clamped = 0, checked = 0;
  for (anim::Limb limb : anim::kLimbs) {
    const anim::LimbChain& chain = chains[limb];
    ASSERT_TRUE(chain.valid() && chain.natural.valid) << anim::LimbName(limb);
    const int parent = skeleton.parents[chain.upper];
    const bool is_leg = limb == anim::Limb::kLeftLeg || limb == anim::Limb::kRightLeg;
    float rest_a[3], rest_b[3], rest_c[3], rest_parent[4], forward[3];
    Set(rest_a, anim::PositionMs(rest, chain.upper));
    Set(rest_b, anim::PositionMs(rest, chain.lower));
    Set(rest_c, anim::EndPositionMs(chain, rest));
    const glm::quat q = anim::RotationMs(rest, parent);
    rest_parent[0] = q.x, rest_parent[1] = q.y, rest_parent[2] = q.z, rest_parent[3] = q.w;
    Set(forward, chains.forward_ms);
    ikpose_natural_bend bend;
    ASSERT_EQ(ikpose_natural_bend_from_rest(rest_a, rest_b, rest_c, rest_parent, forward,
                                            is_leg ? 1 : 0, &bend),
              IKPOSE_OK);
    for (int j = 0; j < 3; ++j) {
      EXPECT_NEAR(bend.bend_ps[j], chain.natural.bend_ps[j], 1e-6f);
      EXPECT_NEAR(bend.reach_ps[j], chain.natural.reach_ps[j], 1e-6f);
    }
    EXPECT_EQ(bend.range_deg, chain.natural.range_deg);

    const float limb_length = chain.upper_length + chain.lower_length;
    for (int i = 0; i < 40; ++i) {
      // Start from a pose whose knee a pole put somewhere (behind the limb now and then).
      anim::Pose start = turned;
      anim::ChainSolveOptions bent;
      bent.solver.use_pole = true;
      bent.solver.pole_ms = anim::PositionMs(turned, chain.lower) +
                            limb_length * glm::vec3(unit(rng), unit(rng), unit(rng));
      const glm::vec3 end_ms = anim::EndPositionMs(chain, turned);
      const glm::vec3 first =
          end_ms + 0.3f * limb_length * glm::vec3(unit(rng), unit(rng), unit(rng));
      ASSERT_TRUE(anim::SolveChainOnPose(skeleton, chain, first, bent, start).ok);
      const glm::vec3 target =
          end_ms + 0.6f * limb_length * glm::vec3(unit(rng), unit(rng), unit(rng));

      anim::Pose solved = start;
      const anim::ChainSolveResult r =
          anim::SolveChainOnPose(skeleton, chain, target, anim::NaturalOptions(), solved);
      ASSERT_TRUE(r.ok) << r.error;
      ASSERT_EQ(r.policy, anim::KneePolicy::kNatural);
      clamped += r.swivel.clamped;

      float a[3], b[3], c[3], t[3], parent_now[4], b_out[3], c_out[3];
      Set(a, anim::PositionMs(start, chain.upper));
      Set(b, anim::PositionMs(start, chain.lower));
      Set(c, anim::EndPositionMs(chain, start));
      Set(t, target);
      const glm::quat p = anim::RotationMs(start, parent);
      parent_now[0] = p.x, parent_now[1] = p.y, parent_now[2] = p.z, parent_now[3] = p.w;
      ASSERT_EQ(
          ikpose_solve_limb_natural(&bend, parent_now, a, b, c, t, 0.f, b_out, c_out, nullptr),
          IKPOSE_OK);
      // The job solves in the hip's parent frame and the chain uses its rest lengths: the same
      // answer to float rounding.
      EXPECT_LT(glm::length(glm::vec3(b_out[0], b_out[1], b_out[2]) - r.knee_ms),
                1e-4f * limb_length)
          << anim::LimbName(limb) << " case " << i;
      EXPECT_LT(glm::length(glm::vec3(c_out[0], c_out[1], c_out[2]) - r.end_ms),
                1e-4f * limb_length)
          << anim::LimbName(limb) << " case " << i;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 160);
  EXPECT_GT(clamped, 5) << "some knees start outside the swivel range";
}

TEST(CApiNatural, RefusesNullBadBendsAndBadRotations) {
  ikpose_natural_bend bend;
  const float forward[3] = {0.f, 0.f, 1.f};
  ASSERT_EQ(ikpose_natural_bend_from_rest(kA, kB, kC, nullptr, forward, 1, &bend), IKPOSE_OK);
  EXPECT_EQ(bend.from_rest, 1);
  float b_out[3], c_out[3];
  EXPECT_EQ(ikpose_solve_limb_natural(nullptr, nullptr, kA, kB, kC, kT, 0.f, b_out, c_out, nullptr),
            IKPOSE_ERROR_NULL_POINTER);
  ikpose_natural_bend zero{};
  EXPECT_EQ(ikpose_solve_limb_natural(&zero, nullptr, kA, kB, kC, kT, 0.f, b_out, c_out, nullptr),
            IKPOSE_ERROR_BAD_BEND);
  const float zero_rotation[4] = {0.f, 0.f, 0.f, 0.f};
  EXPECT_EQ(
      ikpose_solve_limb_natural(&bend, zero_rotation, kA, kB, kC, kT, 0.f, b_out, c_out, nullptr),
      IKPOSE_ERROR_BAD_ROTATION);
  const float nan_rotation[4] = {0.f, std::nanf(""), 0.f, 1.f};
  EXPECT_EQ(
      ikpose_solve_limb_natural(&bend, nan_rotation, kA, kB, kC, kT, 0.f, b_out, c_out, nullptr),
      IKPOSE_ERROR_NON_FINITE);
  EXPECT_EQ(ikpose_solve_limb_natural(&bend, nullptr, kA, kB, kC, kA, 0.f, b_out, c_out, nullptr),
            IKPOSE_ERROR_TARGET_ON_HIP);
  EXPECT_EQ(ikpose_natural_bend_from_rest(kA, kB, kA, nullptr, forward, 1, &bend),
            IKPOSE_ERROR_BAD_REST);
  const float unnormalised[4] = {0.f, 0.f, 0.f, 3.f};  // the identity, scaled
  float b_unit[3], c_unit[3];
  ASSERT_EQ(ikpose_solve_limb_natural(&bend, nullptr, kA, kB, kC, kT, 0.f, b_unit, c_unit, nullptr),
            IKPOSE_OK);
  ASSERT_EQ(
      ikpose_solve_limb_natural(&bend, unnormalised, kA, kB, kC, kT, 0.f, b_out, c_out, nullptr),
      IKPOSE_OK);
  for (int j = 0; j < 3; ++j) EXPECT_NEAR(b_out[j], b_unit[j], 1e-6f);
}

}  // namespace
}  // namespace ikpose
