#include "anim/skinning.h"

#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>

namespace ikpose::anim {
namespace {

TEST(Skinning, EmptyMeshSkinsToNothing) {
  Mesh mesh;
  std::vector<glm::vec3> out;
  SkinMesh(mesh, {}, out, {});
  EXPECT_TRUE(out.empty());
}

TEST(Skinning, BlendsTwoJointsByWeight) {
  Mesh mesh;
  mesh.positions_bs = {{1, 0, 0}};
  mesh.normals_bs = {{0, 1, 0}};
  mesh.joints = {glm::uvec4(0, 1, 0, 0)};
  mesh.weights = {glm::vec4(0.25f, 0.75f, 0, 0)};
  const std::vector<glm::mat4> palette = {
      glm::translate(glm::mat4(1.f), glm::vec3(0, 0, 4)),
      glm::rotate(glm::mat4(1.f), glm::radians(90.f), glm::vec3(0, 0, 1))};
  std::vector<glm::vec3> positions(1);
  std::vector<glm::vec3> normals(1);
  SkinMesh(mesh, palette, positions, normals);
  // 0.25 * (1,0,4) + 0.75 * (0,1,0)
  EXPECT_NEAR(positions[0].x, 0.25f, 1e-6f);
  EXPECT_NEAR(positions[0].y, 0.75f, 1e-6f);
  EXPECT_NEAR(positions[0].z, 1.0f, 1e-6f);
  // Normal: blended linear part 0.25 I + 0.75 Rz(90) applied to (0,1,0) = (-0.75, 0.25, 0),
  // normalised (the blended 3x3 is a scaled rotation here, so no inverse-transpose effect).
  const glm::vec3 expected = glm::normalize(glm::vec3(-0.75f, 0.25f, 0.f));
  EXPECT_NEAR(normals[0].x, expected.x, 1e-5f);
  EXPECT_NEAR(normals[0].y, expected.y, 1e-5f);
}

TEST(Skinning, NormalsUseTheInverseTransposeUnderNonUniformScale) {
  Mesh mesh;
  mesh.positions_bs = {{0, 0, 0}};
  const glm::vec3 n = glm::normalize(glm::vec3(1, 1, 0));
  mesh.normals_bs = {n};
  mesh.joints = {glm::uvec4(0)};
  mesh.weights = {glm::vec4(1, 0, 0, 0)};
  const std::vector<glm::mat4> palette = {glm::scale(glm::mat4(1.f), glm::vec3(2, 1, 1))};
  std::vector<glm::vec3> positions(1);
  std::vector<glm::vec3> normals(1);
  SkinMesh(mesh, palette, positions, normals);
  // A surface x + y = c stretched 2x in x becomes x/2 + y = c: normal (0.5, 1, 0).
  const glm::vec3 expected = glm::normalize(glm::vec3(0.5f, 1.f, 0.f));
  EXPECT_NEAR(normals[0].x, expected.x, 1e-5f);
  EXPECT_NEAR(normals[0].y, expected.y, 1e-5f);
}

TEST(Skinning, RigidMeshFollowsItsBoneThroughTheSameFormula) {
  Model model;
  Skeleton& s = model.skeleton;
  s.names = {"root", "hand"};
  s.parents = {-1, 0};
  s.rest_ls.resize(2);
  s.rest_ls[1].translation = {1, 0, 0};
  s.flags = {kBoneIsJoint, kBoneIsJoint};
  Pose rest = RestPose(s);
  Skin skin;
  skin.joints = {1};
  skin.inverse_bind = {glm::inverse(rest.models_ms[1])};
  model.skins.push_back(skin);
  Mesh prop;
  prop.skin = 0;
  prop.follow_bone = 1;
  prop.positions_bs = {{1.5f, 0, 0}};  // model space at rest: half a unit past the hand
  prop.joints = {glm::uvec4(0)};
  prop.weights = {glm::vec4(1, 0, 0, 0)};
  model.meshes.push_back(prop);
  Pose pose = rest;
  pose.locals_ls[0].rotation = glm::angleAxis(glm::radians(90.f), glm::vec3(0, 0, 1));
  UpdateModels(s, pose);
  const std::vector<glm::vec3> p = SkinnedPositions(model, 0, pose);
  EXPECT_NEAR(p[0].x, 0.f, 1e-6f);
  EXPECT_NEAR(p[0].y, 1.5f, 1e-6f);
}

}  // namespace
}  // namespace ikpose::anim
