#include "scene/world/ladder.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdlib>

#include "anim/test_rigs.h"
#include "scene/session/posing_session.h"

namespace ikpose::scene {
namespace {

TEST(Ladder, RungsAreEvenlySpacedAboveTheBase) {
  Ladder ladder;
  ladder.base_ms = {0.0f, 0.1f, 0.4f};
  EXPECT_FLOAT_EQ(ladder.RungCenter(0).y, 0.1f + ladder.first_rung_height);
  EXPECT_FLOAT_EQ(ladder.RungCenter(3).y - ladder.RungCenter(2).y, ladder.rung_spacing);
  EXPECT_FLOAT_EQ(ladder.RungCenter(5).z, 0.4f);
}

TEST(Ladder, NearestRungRoundsToTheClosestAndClampsToTheLadder) {
  Ladder ladder;
  const glm::vec3 between = ladder.RungCenter(4) + glm::vec3(0, 0.4f * ladder.rung_spacing, 0);
  EXPECT_EQ(ladder.NearestRung(between), 4);
  EXPECT_EQ(ladder.NearestRung(between + glm::vec3(0, 0.2f * ladder.rung_spacing, 0)), 5);
  EXPECT_EQ(ladder.NearestRung({0, -5, 0}), 0);
  EXPECT_EQ(ladder.NearestRung({0, 500, 0}), ladder.rung_count - 1);
}

TEST(Ladder, GripIsOnTheRungAxisBetweenTheRails) {
  Ladder ladder;
  const glm::vec3 grip = ladder.GripPoint(3, {0.1f, 9.0f, -2.0f});
  EXPECT_FLOAT_EQ(grip.y, ladder.RungCenter(3).y);
  EXPECT_FLOAT_EQ(grip.z, ladder.base_ms.z);
  EXPECT_FLOAT_EQ(grip.x, 0.1f);
  const glm::vec3 outside = ladder.GripPoint(3, {5.0f, 0, 0});
  EXPECT_LE(outside.x, ladder.base_ms.x + 0.5f * ladder.rail_width);
}

TEST(Ladder, FeetRestOnTheRungsTop) {
  Ladder ladder;
  const glm::vec3 rest = ladder.RestPoint(2, {-0.1f, 0, 0});
  EXPECT_FLOAT_EQ(rest.y, ladder.RungCenter(2).y + ladder.rung_radius);
}

// A ladder turned a quarter about +Y (a character facing +X climbs one): its rungs run along Z,
// grips stay on the turned rung's axis between the turned rails.
TEST(Ladder, ATurnedLaddersRungsRunAlongItsTurn) {
  Ladder ladder;
  ladder.base_ms = {1.0f, 0.0f, 0.2f};
  ladder.yaw_deg = 90.0f;
  EXPECT_NEAR(ladder.AlongRungsMs().z, -1.0f, 1e-6f);
  EXPECT_NEAR(ladder.FaceNormalMs().x, 1.0f, 1e-6f);
  EXPECT_NEAR(ladder.NormalToward({0.0f, 1.0f, 0.0f}).x, -1.0f, 1e-6f) << "toward the climber";
  const glm::vec3 grip = ladder.GripPoint(3, {0.3f, 9.0f, 0.3f});
  EXPECT_NEAR(grip.x, 1.0f, 1e-6f) << "on the rung's axis, in the ladder's plane";
  EXPECT_NEAR(grip.z, 0.3f, 1e-6f) << "where the hand reached along the rung";
  EXPECT_FLOAT_EQ(grip.y, ladder.RungCenter(3).y);
  const glm::vec3 outside = ladder.GripPoint(3, {1.0f, 0.0f, 5.0f});
  EXPECT_NEAR(outside.z, 0.2f + 0.5f * ladder.rail_width - ladder.rung_radius, 1e-6f)
      << "kept between the rails";
  ladder.yaw_deg = std::nanf("");
  EXPECT_FALSE(ladder.Valid());
}

// The ladder made for a character stands in front of it and faces it, whichever way the rig
// faces; legs short for the height (a big-headed robot) bring the rungs closer together.
TEST(Ladder, ALadderMadeForACharacterFacesIt) {
  const Ladder front = LadderFor(1.8f, glm::vec3(0.0f), {0.0f, 0.0f, 1.0f}, 0.9f);
  EXPECT_EQ(front.yaw_deg, 0.0f) << "a rig facing +Z keeps the ladder it always had";
  EXPECT_NEAR(front.base_ms.z, 0.36f, 1e-5f);
  EXPECT_NEAR(front.rung_spacing, 0.17f * 1.8f, 1e-5f) << "an adult's leg does not cap it";
  const Ladder side = LadderFor(1.8f, glm::vec3(0.0f), {1.0f, 0.0f, 0.0f}, 0.9f);
  EXPECT_NEAR(side.base_ms.x, 0.36f, 1e-5f);
  EXPECT_NEAR(side.base_ms.z, 0.0f, 1e-5f);
  EXPECT_NEAR(std::abs(side.FaceNormalMs().x), 1.0f, 1e-5f) << "its face toward the character";
  const Ladder robot = LadderFor(4.56f, glm::vec3(0.0f), {0.0f, 0.0f, 1.0f}, 1.54f);
  EXPECT_LE(robot.rung_spacing, 0.4f * 1.54f + 1e-5f);
  EXPECT_LE(robot.first_rung_height, 0.45f * 1.54f + 1e-5f);
}

TEST(Ladder, RejectsNonsenseDimensions) {
  Ladder ladder;
  EXPECT_TRUE(ladder.Valid());
  ladder.rung_spacing = 0.0f;
  EXPECT_FALSE(ladder.Valid());
}

// Snapping a posing session's targets to the ladder, checked against where the rungs are by
// the ladder's own numbers (not by its member functions).

using anim::Limb;

// Every number away from the defaults, so that a rule using a default would show.
Ladder OddLadder() {
  Ladder ladder;
  ladder.base_ms = {0.04f, 0.02f, 0.31f};
  ladder.rung_spacing = 0.27f;
  ladder.rung_count = 10;
  ladder.rail_width = 0.46f;
  ladder.rung_radius = 0.025f;
  ladder.first_rung_height = 0.22f;
  return ladder;
}

float AxisHeight(const Ladder& l, int rung) {
  return l.base_ms.y + l.first_rung_height + static_cast<float>(rung) * l.rung_spacing;
}

// The rung whose axis is nearest in height to `y`.
int NearestRungByHand(const Ladder& l, float y) {
  int best = 0;
  for (int i = 1; i < l.rung_count; ++i) {
    if (std::abs(y - AxisHeight(l, i)) < std::abs(y - AxisHeight(l, best))) best = i;
  }
  return best;
}

constexpr float kTolerance = 1e-5f;  // metres; a target 1 mm off is a hundred times this

class LadderSnap : public ::testing::Test {
 protected:
  LadderSnap() : model_(anim::test::MakeHumanoidModel()), session_(model_) {
    session_.edits.ladder = OddLadder();
    session_.edits.ladder_enabled = true;
    // Hands and feet where a climber reaches for the ladder: the right hand past the right
    // rail, the rest between the rails, none at a rung's height.
    requested_ = {glm::vec3(0.12f, 1.30f, 0.20f), glm::vec3(-0.60f, 1.52f, 0.10f),
                  glm::vec3(0.10f, 0.50f, 0.25f), glm::vec3(-0.08f, 0.20f, 0.40f)};
    for (Limb limb : anim::kLimbs) {
      EXPECT_TRUE(session_.target(limb).available) << anim::LimbName(limb);
      session_.target(limb).target_ms = requested_[static_cast<std::size_t>(limb)];
    }
  }
  glm::vec3 Requested(Limb limb) const { return requested_[static_cast<std::size_t>(limb)]; }

  anim::Model model_;
  PosingSession session_;
  std::array<glm::vec3, 4> requested_;
};

TEST_F(LadderSnap, HandsGripTheRungAxisAndFeetStandOnTheRungTopBetweenTheRails) {
  session_.SnapToRungs();
  const Ladder& l = session_.edits.ladder;
  const float inner_half = 0.5f * l.rail_width - l.rung_radius;  // a rail's inner side
  for (Limb limb : anim::kLimbs) {
    SCOPED_TRACE(anim::LimbName(limb));
    const LimbTarget& t = session_.target(limb);
    const glm::vec3 asked = Requested(limb);
    ASSERT_EQ(t.rung, NearestRungByHand(l, asked.y));
    // Hands on the axis; feet on top of the bar, one rung radius above it.
    const float on = IsLeg(limb) ? l.rung_radius : 0.0f;
    EXPECT_NEAR(t.target_ms.y, AxisHeight(l, t.rung) + on, kTolerance);
    EXPECT_NEAR(t.target_ms.z, l.base_ms.z, kTolerance);
    // Between the rails: where the limb reached if that is on the rung, else at the rail
    // on the side it reached toward.
    const float along = asked.x - l.base_ms.x;
    if (std::abs(along) <= inner_half) {
      EXPECT_NEAR(t.target_ms.x, asked.x, kTolerance);
    } else {
      EXPECT_NEAR(t.target_ms.x, l.base_ms.x + std::copysign(inner_half, along), kTolerance);
    }
  }
  // The four cases really differ: two rungs for the hands, two for the feet, one hand clamped.
  EXPECT_NE(session_.target(Limb::kLeftArm).rung, session_.target(Limb::kRightArm).rung);
  EXPECT_NE(session_.target(Limb::kLeftLeg).rung, session_.target(Limb::kRightLeg).rung);
  EXPECT_GT(std::abs(Requested(Limb::kRightArm).x - l.base_ms.x), inner_half);
}

TEST_F(LadderSnap, AStepMovesEverySnappedTargetExactlyOneRungStraightUpOrDown) {
  session_.SnapToRungs();
  const Ladder& l = session_.edits.ladder;
  std::array<glm::vec3, 4> before{};
  std::array<int, 4> rungs{};
  for (Limb limb : anim::kLimbs) {
    before[static_cast<std::size_t>(limb)] = session_.target(limb).target_ms;
    rungs[static_cast<std::size_t>(limb)] = session_.target(limb).rung;
  }
  const auto expect_moved = [&](int rungs_up) {
    for (Limb limb : anim::kLimbs) {
      SCOPED_TRACE(anim::LimbName(limb));
      const std::size_t i = static_cast<std::size_t>(limb);
      const glm::vec3 moved = session_.target(limb).target_ms - before[i];
      EXPECT_NEAR(moved.x, 0.0f, kTolerance);
      EXPECT_NEAR(moved.y, static_cast<float>(rungs_up) * l.rung_spacing, kTolerance);
      EXPECT_NEAR(moved.z, 0.0f, kTolerance);
      EXPECT_EQ(session_.target(limb).rung, rungs[i] + rungs_up);
    }
  };
  ASSERT_TRUE(session_.StepRungs(+1));
  expect_moved(+1);
  ASSERT_TRUE(session_.StepRungs(+1));
  expect_moved(+2);
  ASSERT_TRUE(session_.StepRungs(-1));
  expect_moved(+1);
  ASSERT_TRUE(session_.StepRungs(-1));
  expect_moved(0);
  // The right foot is on the lowest rung: a step down would take it off, so nothing moves.
  ASSERT_EQ(session_.target(Limb::kRightLeg).rung, 0);
  EXPECT_FALSE(session_.StepRungs(-1));
  expect_moved(0);
}

// The same climb on the same rig turned a quarter, with the ladder made for it: every bone where
// the unturned climb has it, turned. Before the ladder could turn, the turned rig's ladder stood
// with its rungs pointing at the character and the body was fitted along Z, not toward the rungs.
TEST(LadderTurn, ATurnedRigClimbsItsLadderAsTheUnturnedOne) {
  const anim::Model front = anim::test::MakeHumanoidModel();
  anim::Model turned;
  turned.skeleton = anim::test::MakeHumanoid(anim::test::UnrealNames(), /*facing_x=*/true);
  anim::DetectRig(turned);
  const glm::quat quarter = glm::angleAxis(glm::radians(90.0f), glm::vec3(0, 1, 0));
  ASSERT_NEAR(glm::dot(turned.chains.forward_ms, quarter * front.chains.forward_ms), 1.0f, 1e-5f);

  PosingSession a(front), b(turned);
  a.edits.ladder = LadderFor(1.8f, glm::vec3(0.0f), front.chains.forward_ms, 0.9f);
  b.edits.ladder = LadderFor(1.8f, glm::vec3(0.0f), turned.chains.forward_ms, 0.9f);
  const glm::vec3 holds[4] = {
      {0.15f, 1.55f, 0.36f}, {-0.15f, 1.25f, 0.36f}, {0.1f, 0.6f, 0.36f}, {-0.1f, 0.3f, 0.36f}};
  for (PosingSession* s : {&a, &b}) {
    s->edits.ladder_enabled = true;
    for (Limb limb : anim::kLimbs) {
      const glm::vec3 hold = holds[static_cast<int>(limb)];
      s->target(limb).target_ms = s == &a ? hold : quarter * hold;
    }
    s->SnapToRungs();
    s->FitBodyToLadder();
    s->Evaluate();
  }
  const glm::vec3 rungs_to_pelvis = b.BodyPositionMs() - b.edits.ladder.base_ms;
  EXPECT_LT(glm::dot(rungs_to_pelvis, turned.chains.forward_ms), -0.2f)
      << "the pelvis is behind the rungs, on the side the character faces them from";
  for (Limb limb : anim::kLimbs) {
    SCOPED_TRACE(anim::LimbName(limb));
    EXPECT_EQ(b.target(limb).rung, a.target(limb).rung);
    ASSERT_TRUE(b.result(limb).ok);
    EXPECT_LT(b.result(limb).error_ms, 1e-4f) << "on its rung";
  }
  // Within 2 mm: the four-contact fit iterates, and float rounding differs once turned (before
  // the ladder turned, bones were decimetres off).
  for (int bone = 0; bone < front.skeleton.size(); ++bone) {
    const glm::vec3 want = quarter * anim::PositionMs(a.pose(), bone);
    EXPECT_LT(glm::length(anim::PositionMs(b.pose(), bone) - want), 2e-3f)
        << front.skeleton.names[static_cast<std::size_t>(bone)];
  }
}

}  // namespace
}  // namespace ikpose::scene
