#include "gltf_test_scene.h"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>
#include <nlohmann/json.hpp>

#include "asset/gltf_document.h"

namespace ikpose::test {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

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
    gltf["buffers"] = json::array(
        {{{"byteLength", bin_.size()},
          {"uri", "data:application/octet-stream;base64," + asset::EncodeBase64(bin_)}}});
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

}  // namespace

fs::path WriteTestScene(const fs::path& dir) {
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

}  // namespace ikpose::test
