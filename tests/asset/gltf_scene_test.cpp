// The glTF rules the loader honours, on a small file written here: the transform of the node
// that holds a skinned mesh does not apply on top of skinning; several meshes with several
// skins; a rigid mesh parented to a bone moves with it; weights normalised; external and
// embedded base-colour textures. And top-4 weights on their own.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <nlohmann/json.hpp>

#include "anim/skinning.h"
#include "asset/load_model.h"
#include "asset/weights.h"

namespace ikpose::asset {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string Base64(const std::vector<std::uint8_t>& bytes) {
  static const char* kDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::uint32_t v = (static_cast<std::uint32_t>(bytes[i]) << 16) |
                            (i + 1 < bytes.size() ? bytes[i + 1] << 8 : 0u) |
                            (i + 2 < bytes.size() ? bytes[i + 2] : 0u);
    out += kDigits[(v >> 18) & 63];
    out += kDigits[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? kDigits[(v >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? kDigits[v & 63] : '=';
  }
  return out;
}

// Appends data to one buffer and describes it with buffer views and accessors.
class Buffer {
 public:
  int Floats(const std::vector<float>& values, const char* type, int count) {
    const int view = View(values.data(), values.size() * 4);
    return Accessor(view, 5126, type, count);
  }
  int Bytes(const std::vector<std::uint8_t>& values, const char* type, int count) {
    const int view = View(values.data(), values.size());
    return Accessor(view, 5121, type, count);
  }
  int View(const void* data, std::size_t size) {
    while (bin_.size() % 4 != 0) bin_.push_back(0);
    const std::size_t offset = bin_.size();
    bin_.resize(offset + size);
    std::memcpy(bin_.data() + offset, data, size);
    views_.push_back({{"buffer", 0}, {"byteOffset", offset}, {"byteLength", size}});
    return static_cast<int>(views_.size()) - 1;
  }
  void WriteInto(json& gltf) const {
    gltf["buffers"] =
        json::array({{{"byteLength", bin_.size()},
                      {"uri", "data:application/octet-stream;base64," + Base64(bin_)}}});
    gltf["bufferViews"] = views_;
    gltf["accessors"] = accessors_;
  }

 private:
  int Accessor(int view, int component, const char* type, int count) {
    accessors_.push_back(
        {{"bufferView", view}, {"componentType", component}, {"type", type}, {"count", count}});
    return static_cast<int>(accessors_.size()) - 1;
  }
  std::vector<std::uint8_t> bin_;
  json views_ = json::array();
  json accessors_ = json::array();
};

std::vector<float> Matrix(const glm::mat4& m) {
  std::vector<float> out;
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) out.push_back(m[c][r]);
  }
  return out;
}

// root -> arm (joint, at (0,1,0)) -> hand (joint, at (1,1,0)) -> prop (rigid mesh, +0.5 x)
// root -> skinned_a (mesh 0, skin 0 = arm+hand, node moved by +100 x: must be ignored)
// root -> skinned_b (mesh 1, skin 1 = hand)
fs::path WriteScene(const fs::path& dir) {
  Buffer buffer;
  json gltf;
  gltf["asset"] = {{"version", "2.0"}};
  gltf["scene"] = 0;
  gltf["scenes"] = json::array({{{"nodes", {0}}}});
  gltf["nodes"] = json::array({
      {{"name", "root"}, {"children", {1, 3, 4}}},
      {{"name", "arm"}, {"translation", {0, 1, 0}}, {"children", {2}}},
      {{"name", "hand"}, {"translation", {1, 0, 0}}, {"children", {5}}},
      {{"name", "skinned_a"}, {"mesh", 0}, {"skin", 0}, {"translation", {100, 0, 0}}},
      {{"name", "skinned_b"}, {"mesh", 1}, {"skin", 1}},
      {{"name", "prop"}, {"mesh", 2}, {"translation", {0.5, 0, 0}}},
  });
  const int ibm0 = buffer.Floats(
      [] {
        std::vector<float> m = Matrix(glm::translate(glm::mat4(1.f), glm::vec3(0, -1, 0)));
        const std::vector<float> h = Matrix(glm::translate(glm::mat4(1.f), glm::vec3(-1, -1, 0)));
        m.insert(m.end(), h.begin(), h.end());
        return m;
      }(),
      "MAT4", 2);
  const int ibm1 =
      buffer.Floats(Matrix(glm::translate(glm::mat4(1.f), glm::vec3(-1, -1, 0))), "MAT4", 1);
  gltf["skins"] = json::array({{{"joints", {1, 2}}, {"inverseBindMatrices", ibm0}},
                               {{"joints", {2}}, {"inverseBindMatrices", ibm1}}});
  const int pos0 = buffer.Floats({0, 1, 0, 1, 1, 0, 0, 2, 0}, "VEC3", 3);
  const int joints0 = buffer.Bytes({0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0}, "VEC4", 3);
  // Vertex 0: 0.25 + 0.25 (renormalised to 0.5 + 0.5); vertex 1: all on joint 1 as 0.5.
  const int weights0 = buffer.Floats({0.25f, 0.25f, 0, 0, 0, 0.5f, 0, 0, 1, 0, 0, 0}, "VEC4", 3);
  const int pos1 = buffer.Floats({1, 1, 0, 2, 1, 0, 1, 2, 0}, "VEC3", 3);
  const int joints1 = buffer.Bytes({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, "VEC4", 3);
  const int weights1 = buffer.Floats({1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0}, "VEC4", 3);
  const int uv1 = buffer.Floats({0.25f, 0.1f, 0.75f, 0.1f, 0.25f, 0.9f}, "VEC2", 3);
  const int pos2 = buffer.Floats({0, 0, 0, 0.1f, 0, 0, 0, 0.1f, 0}, "VEC3", 3);
  gltf["meshes"] = json::array(
      {{{"name", "a"},
        {"primitives",
         {{{"attributes", {{"POSITION", pos0}, {"JOINTS_0", joints0}, {"WEIGHTS_0", weights0}}},
           {"material", 0}}}}},
       {{"name", "b"},
        {"primitives",
         {{{"attributes",
            {{"POSITION", pos1},
             {"JOINTS_0", joints1},
             {"WEIGHTS_0", weights1},
             {"TEXCOORD_0", uv1}}},
           {"material", 1}}}}},
       {{"name", "prop"}, {"primitives", {{{"attributes", {{"POSITION", pos2}}}}}}}});
  const std::vector<std::uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n',
                                         1,    2,   3,   4,   5,    6,    7,    8};
  const int image_view = buffer.View(png.data(), png.size());
  gltf["images"] = json::array({{{"uri", "textures/skin%20base.png"}},
                                {{"bufferView", image_view}, {"mimeType", "image/png"}}});
  gltf["textures"] = json::array({{{"source", 0}}, {{"source", 1}}});
  gltf["materials"] = json::array(
      {{{"name", "red"},
        {"pbrMetallicRoughness",
         {{"baseColorFactor", {1, 0, 0, 1}}, {"baseColorTexture", {{"index", 0}}}}}},
       {{"name", "embedded"}, {"pbrMetallicRoughness", {{"baseColorTexture", {{"index", 1}}}}}}});
  buffer.WriteInto(gltf);
  const fs::path file = dir / "scene.gltf";
  std::ofstream(file) << gltf.dump(1);
  fs::create_directories(dir / "textures");
  std::ofstream(dir / "textures" / "skin base.png") << "not really a png";
  return file;
}

void ExpectNear(const glm::vec3& a, const glm::vec3& b) {
  EXPECT_NEAR(a.x, b.x, 1e-5f);
  EXPECT_NEAR(a.y, b.y, 1e-5f);
  EXPECT_NEAR(a.z, b.z, 1e-5f);
}

class GltfScene : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ikpose-scene-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    model_ = LoadModel(WriteScene(dir_));
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
