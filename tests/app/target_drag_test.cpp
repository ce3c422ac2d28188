#include "app/target_drag.h"

#include <gtest/gtest.h>

#include "scene/session/undo_history.h"
#include "support/rigs.h"

namespace ikpose::app {
namespace {

// A ray from the front (+Z) through `point`.
Ray FrontRay(const glm::vec3& point) {
  return {point + glm::vec3(0, 0, 5), {0, 0, -1}};
}

class TargetDragTest : public ::testing::Test {
 protected:
  anim::Model model = test::TwoLegRig();
  scene::PosingSession session{model};
  glm::vec3 foot() { return session.target(anim::Limb::kLeftLeg).target_ms; }
};

TEST_F(TargetDragTest, GrabsTheHandleUnderTheCursorAndFollowsIt) {
  const glm::vec3 start = foot();
  TargetDrag drag;
  ASSERT_TRUE(drag.Begin(FrontRay(start + glm::vec3(0.01f, 0, 0)), session, 0.04f));
  EXPECT_EQ(drag.limb(), anim::Limb::kLeftLeg);
  drag.Update(FrontRay(start + glm::vec3(0.11f, 0.2f, 0)), {}, session);
  EXPECT_NEAR(foot().x, start.x + 0.1f, 1e-5f);
  EXPECT_NEAR(foot().y, start.y + 0.2f, 1e-5f);
  EXPECT_NEAR(foot().z, start.z, 1e-5f) << "moves in the plane facing the camera";
}

// A perspective eye level with the focus, looking along -Z: rays through points below it slant
// down, yet a drag straight up the screen must keep the handle's depth (the view plane's normal
// is the camera's forward axis, not the ray).
TEST_F(TargetDragTest, ADragUpTheScreenInAPerspectiveFrontViewKeepsTheDepth) {
  const glm::vec3 start = foot();
  const glm::vec3 eye = start + glm::vec3(0.3f, 0.9f, 3.0f);
  const auto ray_through = [&](const glm::vec3& p) { return Ray{eye, glm::normalize(p - eye)}; };
  const glm::vec3 forward(0.0f, 0.0f, -1.0f);
  TargetDrag drag;
  ASSERT_TRUE(drag.Begin(ray_through(start), session, 0.04f, forward));
  drag.Update(ray_through(start + glm::vec3(0.0f, 0.4f, 0.0f)), {}, session);
  EXPECT_NEAR(foot().y, start.y + 0.4f, 1e-4f);
  EXPECT_NEAR(foot().x, start.x, 1e-4f) << "straight up the screen: no sideways move";
  EXPECT_NEAR(foot().z, start.z, 1e-4f) << "no move toward or away from the eye";
}

TEST_F(TargetDragTest, ATypedMoveIsExact) {
  const glm::vec3 start = foot();
  TargetDrag drag;
  ASSERT_TRUE(drag.Begin(FrontRay(start), session, 0.04f));
  EXPECT_TRUE(drag.MoveBy({0.0f, 0.0f, 0.1f}, session));
  session.Evaluate();  // an edit is solved by the next Evaluate
  EXPECT_NEAR(foot().z, start.z + 0.1f, 1e-6f);
  EXPECT_NEAR(foot().y, start.y, 1e-6f);
}

TEST_F(TargetDragTest, MissingEveryHandleGrabsNothing) {
  TargetDrag drag;
  EXPECT_FALSE(drag.Begin(FrontRay({3, 3, 0}), session, 0.04f));
  EXPECT_FALSE(drag.active());
}

TEST_F(TargetDragTest, TheMirroredSidesHandlesAreNotOffered) {
  const glm::vec3 right = session.target(anim::Limb::kRightLeg).target_ms;
  session.edits.mirror = anim::MirrorMode::kLeftToRight;
  session.Evaluate();
  TargetDrag drag;
  const bool grabbed = drag.Begin(FrontRay(right), session, 0.04f);
  EXPECT_FALSE(grabbed && drag.handle() == TargetDrag::Handle::kTarget)
      << "the right foot follows the mirror; its handle would fight it";
  ASSERT_TRUE(drag.Begin(FrontRay(foot()), session, 0.04f)) << "the left one is still offered";
  EXPECT_EQ(drag.limb(), anim::Limb::kLeftLeg);
}

TEST_F(TargetDragTest, AxisLockKeepsOnlyThatComponent) {
  const glm::vec3 start = foot();
  TargetDrag drag;
  ASSERT_TRUE(drag.Begin(FrontRay(start), session, 0.04f));
  DragModifiers y_only;
  y_only.axis = 1;
  drag.Update(FrontRay(start + glm::vec3(0.3f, 0.2f, 0)), y_only, session);
  EXPECT_NEAR(foot().x, start.x, 1e-6f);
  EXPECT_NEAR(foot().y, start.y + 0.2f, 1e-5f);
}

TEST_F(TargetDragTest, ShiftMovesATenth) {
  const glm::vec3 start = foot();
  TargetDrag drag;
  ASSERT_TRUE(drag.Begin(FrontRay(start), session, 0.04f));
  DragModifiers fine;
  fine.fine = true;
  drag.Update(FrontRay(start + glm::vec3(0, 0.5f, 0)), fine, session);
  EXPECT_NEAR(foot().y, start.y + 0.05f, 1e-5f);
}

TEST_F(TargetDragTest, PolesDragTooAndJointsCanBePicked) {
  scene::LimbTarget& t = session.target(anim::Limb::kLeftLeg);
  t.options.solver.use_pole = true;
  t.options.solver.pole_ms = {0.5f, 0.5f, 0.5f};
  TargetDrag drag;
  ASSERT_TRUE(drag.Begin(FrontRay(t.options.solver.pole_ms), session, 0.04f));
  EXPECT_EQ(drag.handle(), TargetDrag::Handle::kPole);
  drag.Update(FrontRay({0.5f, 0.7f, 0.5f}), {}, session);
  EXPECT_NEAR(t.options.solver.pole_ms.y, 0.7f, 1e-5f);

  const int pelvis = model.skeleton.Find("pelvis");
  EXPECT_EQ(PickJoint(FrontRay(anim::PositionMs(session.pose(), pelvis)), model.skeleton,
                      session.pose(), 0.02f),
            pelvis);
}

TEST_F(TargetDragTest, AWholeDragIsOneUndoStep) {
  scene::UndoHistory history;
  history.Reset(session);
  const glm::vec3 start = foot();
  TargetDrag drag;
  ASSERT_TRUE(drag.Begin(FrontRay(start), session, 0.04f));
  for (int i = 1; i <= 10; ++i) {
    drag.Update(FrontRay(start + glm::vec3(0.01f, 0.02f, 0) * static_cast<float>(i)), {}, session);
    session.Evaluate();
  }
  drag.End();
  ASSERT_TRUE(history.Commit(session));  // what the viewer does on mouse up
  EXPECT_EQ(history.undo_steps(), 1);
  EXPECT_EQ(history.undo_label(), "move left_leg target");
  ASSERT_TRUE(history.Undo(session));
  EXPECT_EQ(foot(), start);

  // Grabbing and letting go without moving adds nothing.
  ASSERT_TRUE(drag.Begin(FrontRay(start), session, 0.04f));
  drag.Update(FrontRay(start), {}, session);
  drag.End();
  EXPECT_FALSE(history.Commit(session));
  EXPECT_TRUE(history.CanRedo());
}

// The body: its sphere at the pelvis moves it, its level ring turns it; pinned feet hold.
TEST_F(TargetDragTest, TheBodyRingTurnsTheBodyAboutTheVerticalAndTheFeetHold) {
  const float radius = 0.04f;
  const glm::vec3 pelvis = session.BodyPositionMs();
  const glm::vec3 foot_end =
      session.result(anim::Limb::kLeftLeg).ok
          ? session.result(anim::Limb::kLeftLeg).end_ms
          : anim::EndPositionMs(session.chain(anim::Limb::kLeftLeg), session.pose());
  // A ray from above through the ring's front point grabs the ring, not the sphere.
  const float ring = scene::kBodyRingScale * radius;
  const auto from_above = [&](const glm::vec3& p) {
    return Ray{p + glm::vec3(0, 5, 0), {0, -1, 0}};
  };
  TargetDrag drag;
  ASSERT_TRUE(drag.Begin(from_above(pelvis + glm::vec3(0, 0, ring)), session, radius));
  EXPECT_EQ(drag.handle(), TargetDrag::Handle::kBodyRing);
  // From +z round toward +x by 20 deg is a turn of +20 deg about +y (a turn the legs can
  // follow: much further and a straight leg could no longer reach its pinned foot).
  const float a = glm::radians(20.0f);
  drag.Update(from_above(pelvis + ring * glm::vec3(std::sin(a), 0, std::cos(a))), {}, session);
  const glm::vec3 turned = session.edits.body.turn_ms * glm::vec3(0, 0, 1);
  EXPECT_NEAR(turned.x, std::sin(a), 1e-4f);
  EXPECT_NEAR(turned.z, std::cos(a), 1e-4f);
  ASSERT_EQ(session.result(anim::Limb::kLeftLeg).output.reach, ik::Reach::kReachable);
  EXPECT_LT(glm::length(session.BodyPositionMs() - pelvis), 1e-5f) << "turned about its joint";
  EXPECT_LT(glm::length(anim::EndPositionMs(session.chain(anim::Limb::kLeftLeg), session.pose()) -
                        foot_end),
            1e-4f)
      << "the pinned foot held";
  // Dragging back undoes the turn (the goal is absolute, not accumulated).
  drag.Update(from_above(pelvis + glm::vec3(0, 0, ring)), {}, session);
  EXPECT_GT(std::abs(session.edits.body.turn_ms.w), 1.0f - 1e-6f);
}

}  // namespace
}  // namespace ikpose::app
