// The ladder's own grip on the bundled character (five fingers per hand): a hand snapped to a
// rung and solved curls its fingers round the rung, every finger joint on the cylinder the grip
// wraps (along the rung, at the rung, of the rung's radius), not only the wrist and palm placed.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "anim/test_rigs.h"
#include "asset/load_model.h"
#include "scene/session/grip.h"
#include "scene/session/hand_pose.h"
#include "scene/session/posing_session.h"

namespace ikpose::scene {
namespace {

using anim::Limb;

class LadderGrip : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    model_ = new anim::Model;
    std::string error;
    ASSERT_TRUE(asset::TryLoadModel(
        std::filesystem::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb", model_, &error))
        << error;
  }
  static void TearDownTestSuite() { delete model_; }
  static anim::Model* model_;
};
anim::Model* LadderGrip::model_ = nullptr;

// Distance of `p_ms` from rung `rung`'s axis (the rungs run along x).
float FromRungAxis(const Ladder& ladder, int rung, const glm::vec3& p_ms) {
  const glm::vec3 off = p_ms - ladder.RungCenter(rung);
  return std::hypot(off.y, off.z);
}

TEST_F(LadderGrip, SnappedHandsWrapEveryFingerJointRoundTheRung) {
  PosingSession session(*model_);
  const anim::Bounds bounds = anim::ComputeBounds(*model_, session.rest_pose());
  session.edits.ladder = LadderFor(
      bounds.max.y - bounds.min.y,
      {0.5f * (bounds.min.x + bounds.max.x), bounds.min.y, 0.5f * (bounds.min.z + bounds.max.z)},
      model_->chains.forward_ms);
  session.edits.ladder_enabled = true;
  const float height = bounds.max.y - bounds.min.y;
  // Both hands reach forward to the ladder at about shoulder height.
  for (Limb arm : {Limb::kLeftArm, Limb::kRightArm}) {
    const glm::vec3 shoulder = anim::PositionMs(session.pose(), session.chain(arm).upper);
    session.target(arm).target_ms = {shoulder.x * 0.6f, 0.75f * height,
                                     session.edits.ladder.base_ms.z};
  }
  session.SnapToRungs();
  session.Evaluate();
  const Ladder& ladder = session.shown_ladder();
  for (Limb arm : {Limb::kLeftArm, Limb::kRightArm}) {
    SCOPED_TRACE(anim::LimbName(arm));
    const int rung = session.target(arm).rung;
    ASSERT_GE(rung, 0);
    ASSERT_TRUE(session.result(arm).ok);
    const std::vector<int> fingers = FingerJoints(session, arm);
    ASSERT_GE(fingers.size(), 10u);
    const anim::Skeleton& k = model_->skeleton;
    // The cylinder the grip wraps for this rung, for the hand as it now is: its axis runs
    // along the rung, a wrap radius out of the palm from the finger roots.
    const GripCylinder cylinder = HandGripCylinder(session, arm, ladder.rung_radius);
    const glm::vec3 along = glm::normalize(glm::vec3(1.0f, 0.0f, 0.0f));
    EXPECT_GT(std::abs(glm::dot(cylinder.axis_ms, along)), 0.99f) << "parallel to the rung";
    EXPECT_LT(FromRungAxis(ladder, rung, cylinder.point_ms), 0.06f) << "at the rung";
    int tips = 0;
    for (int joint : fingers) {
      if (k.names[static_cast<std::size_t>(joint)].rfind("thumb", 0) == 0) continue;  // half
      for (int next : k.Children(joint)) {
        SCOPED_TRACE(k.names[static_cast<std::size_t>(next)]);
        // Every joint on the cylinder, within a finger's half thickness and the spread of the
        // finger roots across the hand (as the hand presets allow).
        const glm::vec3 off = anim::PositionMs(session.pose(), next) - cylinder.point_ms;
        const float d = glm::length(off - glm::dot(off, cylinder.axis_ms) * cylinder.axis_ms);
        EXPECT_NEAR(d, ladder.rung_radius, 0.4f * ladder.rung_radius + 0.01f);
        if (k.Children(next).empty()) ++tips;
      }
    }
    EXPECT_EQ(tips, 4) << "four fingertips checked";
  }
}

}  // namespace
}  // namespace ikpose::scene
