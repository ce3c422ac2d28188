// The humanoid map on hand-built rigs: every naming convention and unnamed joints give the
// same pelvis, spine, chest, neck, clavicles and toes; the facing comes from hips and shoulders
// together, so a fighting-stance rest faces between them.
#include "anim/humanoid.h"

#include <gtest/gtest.h>

#include <glm/gtc/quaternion.hpp>

#include "test_rigs.h"

namespace ikpose::anim {
namespace {

using test::HumanoidNames;
using test::MakeHumanoid;

std::string Name(const Skeleton& s, int bone) {
  return bone >= 0 ? s.names[bone] : "(none)";
}

// MakeHumanoid's bones by position: the names may be empty or repeated.
struct RigBones {
  int pelvis, spine, chest, neck, clavicle_l, clavicle_r, toe_l, toe_r;
};
RigBones Bones(const Skeleton& s, const ChainSet& chains) {
  RigBones b{};
  b.pelvis = s.parents[chains[Limb::kLeftLeg].upper];
  b.clavicle_l = s.parents[chains[Limb::kLeftArm].upper];
  b.clavicle_r = s.parents[chains[Limb::kRightArm].upper];
  b.chest = s.parents[b.clavicle_l];
  b.spine = s.parents[b.chest];
  b.neck = -1;
  for (int c : s.Children(b.chest)) {
    if (c != b.clavicle_l && c != b.clavicle_r) b.neck = c;
  }
  b.toe_l = s.Children(chains[Limb::kLeftLeg].end).at(0);
  b.toe_r = s.Children(chains[Limb::kRightLeg].end).at(0);
  return b;
}

float AngleDeg(const glm::vec3& a, const glm::vec3& b) {
  return glm::degrees(
      std::acos(glm::clamp(glm::dot(glm::normalize(a), glm::normalize(b)), -1.f, 1.f)));
}

void ExpectMapped(const Skeleton& s) {
  const Pose rest = RestPose(s);
  const ChainSet chains = DetectChains(s, rest);
  ASSERT_TRUE(chains[Limb::kLeftLeg].valid() && chains[Limb::kLeftArm].valid());
  const HumanoidMap map = MapHumanoid(s, rest, chains);
  const RigBones want = Bones(s, chains);
  EXPECT_EQ(map.pelvis, want.pelvis) << Name(s, map.pelvis);
  EXPECT_EQ(map.spine, (std::vector<int>{want.spine, want.chest}));
  EXPECT_EQ(map.chest, want.chest) << Name(s, map.chest);
  EXPECT_EQ(map.clavicle(Side::kLeft), want.clavicle_l);
  EXPECT_EQ(map.clavicle(Side::kRight), want.clavicle_r);
  // The rig's one bone above the chest is a neck with no head.
  EXPECT_EQ(map.neck, want.neck) << Name(s, map.neck);
  EXPECT_EQ(map.head, -1) << Name(s, map.head);
  EXPECT_EQ(map.toe(Side::kLeft), want.toe_l);
  EXPECT_EQ(map.toe(Side::kRight), want.toe_r);
  ASSERT_TRUE(map.facing_valid);
}

TEST(HumanoidMap, EveryNamingConventionAndUnnamedJointsMapTheSameBones) {
  for (const HumanoidNames& names :
       {test::BlenderNames(), test::UnrealNames(), test::MixamoNames("mixamorig:"),
        test::NumberedNames(), test::BipedNames(), test::SideWordNames(), HumanoidNames{}}) {
    SCOPED_TRACE(names.thigh_l.empty() ? "(unnamed)" : names.thigh_l);
    const Skeleton s = MakeHumanoid(names);
    ExpectMapped(s);
    const HumanoidMap map = MapHumanoid(s, RestPose(s), DetectChains(s, RestPose(s)));
    EXPECT_LT(AngleDeg(map.facing_ms, {0.f, 0.f, 1.f}), 0.5f);
  }
}

TEST(HumanoidMap, FacingTurnsWithTheRig) {
  const Skeleton s = MakeHumanoid(test::UnrealNames(), /*facing_x=*/true);
  ExpectMapped(s);
  const HumanoidMap map = MapHumanoid(s, RestPose(s), DetectChains(s, RestPose(s)));
  EXPECT_LT(AngleDeg(map.facing_ms, {1.f, 0.f, 0.f}), 0.5f);
}

// A fighting-stance rest: hips turned 25 degrees one way, the chest 25 degrees the other.
TEST(HumanoidMap, AStanceRestFacesBetweenItsHipsAndItsChest) {
  Skeleton s = MakeHumanoid(test::UnrealNames());
  const glm::vec3 up(0.f, 1.f, 0.f);
  s.rest_ls[s.Find("pelvis")].rotation = glm::angleAxis(glm::radians(25.f), up);
  s.rest_ls[s.Find("spine_01")].rotation = glm::angleAxis(glm::radians(-50.f), up);
  const Pose rest = RestPose(s);
  const HumanoidMap map = MapHumanoid(s, rest, DetectChains(s, rest));
  ASSERT_TRUE(map.facing_valid);
  const glm::vec3 hips_want = glm::angleAxis(glm::radians(25.f), up) * glm::vec3(0.f, 0.f, 1.f);
  const glm::vec3 chest_want = glm::angleAxis(glm::radians(-25.f), up) * glm::vec3(0.f, 0.f, 1.f);
  EXPECT_LT(AngleDeg(map.hips_facing_ms, hips_want), 0.5f);
  EXPECT_LT(AngleDeg(map.shoulders_facing_ms, chest_want), 0.5f);
  EXPECT_LT(AngleDeg(map.facing_ms, {0.f, 0.f, 1.f}), 0.5f);
}

TEST(HumanoidMap, ANamedHeadAboveANeckIsTheHeadAndAnEndLeafIsNot) {
  Skeleton s = MakeHumanoid(test::UnrealNames());
  const int neck = s.Find("neck_01");
  const int head = test::AddBone(s, "head", neck, {0.f, 0.1f, 0.f});
  test::AddBone(s, "head_leaf", head, {0.f, 0.2f, 0.f});
  const Pose rest = RestPose(s);
  HumanoidMap map = MapHumanoid(s, rest, DetectChains(s, rest));
  EXPECT_EQ(Name(s, map.neck), "neck_01");
  EXPECT_EQ(Name(s, map.head), "head");
  // Unnamed, the bone before the end leaf is the head.
  s.names[static_cast<std::size_t>(head)] = "joint_x";
  s.names[static_cast<std::size_t>(head) + 1] = "joint_y";
  map = MapHumanoid(s, rest, DetectChains(s, rest));
  EXPECT_EQ(map.head, head);
}

TEST(HumanoidMap, NoLegsNoPelvisNoArmsNoChest) {
  Skeleton s;
  test::AddBone(s, "root", -1, {0.f, 0.f, 0.f});
  const Pose rest = RestPose(s);
  const HumanoidMap map = MapHumanoid(s, rest, DetectChains(s, rest));
  EXPECT_EQ(map.pelvis, -1);
  EXPECT_EQ(map.chest, -1);
  EXPECT_TRUE(map.spine.empty());
  EXPECT_FALSE(map.facing_valid);
}

}  // namespace
}  // namespace ikpose::anim

namespace ikpose::anim {
namespace {

// A loaded stance rig's `forward` (what inspect prints and the knee policy faces) is the whole
// torso's, and its knees' natural bend tracks its turned feet rather than the hips' facing.
TEST(HumanoidMap, AStanceRigsForwardIsTheTorsosFacing) {
  Model m;
  m.skeleton = MakeHumanoid(test::UnrealNames());
  const glm::vec3 up(0.f, 1.f, 0.f);
  m.skeleton.rest_ls[m.skeleton.Find("pelvis")].rotation = glm::angleAxis(glm::radians(40.f), up);
  m.skeleton.rest_ls[m.skeleton.Find("spine_01")].rotation =
      glm::angleAxis(glm::radians(-50.f), up);
  DetectRig(m);
  const glm::vec3 hips = glm::angleAxis(glm::radians(40.f), up) * glm::vec3(0.f, 0.f, 1.f);
  const glm::vec3 chest = glm::angleAxis(glm::radians(-10.f), up) * glm::vec3(0.f, 0.f, 1.f);
  EXPECT_LT(AngleDeg(m.chains.forward_ms, hips + chest), 1.f);
  // The legs hang from the turned pelvis, toes and all: the knees track them.
  for (Limb leg : {Limb::kLeftLeg, Limb::kRightLeg}) {
    const NaturalBend& bend = m.chains[leg].natural;
    ASSERT_TRUE(bend.valid);
    const glm::vec3 knee_ms =
        glm::mat3_cast(RotationMs(RestPose(m.skeleton), m.skeleton.Find("pelvis"))) * bend.bend_ps;
    EXPECT_LT(AngleDeg(glm::vec3(knee_ms.x, 0.f, knee_ms.z), hips), 2.f);
  }
}

}  // namespace
}  // namespace ikpose::anim
