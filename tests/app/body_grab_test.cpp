// Grabbing the body itself (TargetDrag::BeginOnSurface), routed by the bone under the cursor as
// the viewer routes it: a shin, foot or toe drives its leg's target and a hand or forearm its
// arm's (the grabbed point keeps its offset and follows the mouse in the view plane); the
// pelvis moves the body with pinned feet holding; any other bone (neck, clavicle, thigh) turns
// about its joint so that the grabbed point swings toward the mouse; a whole drag is one undo
// step and a click without a move changes nothing.
#include <gtest/gtest.h>

#include <glm/gtc/quaternion.hpp>

#include "anim/test_rigs.h"
#include "app/target_drag.h"
#include "scene/session/undo_history.h"

namespace ikpose::app {
namespace {

using anim::Limb;

Ray FrontRay(const glm::vec3& point) {
  return {point + glm::vec3(0, 0, 5), {0, 0, -1}};
}

class BodyGrabTest : public ::testing::Test {
 protected:
  BodyGrabTest() {
    model.skeleton = anim::test::MakeHumanoid(anim::test::UnrealNames());
    model.chains = anim::DetectChains(model.skeleton, anim::RestPose(model.skeleton));
    session = std::make_unique<scene::PosingSession>(model);
    session->Evaluate();
  }
  int Bone(const char* name) const { return model.skeleton.Find(name); }
  glm::vec3 Joint(const char* name) const { return anim::PositionMs(session->pose(), Bone(name)); }
  // A hit on `bone`'s surface: a point in front of the middle of the bone toward its child.
  scene::SurfaceHit HitOn(const char* name, const char* child) const {
    scene::SurfaceHit hit;
    hit.hit = true;
    hit.bone = Bone(name);
    hit.point_ms = 0.5f * (Joint(name) + Joint(child)) + glm::vec3(0.0f, 0.0f, 0.03f);
    return hit;
  }

  anim::Model model;
  std::unique_ptr<scene::PosingSession> session;
};

TEST_F(BodyGrabTest, AShinDrivesItsLegsTargetKeepingTheGrabOffset) {
  const scene::SurfaceHit hit = HitOn("calf_l", "foot_l");
  const glm::vec3 target = session->target(Limb::kLeftLeg).target_ms;
  TargetDrag drag;
  ASSERT_TRUE(drag.BeginOnSurface(FrontRay(hit.point_ms), *session, hit));
  EXPECT_EQ(drag.handle(), TargetDrag::Handle::kTarget);
  EXPECT_EQ(drag.limb(), Limb::kLeftLeg);
  const glm::vec3 move(0.05f, 0.1f, 0.0f);
  drag.Update(FrontRay(hit.point_ms + move), {}, *session);
  session->Evaluate();
  EXPECT_LT(glm::length(session->target(Limb::kLeftLeg).target_ms - (target + move)), 1e-5f);
  EXPECT_LT(glm::length(Joint("foot_l") - (target + move)), 1e-4f) << "the foot followed";
  EXPECT_LT(glm::length(session->target(Limb::kRightLeg).target_ms -
                        session->resting_target(Limb::kRightLeg)),
            1e-6f);
}

TEST_F(BodyGrabTest, HandsForearmsFeetAndToesTakeTheirLimbOthersTurn) {
  const struct {
    const char* bone;
    const char* child;
    TargetDrag::Handle handle;
    Limb limb;
  } cases[] = {
      {"hand_l", "lowerarm_l", TargetDrag::Handle::kTarget, Limb::kLeftArm},
      {"lowerarm_r", "hand_r", TargetDrag::Handle::kTarget, Limb::kRightArm},
      {"foot_r", "ball_r", TargetDrag::Handle::kTarget, Limb::kRightLeg},
      {"ball_l", "foot_l", TargetDrag::Handle::kTarget, Limb::kLeftLeg},
      {"pelvis", "spine_01", TargetDrag::Handle::kBody, Limb::kLeftLeg},
      {"clavicle_l", "upperarm_l", TargetDrag::Handle::kBone, Limb::kLeftLeg},
      {"thigh_l", "calf_l", TargetDrag::Handle::kBone, Limb::kLeftLeg},
      {"neck_01", "spine_02", TargetDrag::Handle::kBone, Limb::kLeftLeg},
  };
  for (const auto& c : cases) {
    const scene::SurfaceHit hit = HitOn(c.bone, c.child);
    TargetDrag drag;
    ASSERT_TRUE(drag.BeginOnSurface(FrontRay(hit.point_ms), *session, hit)) << c.bone;
    EXPECT_EQ(drag.handle(), c.handle) << c.bone;
    if (c.handle == TargetDrag::Handle::kTarget) {
      EXPECT_EQ(drag.limb(), c.limb) << c.bone;
    }
    if (c.handle == TargetDrag::Handle::kBone) {
      EXPECT_EQ(drag.bone(), Bone(c.bone)) << c.bone;
    }
  }
  scene::SurfaceHit miss;
  EXPECT_FALSE(TargetDrag().BeginOnSurface(FrontRay({3, 3, 0}), *session, miss));
}

TEST_F(BodyGrabTest, ThePelvisMovesTheBodyAndPinnedFeetHold) {
  const scene::SurfaceHit hit = HitOn("pelvis", "spine_01");
  const glm::vec3 pelvis = Joint("pelvis"), foot = Joint("foot_l");
  TargetDrag drag;
  ASSERT_TRUE(drag.BeginOnSurface(FrontRay(hit.point_ms), *session, hit));
  const glm::vec3 move(0.02f, -0.08f, 0.0f);
  drag.Update(FrontRay(hit.point_ms + move), {}, *session);
  session->Evaluate();
  EXPECT_LT(glm::length(Joint("pelvis") - (pelvis + move)), 1e-5f);
  EXPECT_LT(glm::length(Joint("foot_l") - foot), 1e-4f) << "the pinned foot held";
}

TEST_F(BodyGrabTest, AnyOtherBoneSwingsTheGrabbedPointTowardTheMouse) {
  const scene::SurfaceHit hit = HitOn("neck_01", "spine_02");
  const anim::Pose before = session->pose();
  const glm::vec3 joint = Joint("neck_01");
  TargetDrag drag;
  ASSERT_TRUE(drag.BeginOnSurface(FrontRay(hit.point_ms), *session, hit));
  const glm::vec3 mouse = hit.point_ms + glm::vec3(0.06f, 0.0f, 0.0f);
  drag.Update(FrontRay(mouse), {}, *session);
  session->Evaluate();  // the frame after the drag
  // The neck turned so that the grabbed point lies on the line from the joint to the mouse.
  const int neck = Bone("neck_01");
  const glm::quat turn =
      anim::RotationMs(session->pose(), neck) * glm::inverse(anim::RotationMs(before, neck));
  const glm::vec3 swung = turn * (hit.point_ms - joint);
  EXPECT_GT(glm::dot(glm::normalize(swung), glm::normalize(mouse - joint)), 1.0f - 1e-5f);
  EXPECT_GT(glm::angle(turn), glm::radians(5.0f));
  // Only the neck and what hangs below it moved.
  for (int b = 0; b < model.skeleton.size(); ++b) {
    if (model.skeleton.IsAncestorOrSelf(neck, b)) continue;
    EXPECT_LT(glm::length(anim::PositionMs(session->pose(), b) - anim::PositionMs(before, b)),
              1e-6f)
        << model.skeleton.names[static_cast<std::size_t>(b)];
  }
}

TEST_F(BodyGrabTest, AWholeDragIsOneUndoStepAndAClickChangesNothing) {
  scene::UndoHistory history;
  history.Reset(*session);
  const scene::SurfaceHit hit = HitOn("neck_01", "spine_02");
  TargetDrag drag;
  ASSERT_TRUE(drag.BeginOnSurface(FrontRay(hit.point_ms), *session, hit));
  drag.Update(FrontRay(hit.point_ms), {}, *session);  // pressed and released in place
  drag.End();
  EXPECT_FALSE(history.Commit(*session));
  EXPECT_FALSE(session->HasBoneTurns());

  ASSERT_TRUE(drag.BeginOnSurface(FrontRay(hit.point_ms), *session, hit));
  for (int i = 1; i <= 5; ++i)
    drag.Update(FrontRay(hit.point_ms + glm::vec3(0.01f * i, 0, 0)), {}, *session);
  drag.End();
  EXPECT_TRUE(history.Commit(*session));
  EXPECT_EQ(history.undo_steps(), 1);
  EXPECT_EQ(history.undo_label(), "turn bone");
  history.Undo(*session);
  EXPECT_FALSE(session->HasBoneTurns());
}

}  // namespace
}  // namespace ikpose::app
