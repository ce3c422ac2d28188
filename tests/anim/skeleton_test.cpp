#include "anim/skeleton.h"

#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>

#include "support/glm_expect.h"
#include "test_rigs.h"

namespace ikpose::anim {
namespace {

using test::AddBone;
using ikpose::test::ExpectNear;

TEST(Skeleton, EmptySkeletonHasNoBonesAndValidates) {
  Skeleton s;
  EXPECT_EQ(s.size(), 0);
  EXPECT_EQ(s.Validate(), "");
  Pose pose = RestPose(s);
  EXPECT_TRUE(pose.models_ms.empty());
}

TEST(Skeleton, ValidateRejectsChildBeforeParent) {
  Skeleton s;
  AddBone(s, "a", -1, {0, 0, 0});
  AddBone(s, "b", 1, {0, 0, 0});  // its own index: not before it
  EXPECT_NE(s.Validate(), "");
}

TEST(Skeleton, ValidateRejectsNonFiniteRest) {
  Skeleton s;
  AddBone(s, "a", -1, {0, std::nanf(""), 0});
  EXPECT_NE(s.Validate(), "");
}

TEST(Skeleton, LocalToModelComposesParentsFirst) {
  Skeleton s;
  const int root = AddBone(s, "root", -1, {1, 0, 0});
  s.rest_ls[root].rotation = glm::angleAxis(glm::radians(90.f), glm::vec3(0, 0, 1));
  s.rest_ls[root].scale = glm::vec3(2.f);
  const int child = AddBone(s, "child", root, {1, 0, 0});
  const Pose pose = RestPose(s);
  // root: at (1,0,0), turned 90 deg about z and scaled 2: child's (1,0,0) -> (0,2,0) + (1,0,0).
  ExpectNear(PositionMs(pose, child), {1, 2, 0});
}

TEST(Skeleton, UpdateSubtreeTouchesOnlyTheSubtree) {
  Skeleton s;
  const int root = AddBone(s, "root", -1, {0, 0, 0});
  const int a = AddBone(s, "a", root, {1, 0, 0});
  const int a1 = AddBone(s, "a1", a, {1, 0, 0});
  const int b = AddBone(s, "b", root, {0, 1, 0});
  Pose pose = RestPose(s);
  const glm::mat4 b_before = pose.models_ms[b];
  pose.locals_ls[a].rotation = glm::angleAxis(glm::radians(90.f), glm::vec3(0, 0, 1));
  pose.locals_ls[b].translation = {5, 5, 5};  // changed but not in the subtree: not recomputed
  UpdateSubtree(s, a, pose);
  ExpectNear(PositionMs(pose, a1), {1, 1, 0});
  EXPECT_EQ(pose.models_ms[b], b_before);
}

TEST(Skeleton, FindPrefersJointsOverPlainNodesWithTheSameName) {
  Skeleton s;
  AddBone(s, "root", -1, {0, 0, 0}, false);
  AddBone(s, "Foot.L", 0, {0, 0, 0}, false);  // a mesh node named like the bone
  const int bone = AddBone(s, "Foot.L", 0, {1, 0, 0}, true);
  EXPECT_EQ(s.Find("Foot.L"), bone);
  EXPECT_EQ(s.Find("nothing"), -1);
}

TEST(Skeleton, DecomposeInvertsToMatrixIncludingNegativeScale) {
  Transform t;
  t.translation = {1, -2, 3};
  t.rotation = glm::normalize(glm::quat(0.9f, 0.1f, -0.3f, 0.2f));
  for (const glm::vec3 scale :
       {glm::vec3(1.f), glm::vec3(2.f, 3.f, 0.5f), glm::vec3(-1.f, 1.f, 1.f)}) {
    t.scale = scale;
    const Transform back = Decompose(ToMatrix(t));
    const glm::mat4 a = ToMatrix(t);
    const glm::mat4 b = ToMatrix(back);
    for (int c = 0; c < 4; ++c) {
      for (int r = 0; r < 4; ++r) EXPECT_NEAR(a[c][r], b[c][r], 1e-5f);
    }
  }
}

TEST(Skeleton, PaletteIsIdentityAtBindWhenInverseBindMatchesRest) {
  Skeleton s;
  const int root = AddBone(s, "root", -1, {0, 1, 0});
  const int child = AddBone(s, "child", root, {0, 1, 0});
  s.rest_ls[child].rotation = glm::angleAxis(0.3f, glm::vec3(1, 0, 0));
  const Pose rest = RestPose(s);
  Skin skin;
  skin.joints = {root, child};
  skin.inverse_bind = {glm::inverse(rest.models_ms[root]), glm::inverse(rest.models_ms[child])};
  for (const glm::mat4& m : BuildPalette(skin, rest.models_ms)) {
    for (int c = 0; c < 4; ++c) {
      for (int r = 0; r < 4; ++r) EXPECT_NEAR(m[c][r], c == r ? 1.f : 0.f, 1e-6f);
    }
  }
}

}  // namespace
}  // namespace ikpose::anim
