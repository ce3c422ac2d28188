// Joint ranges on hand-built rigs: every mapped bone gets its part, a turn within the range is
// kept exactly, and a turn past it stops at the table's limit in the same direction, whatever
// the rig's facing or units.
#include "anim/joint_ranges.h"

#include <gtest/gtest.h>

#include <glm/gtc/quaternion.hpp>

#include "anim/model.h"
#include "ik/rotation.h"
#include "test_rigs.h"

namespace ikpose::anim {
namespace {

constexpr glm::vec3 kUp{0.f, 1.f, 0.f};

float AngleDeg(const glm::vec3& a, const glm::vec3& b) {
  return glm::degrees(
      std::acos(glm::clamp(glm::dot(glm::normalize(a), glm::normalize(b)), -1.f, 1.f)));
}

// The local rotation that turns `bone` by `turn_ms` (model space) from its rest.
glm::quat TurnedLocal(const Model& m, const Pose& rest, int bone, const glm::quat& turn_ms) {
  const glm::quat parent = RotationMs(rest, m.skeleton.parents[static_cast<std::size_t>(bone)]);
  return glm::conjugate(parent) * turn_ms * parent *
         rest.locals_ls[static_cast<std::size_t>(bone)].rotation;
}

// Where the bone's axis points (model space) with local rotation `local` (parents at rest).
glm::vec3 AxisMs(const Model& m, const Pose& rest, int bone, const glm::quat& local) {
  const BoneRange* r = m.ranges.Find(bone);
  const glm::quat parent = RotationMs(rest, m.skeleton.parents[static_cast<std::size_t>(bone)]);
  return parent * (local * glm::conjugate(r->rest_ls) * r->axis_ps);
}

TEST(JointRanges, EveryMappedBoneHasItsPart) {
  const Model m = test::MakeHumanoidModel(test::UnrealNames());
  const Skeleton& s = m.skeleton;
  const auto part = [&](const char* name) {
    const BoneRange* r = m.ranges.Find(s.Find(name));
    return r ? std::string(JointPartName(r->part)) : std::string("(none)");
  };
  EXPECT_EQ(part("pelvis"), "pelvis");
  EXPECT_EQ(part("spine_01"), "spine");
  EXPECT_EQ(part("spine_02"), "chest");
  EXPECT_EQ(part("neck_01"), "neck");
  EXPECT_EQ(part("clavicle_l"), "clavicle");
  EXPECT_EQ(part("upperarm_r"), "shoulder");
  EXPECT_EQ(part("lowerarm_l"), "elbow");
  EXPECT_EQ(part("hand_l"), "wrist");
  EXPECT_EQ(part("thigh_r"), "hip");
  EXPECT_EQ(part("calf_l"), "knee");
  EXPECT_EQ(part("foot_r"), "ankle");
  EXPECT_EQ(part("ball_l"), "toe");
  EXPECT_EQ(part("root_node"), "(none)");
  // The spine's range is split over its two bones.
  const BoneRange* spine = m.ranges.Find(s.Find("spine_01"));
  EXPECT_FLOAT_EQ(spine->range.toward_deg, TableRange(JointPart::kSpine).toward_deg / 2.f);
  EXPECT_FLOAT_EQ(spine->range.twist_deg, TableRange(JointPart::kSpine).twist_deg / 2.f);
  // No table row is left unlimited but the pelvis.
  for (int p = 1; p < kJointPartCount; ++p) {
    EXPECT_TRUE(TableRange(static_cast<JointPart>(p)).limited()) << p;
  }
  EXPECT_FALSE(TableRange(JointPart::kPelvis).limited());
}

TEST(JointRanges, ATurnWithinTheRangeIsKeptExactly) {
  const Model m = test::MakeHumanoidModel();
  const Pose rest = RestPose(m.skeleton);
  const int hip = m.chains[Limb::kLeftLeg].upper;
  const glm::quat local =
      TurnedLocal(m, rest, hip, glm::angleAxis(glm::radians(-70.f), glm::vec3(1.f, 0.f, 0.f)));
  const RangeClamp c = ClampToRange(*m.ranges.Find(hip), local);
  EXPECT_FALSE(c.at_limit());
  EXPECT_NEAR(c.swing_deg, 70.f, 0.01f);
  EXPECT_EQ(c.rotation_ls, local);
}

// Checks the hip's limits in each direction on `m` (facing `facing`).
void ExpectHipLimits(const Model& m, const glm::vec3& facing) {
  const Pose rest = RestPose(m.skeleton);
  const int hip = m.chains[Limb::kLeftLeg].upper;
  const BoneRange& range = *m.ranges.Find(hip);
  const glm::vec3 side = glm::normalize(glm::cross(kUp, facing));  // the character's left
  const glm::vec3 down = AxisMs(m, rest, hip, range.rest_ls);
  // The thigh swings from its rest direction toward `toward_ms` by `angle`.
  struct Case {
    glm::vec3 toward_ms;
    float angle, limit;
  };
  const Case cases[] = {
      {facing, 150.f, 120.f},  // flexion: forward and up
      {-facing, 60.f, 30.f},   // extension: back
      {side, 80.f, 45.f},      // abduction: out to the left
  };
  for (const Case& k : cases) {
    const glm::vec3 turn_axis = glm::normalize(glm::cross(down, k.toward_ms));
    const glm::quat local =
        TurnedLocal(m, rest, hip, glm::angleAxis(glm::radians(k.angle), turn_axis));
    const RangeClamp c = ClampToRange(range, local);
    SCOPED_TRACE(k.angle);
    EXPECT_TRUE(c.swing_clamped);
    EXPECT_FALSE(c.twist_clamped);
    EXPECT_NEAR(c.swing_deg, k.angle, 0.05f);
    EXPECT_NEAR(c.swing_limit_deg, k.limit, 0.05f);
    const glm::vec3 axis = AxisMs(m, rest, hip, c.rotation_ls);
    EXPECT_NEAR(AngleDeg(down, axis), k.limit, 0.05f);
    // Still in the plane of the asked swing, on its side.
    EXPECT_NEAR(glm::dot(axis, turn_axis), 0.f, 1e-3f);
    EXPECT_GT(glm::dot(axis, k.toward_ms), 0.3f);
  }
  // A twist of 80 about the thigh stops at 45 and leaves the thigh where it points.
  const RangeClamp t =
      ClampToRange(range, TurnedLocal(m, rest, hip, glm::angleAxis(glm::radians(80.f), down)));
  EXPECT_TRUE(t.twist_clamped);
  EXPECT_FALSE(t.swing_clamped);
  EXPECT_NEAR(t.twist_deg, 80.f, 0.05f);
  EXPECT_NEAR(AngleDeg(AxisMs(m, rest, hip, t.rotation_ls), down), 0.f, 0.05f);
  const ik::SwingTwist st =
      ik::DecomposeSwingTwist(t.rotation_ls * glm::conjugate(range.rest_ls), range.axis_ps);
  EXPECT_NEAR(glm::degrees(st.twist_angle_rad), 45.f, 0.05f);
}

TEST(JointRanges, AHipStopsAtFlexionExtensionAbductionAndTwist) {
  ExpectHipLimits(test::MakeHumanoidModel(), {0.f, 0.f, 1.f});
}

TEST(JointRanges, LimitsFollowTheRigsFacingAndUnits) {
  Model turned;
  turned.skeleton = test::MakeHumanoid(test::UnrealNames(), /*facing_x=*/true);
  DetectRig(turned);
  ExpectHipLimits(turned, {1.f, 0.f, 0.f});
  // Centimetres: the root scales the rig by 100, and also turns it (rotations ignore scale).
  Model cm;
  cm.skeleton = test::MakeHumanoid(test::UnrealNames(), /*facing_x=*/true);
  cm.skeleton.rest_ls[0].scale = glm::vec3(100.f);
  DetectRig(cm);
  ExpectHipLimits(cm, {1.f, 0.f, 0.f});
}

TEST(JointRanges, AnAnkleLiftsItsToesLessThanItPointsThem) {
  const Model m = test::MakeHumanoidModel();
  const Pose rest = RestPose(m.skeleton);
  const int ankle = m.chains[Limb::kLeftLeg].end;
  const BoneRange& range = *m.ranges.Find(ankle);
  const glm::vec3 left(1.f, 0.f, 0.f);
  // Toes up 40 (about -left... the foot points forward: a turn about -X lifts +Z): 20 allowed.
  const RangeClamp up =
      ClampToRange(range, TurnedLocal(m, rest, ankle, glm::angleAxis(glm::radians(40.f), -left)));
  EXPECT_TRUE(up.swing_clamped);
  EXPECT_NEAR(up.swing_limit_deg, 20.f, 0.5f);
  const RangeClamp down =
      ClampToRange(range, TurnedLocal(m, rest, ankle, glm::angleAxis(glm::radians(40.f), left)));
  EXPECT_FALSE(down.at_limit());
}

TEST(JointRanges, ANeckAndHeadShareTheNecksRange) {
  Model m;
  m.skeleton = test::MakeHumanoid(test::UnrealNames());
  const int neck = m.skeleton.Find("neck_01");
  test::AddBone(m.skeleton, "head", neck, {0.f, 0.1f, 0.f});
  DetectRig(m);
  const BoneRange* n = m.ranges.Find(neck);
  const BoneRange* h = m.ranges.Find(m.skeleton.Find("head"));
  ASSERT_TRUE(n && h);
  EXPECT_EQ(h->part, JointPart::kHead);
  EXPECT_FLOAT_EQ(n->range.twist_deg + h->range.twist_deg, TableRange(JointPart::kNeck).twist_deg);
  // The head nods 60 forward: it stops at its half of the neck's flexion.
  const Pose rest = RestPose(m.skeleton);
  const int head = m.skeleton.Find("head");
  const RangeClamp c = ClampToRange(
      *h, TurnedLocal(m, rest, head, glm::angleAxis(glm::radians(60.f), glm::vec3(1.f, 0, 0))));
  EXPECT_TRUE(c.swing_clamped);
  EXPECT_NEAR(c.swing_limit_deg, 22.5f, 0.05f);
}

}  // namespace
}  // namespace ikpose::anim
