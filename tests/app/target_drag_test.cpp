#include "app/target_drag.h"

#include <gtest/gtest.h>

#include "scene/undo_history.h"
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

TEST_F(TargetDragTest, MissingEveryHandleGrabsNothing) {
  TargetDrag drag;
  EXPECT_FALSE(drag.Begin(FrontRay({3, 3, 0}), session, 0.04f));
  EXPECT_FALSE(drag.active());
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

}  // namespace
}  // namespace ikpose::app
