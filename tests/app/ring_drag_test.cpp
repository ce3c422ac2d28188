// FK rings driven as the viewer drives them, with mouse rays: a ring drag turns exactly the
// selected bone and its children about the ring's axis by the angle the mouse swept around the
// joint; Ctrl snaps the drag's total to 5 degree steps; the bone's own axes and the model's
// give different rings on a bone whose rest is turned.
#include "app/ring_drag.h"

#include <gtest/gtest.h>

#include <cmath>

#include <glm/gtc/quaternion.hpp>

#include "anim/test_rigs.h"

namespace ikpose::app {
namespace {

constexpr float kRadius = 0.1f;
const glm::vec3 kViewDir(0.0f, 0.0f, -1.0f);  // the camera in front (+Z) looks along -Z

anim::Model Humanoid() {
  anim::Model model;
  model.skeleton = anim::test::MakeHumanoid(anim::test::UnrealNames());
  model.chains = anim::DetectChains(model.skeleton, anim::RestPose(model.skeleton));
  return model;
}

// A ray from the front through the point at `angle_deg` on a circle of `radius` in the screen
// plane around `center` (counter-clockwise on screen from screen-right).
Ray ScreenRay(const glm::vec3& center, float angle_deg, float radius = kRadius) {
  const float a = glm::radians(angle_deg);
  const glm::vec3 p = center + radius * glm::vec3(std::cos(a), std::sin(a), 0.0f);
  return {p + glm::vec3(0.0f, 0.0f, 5.0f), kViewDir};
}

// Every bone below `bone` (and itself) turned by `turn_ms` about the bone's joint; every other
// bone where it was.
void ExpectTurned(const anim::Model& model, const anim::Pose& before, const anim::Pose& after,
                  int bone, const glm::quat& turn_ms) {
  const glm::vec3 joint = anim::PositionMs(before, bone);
  for (int b = 0; b < model.skeleton.size(); ++b) {
    const std::string& name = model.skeleton.names[static_cast<std::size_t>(b)];
    const glm::vec3 was = anim::PositionMs(before, b), now = anim::PositionMs(after, b);
    const glm::quat rotation_was = anim::RotationMs(before, b);
    const glm::quat rotation_now = anim::RotationMs(after, b);
    if (model.skeleton.IsAncestorOrSelf(bone, b)) {
      EXPECT_LT(glm::length(now - (joint + turn_ms * (was - joint))), 1e-5f) << name;
      EXPECT_GT(std::abs(glm::dot(rotation_now, turn_ms * rotation_was)), 1.0f - 1e-6f) << name;
    } else {
      EXPECT_LT(glm::length(now - was), 1e-6f) << name << " moved";
      EXPECT_GT(std::abs(glm::dot(rotation_now, rotation_was)), 1.0f - 1e-6f) << name;
    }
  }
}

TEST(RingDrag, TurnsExactlyTheBoneAndItsChildrenByTheSweptAngleAboutTheRingAxis) {
  const anim::Model model = Humanoid();
  scene::PosingSession session(model);
  const int chest = model.skeleton.Find("spine_02");
  const anim::Pose before = session.pose();
  const glm::vec3 joint = anim::PositionMs(before, chest);
  RingDrag drag;
  // Model axes: the blue Z ring faces the camera; grab it at 45 degrees on screen.
  ASSERT_TRUE(drag.Begin(ScreenRay(joint, 45.0f), session, chest, false, kViewDir, kRadius, 0.02f));
  EXPECT_EQ(drag.axis(), scene::RingAxis::kZ);
  drag.Update(ScreenRay(joint, 60.0f, 0.5f * kRadius), false, session);  // nearer the joint: the
  drag.Update(ScreenRay(joint, 75.0f, 2.0f * kRadius), false, session);  // angle is what counts
  EXPECT_NEAR(glm::degrees(drag.applied_angle()), 30.0f, 1e-3f);
  ExpectTurned(model, before, session.pose(), chest,
               glm::angleAxis(glm::radians(30.0f), glm::vec3(0, 0, 1)));
  // Back where it started: the bone is back too (the turn replaces, it does not add up).
  drag.Update(ScreenRay(joint, 45.0f), false, session);
  ExpectTurned(model, before, session.pose(), chest, glm::quat(1, 0, 0, 0));
}

TEST(RingDrag, TheViewRingTurnsAboutTheViewAxisAndPassesHalfATurn) {
  const anim::Model model = Humanoid();
  scene::PosingSession session(model);
  const int neck = model.skeleton.Find("neck_01");
  const anim::Pose before = session.pose();
  const glm::vec3 joint = anim::PositionMs(before, neck);
  RingDrag drag;
  ASSERT_TRUE(drag.Begin(ScreenRay(joint, 30.0f, 1.25f * kRadius), session, neck, true, kViewDir,
                         kRadius, 0.02f));
  EXPECT_EQ(drag.axis(), scene::RingAxis::kView);
  for (float a = 30.0f; a >= -200.0f; a -= 10.0f) drag.Update(ScreenRay(joint, a), false, session);
  EXPECT_NEAR(glm::degrees(drag.applied_angle()), -230.0f, 1e-3f);  // clockwise: negative
  ExpectTurned(model, before, session.pose(), neck,
               glm::angleAxis(glm::radians(-230.0f), glm::vec3(0, 0, 1)));
}

TEST(RingDrag, CtrlSnapsTheDragsTotalToFiveDegreeSteps) {
  const anim::Model model = Humanoid();
  scene::PosingSession session(model);
  const int chest = model.skeleton.Find("spine_02");
  const anim::Pose before = session.pose();
  const glm::vec3 joint = anim::PositionMs(before, chest);
  RingDrag drag;
  ASSERT_TRUE(drag.Begin(ScreenRay(joint, 45.0f), session, chest, false, kViewDir, kRadius, 0.02f));
  drag.Update(ScreenRay(joint, 55.0f), true, session);
  drag.Update(ScreenRay(joint, 67.0f), true, session);  // 22 snaps to 20
  EXPECT_NEAR(glm::degrees(drag.applied_angle()), 20.0f, 1e-4f);
  ExpectTurned(model, before, session.pose(), chest,
               glm::angleAxis(glm::radians(20.0f), glm::vec3(0, 0, 1)));
  drag.Update(ScreenRay(joint, 78.0f), true, session);  // 33 snaps to 35
  EXPECT_NEAR(glm::degrees(drag.applied_angle()), 35.0f, 1e-4f);
  drag.Update(ScreenRay(joint, 78.0f), false, session);  // Ctrl let go: the exact angle
  EXPECT_NEAR(glm::degrees(drag.applied_angle()), 33.0f, 1e-4f);
}

TEST(RingDrag, LocalAndModelAxesDifferOnABoneWithATurnedRest) {
  anim::Model model = Humanoid();
  const int chest = model.skeleton.Find("spine_02");
  // The chest's rest turned 90 degrees about X: its own Y axis points along the model's Z.
  const glm::quat rest_turn = glm::angleAxis(glm::radians(90.0f), glm::vec3(1, 0, 0));
  auto& rest = model.skeleton.rest_ls[static_cast<std::size_t>(chest)];
  rest.rotation = rest_turn * rest.rotation;
  model.chains = anim::DetectChains(model.skeleton, anim::RestPose(model.skeleton));
  scene::PosingSession session(model);
  const anim::Pose before = session.pose();
  const glm::vec3 joint = anim::PositionMs(before, chest);

  RingDrag model_axes;
  ASSERT_TRUE(
      model_axes.Begin(ScreenRay(joint, 45.0f), session, chest, false, kViewDir, kRadius, 0.02f));
  EXPECT_EQ(model_axes.axis(), scene::RingAxis::kZ) << "the model's Z ring faces the camera";
  RingDrag local_axes;
  ASSERT_TRUE(
      local_axes.Begin(ScreenRay(joint, 45.0f), session, chest, true, kViewDir, kRadius, 0.02f));
  EXPECT_EQ(local_axes.axis(), scene::RingAxis::kY) << "the bone's Y ring faces the camera";

  // Turning by the bone's Y ring is a turn about its own Y axis: local' = local * (Y, angle).
  const glm::quat local_before = before.locals_ls[static_cast<std::size_t>(chest)].rotation;
  local_axes.Update(ScreenRay(joint, 85.0f), false, session);
  const glm::quat local_delta = glm::inverse(local_before) *
                                session.pose().locals_ls[static_cast<std::size_t>(chest)].rotation;
  const glm::quat expected = glm::angleAxis(glm::radians(40.0f), glm::vec3(0, 1, 0));
  EXPECT_GT(std::abs(glm::dot(local_delta, expected)), 1.0f - 1e-6f);
  ExpectTurned(model, before, session.pose(), chest,
               glm::angleAxis(glm::radians(40.0f), glm::vec3(0, 0, 1)));
}

TEST(RingDrag, MissingEveryRingGrabsNothing) {
  const anim::Model model = Humanoid();
  scene::PosingSession session(model);
  const int chest = model.skeleton.Find("spine_02");
  const glm::vec3 joint = anim::PositionMs(session.pose(), chest);
  RingDrag drag;
  EXPECT_FALSE(drag.Begin(ScreenRay(joint, 45.0f, 0.5f * kRadius), session, chest, false, kViewDir,
                          kRadius, 0.02f));
  EXPECT_FALSE(drag.active());
  EXPECT_FALSE(drag.Begin(ScreenRay(joint, 45.0f), session, -1, false, kViewDir, kRadius, 0.02f));
}

}  // namespace
}  // namespace ikpose::app
