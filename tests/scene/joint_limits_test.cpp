// Joint limits in the posing session (scene/session/joint_limits.h, scene/view/bone_rings.h): a
// grabbed neck or spine stops at its range, spread over its bones, and turns freely with limits
// off; the session lists the joint at its limit; a hip asked past its range stops at it; knees and
// elbows keep the solver's hinge (limits on or off, the same pose for a target within ranges).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include <glm/gtc/quaternion.hpp>

#include "anim/test_rigs.h"
#include "scene/session/posing_session.h"
#include "scene/view/bone_rings.h"

namespace ikpose::scene {
namespace {

using anim::Limb;

int Bone(const anim::Model& model, const char* name) {
  const int bone = model.skeleton.Find(name);
  EXPECT_GE(bone, 0) << name;
  return bone;
}

// How far `bone` is turned from its rest, model space, degrees.
float TurnedDeg(const PosingSession& s, int bone) {
  const glm::quat delta =
      anim::RotationMs(s.pose(), bone) * glm::inverse(anim::RotationMs(s.rest_pose(), bone));
  return glm::degrees(glm::angle(glm::normalize(delta)));
}

bool Listed(const PosingSession& s, int bone, bool twist) {
  return std::any_of(s.joints_at_limit().begin(), s.joints_at_limit().end(),
                     [&](const JointAtLimit& j) { return j.bone == bone && j.twist == twist; });
}

// Grabbing the neck and turning the head 100 degrees to the side: it stops at the neck's
// rotation range (70) and says so; with limits off it turns all the way.
TEST(JointLimits, AGrabbedNeckStopsAtItsRangeAndOnlyThere) {
  const anim::Model model = anim::test::MakeHumanoidModel();
  const int neck = Bone(model, "neck_01");
  const float limit = anim::TableRange(anim::JointPart::kNeck).twist_deg;
  for (bool limits : {true, false}) {
    SCOPED_TRACE(limits ? "limits on" : "limits off");
    PosingSession s(model);
    s.edits.limits = limits;
    const TurnStart start = StartTurn(s, neck, /*spread=*/true);
    ASSERT_TRUE(TurnBoneMs(s, start, glm::angleAxis(glm::radians(100.f), glm::vec3(0, 1, 0))));
    s.Evaluate();  // an edit is solved by the next Evaluate
    if (limits) {
      EXPECT_NEAR(TurnedDeg(s, neck), limit, 0.1f);
      ASSERT_TRUE(Listed(s, neck, /*twist=*/true));
      const std::string sentence = LimitSentence(model, s.joints_at_limit().front());
      EXPECT_NE(sentence.find("neck_01 (neck) at its limit: 70"), std::string::npos) << sentence;
    } else {
      EXPECT_NEAR(TurnedDeg(s, neck), 100.f, 0.1f);
      ASSERT_TRUE(Listed(s, neck, /*twist=*/true)) << "past its limit, said so";
      EXPECT_NE(LimitSentence(model, s.joints_at_limit().front()).find("past its limit"),
                std::string::npos);
    }
    // A small turn is within the range: it turns as asked, and nothing is at its limit.
    PosingSession small(model);
    small.edits.limits = limits;
    TurnBoneMs(small, StartTurn(small, neck, true),
               glm::angleAxis(glm::radians(20.f), glm::vec3(1, 0, 0)));
    small.Evaluate();  // an edit is solved by the next Evaluate
    EXPECT_NEAR(TurnedDeg(small, neck), 20.f, 0.1f);
    EXPECT_TRUE(small.joints_at_limit().empty());
  }
}

// Grabbing the chest and bending the body 60 degrees sideways: the bend spreads over the spine's
// bones, each within its share of the spine's lateral range (35 together).
TEST(JointLimits, AGrabbedChestBendsOverTheSpineWithinItsRange) {
  const anim::Model model = anim::test::MakeHumanoidModel();
  const int chest = Bone(model, "spine_02");
  const int spine = Bone(model, "spine_01");
  PosingSession s(model);
  ASSERT_TRUE(TurnBoneMs(s, StartTurn(s, chest, true),
                         glm::angleAxis(glm::radians(60.f), glm::vec3(0, 0, 1))));
  s.Evaluate();  // an edit is solved by the next Evaluate
  const float side = anim::TableRange(anim::JointPart::kSpine).side_deg;
  EXPECT_NEAR(TurnedDeg(s, chest), side, 0.2f) << "the chest carries the whole spine's bend";
  EXPECT_NEAR(TurnedDeg(s, spine), side / 2.f, 0.2f) << "each bone its share";
  EXPECT_TRUE(Listed(s, chest, false));
  EXPECT_TRUE(Listed(s, spine, false));
}

// A foot target far behind the body asks the hip for more than its extension (30 degrees):
// the hip stops there and the report lists it; limits off reaches the target.
TEST(JointLimits, AHipAskedPastItsRangeStopsAtIt) {
  const anim::Model model = anim::test::MakeHumanoidModel();
  const anim::LimbChain& leg = model.chains[Limb::kLeftLeg];
  for (bool limits : {true, false}) {
    SCOPED_TRACE(limits ? "limits on" : "limits off");
    PosingSession s(model);
    s.edits.limits = limits;
    s.edits.body_help = false;
    const glm::vec3 hip = anim::PositionMs(s.rest_pose(), leg.upper);
    const float length = leg.upper_length + leg.lower_length;
    const glm::vec3 back = glm::normalize(glm::vec3(0.f, -0.5f, -0.87f));  // 60 deg behind
    s.target(Limb::kLeftLeg).target_ms = hip + 0.99f * length * back;
    s.Evaluate();
    const anim::RangeClamp c =
        anim::ClampToRange(*model.ranges.Find(leg.upper),
                           s.pose().locals_ls[static_cast<std::size_t>(leg.upper)].rotation);
    const float error = s.result(Limb::kLeftLeg).error_ms;
    if (limits) {
      EXPECT_LE(c.swing_deg, anim::TableRange(anim::JointPart::kHip).away_deg + 0.1f);
      EXPECT_TRUE(Listed(s, leg.upper, false));
      EXPECT_GT(error, 0.05f) << "the foot stops short";
    } else {
      EXPECT_GT(c.swing_deg, 50.f);
      EXPECT_LT(error, 1e-3f);
    }
  }
}

// Targets every limb reaches within its ranges: limits on or off, the same pose, so the knee
// and elbow hinges (and the solves) are what they were.
TEST(JointLimits, WithinTheRangesLimitsChangeNothing) {
  const anim::Model model = anim::test::MakeHumanoidModel();
  const auto pose = [&](bool limits) {
    PosingSession s(model);
    s.edits.limits = limits;
    const auto from = [&](Limb limb) {
      return anim::PositionMs(s.rest_pose(), model.chains[limb].upper);
    };
    s.target(Limb::kLeftArm).target_ms = from(Limb::kLeftArm) + glm::vec3(0.1f, -0.15f, 0.4f);
    s.target(Limb::kRightArm).target_ms = from(Limb::kRightArm) + glm::vec3(-0.3f, -0.3f, 0.1f);
    s.target(Limb::kLeftLeg).target_ms = from(Limb::kLeftLeg) + glm::vec3(0.f, -0.6f, 0.35f);
    s.Evaluate();
    EXPECT_TRUE(s.joints_at_limit().empty() || !limits);
    return s.pose();
  };
  const anim::Pose on = pose(true), off = pose(false);
  for (std::size_t i = 0; i < on.locals_ls.size(); ++i) {
    const float d = glm::angle(
        glm::normalize(glm::inverse(off.locals_ls[i].rotation) * on.locals_ls[i].rotation));
    EXPECT_LT(glm::degrees(d), 1e-3f) << model.skeleton.names[i];
  }
}

}  // namespace
}  // namespace ikpose::scene
