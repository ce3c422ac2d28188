// glTF clips keep their interpolation: STEP and CUBICSPLINE samplers, which the importer alone
// would turn into linear keys, sample as the file says.
#include "asset/gltf_clips.h"

#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "asset/load_model.h"

namespace ikpose::asset {
namespace {

namespace fs = std::filesystem;

std::string Base64(const std::vector<std::uint8_t>& bytes) {
  static const char* kDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::uint32_t b0 = bytes[i];
    const std::uint32_t b1 = i + 1 < bytes.size() ? bytes[i + 1] : 0;
    const std::uint32_t b2 = i + 2 < bytes.size() ? bytes[i + 2] : 0;
    const std::uint32_t v = (b0 << 16) | (b1 << 8) | b2;
    out += kDigits[(v >> 18) & 63];
    out += kDigits[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? kDigits[(v >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? kDigits[v & 63] : '=';
  }
  return out;
}

// A triangle on node "body" and a bone node "bone" under it, with three clips:
//   "stepped": bone translation STEP, keys at 0, 1, 2 s: x = 0, 1, 2
//   "cubic":   bone translation CUBICSPLINE, keys at 0 and 2 s: value 0 (out-tangent 2) and
//              value 1 (in-tangent -1)
//   "turn":    bone rotation LINEAR, 0 to 90 degrees about z over 1 s
fs::path WriteTestFile() {
  std::vector<float> floats = {
      0,  0, 0, 1, 0, 0, 0,           1,           0,  // positions (offset 0, 36 bytes)
      0,  1, 2,                                        // step times (36, 12)
      0,  0, 0, 1, 0, 0, 2,           0,           0,  // step values (48, 36)
      0,  2,                                           // cubic times (84, 8)
      9,  9, 9, 0, 0, 0, 2,           0,           0,  // cubic key 0: in, value, out (92, 72)
      -1, 0, 0, 1, 0, 0, 9,           9,           9,  // cubic key 1
      0,  1,                                           // turn times (164, 8)
      0,  0, 0, 1, 0, 0, 0.70710678f, 0.70710678f,     // turn values x,y,z,w (172, 32)
  };
  std::vector<std::uint8_t> bytes(floats.size() * 4);
  std::memcpy(bytes.data(), floats.data(), bytes.size());
  const std::string gltf = R"({
  "asset": {"version": "2.0"},
  "scene": 0,
  "scenes": [{"nodes": [0]}],
  "nodes": [{"name": "body", "mesh": 0, "children": [1]},
            {"name": "bone", "translation": [0, 1, 0]}],
  "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
  "buffers": [{"byteLength": )" +
                           std::to_string(bytes.size()) +
                           R"(, "uri": "data:application/octet-stream;base64,)" + Base64(bytes) +
                           R"("}],
  "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": )" +
                           std::to_string(bytes.size()) + R"(}],
  "accessors": [
    {"bufferView": 0, "byteOffset": 0, "componentType": 5126, "count": 3, "type": "VEC3",
     "min": [0, 0, 0], "max": [1, 1, 0]},
    {"bufferView": 0, "byteOffset": 36, "componentType": 5126, "count": 3, "type": "SCALAR",
     "min": [0], "max": [2]},
    {"bufferView": 0, "byteOffset": 48, "componentType": 5126, "count": 3, "type": "VEC3"},
    {"bufferView": 0, "byteOffset": 84, "componentType": 5126, "count": 2, "type": "SCALAR",
     "min": [0], "max": [2]},
    {"bufferView": 0, "byteOffset": 92, "componentType": 5126, "count": 6, "type": "VEC3"},
    {"bufferView": 0, "byteOffset": 164, "componentType": 5126, "count": 2, "type": "SCALAR",
     "min": [0], "max": [1]},
    {"bufferView": 0, "byteOffset": 172, "componentType": 5126, "count": 2, "type": "VEC4"}
  ],
  "animations": [
    {"name": "stepped", "samplers": [{"input": 1, "output": 2, "interpolation": "STEP"}],
     "channels": [{"sampler": 0, "target": {"node": 1, "path": "translation"}}]},
    {"name": "cubic", "samplers": [{"input": 3, "output": 4, "interpolation": "CUBICSPLINE"}],
     "channels": [{"sampler": 0, "target": {"node": 1, "path": "translation"}}]},
    {"name": "turn", "samplers": [{"input": 5, "output": 6}],
     "channels": [{"sampler": 0, "target": {"node": 1, "path": "rotation"}}]}
  ]
})";
  const fs::path dir = fs::temp_directory_path() / ("ikpose-clips-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path file = dir / "clips.gltf";
  std::ofstream(file) << gltf;
  return file;
}

class GltfClips : public ::testing::Test {
 protected:
  void SetUp() override {
    file_ = WriteTestFile();
    model_ = LoadModel(file_);
    bone_ = model_.skeleton.Find("bone");
    ASSERT_GE(bone_, 0);
  }
  void TearDown() override { fs::remove_all(file_.parent_path()); }

  anim::Transform At(const std::string& clip, float time) const {
    const int c = anim::FindClip(model_, clip);
    EXPECT_GE(c, 0) << clip;
    anim::Pose pose = anim::RestPose(model_.skeleton);
    if (c >= 0) anim::SampleClip(model_.clips[static_cast<std::size_t>(c)], time, pose.locals_ls);
    return pose.locals_ls[static_cast<std::size_t>(bone_)];
  }

  fs::path file_;
  anim::Model model_;
  int bone_ = -1;
};

TEST_F(GltfClips, ClipsKeepTheirNamesDurationsAndModes) {
  ASSERT_EQ(model_.clips.size(), 3u);
  for (const std::string& w : model_.warnings) EXPECT_EQ(w.find("clips:"), std::string::npos) << w;
  EXPECT_EQ(model_.clips[0].tracks[0].translation.interpolation, anim::Interpolation::kStep);
  EXPECT_EQ(model_.clips[1].tracks[0].translation.interpolation, anim::Interpolation::kCubicSpline);
  EXPECT_EQ(model_.clips[2].tracks[0].rotation.interpolation, anim::Interpolation::kLinear);
  EXPECT_FLOAT_EQ(model_.clips[0].duration, 2.f);
  EXPECT_FLOAT_EQ(model_.clips[2].duration, 1.f);
}

TEST_F(GltfClips, StepHoldsTheKey) {
  model_.clips[0].loop = false;
  EXPECT_FLOAT_EQ(At("stepped", 0.5f).translation.x, 0.f);  // a linear reading would say 0.5
  EXPECT_FLOAT_EQ(At("stepped", 1.5f).translation.x, 1.f);
  EXPECT_FLOAT_EQ(At("stepped", 2.0f).translation.x, 2.f);
}

TEST_F(GltfClips, CubicSplineUsesTheTangents) {
  EXPECT_NEAR(At("cubic", 1.f).translation.x, 1.25f, 1e-5f);  // linear would give 0.5
  EXPECT_NEAR(At("cubic", 0.5f).translation.x, 0.8125f, 1e-5f);
}

TEST_F(GltfClips, LinearRotationSlerps) {
  const glm::quat q = At("turn", 0.5f).rotation;
  const glm::quat expected = glm::angleAxis(glm::radians(45.f), glm::vec3(0, 0, 1));
  EXPECT_NEAR(std::abs(glm::dot(q, expected)), 1.f, 1e-5f);
}

TEST(GltfClipsReader, NonGltfFileGivesAReasonNotACrash) {
  const fs::path file =
      fs::temp_directory_path() / ("ikpose-notgltf-" + std::to_string(::getpid()) + ".gltf");
  std::ofstream(file) << "{ not json";
  std::vector<anim::Clip> clips;
  std::string problem;
  EXPECT_FALSE(ReadGltfClips(file, anim::Skeleton{}, &clips, &problem));
  EXPECT_FALSE(problem.empty());
  fs::remove(file);
}

}  // namespace
}  // namespace ikpose::asset
