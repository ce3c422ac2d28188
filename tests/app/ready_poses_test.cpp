// Ready poses on real characters: the bundled one and every humanoid in ../shared/models (skipped,
// saying so, when absent). Each pose reaches every target it sets and looks like its name: the
// pelvis drops to sit, a knee goes down to kneel, the feet part to run, the hands rise above the
// head to reach up, the climb puts hands and feet on rungs, the crawl and the push-up put them on
// the floor and the body comes down to them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "../asset/model_checks.h"
#include "asset/load_model.h"
#include "asset/report.h"
#include "scene/road/posing_request.h"
#include "scene/session/ready_poses.h"
#include "scene/world/world.h"

namespace ikpose::scene {
namespace {

namespace fs = std::filesystem;
using anim::Limb;

// ../shared/models/FILE, or an empty path when it is absent (the caller skips, saying why).
fs::path SharedModel(const std::string& file) {
  const fs::path dir = asset::test::SharedModelsDir();
  return dir.empty() || !fs::exists(dir / file) ? fs::path() : dir / file;
}

class ReadyPoseModel : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    const std::string file = GetParam();
    path_ = file.empty() ? asset::test::DefaultCharacter() : SharedModel(file);
    if (path_.empty() || !fs::exists(path_)) {
      GTEST_SKIP() << "../shared/models/" << file << " is absent; its ready poses are skipped";
    }
    model_ = asset::LoadModel(path_);
    height_ = asset::ModelHeight(model_, anim::RestPose(model_.skeleton));
  }

  // Applies `pose` and checks that every placed limb reached its target: down the one road, as
  // `--ready` and the panel's button do (the ladder made for the character first).
  std::unique_ptr<PosingSession> Posed(ReadyPose pose) {
    PosingRequest request;
    request.ready = pose;
    std::string error;
    auto session = BuildSession(model_, request, &error);
    EXPECT_TRUE(session) << error;
    if (!session) return std::make_unique<PosingSession>(model_);
    for (Limb limb : anim::kLimbs) {
      const LimbTarget& t = session->target(limb);
      if (!t.available || !t.given) continue;
      const anim::ChainSolveResult& r = session->result(limb);
      EXPECT_TRUE(r.ok) << ReadyPoseName(pose) << " " << anim::LimbName(limb) << ": " << r.error;
      EXPECT_LT(r.error_ms, 0.01f * height_)
          << ReadyPoseName(pose) << ": " << anim::LimbName(limb) << " does not reach its target";
    }
    return session;
  }
  float PelvisY(const PosingSession& s) const {
    return anim::PositionMs(s.pose(), s.body_bone()).y;
  }
  glm::vec3 End(const PosingSession& s, Limb limb) const {
    return anim::EndPositionMs(s.chain(limb), s.pose());
  }

  // A hand on the floor lies on its palm: the wrist a little above the floor, no finger or
  // thumb joint through it (nor a phalanx's end), the fingers level.
  void ExpectPalmOnTheFloor(const PosingSession& s, Limb arm) const {
    ExpectPalmOn(s, arm, s.floor_y());
  }
  // The same on a level surface at height `floor`.
  void ExpectPalmOn(const PosingSession& s, Limb arm, float floor) const {
    SCOPED_TRACE(anim::LimbName(arm));
    const float leg =
        model_.chains[Limb::kLeftLeg].upper_length + model_.chains[Limb::kLeftLeg].lower_length;
    const glm::vec3 wrist = End(s, arm);
    EXPECT_GT(wrist.y, floor) << "the wrist above the surface";
    EXPECT_LT(wrist.y, floor + 0.06f * leg) << "the hand down on the surface";
    const HandShape& hand = s.facts()->hands[static_cast<std::size_t>(arm)];
    glm::vec3 tips(0.0f);
    for (std::size_t k = 0; k < hand.finger_joints.size(); ++k) {
      // Every joint and the end of its phalanx, the thumb's too.
      const int b = hand.finger_joints[k];
      for (int joint : {b, model_.skeleton.Children(b)[0]}) {
        EXPECT_GT(anim::PositionMs(s.pose(), joint).y, floor - 0.005f * leg)
            << model_.skeleton.names[static_cast<std::size_t>(joint)] << " through the surface";
      }
      if (!hand.thumb[k]) tips += anim::PositionMs(s.pose(), b) - wrist;
    }
    if (glm::length(tips) > 0.0f) {
      const float level_deg = glm::degrees(std::asin(std::abs(glm::normalize(tips).y)));
      EXPECT_LT(level_deg, 25.0f) << "fingers level with the surface";
    }
  }

  fs::path path_;
  anim::Model model_;
  float height_ = 1.0f;
};

TEST_P(ReadyPoseModel, EveryPoseReachesItsTargetsAndLooksLikeItsName) {
  const auto stand = Posed(ReadyPose::kStand);
  const float standing = PelvisY(*stand);
  const float leg =
      model_.chains[Limb::kLeftLeg].upper_length + model_.chains[Limb::kLeftLeg].lower_length;

  const auto sit = Posed(ReadyPose::kSitOnABox);
  EXPECT_LT(PelvisY(*sit), standing - 0.25f * leg) << "sitting lowers the pelvis";
  const auto kneel = Posed(ReadyPose::kKneel);
  const float floor_y = anim::PositionMs(stand->pose(), model_.chains[Limb::kRightLeg].end).y;
  EXPECT_LT(anim::PositionMs(kneel->pose(), model_.chains[Limb::kRightLeg].lower).y,
            floor_y + 0.2f * leg)
      << "kneeling: the right knee down by the floor";

  const auto run = Posed(ReadyPose::kRun);
  const glm::vec3 forward = model_.chains.forward_ms;
  EXPECT_GT(glm::dot(End(*run, Limb::kLeftLeg) - End(*run, Limb::kRightLeg), forward), 0.5f * leg)
      << "a stride: the left foot well ahead of the right";

  // The torso and head as the pose carries them (the humanoid map's spine, neck and head): a
  // bone's turn from standing, in degrees about the character's left (forward positive).
  const anim::HumanoidMap& body = model_.humanoid;
  const glm::vec3 left = glm::normalize(glm::cross(glm::vec3(0, 1, 0), forward));
  const auto nod_deg = [&](const PosingSession& s, int bone) {
    const glm::quat turn =
        anim::RotationMs(s.pose(), bone) * glm::inverse(anim::RotationMs(stand->pose(), bone));
    const float sine = glm::dot(glm::vec3(turn.x, turn.y, turn.z), left);
    return glm::degrees(2.0f * std::asin(std::clamp(sine, -1.0f, 1.0f))) *
           (turn.w < 0.0f ? -1.0f : 1.0f);
  };
  if (body.chest >= 0) {
    EXPECT_NEAR(nod_deg(*run, body.chest), 12.0f, 3.0f) << "running leans in";
  }
  const auto reach = Posed(ReadyPose::kReachUp);
  if (body.head >= 0) {
    EXPECT_NEAR(nod_deg(*reach, body.head), -20.0f, 3.0f) << "reaching up looks at the hands";
  }
  const float head_y = anim::PositionMs(reach->rest_pose(), model_.chains[Limb::kLeftArm].upper).y;
  EXPECT_GT(End(*reach, Limb::kLeftArm).y, head_y + 0.3f * leg) << "hands above the head";
  EXPECT_GT(End(*reach, Limb::kRightArm).y, head_y + 0.3f * leg);

  const auto climb = Posed(ReadyPose::kClimbARung);
  EXPECT_TRUE(climb->edits.ladder_enabled);
  // The first step: hands and the right foot on rungs, the left foot on the floor.
  for (Limb limb : {Limb::kLeftArm, Limb::kRightArm, Limb::kRightLeg}) {
    EXPECT_GE(climb->target(limb).rung, 0) << anim::LimbName(limb);
  }
  EXPECT_EQ(climb->target(Limb::kLeftLeg).rung, -1);
  EXPECT_NEAR(End(*climb, Limb::kLeftLeg).y,
              anim::PositionMs(climb->rest_pose(), model_.chains[Limb::kLeftLeg].end).y,
              0.01f * height_)
      << "standing on the floor, the ankle as high as at rest";
  // The ladder stands in front of the character, its face toward it (CesiumMan and the base
  // mesh face +X: their ladder is turned), and the pelvis is close behind the rungs: within a
  // third of a metre for a 1.8 m body.
  const Ladder& ladder = climb->edits.ladder;
  EXPECT_GT(std::abs(glm::dot(ladder.FaceNormalMs(), forward)), std::cos(glm::radians(10.0f)))
      << "the ladder faces the climber";
  const float behind = glm::dot(climb->BodyPositionMs() - ladder.base_ms,
                                ladder.NormalToward(climb->BodyPositionMs()));
  EXPECT_GT(glm::dot(ladder.base_ms - climb->BodyPositionMs(), forward), 0.0f)
      << "the rungs are in front of the pelvis";
  EXPECT_LT(behind, height_ / 5.4f) << "the pelvis hangs back from the rungs";

  // On all fours: the four contacts bring the body down to hands and feet on the floor.
  const auto ahead = [&](const PosingSession& s, Limb arm, Limb leg_limb) {
    return glm::dot(End(s, arm) - End(s, leg_limb), forward);
  };
  const auto crawl = Posed(ReadyPose::kCrawl);
  EXPECT_LT(PelvisY(*crawl), standing - 0.4f * leg) << "crawling lowers the pelvis";
  for (Limb l : {Limb::kLeftLeg, Limb::kRightLeg}) {
    EXPECT_LT(anim::PositionMs(crawl->pose(), model_.chains[l].lower).y, floor_y + 0.15f * leg)
        << "crawling: the " << anim::LimbName(l) << " knee down by the floor";
  }
  EXPECT_GT(ahead(*crawl, Limb::kLeftArm, Limb::kLeftLeg), 0.8f * leg) << "hands ahead";
  const auto push_up = Posed(ReadyPose::kPushUp);
  EXPECT_LT(PelvisY(*push_up), standing - 0.5f * leg) << "a push-up lowers the pelvis";
  EXPECT_GT(ahead(*push_up, Limb::kRightArm, Limb::kRightLeg), 1.2f * leg)
      << "a push-up: the hands well ahead of the feet";
  for (const PosingSession* s : {crawl.get(), push_up.get()}) {
    for (Limb arm : {Limb::kLeftArm, Limb::kRightArm}) ExpectPalmOnTheFloor(*s, arm);
  }
}

// The push-up is a plank: the body straight from the shoulders to the ankles and well off the
// floor (not sagging onto the knees), the hands under the shoulders, the feet on their toes.
TEST_P(ReadyPoseModel, PushUpIsAPlankOnTheToes) {
  const auto s = Posed(ReadyPose::kPushUp);
  const auto& c = model_.chains;
  const float leg = c[Limb::kLeftLeg].upper_length + c[Limb::kLeftLeg].lower_length;
  const float arm = c[Limb::kLeftArm].upper_length + c[Limb::kLeftArm].lower_length;
  const auto at = [&](int bone) { return anim::PositionMs(s->pose(), bone); };
  const auto mid = [&](Limb l, Limb r, int anim::LimbChain::*joint) {
    return 0.5f * (at(c[l].*joint) + at(c[r].*joint));
  };
  const glm::vec3 shoulders = mid(Limb::kLeftArm, Limb::kRightArm, &anim::LimbChain::upper);
  const glm::vec3 hips = mid(Limb::kLeftLeg, Limb::kRightLeg, &anim::LimbChain::upper);
  const glm::vec3 ankles = 0.5f * (End(*s, Limb::kLeftLeg) + End(*s, Limb::kRightLeg));
  const glm::vec3 line = glm::normalize(shoulders - ankles);
  const glm::vec3 off_line = (hips - ankles) - glm::dot(hips - ankles, line) * line;
  EXPECT_LT(glm::length(off_line), 0.1f * leg) << "the hips on the shoulder-to-ankle line";
  const float rise_deg = glm::degrees(std::asin(line.y));
  EXPECT_GT(rise_deg, 10.0f) << "shoulders above the feet";
  EXPECT_LT(rise_deg, 35.0f) << "a plank, not a lean";
  const anim::Pose& rest = s->rest_pose();
  const float rest_ankle_y = anim::EndPositionMs(c[Limb::kLeftLeg], rest).y;
  for (Limb leg_limb : {Limb::kLeftLeg, Limb::kRightLeg}) {
    EXPECT_GT(at(c[leg_limb].lower).y, rest_ankle_y + 0.06f * leg)
        << anim::LimbName(leg_limb) << ": the knee off the floor";
    EXPECT_GT(End(*s, leg_limb).y, rest_ankle_y + 0.03f * leg)
        << anim::LimbName(leg_limb) << ": the heel up, on the toes";
  }
  for (Limb arm_limb : {Limb::kLeftArm, Limb::kRightArm}) {
    glm::vec3 under = End(*s, arm_limb) - at(c[arm_limb].upper);
    under.y = 0.0f;
    EXPECT_LT(glm::length(under), 0.25f * arm) << anim::LimbName(arm_limb) << " under its shoulder";
  }
  // The feet turned with the legs, toes down (not laid flat by the ground): the ankle-to-toe
  // line pitched down from its rest by more than 30 degrees (about the character's left).
  const glm::vec3 forward = model_.chains.forward_ms;
  const auto pitch_deg = [&](const glm::vec3& v) {
    return glm::degrees(std::atan2(v.y, glm::dot(v, forward)));
  };
  const anim::HumanoidMap& body = model_.humanoid;
  for (int side = 0; side < 2; ++side) {
    const int toe = body.toes[static_cast<std::size_t>(side)];
    if (toe < 0) continue;
    const Limb leg_limb = side == 0 ? Limb::kLeftLeg : Limb::kRightLeg;
    const float now = pitch_deg(at(toe) - End(*s, leg_limb));
    const float at_rest =
        pitch_deg(anim::PositionMs(rest, toe) - anim::EndPositionMs(c[leg_limb], rest));
    EXPECT_LT(now, at_rest - 30.0f) << anim::LimbName(leg_limb) << ": on the toes";
  }
}

// A hand the user drags down onto the floor lies on its palm there, as a foot stands on its
// sole; one held a hand's length above the floor still hangs from the wrist.
TEST_P(ReadyPoseModel, AHandPlacedOnTheFloorLiesOnItsPalm) {
  PosingSession s(model_);
  const float leg =
      model_.chains[Limb::kLeftLeg].upper_length + model_.chains[Limb::kLeftLeg].lower_length;
  const glm::vec3 forward =
      model_.humanoid.facing_valid ? model_.humanoid.facing_ms : model_.chains.forward_ms;
  for (Limb arm : {Limb::kLeftArm, Limb::kRightArm}) {
    const glm::vec3 shoulder = anim::PositionMs(s.rest_pose(), model_.chains[arm].upper);
    glm::vec3 hand = shoulder + 0.5f * leg * forward;
    hand.y = anim::EndPositionMs(model_.chains[Limb::kLeftLeg], s.rest_pose()).y;
    s.target(arm).target_ms = hand;
  }
  s.Evaluate();
  for (Limb arm : {Limb::kLeftArm, Limb::kRightArm}) {
    ASSERT_TRUE(s.result(arm).ok) << s.result(arm).error;
    EXPECT_LT(s.result(arm).error_ms, 0.01f * height_) << anim::LimbName(arm) << " reaches";
    ExpectPalmOnTheFloor(s, arm);
    EXPECT_TRUE(s.palm(arm).on);
    EXPECT_EQ(s.palm(arm).prop, -1) << "on the floor";
  }
  // A hand's length up: off the floor, the hand keeps its turn on the forearm (follows).
  const HandShape& hand = s.facts()->hands[static_cast<std::size_t>(Limb::kLeftArm)];
  ASSERT_TRUE(hand.valid);
  LimbTarget& t = s.target(Limb::kLeftArm);
  t.target_ms.y = s.floor_y() + 1.5f * OnTheFloorWithin(hand, s.facts()->feet);
  s.Evaluate();
  const int wrist = model_.chains[Limb::kLeftArm].end;
  const int forearm = model_.chains[Limb::kLeftArm].lower;
  const glm::quat on_forearm =
      glm::inverse(anim::RotationMs(s.pose(), forearm)) * anim::RotationMs(s.pose(), wrist);
  const glm::quat at_rest = glm::inverse(anim::RotationMs(s.rest_pose(), forearm)) *
                            anim::RotationMs(s.rest_pose(), wrist);
  EXPECT_NEAR(std::abs(glm::dot(on_forearm, at_rest)), 1.0f, 1e-4f) << "it hangs as at rest";
  EXPECT_FALSE(s.palm(Limb::kLeftArm).on);
}

// A world of one box prop `file` with corners `a` and `b` on the floor (any order) and its top
// at `top_y`.
std::shared_ptr<const World> BoxWorld(const glm::vec3& a, const glm::vec3& b, float top_y,
                                      const std::string& file, std::string* error) {
  return World::Build(
      {BoxProp(file, glm::min(a, b), glm::vec3(glm::max(a, b).x, top_y, glm::max(a, b).z))}, error);
}

// A hand put on a table (a box prop whose top is at the hips' height, in front of the body)
// lies on its palm on the top, as on the floor; the fingers, hanging as at rest, went into it.
TEST_P(ReadyPoseModel, AHandPlacedOnATableLiesOnItsPalm) {
  PosingSession s(model_);
  const auto& c = model_.chains;
  const float leg = c[Limb::kLeftLeg].upper_length + c[Limb::kLeftLeg].lower_length;
  const glm::vec3 forward =
      model_.humanoid.facing_valid ? model_.humanoid.facing_ms : model_.chains.forward_ms;
  const glm::vec3 hips = 0.5f * (anim::PositionMs(s.rest_pose(), c[Limb::kLeftLeg].upper) +
                                 anim::PositionMs(s.rest_pose(), c[Limb::kRightLeg].upper));
  // The table: a leg deep and two wide, from a third of a leg in front of the hips.
  const glm::vec3 side = glm::normalize(glm::cross(forward, glm::vec3(0.0f, 1.0f, 0.0f)));
  const glm::vec3 near_edge = glm::vec3(hips.x, s.floor_y(), hips.z) + 0.3f * leg * forward;
  const glm::vec3 a = near_edge - leg * side, b = near_edge + leg * side + leg * forward;
  std::string error;
  s.edits.world = BoxWorld(a, b, hips.y, "table.glb", &error);
  ASSERT_TRUE(s.edits.world) << error;
  for (Limb arm : {Limb::kLeftArm, Limb::kRightArm}) {
    glm::vec3 hand = anim::PositionMs(s.rest_pose(), c[arm].upper) + 0.5f * leg * forward;
    hand.y = hips.y;
    s.target(arm).target_ms = hand;
  }
  s.Evaluate();
  for (Limb arm : {Limb::kLeftArm, Limb::kRightArm}) {
    ASSERT_TRUE(s.result(arm).ok) << s.result(arm).error;
    EXPECT_LT(s.result(arm).error_ms, 0.01f * height_) << anim::LimbName(arm) << " reaches";
    ExpectPalmOn(s, arm, hips.y);
    EXPECT_TRUE(s.palm(arm).on);
    EXPECT_EQ(s.PalmSurfaceName(arm), "table.glb");
  }
}

// Both feet where they stand and both hands on a low box in front of them (its top at 0.6 of
// the hips' height, from a quarter of a leg ahead of the ankles, the hands 0.45 of a leg past
// its edge): the body bends over the box at the hips. It went into it: the pelvis slid forward
// and the knees, thighs and belly sank 23 to 36% of a leg inside, since a shift cost less than
// a bend and nothing kept the body out of props.
TEST_P(ReadyPoseModel, ABodyLeaningOnALowBoxBendsOverItNotIntoIt) {
  PosingSession s(model_);
  const auto& c = model_.chains;
  const float leg = c[Limb::kLeftLeg].upper_length + c[Limb::kLeftLeg].lower_length;
  const glm::vec3 forward =
      model_.humanoid.facing_valid ? model_.humanoid.facing_ms : model_.chains.forward_ms;
  const glm::vec3 side = glm::normalize(glm::cross(forward, glm::vec3(0.0f, 1.0f, 0.0f)));
  const anim::Pose& rest = s.rest_pose();
  const glm::vec3 hips = 0.5f * (anim::PositionMs(rest, c[Limb::kLeftLeg].upper) +
                                 anim::PositionMs(rest, c[Limb::kRightLeg].upper));
  const glm::vec3 ankles = 0.5f * (anim::EndPositionMs(c[Limb::kLeftLeg], rest) +
                                   anim::EndPositionMs(c[Limb::kRightLeg], rest));
  const glm::vec3 edge = glm::vec3(ankles.x, s.floor_y(), ankles.z) + 0.25f * leg * forward;
  const float top_y = s.floor_y() + 0.6f * (hips.y - s.floor_y());
  std::string error;
  s.edits.world =
      BoxWorld(edge - leg * side, edge + leg * side + leg * forward, top_y, "box.glb", &error);
  ASSERT_TRUE(s.edits.world) << error;
  for (Limb foot : {Limb::kLeftLeg, Limb::kRightLeg}) {  // placed where they stand
    s.target(foot).target_ms = anim::EndPositionMs(c[foot], rest);
    s.target(foot).given = true;
  }
  for (Limb arm : {Limb::kLeftArm, Limb::kRightArm}) {
    const glm::vec3 shoulder = anim::PositionMs(rest, c[arm].upper);
    const glm::vec3 along = glm::dot(shoulder - edge, side) * side;
    s.target(arm).target_ms = glm::vec3(edge.x, top_y, edge.z) + along + 0.45f * leg * forward;
  }
  s.Evaluate();
  ASSERT_TRUE(s.body_help_report().four_contacts);
  for (Limb limb : anim::kLimbs) {
    ASSERT_TRUE(s.result(limb).ok) << s.result(limb).error;
    EXPECT_LT(s.result(limb).error_ms, 0.01f * height_) << anim::LimbName(limb) << " reaches";
  }
  // Arms and hands lie on the top (their skin's radius is coarse there); the rest stays out.
  for (const Penetration& p : s.ground_report().penetrations) {
    bool arm = false;
    for (Limb limb : {Limb::kLeftArm, Limb::kRightArm})
      arm = arm || model_.skeleton.IsAncestorOrSelf(c[limb].upper, p.child);
    if (arm) continue;
    EXPECT_LT(p.depth, 0.03f * leg)
        << model_.skeleton.names[static_cast<std::size_t>(p.bone)] << " -> "
        << model_.skeleton.names[static_cast<std::size_t>(p.child)] << " goes into the box";
  }
  EXPECT_GT(s.body_help_report().pelvis_tilt_deg, 15.0f) << "bends at the hips";
}

// The panel applies one ready pose after another to the same session (and draws every
// thumbnail that way): each poses as it does from a fresh one, whatever came before it (a
// composed pose leaves its limbs asking no help of the body).
TEST_P(ReadyPoseModel, APoseAfterAnotherPosesAsFromAFreshSession) {
  for (ReadyPose pose : kReadyPoses) {
    SCOPED_TRACE(ReadyPoseName(pose));
    const auto fresh = Posed(pose);
    const auto after = Posed(ReadyPose::kReachUp);
    std::string error;
    ASSERT_TRUE(ApplyReadyPose(*after, pose, &error)) << error;
    EXPECT_NEAR(glm::distance(after->BodyPositionMs(), fresh->BodyPositionMs()), 0.0f,
                1e-4f * height_);
    for (Limb limb : anim::kLimbs) {
      EXPECT_NEAR(glm::distance(End(*after, limb), End(*fresh, limb)), 0.0f, 1e-4f * height_)
          << anim::LimbName(limb);
    }
  }
}

TEST(ReadyPose, ARigWithoutLegsIsRefusedWithOneLine) {
  const fs::path path = SharedModel("RiggedSimple/RiggedSimple.glb");
  if (path.empty())
    GTEST_SKIP() << "../shared/models/RiggedSimple is absent (a two-joint cylinder)";
  const anim::Model model = asset::LoadModel(path);
  PosingSession session(model);
  std::string error;
  EXPECT_FALSE(ApplyReadyPose(session, ReadyPose::kSitOnABox, &error));
  EXPECT_NE(error.find("sit on a box"), std::string::npos) << error;
}

// A quadruped is on all fours already: its torso does not stand up at rest, so the push-up
// turns no plank (that stood the fox on its nose) and the four contacts place its body, as
// they place the crawl's; the pelvis is not turned by the pose.
TEST(ReadyPose, APushUpOnARigWhoseTorsoLiesLevelIsPlacedByTheFourContacts) {
  const fs::path path = SharedModel("Fox/Fox.glb");
  if (path.empty()) GTEST_SKIP() << "../shared/models/Fox is absent (a quadruped)";
  const anim::Model model = asset::LoadModel(path);
  PosingSession session(model);
  std::string error;
  ASSERT_TRUE(ApplyReadyPose(session, ReadyPose::kPushUp, &error)) << error;
  EXPECT_EQ(session.edits.body.turn_ms, glm::quat(1.0f, 0.0f, 0.0f, 0.0f)) << "no plank";
  for (Limb limb : anim::kLimbs) {
    if (!session.target(limb).available) continue;
    EXPECT_GT(session.target(limb).pull_body, 0.0f) << anim::LimbName(limb) << " asks the body";
    EXPECT_TRUE(session.result(limb).ok) << anim::LimbName(limb);
  }
}

// The robot has no one hand bone: its palms and thumb hang from the forearm beside the chain's
// end. Gripping a rung, they wrap it by design and are not listed inside it; its forearm still
// is checked (it is listed when it goes through a rung).
TEST(ReadyPose, AGrippingHandsPartsBesideTheChainsEndAreNotInsideItsRung) {
  const fs::path path = SharedModel("QuaterniusRobot/robot.glb");
  if (path.empty())
    GTEST_SKIP() << "../shared/models/QuaterniusRobot is absent (hand parts under the forearm)";
  const anim::Model model = asset::LoadModel(path);
  PosingRequest request;
  request.ready = ReadyPose::kClimbARung;
  std::string error;
  const auto session = BuildSession(model, request, &error);
  ASSERT_TRUE(session) << error;
  const anim::Skeleton& skeleton = model.skeleton;
  for (Limb arm : {Limb::kLeftArm, Limb::kRightArm}) {
    ASSERT_GE(session->target(arm).rung, 0) << anim::LimbName(arm);
    const anim::LimbChain& chain = model.chains[arm];
    std::vector<int> parts;
    for (int part : skeleton.Children(chain.lower)) {
      if (part != chain.end) parts.push_back(part);
    }
    ASSERT_GE(parts.size(), 2u) << "the robot's palms and thumb beside its hand";
    for (const Penetration& p : session->ground_report().penetrations) {
      for (int part : parts) {
        EXPECT_FALSE(skeleton.IsAncestorOrSelf(part, p.child))
            << skeleton.names[static_cast<std::size_t>(p.bone)] << " -> "
            << skeleton.names[static_cast<std::size_t>(p.child)] << " is listed in its rung";
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Humanoids, ReadyPoseModel,
                         ::testing::Values("", "CesiumMan/CesiumMan.glb",
                                           "RiggedFigure/RiggedFigure.glb",
                                           "MaleBaseMesh/male_base_mesh.glb",
                                           "Mesh2MotionHumanMale/human-male.glb"),
                         [](const ::testing::TestParamInfo<const char*>& param) {
                           std::string name = param.param[0] ? param.param : "Bundled";
                           return name.substr(0, name.find('/'));
                         });

}  // namespace
}  // namespace ikpose::scene
