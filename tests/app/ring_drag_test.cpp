// FK rings driven as the viewer drives them, with mouse rays: a ring drag turns exactly the
// selected bone and its children about the ring's axis by the angle the mouse swept around the
// joint; Ctrl snaps the drag's total to 5 degree steps; the bone's own axes and the model's
// give different rings on a bone whose rest is turned.
#include "app/ring_drag.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include <glm/gtc/quaternion.hpp>

#include "anim/test_rigs.h"

namespace ikpose::app {
namespace {

constexpr float kRadius = 0.1f;
const glm::vec3 kViewDir(0.0f, 0.0f, -1.0f);  // the camera in front (+Z) looks along -Z

// The humanoid posed by a session, with one bone to turn (its rest turned by `rest_turn`), the
// pose before any drag and the bone's joint.
struct Scene {
  explicit Scene(const char* bone_name, const glm::quat& rest_turn = glm::quat(1, 0, 0, 0)) {
    model.skeleton = anim::test::MakeHumanoid(anim::test::UnrealNames());
    bone = model.skeleton.Find(bone_name);
    auto& rest = model.skeleton.rest_ls[static_cast<std::size_t>(bone)];
    rest.rotation = rest_turn * rest.rotation;
    model.chains = anim::DetectChains(model.skeleton, anim::RestPose(model.skeleton));
    session = std::make_unique<scene::PosingSession>(model);
    before = session->pose();
    joint = anim::PositionMs(before, bone);
  }
  anim::Model model;
  int bone = -1;
  std::unique_ptr<scene::PosingSession> session;
  anim::Pose before;
  glm::vec3 joint{0.0f};
};

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
  Scene s("spine_02");  // the chest: neck and arms hang below it
  RingDrag drag;
  // Model axes: the blue Z ring faces the camera; grab it at 45 degrees on screen.
  ASSERT_TRUE(
      drag.Begin(ScreenRay(s.joint, 45.0f), *s.session, s.bone, false, kViewDir, kRadius, 0.02f));
  EXPECT_EQ(drag.axis(), scene::RingAxis::kZ);
  drag.Update(ScreenRay(s.joint, 60.0f, 0.5f * kRadius), false, *s.session);  // nearer the joint:
  drag.Update(ScreenRay(s.joint, 75.0f, 2.0f * kRadius), false, *s.session);  // the angle counts
  EXPECT_NEAR(glm::degrees(drag.applied_angle()), 30.0f, 1e-3f);
  s.session->Evaluate();  // the frame after the drag
  ExpectTurned(s.model, s.before, s.session->pose(), s.bone,
               glm::angleAxis(glm::radians(30.0f), glm::vec3(0, 0, 1)));
  // Back where it started: the bone is back too (the turn replaces, it does not add up).
  drag.Update(ScreenRay(s.joint, 45.0f), false, *s.session);
  s.session->Evaluate();  // the frame after the drag
  ExpectTurned(s.model, s.before, s.session->pose(), s.bone, glm::quat(1, 0, 0, 0));
}

TEST(RingDrag, TheViewRingTurnsAboutTheViewAxisAndPassesHalfATurn) {
  Scene s("neck_01");
  RingDrag drag;
  ASSERT_TRUE(drag.Begin(ScreenRay(s.joint, 30.0f, 1.25f * kRadius), *s.session, s.bone, true,
                         kViewDir, kRadius, 0.02f));
  EXPECT_EQ(drag.axis(), scene::RingAxis::kView);
  for (float a = 30.0f; a >= -200.0f; a -= 10.0f) {
    drag.Update(ScreenRay(s.joint, a), false, *s.session);
  }
  EXPECT_NEAR(glm::degrees(drag.applied_angle()), -230.0f, 1e-3f);  // clockwise: negative
  s.session->Evaluate();                                            // the frame after the drag
  ExpectTurned(s.model, s.before, s.session->pose(), s.bone,
               glm::angleAxis(glm::radians(-230.0f), glm::vec3(0, 0, 1)));
}

TEST(RingDrag, CtrlSnapsTheDragsTotalToFiveDegreeSteps) {
  Scene s("spine_02");
  RingDrag drag;
  ASSERT_TRUE(
      drag.Begin(ScreenRay(s.joint, 45.0f), *s.session, s.bone, false, kViewDir, kRadius, 0.02f));
  drag.Update(ScreenRay(s.joint, 55.0f), true, *s.session);
  drag.Update(ScreenRay(s.joint, 67.0f), true, *s.session);  // 22 snaps to 20
  EXPECT_NEAR(glm::degrees(drag.applied_angle()), 20.0f, 1e-4f);
  s.session->Evaluate();  // the frame after the drag
  ExpectTurned(s.model, s.before, s.session->pose(), s.bone,
               glm::angleAxis(glm::radians(20.0f), glm::vec3(0, 0, 1)));
  drag.Update(ScreenRay(s.joint, 78.0f), true, *s.session);  // 33 snaps to 35
  EXPECT_NEAR(glm::degrees(drag.applied_angle()), 35.0f, 1e-4f);
  drag.Update(ScreenRay(s.joint, 78.0f), false, *s.session);  // Ctrl let go: the exact angle
  EXPECT_NEAR(glm::degrees(drag.applied_angle()), 33.0f, 1e-4f);
}

TEST(RingDrag, LocalAndModelAxesDifferOnABoneWithATurnedRest) {
  // The chest's rest turned 90 degrees about X: its own Y axis points along the model's Z.
  Scene s("spine_02", glm::angleAxis(glm::radians(90.0f), glm::vec3(1, 0, 0)));
  RingDrag model_axes;
  ASSERT_TRUE(model_axes.Begin(ScreenRay(s.joint, 45.0f), *s.session, s.bone, false, kViewDir,
                               kRadius, 0.02f));
  EXPECT_EQ(model_axes.axis(), scene::RingAxis::kZ) << "the model's Z ring faces the camera";
  RingDrag local_axes;
  ASSERT_TRUE(local_axes.Begin(ScreenRay(s.joint, 45.0f), *s.session, s.bone, true, kViewDir,
                               kRadius, 0.02f));
  EXPECT_EQ(local_axes.axis(), scene::RingAxis::kY) << "the bone's Y ring faces the camera";

  // Turning by the bone's Y ring is a turn about its own Y axis: local' = local * (Y, angle).
  const auto b = static_cast<std::size_t>(s.bone);
  local_axes.Update(ScreenRay(s.joint, 85.0f), false, *s.session);
  s.session->Evaluate();  // the frame after the drag
  const glm::quat local_delta =
      glm::inverse(s.before.locals_ls[b].rotation) * s.session->pose().locals_ls[b].rotation;
  const glm::quat expected = glm::angleAxis(glm::radians(40.0f), glm::vec3(0, 1, 0));
  EXPECT_GT(std::abs(glm::dot(local_delta, expected)), 1.0f - 1e-6f);
  s.session->Evaluate();  // the frame after the drag
  ExpectTurned(s.model, s.before, s.session->pose(), s.bone,
               glm::angleAxis(glm::radians(40.0f), glm::vec3(0, 0, 1)));
}

TEST(RingDrag, MissingEveryRingGrabsNothing) {
  Scene s("spine_02");
  RingDrag drag;
  EXPECT_FALSE(drag.Begin(ScreenRay(s.joint, 45.0f, 0.5f * kRadius), *s.session, s.bone, false,
                          kViewDir, kRadius, 0.02f));
  EXPECT_FALSE(drag.active());
  EXPECT_FALSE(
      drag.Begin(ScreenRay(s.joint, 45.0f), *s.session, -1, false, kViewDir, kRadius, 0.02f));
}

}  // namespace
}  // namespace ikpose::app
