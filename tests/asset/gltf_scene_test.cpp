// The glTF rules the loader honours, on a small file written by gltf_test_scene: the transform of
// the node that holds a skinned mesh does not apply on top of skinning; several meshes with several
// skins; a rigid mesh parented to a bone moves with it; weights normalised; external and
// embedded base-colour textures. And top-4 weights on their own.
#include <gtest/gtest.h>

#include <unistd.h>

#include <string>
#include <vector>

#include "anim/skinning.h"
#include "asset/load_model.h"
#include "asset/weights.h"
#include "gltf_test_scene.h"
#include "support/glm_expect.h"

namespace ikpose::asset {
namespace {

namespace fs = std::filesystem;
using ikpose::test::ExpectNear;

class GltfScene : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ikpose-scene-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    model_ = LoadModel(test::WriteTestScene(dir_));
  }
  void TearDown() override { fs::remove_all(dir_); }
  const anim::Mesh& Mesh(const std::string& name) const {
    for (const anim::Mesh& m : model_.meshes) {
      if (m.name == name) return m;
    }
    throw std::runtime_error("no mesh " + name);
  }
  int MeshIndex(const std::string& name) const {
    return static_cast<int>(&Mesh(name) - model_.meshes.data());
  }
  fs::path dir_;
  anim::Model model_;
};

TEST_F(GltfScene, SeveralMeshesAndSkins) {
  EXPECT_EQ(model_.meshes.size(), 3u);
  EXPECT_EQ(model_.skins.size(), 3u);  // two file skins and the prop's one-joint skin
  EXPECT_TRUE(Mesh("a").skinned);
  EXPECT_TRUE(Mesh("b").skinned);
  EXPECT_FALSE(Mesh("prop").skinned);
  EXPECT_NE(Mesh("a").skin, Mesh("b").skin);
  EXPECT_TRUE(model_.has_file_skin);
}

TEST_F(GltfScene, SkinnedMeshNodeTransformIsIgnored) {
  const anim::Pose rest = anim::RestPose(model_.skeleton);
  const std::vector<glm::vec3> p = anim::SkinnedPositions(model_, MeshIndex("a"), rest);
  ExpectNear(p[0], {0, 1, 0});  // not +100 in x
  ExpectNear(p[2], {0, 2, 0});
}

TEST_F(GltfScene, WeightsAreNormalised) {
  const anim::Mesh& a = Mesh("a");
  EXPECT_NEAR(a.weights[0][0], 0.5f, 1e-6f);
  EXPECT_NEAR(a.weights[0][1], 0.5f, 1e-6f);
  EXPECT_NEAR(a.weights[1][0], 1.f, 1e-6f);
}

TEST_F(GltfScene, BonesMoveSkinnedAndRigidMeshes) {
  anim::Pose pose = anim::RestPose(model_.skeleton);
  const int arm = model_.skeleton.Find("arm");
  pose.locals_ls[arm].rotation = glm::angleAxis(glm::radians(90.f), glm::vec3(0, 0, 1));
  anim::UpdateModels(model_.skeleton, pose);
  // The hand joint (1,1,0) turns about the arm (0,1,0) to (0,2,0).
  ExpectNear(anim::SkinnedPositions(model_, MeshIndex("b"), pose)[0], {0, 2, 0});
  // Vertex 2 of mesh a sits at (-1,+1) from the hand: turned, it is at (-1,-1) from it.
  ExpectNear(anim::SkinnedPositions(model_, MeshIndex("a"), pose)[2], {-1, 1, 0});
  // The prop hangs 0.5 past the hand and follows it.
  const anim::Mesh& prop = Mesh("prop");
  EXPECT_EQ(model_.skeleton.names[prop.follow_bone], "prop");
  EXPECT_EQ(model_.skeleton.names[model_.skeleton.parents[prop.follow_bone]], "hand");
  ExpectNear(prop.positions_bs[0], {1.5f, 1, 0});  // bind space = model space at rest
  ExpectNear(glm::vec3(prop.bind_ms[3]), {1.5f, 1, 0});
  ExpectNear(anim::SkinnedPositions(model_, MeshIndex("prop"), pose)[0], {0, 2.5f, 0});
}

TEST_F(GltfScene, ExternalAndEmbeddedBaseColourTextures) {
  const anim::Material& red = model_.materials[Mesh("a").material];
  EXPECT_EQ(red.base_color, glm::vec4(1, 0, 0, 1));
  ASSERT_GE(red.base_color_texture, 0);
  const anim::Texture& external = model_.textures[red.base_color_texture];
  EXPECT_TRUE(external.encoded.empty());
  EXPECT_EQ(fs::path(external.path).filename(), "skin base.png");
  EXPECT_TRUE(fs::exists(external.path)) << external.path;
  const anim::Material& embedded = model_.materials[Mesh("b").material];
  ASSERT_GE(embedded.base_color_texture, 0);
  const anim::Texture& bytes = model_.textures[embedded.base_color_texture];
  EXPECT_TRUE(bytes.path.empty());
  EXPECT_EQ(bytes.encoded.size(), 16u);
  EXPECT_EQ(bytes.encoded[1], 'P');
}

TEST_F(GltfScene, UvsKeepTheFilesTopLeftOrigin) {
  const anim::Mesh& b = Mesh("b");
  ASSERT_EQ(b.uvs.size(), 3u);
  EXPECT_NEAR(b.uvs[0].x, 0.25f, 1e-6f);
  EXPECT_NEAR(b.uvs[0].y, 0.1f, 1e-6f);  // as written: v = 0.1 is near the image's top row
  EXPECT_NEAR(b.uvs[2].y, 0.9f, 1e-6f);
}

TEST(KeepFourLargest, NoUsableWeightKeepsNothing) {
  EXPECT_EQ(KeepFourLargest({}).count, 0);
  EXPECT_EQ(KeepFourLargest({{0.f, 1}, {-1.f, 2}, {std::nanf(""), 3}}).count, 0);
}

TEST(KeepFourLargest, KeepsTheFourLargestAndRenormalises) {
  const VertexInfluences v =
      KeepFourLargest({{0.1f, 7}, {0.3f, 2}, {0.05f, 9}, {0.2f, 4}, {0.25f, 5}, {0.1f, 1}});
  EXPECT_TRUE(v.dropped);
  EXPECT_EQ(v.count, 4);
  EXPECT_EQ(v.joints, glm::uvec4(2, 5, 4, 1));  // 0.1 tie: the lower joint index
  const float sum = 0.3f + 0.25f + 0.2f + 0.1f;
  EXPECT_NEAR(v.weights[0], 0.3f / sum, 1e-6f);
  EXPECT_NEAR(v.weights[3], 0.1f / sum, 1e-6f);
  EXPECT_NEAR(v.weights[0] + v.weights[1] + v.weights[2] + v.weights[3], 1.f, 1e-6f);
}

TEST(KeepFourLargest, FewerThanFourAreNormalisedAndPadded) {
  const VertexInfluences v = KeepFourLargest({{0.2f, 3}, {0.6f, 1}});
  EXPECT_FALSE(v.dropped);
  EXPECT_EQ(v.count, 2);
  EXPECT_EQ(v.joints, glm::uvec4(1, 3, 0, 0));
  EXPECT_NEAR(v.weights[0], 0.75f, 1e-6f);
  EXPECT_NEAR(v.weights[1], 0.25f, 1e-6f);
  EXPECT_EQ(v.weights[2], 0.f);
}

}  // namespace
}  // namespace ikpose::asset
