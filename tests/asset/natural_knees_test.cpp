// Knees bend forward and elbows do not, on real characters, through the posing session the
// viewer, render, pose and export share (its default: the natural knee policy). The bundled
// character and every humanoid in ../shared/models (skipped, saying so, when absent) step a
// foot up onto a step and reach a hand forward; a foot swept from behind the leg to in front
// moves the knee smoothly under natural, and makes it jump under the seed's rule.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "anim/chains.h"
#include "asset/load_model.h"
#include "model_checks.h"
#include "scene/session/posing_session.h"

namespace ikpose::asset {
namespace {

namespace fs = std::filesystem;
using anim::Limb;

constexpr glm::vec3 kUp{0.f, 1.f, 0.f};  // glTF models are Y-up

float Length(const anim::LimbChain& chain) {
  return chain.upper_length + chain.lower_length;
}

// How far the knee (elbow) sits along `direction` off the line from the hip to the end.
float AheadOfTheLine(const anim::ChainSolveResult& result, const glm::vec3& direction) {
  const glm::vec3 axis = glm::normalize(result.end_ms - result.hip_ms);
  const glm::vec3 offset = result.knee_ms - result.hip_ms;
  return glm::dot(offset - glm::dot(offset, axis) * axis, direction);
}

// A foot target 0.45 leg-lengths up and 0.40 forward of the resting foot.
glm::vec3 StepUp(const scene::PosingSession& session, Limb leg) {
  const float length = Length(session.chain(leg));
  return session.resting_target(leg) + length * (0.45f * kUp + 0.40f * session.chains().forward_ms);
}

// A hand target reaching forward and a little down from the shoulder, 0.85 arm-lengths away.
glm::vec3 ReachForward(const scene::PosingSession& session, Limb arm) {
  const anim::LimbChain& chain = session.chain(arm);
  const glm::vec3 shoulder_ms = anim::PositionMs(session.rest_pose(), chain.upper);
  return shoulder_ms +
         0.85f * Length(chain) * glm::normalize(session.chains().forward_ms - 0.3f * kUp);
}

void Place(scene::PosingSession& session, Limb limb, const glm::vec3& target_ms,
           anim::KneePolicy policy) {
  scene::LimbTarget& t = session.target(limb);
  t.target_ms = target_ms;
  t.given = true;
  t.options.policy = policy;
}

struct Character {
  const char* file;  // under ../shared/models; nullptr: the bundled character
};

const Character kCharacters[] = {
    {nullptr},
    {"CesiumMan/CesiumMan.glb"},
    {"RiggedFigure/RiggedFigure.glb"},
    {"MaleBaseMesh/male_base_mesh.glb"},
    {"Mesh2MotionHumanMale/human-male.glb"},
    {"QuaterniusRobot/robot.glb"},
};

class NaturalKnees : public ::testing::TestWithParam<Character> {
 protected:
  void SetUp() override {
    fs::path path;
    if (GetParam().file == nullptr) {
      path = test::DefaultCharacter();
      ASSERT_FALSE(path.empty()) << "assets/character.glb is missing";
    } else {
      if (test::SharedModelsDir().empty()) {
        GTEST_SKIP() << "../shared/models is absent beside the checkout; the real-character "
                        "knee tests are skipped";
      }
      path = test::SharedModelsDir() / GetParam().file;
      if (!fs::exists(path)) GTEST_SKIP() << path << " is absent";
    }
    model_ = LoadModel(path);
    for (Limb limb : anim::kLimbs) {
      ASSERT_TRUE(model_.chains[limb].valid()) << anim::LimbName(limb);
      ASSERT_TRUE(model_.chains[limb].natural.valid) << anim::LimbName(limb);
    }
  }
  anim::Model model_;
};

// Places both limbs' targets with the session's default options and evaluates; each limb must
// land on its target under the natural policy.
void SolveUnderDefaults(scene::PosingSession& session, std::array<Limb, 2> limbs,
                        glm::vec3 (*target_of)(const scene::PosingSession&, Limb)) {
  for (Limb limb : limbs) {
    session.target(limb).target_ms = target_of(session, limb);
    session.target(limb).given = true;
  }
  session.Evaluate();
  for (Limb limb : limbs) {
    const anim::ChainSolveResult& r = session.result(limb);
    EXPECT_TRUE(r.ok) << anim::LimbName(limb) << ": " << r.error;
    EXPECT_EQ(r.policy, anim::KneePolicy::kNatural) << anim::LimbName(limb);
    EXPECT_LT(r.error_ms, 1e-3f * Length(session.chain(limb))) << anim::LimbName(limb);
  }
}

TEST_P(NaturalKnees, StepUpBendsBothKneesForwardByDefault) {
  scene::PosingSession session(model_);
  SolveUnderDefaults(session, {Limb::kLeftLeg, Limb::kRightLeg}, StepUp);
  for (Limb leg : {Limb::kLeftLeg, Limb::kRightLeg}) {
    EXPECT_GT(AheadOfTheLine(session.result(leg), session.chains().forward_ms),
              0.05f * Length(session.chain(leg)))
        << anim::LimbName(leg) << ": the knee is not in front of the hip-foot line";
  }
}

TEST_P(NaturalKnees, ForwardReachKeepsBothElbowsOutOfFrontAndOutOfTheChest) {
  scene::PosingSession session(model_);
  const glm::vec3 forward_ms = session.chains().forward_ms;
  SolveUnderDefaults(session, {Limb::kLeftArm, Limb::kRightArm}, ReachForward);
  for (Limb arm : {Limb::kLeftArm, Limb::kRightArm}) {
    const anim::ChainSolveResult& r = session.result(arm);
    const float length = Length(session.chain(arm));
    EXPECT_LE(AheadOfTheLine(r, forward_ms), 0.01f * length)
        << anim::LimbName(arm) << ": the elbow is in front of the shoulder-hand line";
    // Nor into the chest: the elbow is not off the line toward the body's middle.
    const Limb other = arm == Limb::kLeftArm ? Limb::kRightArm : Limb::kLeftArm;
    glm::vec3 outward_ms =
        r.hip_ms - anim::PositionMs(session.rest_pose(), session.chain(other).upper);
    outward_ms -= glm::dot(outward_ms, forward_ms) * forward_ms + glm::dot(outward_ms, kUp) * kUp;
    EXPECT_GE(AheadOfTheLine(r, glm::normalize(outward_ms)), -0.01f * length)
        << anim::LimbName(arm) << ": the elbow points into the chest";
  }
}

INSTANTIATE_TEST_SUITE_P(Characters, NaturalKnees, ::testing::ValuesIn(kCharacters),
                         [](const ::testing::TestParamInfo<Character>& param_info) {
                           if (param_info.param.file == nullptr) return std::string("bundled");
                           std::string name = fs::path(param_info.param.file).stem().string();
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

class BundledCharacter : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(test::DefaultCharacter().empty()) << "assets/character.glb is missing";
    model_ = LoadModel(test::DefaultCharacter());
    ASSERT_TRUE(model_.chains[Limb::kLeftLeg].valid());
  }
  anim::Model model_;
};

TEST_F(BundledCharacter, SeedBendsTheSteppingKneeBackwards) {
  // The bug the natural policy fixes: the seed's knee nearest the current knee goes behind.
  scene::PosingSession session(model_);
  Place(session, Limb::kLeftLeg, StepUp(session, Limb::kLeftLeg), anim::KneePolicy::kSeed);
  session.Evaluate();
  const anim::ChainSolveResult& r = session.result(Limb::kLeftLeg);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.policy, anim::KneePolicy::kSeed);
  EXPECT_LT(AheadOfTheLine(r, session.chains().forward_ms),
            -0.05f * Length(session.chain(Limb::kLeftLeg)));
}

// The knee of the left leg for each foot target of a sweep along forward at 0.35 leg-lengths
// up, from 0.5 leg-lengths behind the resting foot to 0.6 in front, as a drag would pose it.
std::vector<glm::vec3> SweepKnees(const anim::Model& model, anim::KneePolicy policy,
                                  float* target_step) {
  constexpr int kSteps = 60;
  scene::PosingSession session(model);
  const Limb leg = Limb::kLeftLeg;
  const float length = Length(session.chain(leg));
  const glm::vec3 start_ms = session.resting_target(leg) + length * (0.35f * kUp);
  const glm::vec3 forward_ms = session.chains().forward_ms;
  *target_step = 1.1f * length / kSteps;
  std::vector<glm::vec3> knees;
  for (int i = 0; i <= kSteps; ++i) {
    const float along = -0.5f * length + *target_step * static_cast<float>(i);
    Place(session, leg, start_ms + along * forward_ms, policy);
    session.Evaluate();
    const anim::ChainSolveResult& r = session.result(leg);
    EXPECT_TRUE(r.ok) << "step " << i << ": " << r.error;
    EXPECT_LT(r.error_ms, 1e-3f * length) << "step " << i;
    knees.push_back(r.knee_ms);
  }
  return knees;
}

float LargestJump(const std::vector<glm::vec3>& knees) {
  float largest = 0.f;
  for (std::size_t i = 1; i < knees.size(); ++i) {
    largest = std::max(largest, glm::length(knees[i] - knees[i - 1]));
  }
  return largest;
}

TEST_F(BundledCharacter, FootSweptFromBehindToFrontMovesTheKneeSmoothlyUnderNatural) {
  float target_step = 0.f;
  const std::vector<glm::vec3> knees = SweepKnees(model_, anim::KneePolicy::kNatural, &target_step);
  EXPECT_LE(LargestJump(knees), 3.f * target_step);
}

TEST_F(BundledCharacter, FootSweptFromBehindToFrontMakesTheSeedsKneeJump) {
  // What the seed does: somewhere along the sweep the knee flips across, a third of the leg.
  float target_step = 0.f;
  const std::vector<glm::vec3> knees = SweepKnees(model_, anim::KneePolicy::kSeed, &target_step);
  EXPECT_GE(LargestJump(knees), Length(model_.chains[Limb::kLeftLeg]) / 3.f);
}

}  // namespace
}  // namespace ikpose::asset
