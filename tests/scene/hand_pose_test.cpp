// Hand poses on the bundled character (five fingers per hand): a fist turns every finger joint
// by the preset's angle, point keeps the index straight, relaxed curls less than a fist, spread
// fans the fingertips apart, a grip of radius r puts the fingertips about r from the cylinder's
// axis; the other hand and the rest of the body stay; a rig without fingers says so.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <glm/gtc/quaternion.hpp>

#include "anim/test_rigs.h"
#include "asset/load_model.h"
#include "scene/session/hand_pose.h"
#include "support/glm_expect.h"

namespace ikpose::scene {
namespace {

using anim::Limb;
using ikpose::test::AngleDeg;

class HandPoseTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const std::filesystem::path file =
        std::filesystem::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb";
    model_ = new anim::Model;
    std::string error;
    ASSERT_TRUE(asset::TryLoadModel(file, model_, &error)) << error;
  }
  static void TearDownTestSuite() { delete model_; }

  const anim::Skeleton& skeleton() const { return model_->skeleton; }
  bool IsThumb(int bone) const {
    return skeleton().names[static_cast<std::size_t>(bone)].rfind("thumb", 0) == 0;
  }
  // The finger joints' tips: each joint's last descendant of its finger (a leaf).
  std::vector<glm::vec3> Tips(const PosingSession& s, bool thumbs) const {
    std::vector<glm::vec3> tips;
    const int hand = s.chain(Limb::kLeftArm).end;
    for (int b = 0; b < skeleton().size(); ++b) {
      if (!skeleton().IsAncestorOrSelf(hand, b) || b == hand || !skeleton().Children(b).empty())
        continue;
      if (!thumbs && IsThumb(skeleton().parents[static_cast<std::size_t>(b)])) continue;
      tips.push_back(anim::PositionMs(s.pose(), b));
    }
    return tips;
  }
  float MeanTipToWrist(const PosingSession& s) const {
    const glm::vec3 wrist = anim::PositionMs(s.pose(), s.chain(Limb::kLeftArm).end);
    float sum = 0.0f;
    const std::vector<glm::vec3> tips = Tips(s, false);
    for (const glm::vec3& t : tips) sum += glm::length(t - wrist);
    return sum / static_cast<float>(tips.size());
  }

  static anim::Model* model_;
};
anim::Model* HandPoseTest::model_ = nullptr;

TEST_F(HandPoseTest, FistTurnsEveryFingerJointByThePresetAngleAndNothingElse) {
  PosingSession session(*model_);
  const anim::Pose before = session.pose();
  const std::vector<int> joints = FingerJoints(session, Limb::kLeftArm);
  ASSERT_GE(joints.size(), 10u) << "the bundled character has five fingers per hand";
  std::string why;
  ASSERT_TRUE(PoseHand(session, Limb::kLeftArm, PresetHandPose(HandPreset::kFist, 0), &why));
  for (int b = 0; b < skeleton().size(); ++b) {
    const auto i = static_cast<std::size_t>(b);
    const float turned =
        AngleDeg(before.locals_ls[i].rotation, session.pose().locals_ls[i].rotation);
    if (std::find(joints.begin(), joints.end(), b) != joints.end()) {
      EXPECT_NEAR(turned, IsThumb(b) ? 0.5f * kFullCurlDeg : kFullCurlDeg, 0.05f)
          << skeleton().names[i];
    } else {
      EXPECT_LT(turned, 1e-3f) << skeleton().names[i] << " is no finger of the left hand";
    }
  }
}

TEST_F(HandPoseTest, PointKeepsTheIndexFingerStraight) {
  PosingSession session(*model_);
  const anim::Pose before = session.pose();
  std::string why;
  ASSERT_TRUE(PoseHand(session, Limb::kLeftArm, PresetHandPose(HandPreset::kPoint, 0), &why));
  int index = 0;
  for (int b : FingerJoints(session, Limb::kLeftArm)) {
    const auto i = static_cast<std::size_t>(b);
    const float turned =
        AngleDeg(before.locals_ls[i].rotation, session.pose().locals_ls[i].rotation);
    if (skeleton().names[i].rfind("index", 0) == 0) {
      EXPECT_LT(turned, 1e-3f) << skeleton().names[i];
      ++index;
    } else {
      EXPECT_GT(turned, 40.0f) << skeleton().names[i];
    }
  }
  EXPECT_GE(index, 2);
}

TEST_F(HandPoseTest, RelaxedCurlsLessThanAFist) {
  PosingSession straight(*model_), relaxed(*model_), fist(*model_);
  std::string why;
  ASSERT_TRUE(PoseHand(relaxed, Limb::kLeftArm, PresetHandPose(HandPreset::kRelaxed, 0), &why));
  ASSERT_TRUE(PoseHand(fist, Limb::kLeftArm, PresetHandPose(HandPreset::kFist, 0), &why));
  EXPECT_GT(MeanTipToWrist(straight), MeanTipToWrist(relaxed));
  EXPECT_GT(MeanTipToWrist(relaxed), MeanTipToWrist(fist) + 0.01f);
}

TEST_F(HandPoseTest, SpreadFansTheFingertipsApart) {
  const auto width = [&](float spread) {
    PosingSession session(*model_);
    HandPose pose;
    pose.spread = spread;
    std::string why;
    EXPECT_TRUE(PoseHand(session, Limb::kLeftArm, pose, &why)) << why;
    float widest = 0.0f;  // the largest distance between two fingertips (thumb aside)
    const std::vector<glm::vec3> tips = Tips(session, false);
    for (const glm::vec3& a : tips)
      for (const glm::vec3& b : tips) widest = std::max(widest, glm::length(a - b));
    return widest;
  };
  EXPECT_GT(width(1.0f), width(0.0f) * 1.2f);
  EXPECT_LT(width(-1.0f), width(0.0f));
}

TEST_F(HandPoseTest, GripPutsTheFingertipsAboutTheRadiusFromTheCylindersAxis) {
  // Within a centimetre (the finger's half thickness, and the finger roots not all on one line
  // across the hand) plus 40% of r; and a wider cylinder opens the hand.
  std::vector<float> mean;
  for (const float r : {0.015f, 0.03f}) {
    PosingSession session(*model_);
    std::string why;
    ASSERT_TRUE(PoseHand(session, Limb::kLeftArm, PresetHandPose(HandPreset::kGrip, r), &why));
    const GripCylinder cylinder = HandGripCylinder(session, Limb::kLeftArm, r);
    float sum = 0.0f;
    const std::vector<glm::vec3> tips = Tips(session, false);
    for (const glm::vec3& tip : tips) {
      const glm::vec3 off = tip - cylinder.point_ms;
      const float d = glm::length(off - glm::dot(off, cylinder.axis_ms) * cylinder.axis_ms);
      EXPECT_NEAR(d, r, 0.4f * r + 0.01f) << "r " << r;
      sum += d;
    }
    mean.push_back(sum / static_cast<float>(tips.size()));
  }
  EXPECT_GT(mean[1], mean[0] + 0.005f);
}

TEST(HandPoseRig, ARigWithoutFingersSaysSo) {
  anim::Model model;
  model.skeleton = anim::test::MakeHumanoid(anim::test::UnrealNames());
  model.chains = anim::DetectChains(model.skeleton, anim::RestPose(model.skeleton));
  PosingSession session(model);
  std::string why;
  EXPECT_FALSE(PoseHand(session, Limb::kLeftArm, PresetHandPose(HandPreset::kFist, 0), &why));
  EXPECT_NE(why.find("no finger bones"), std::string::npos) << why;
  EXPECT_FALSE(PoseHand(session, Limb::kLeftLeg, PresetHandPose(HandPreset::kFist, 0), &why));
  EXPECT_FALSE(session.HasBoneTurns());
}

}  // namespace
}  // namespace ikpose::scene
