// The JSON reports behind `ikpose inspect --json` and `ikpose pose --json`: the field names
// docs/DESIGN.md fixes are present, with the documented meaning.
#include "asset/report.h"

#include <gtest/gtest.h>

#include <glm/gtc/quaternion.hpp>

namespace ikpose::asset {
namespace {

// Root (plain node) -> hip -> knee -> foot, plus a mesh node with a rigid triangle.
anim::Model SmallModel() {
  anim::Model m;
  m.source = "small.glb";
  anim::Skeleton& s = m.skeleton;
  const auto add = [&s](const char* name, int parent, glm::vec3 t, std::uint8_t flags) {
    s.names.push_back(name);
    s.parents.push_back(parent);
    anim::Transform tr;
    tr.translation = t;
    s.rest_ls.push_back(tr);
    s.flags.push_back(flags);
  };
  add("root", -1, {0, 0, 0}, 0);
  add("thigh_l", 0, {0.1f, 1.f, 0}, anim::kBoneIsJoint);
  add("calf_l", 1, {0, -0.5f, 0.05f}, anim::kBoneIsJoint);
  add("foot_l", 2, {0, -0.5f, -0.05f}, anim::kBoneIsJoint);
  add("prop", 0, {0, 0, 0}, anim::kBoneHasMesh);
  anim::Skin skin;
  skin.joints = {4};
  skin.inverse_bind = {glm::mat4(1.f)};
  m.skins.push_back(skin);
  anim::Mesh mesh;
  mesh.name = "tri";
  mesh.node = 4;
  mesh.follow_bone = 4;
  mesh.skin = 0;
  mesh.positions_bs = {{0, 0, 0}, {1, 0, 0}, {0, 2, 0}};
  mesh.joints.assign(3, glm::uvec4(0));
  mesh.weights.assign(3, glm::vec4(1, 0, 0, 0));
  mesh.indices = {0, 1, 2};
  m.meshes.push_back(mesh);
  anim::Clip clip;
  clip.name = "walk";
  clip.duration = 1.5f;
  m.clips.push_back(clip);
  m.chains.limbs[static_cast<int>(anim::Limb::kLeftLeg)] = [&] {
    anim::LimbChain c;
    c.name = "left_leg";
    c.upper = 1;
    c.lower = 2;
    c.end = 3;
    c.found_by = "names";
    anim::MeasureChain(s, anim::RestPose(s), c);
    return c;
  }();
  m.warnings = {"a warning"};
  return m;
}

TEST(InspectReport, HasTheFixedFields) {
  const Json j = InspectReport(SmallModel());
  EXPECT_EQ(j["file"], "small.glb");
  EXPECT_NEAR(j["height"].get<double>(), 2.0, 1e-6);
  // The mesh-only node is not listed; parents index the list.
  ASSERT_EQ(j["bones"].size(), 4u);
  EXPECT_EQ(j["bones"][0]["name"], "root");
  EXPECT_EQ(j["bones"][0]["parent"], -1);
  EXPECT_EQ(j["bones"][2]["parent"], 1);
  EXPECT_NEAR(j["bones"][3]["rest_position_ms"][1].get<double>(), 0.0, 1e-6);
  EXPECT_EQ(j["meshes"][0]["name"], "tri");
  EXPECT_EQ(j["meshes"][0]["vertices"], 3);
  EXPECT_EQ(j["meshes"][0]["triangles"], 1);
  EXPECT_EQ(j["meshes"][0]["skinned"], false);
  EXPECT_EQ(j["clips"][0]["name"], "walk");
  EXPECT_NEAR(j["clips"][0]["duration"].get<double>(), 1.5, 1e-6);
  const Json& leg = j["chains"]["left_leg"];
  EXPECT_EQ(leg["joints"], Json::array({"thigh_l", "calf_l", "foot_l"}));
  EXPECT_NEAR(leg["lengths"][0].get<double>(), std::sqrt(0.25 + 0.0025), 1e-5);
  EXPECT_FALSE(j["chains"].contains("right_leg"));  // not found: absent
  EXPECT_EQ(j["warnings"], Json::array({"a warning"}));
}

TEST(PoseReport, HasTheFixedFieldsAndEulerIsXThenYThenZ) {
  const anim::Model m = SmallModel();
  const anim::Pose before = anim::RestPose(m.skeleton);
  anim::Pose after = before;
  // Rz(30) * Ry(20) * Rx(10): Euler (10, 20, 30).
  after.locals_ls[0].rotation = glm::angleAxis(glm::radians(30.f), glm::vec3(0, 0, 1)) *
                                glm::angleAxis(glm::radians(20.f), glm::vec3(0, 1, 0)) *
                                glm::angleAxis(glm::radians(10.f), glm::vec3(1, 0, 0));
  anim::UpdateModels(m.skeleton, after);
  SolvedChain solved;
  solved.chain = m.chains[anim::Limb::kLeftLeg];
  solved.result.ok = true;
  solved.result.target_ms = {1, 2, 3};
  solved.result.error_ms = 0.5f;
  const Json j = PoseReport(m, before, after, {solved});
  const Json& c = j["chains"]["left_leg"];
  EXPECT_EQ(c["target"], Json::array({1.0, 2.0, 3.0}));
  EXPECT_EQ(c["reach"], "reachable");
  EXPECT_NEAR(c["error"].get<double>(), 0.5, 1e-9);
  EXPECT_TRUE(c.contains("b"));
  EXPECT_TRUE(c.contains("c"));
  const Json& root = j["bones"][0];
  EXPECT_NEAR(root["euler_deg"][0].get<double>(), 10.0, 1e-3);
  EXPECT_NEAR(root["euler_deg"][1].get<double>(), 20.0, 1e-3);
  EXPECT_NEAR(root["euler_deg"][2].get<double>(), 30.0, 1e-3);
  EXPECT_EQ(root["rotation_ls"].size(), 4u);  // x, y, z, w
  EXPECT_NEAR(root["rotation_ls"][3].get<double>(), after.locals_ls[0].rotation.w, 1e-6);
  EXPECT_EQ(root["changed"], true);
  EXPECT_EQ(j["bones"][3]["position_ms"].size(), 3u);
}

// A node that only carries a mesh is left out of "bones", so the bones after it move up one
// place: a chain's "bone_indices" follow that list, in both reports, not the skeleton.
TEST(Reports, ChainBoneIndicesIndexTheBonesListBesideThem) {
  anim::Model m;
  anim::Skeleton& s = m.skeleton;
  const auto add = [&s](const char* name, int parent, glm::vec3 t, std::uint8_t flags) {
    s.names.push_back(name);
    s.parents.push_back(parent);
    anim::Transform tr;
    tr.translation = t;
    s.rest_ls.push_back(tr);
    s.flags.push_back(flags);
  };
  add("root", -1, {0, 0, 0}, 0);
  add("prop", 0, {0, 1, 0}, anim::kBoneHasMesh);  // skeleton index 1, not listed
  add("thigh_l", 0, {0.1f, 1.f, 0}, anim::kBoneIsJoint);
  add("calf_l", 2, {0, -0.5f, 0.05f}, anim::kBoneIsJoint);
  add("foot_l", 3, {0, -0.5f, -0.05f}, anim::kBoneIsJoint);
  anim::LimbChain& leg = m.chains.limbs[static_cast<int>(anim::Limb::kLeftLeg)];
  leg.name = "left_leg";
  leg.upper = 2;
  leg.lower = 3;
  leg.end = 4;
  leg.found_by = "names";
  const anim::Pose rest = anim::RestPose(s);
  anim::MeasureChain(s, rest, leg);
  SolvedChain solved;
  solved.chain = leg;
  solved.result.ok = true;

  for (const Json& j : {InspectReport(m), PoseReport(m, rest, rest, {solved})}) {
    const Json& chain = j["chains"]["left_leg"];
    ASSERT_EQ(j["bones"].size(), 4u);
    EXPECT_EQ(chain["bone_indices"], Json::array({1, 2, 3}));
    for (std::size_t i = 0; i < 3; ++i) {
      EXPECT_EQ(j["bones"][chain["bone_indices"][i].get<std::size_t>()]["name"],
                chain["joints"][i]);
    }
  }
}

}  // namespace
}  // namespace ikpose::asset
