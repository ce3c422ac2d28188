// The bundled default character, assets/character.glb, checked straight from the file for what
// a user of ikpose relies on: a 1.8 m person standing on the floor facing +Z, a complete
// mannequin-style rig with bent knees and elbows at rest, clean skin weights, outward-facing
// surfaces, the clips idle / walk / ladder_climb, and that the committed file is exactly what
// the generator makes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "glb_file.h"

namespace ikpose::test {
namespace {

const std::string kCharacter = std::string(IKPOSE_SOURCE_DIR) + "/assets/character.glb";

class CharacterTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    file_ = new GlbFile(GlbFile::Load(kCharacter));
    rest_ = new std::vector<glm::mat4>(file_->ModelMatrices(file_->RestTrs()));
  }
  static void TearDownTestSuite() {
    delete file_;
    delete rest_;
    file_ = nullptr;
    rest_ = nullptr;
  }

  static const GlbFile& glb() { return *file_; }
  static const nlohmann::json& json() { return file_->json; }

  // Model-space position of a named node at rest.
  static glm::vec3 RestPosition(const std::string& name) {
    const int i = file_->NodeIndex(name);
    EXPECT_GE(i, 0) << name;
    return i < 0 ? glm::vec3(0.0f) : glm::vec3((*rest_)[static_cast<std::size_t>(i)][3]);
  }

  // Positions of every primitive, flattened.
  static std::vector<glm::vec3> AllPositions() {
    std::vector<glm::vec3> out;
    for (const auto& p : json()["meshes"][0]["primitives"]) {
      const std::vector<float> v = file_->Floats(p["attributes"]["POSITION"].get<int>());
      for (std::size_t i = 0; i + 2 < v.size(); i += 3) out.emplace_back(v[i], v[i + 1], v[i + 2]);
    }
    return out;
  }

  static int Animation(const std::string& name) {
    const auto& anims = json()["animations"];
    for (std::size_t i = 0; i < anims.size(); ++i) {
      if (anims[i].value("name", std::string()) == name) return static_cast<int>(i);
    }
    return -1;
  }

  static GlbFile* file_;
  static std::vector<glm::mat4>* rest_;
};

GlbFile* CharacterTest::file_ = nullptr;
std::vector<glm::mat4>* CharacterTest::rest_ = nullptr;

double AngleDegrees(glm::vec3 a, glm::vec3 b) {
  const double c = glm::clamp(glm::dot(glm::normalize(a), glm::normalize(b)), -1.0f, 1.0f);
  return std::acos(c) * 180.0 / 3.14159265358979323846;
}

TEST_F(CharacterTest, IsBinaryGltf2WithOneEmbeddedBuffer) {
  EXPECT_EQ(glb().version, 2u);
  EXPECT_EQ(glb().declared_length, glb().file_length);
  EXPECT_EQ(json()["asset"]["version"], "2.0");
  ASSERT_EQ(json()["buffers"].size(), 1u);
  EXPECT_FALSE(json()["buffers"][0].contains("uri"));
  EXPECT_EQ(json()["buffers"][0]["byteLength"].get<std::size_t>(), glb().bin.size());
}

TEST_F(CharacterTest, StandsAboutOnePointEightMetresTallWithFeetOnTheFloor) {
  const std::vector<glm::vec3> positions = AllPositions();
  ASSERT_FALSE(positions.empty());
  float lowest = 1e9f, highest = -1e9f, widest = 0.0f;
  for (const glm::vec3& p : positions) {
    lowest = std::min(lowest, p.y);
    highest = std::max(highest, p.y);
    widest = std::max(widest, std::abs(p.x));
  }
  EXPECT_GE(highest, 1.7f);
  EXPECT_LE(highest, 1.9f);
  EXPECT_NEAR(lowest, 0.0f, 0.005f) << "the soles should be on y = 0";
  EXPECT_LT(widest, 1.0f) << "an A-pose is well under 2 m wide";
}

TEST_F(CharacterTest, BothFeetRestOnTheFloor) {
  // The lowest vertex skinned mostly to each foot (foot or ball) is on the floor.
  for (const char* side : {"_l", "_r"}) {
    const int foot = glb().NodeIndex(std::string("foot") + side);
    const int ball = glb().NodeIndex(std::string("ball") + side);
    const auto& skin_joints = json()["skins"][0]["joints"];
    float lowest = 1e9f;
    for (const auto& p : json()["meshes"][0]["primitives"]) {
      const std::vector<float> pos = glb().Floats(p["attributes"]["POSITION"].get<int>());
      const std::vector<std::uint32_t> joints =
          glb().Integers(p["attributes"]["JOINTS_0"].get<int>());
      const std::vector<float> weights = glb().Floats(p["attributes"]["WEIGHTS_0"].get<int>());
      for (std::size_t v = 0; v < pos.size() / 3; ++v) {
        float on_foot = 0.0f;
        for (std::size_t k = 0; k < 4; ++k) {
          const int node = skin_joints[joints[v * 4 + k]].get<int>();
          if (node == foot || node == ball) on_foot += weights[v * 4 + k];
        }
        if (on_foot > 0.5f) lowest = std::min(lowest, pos[v * 3 + 1]);
      }
    }
    EXPECT_NEAR(lowest, 0.0f, 0.01f) << side;
  }
}

TEST_F(CharacterTest, FacesPlusZWithItsLeftOnPlusX) {
  for (const char* side : {"_l", "_r"}) {
    const glm::vec3 ankle = RestPosition(std::string("foot") + side);
    const glm::vec3 toes = RestPosition(std::string("ball") + side);
    EXPECT_GT(toes.z - ankle.z, 0.08f) << "toes point forward (+Z)";
  }
  EXPECT_GT(RestPosition("upperarm_l").x, 0.1f);
  EXPECT_LT(RestPosition("upperarm_r").x, -0.1f);
  EXPECT_GT(RestPosition("thigh_l").x, 0.05f);
  EXPECT_LT(RestPosition("thigh_r").x, -0.05f);
}

TEST_F(CharacterTest, HasAtLeastFiveThousandVerticesInOneSkinnedMesh) {
  ASSERT_EQ(json()["meshes"].size(), 1u);
  std::size_t vertices = 0;
  for (const auto& p : json()["meshes"][0]["primitives"]) {
    for (const char* attribute : {"POSITION", "NORMAL", "JOINTS_0", "WEIGHTS_0"}) {
      EXPECT_TRUE(p["attributes"].contains(attribute)) << attribute;
    }
    EXPECT_TRUE(p.contains("indices"));
    vertices += glb().Count(p["attributes"]["POSITION"].get<int>());
  }
  EXPECT_GE(vertices, 5000u);
}

TEST_F(CharacterTest, HasTwoOrThreeDistinctMaterials) {
  const auto& materials = json()["materials"];
  ASSERT_GE(materials.size(), 2u);
  ASSERT_LE(materials.size(), 3u);
  std::vector<std::vector<float>> colours;
  for (const auto& m : materials) {
    colours.push_back(m["pbrMetallicRoughness"]["baseColorFactor"].get<std::vector<float>>());
  }
  for (std::size_t a = 0; a < colours.size(); ++a) {
    for (std::size_t b = a + 1; b < colours.size(); ++b) EXPECT_NE(colours[a], colours[b]);
  }
}

TEST_F(CharacterTest, SkeletonHasTheMannequinJointsWithTheirParents) {
  std::map<std::string, std::string> expected{
      {"pelvis", "root"},       {"spine_01", "pelvis"},  {"spine_02", "spine_01"},
      {"spine_03", "spine_02"}, {"neck_01", "spine_03"}, {"head", "neck_01"},
  };
  for (const std::string s : {"_l", "_r"}) {
    expected["clavicle" + s] = "spine_03";
    expected["upperarm" + s] = "clavicle" + s;
    expected["lowerarm" + s] = "upperarm" + s;
    expected["hand" + s] = "lowerarm" + s;
    for (const std::string finger : {"thumb", "index", "middle"}) {
      expected[finger + "_01" + s] = "hand" + s;
      expected[finger + "_02" + s] = finger + "_01" + s;
    }
    expected["thigh" + s] = "pelvis";
    expected["calf" + s] = "thigh" + s;
    expected["foot" + s] = "calf" + s;
    expected["ball" + s] = "foot" + s;
  }
  const std::vector<int> parents = glb().Parents();
  const auto& skin_joints = json()["skins"][0]["joints"];
  for (const auto& [name, parent] : expected) {
    const int node = glb().NodeIndex(name);
    ASSERT_GE(node, 0) << "missing joint " << name;
    ASSERT_GE(parents[static_cast<std::size_t>(node)], 0) << name << " has no parent";
    EXPECT_EQ(json()["nodes"][parents[static_cast<std::size_t>(node)]]["name"], parent) << name;
    EXPECT_NE(std::find(skin_joints.begin(), skin_joints.end(), node), skin_joints.end())
        << name << " is not a skin joint";
  }
  const int root = glb().NodeIndex("root");
  ASSERT_GE(root, 0);
  EXPECT_EQ(parents[static_cast<std::size_t>(root)], -1);
  EXPECT_NEAR(RestPosition("root").y, 0.0f, 1e-6f) << "root sits on the floor";
  // Limb bones carry rotations, not only translations.
  for (const char* name : {"thigh_l", "calf_l", "upperarm_r", "hand_r", "foot_l"}) {
    EXPECT_TRUE(json()["nodes"][glb().NodeIndex(name)].contains("rotation")) << name;
  }
}

TEST_F(CharacterTest, MeshNodeIsASceneRootBesideTheSkeletonWithIdentityTransform) {
  const auto& scene = json()["scenes"][json().value("scene", 0)];
  const std::vector<int> parents = glb().Parents();
  int mesh_nodes = 0;
  for (std::size_t i = 0; i < json()["nodes"].size(); ++i) {
    const auto& node = json()["nodes"][i];
    if (!node.contains("mesh")) continue;
    ++mesh_nodes;
    EXPECT_TRUE(node.contains("skin"));
    EXPECT_EQ(parents[i], -1) << "the skinned mesh node should be a scene root";
    EXPECT_NE(std::find(scene["nodes"].begin(), scene["nodes"].end(), i), scene["nodes"].end());
    EXPECT_FALSE(node.contains("matrix") || node.contains("translation") ||
                 node.contains("rotation") || node.contains("scale"));
  }
  EXPECT_EQ(mesh_nodes, 1);
  const int root = glb().NodeIndex("root");
  EXPECT_NE(std::find(scene["nodes"].begin(), scene["nodes"].end(), root), scene["nodes"].end());
}

TEST_F(CharacterTest, InverseBindMatricesInvertTheRestPose) {
  const auto& skin = json()["skins"][0];
  const std::vector<float> ibm = glb().Floats(skin["inverseBindMatrices"].get<int>());
  ASSERT_EQ(ibm.size(), skin["joints"].size() * 16);
  for (std::size_t k = 0; k < skin["joints"].size(); ++k) {
    glm::mat4 inverse_bind;
    for (int c = 0; c < 4; ++c) {
      for (int r = 0; r < 4; ++r)
        inverse_bind[c][r] = ibm[k * 16 + static_cast<std::size_t>(c * 4 + r)];
    }
    const glm::mat4 product = (*rest_)[skin["joints"][k].get<std::size_t>()] * inverse_bind;
    for (int c = 0; c < 4; ++c) {
      for (int r = 0; r < 4; ++r) {
        EXPECT_NEAR(product[c][r], c == r ? 1.0f : 0.0f, 1e-4f) << "joint " << k;
      }
    }
  }
}

TEST_F(CharacterTest, EveryVertexHasAtMostFourWeightsSummingToOne) {
  const std::size_t joint_count = json()["skins"][0]["joints"].size();
  for (const auto& p : json()["meshes"][0]["primitives"]) {
    const std::vector<std::uint32_t> joints =
        glb().Integers(p["attributes"]["JOINTS_0"].get<int>());
    const std::vector<float> weights = glb().Floats(p["attributes"]["WEIGHTS_0"].get<int>());
    ASSERT_EQ(glb().Width(p["attributes"]["WEIGHTS_0"].get<int>()), 4);
    ASSERT_EQ(joints.size(), weights.size());
    for (std::size_t v = 0; v < weights.size() / 4; ++v) {
      float sum = 0.0f;
      for (std::size_t k = 0; k < 4; ++k) {
        const float w = weights[v * 4 + k];
        ASSERT_GE(w, 0.0f);
        ASSERT_LT(joints[v * 4 + k], joint_count);
        sum += w;
      }
      ASSERT_NEAR(sum, 1.0f, 1e-6f) << "vertex " << v;
    }
  }
}

TEST_F(CharacterTest, SurfacesFaceOutwardWithUnitNormals) {
  double volume = 0.0;
  std::size_t triangles = 0, disagreeing = 0;
  for (const auto& p : json()["meshes"][0]["primitives"]) {
    const std::vector<float> pos = glb().Floats(p["attributes"]["POSITION"].get<int>());
    const std::vector<float> nrm = glb().Floats(p["attributes"]["NORMAL"].get<int>());
    const std::vector<std::uint32_t> idx = glb().Integers(p["indices"].get<int>());
    auto at = [](const std::vector<float>& v, std::uint32_t i) {
      return glm::vec3(v[i * 3], v[i * 3 + 1], v[i * 3 + 2]);
    };
    for (std::size_t i = 0; i < nrm.size() / 3; ++i) {
      ASSERT_NEAR(glm::length(at(nrm, static_cast<std::uint32_t>(i))), 1.0f, 1e-4f);
    }
    for (std::size_t t = 0; t + 2 < idx.size(); t += 3) {
      const glm::vec3 a = at(pos, idx[t]), b = at(pos, idx[t + 1]), c = at(pos, idx[t + 2]);
      volume += glm::dot(a, glm::cross(b, c)) / 6.0;
      const glm::vec3 face = glm::cross(b - a, c - a);
      const glm::vec3 n = at(nrm, idx[t]) + at(nrm, idx[t + 1]) + at(nrm, idx[t + 2]);
      if (glm::length(face) > 1e-12f && glm::dot(face, n) <= 0.0f) ++disagreeing;
      ++triangles;
    }
  }
  // Counter-clockwise front faces enclose a positive volume: a person's (with the overlaps of
  // limbs into the torso counted twice) is a few hundredths of a cubic metre.
  EXPECT_GT(volume, 0.04);
  EXPECT_LT(volume, 0.2);
  EXPECT_LT(disagreeing, triangles / 200) << "vertex normals against their faces";
}

TEST_F(CharacterTest, KneesBendSlightlyForwardAtRest) {
  for (const char* side : {"_l", "_r"}) {
    const glm::vec3 hip = RestPosition(std::string("thigh") + side);
    const glm::vec3 knee = RestPosition(std::string("calf") + side);
    const glm::vec3 ankle = RestPosition(std::string("foot") + side);
    const double bend = AngleDegrees(knee - hip, ankle - knee);
    EXPECT_GE(bend, 2.0) << side;
    EXPECT_LE(bend, 15.0) << side;
    // Forward of the hip-ankle line.
    const glm::vec3 line = glm::normalize(ankle - hip);
    const glm::vec3 off_line = (knee - hip) - glm::dot(knee - hip, line) * line;
    EXPECT_GT(off_line.z, 0.005f) << side;
  }
}

TEST_F(CharacterTest, ArmsHangInAnAPoseWithElbowsSlightlyBent) {
  for (const char* side : {"_l", "_r"}) {
    const glm::vec3 shoulder = RestPosition(std::string("upperarm") + side);
    const glm::vec3 elbow = RestPosition(std::string("lowerarm") + side);
    const glm::vec3 wrist = RestPosition(std::string("hand") + side);
    const glm::vec3 upper = elbow - shoulder;
    const double below_horizontal =
        std::asin(-upper.y / glm::length(upper)) * 180.0 / 3.14159265358979323846;
    EXPECT_GE(below_horizontal, 30.0) << side;
    EXPECT_LE(below_horizontal, 60.0) << side;
    const double bend = AngleDegrees(upper, wrist - elbow);
    EXPECT_GE(bend, 2.0) << side;
    EXPECT_LE(bend, 15.0) << side;
    // The forearm bends forward, the natural way.
    EXPECT_GT(glm::normalize(wrist - elbow).z, glm::normalize(upper).z) << side;
  }
}

TEST_F(CharacterTest, HasIdleWalkAndLadderClimbLoops) {
  struct Expected {
    const char* name;
    float min_duration, max_duration;
  };
  for (const Expected& e : {Expected{"idle", 2.0f, 4.0f}, Expected{"walk", 0.8f, 1.2f},
                            Expected{"ladder_climb", 1.5f, 2.5f}}) {
    const int a = Animation(e.name);
    ASSERT_GE(a, 0) << "missing clip " << e.name;
    const auto& anim = json()["animations"][a];
    float duration = 0.0f;
    int rotation_channels = 0;
    for (const auto& channel : anim["channels"]) {
      const auto& sampler = anim["samplers"][channel["sampler"].get<int>()];
      EXPECT_EQ(sampler.value("interpolation", "LINEAR"), "LINEAR");
      const std::vector<float> times = glb().Floats(sampler["input"].get<int>());
      ASSERT_GE(times.size(), 2u);
      EXPECT_EQ(times.front(), 0.0f);
      duration = std::max(duration, times.back());
      const std::vector<float> values = glb().Floats(sampler["output"].get<int>());
      const std::size_t width = values.size() / times.size();
      // A loop: the last key repeats the first.
      for (std::size_t c = 0; c < width; ++c) {
        EXPECT_EQ(values[c], values[values.size() - width + c]) << e.name;
      }
      if (channel["target"]["path"] == "rotation") {
        ++rotation_channels;
        for (std::size_t k = 0; k < times.size(); ++k) {
          const glm::vec4 q(values[k * 4], values[k * 4 + 1], values[k * 4 + 2], values[k * 4 + 3]);
          ASSERT_NEAR(glm::length(q), 1.0f, 1e-4f);
        }
      }
    }
    EXPECT_GE(duration, e.min_duration) << e.name;
    EXPECT_LE(duration, e.max_duration) << e.name;
    EXPECT_GT(rotation_channels, 20) << e.name;
  }
}

TEST_F(CharacterTest, WalkSwingsTheFeetPastEachOtherWithOneFootDown) {
  const int walk = Animation("walk");
  ASSERT_GE(walk, 0);
  const auto& sampler = json()["animations"][walk]["samplers"][0];
  const std::size_t keys = glb().Count(sampler["input"].get<int>());
  auto index = [](const std::string& name) {
    return static_cast<std::size_t>(glb().NodeIndex(name));
  };
  float most_ahead = -1.0f, most_behind = 1.0f, highest_support = -1.0f, lowest_support = 1.0f;
  for (std::size_t k = 0; k < keys; ++k) {
    const std::vector<glm::mat4> m = glb().ModelMatrices(glb().PoseAtKey(walk, k));
    const float ahead = m[index("ball_l")][3].z - m[index("ball_r")][3].z;
    most_ahead = std::max(most_ahead, ahead);
    most_behind = std::min(most_behind, ahead);
    // How far the supporting foot (heel or ball, whichever is lower) is above its rest height.
    float support = 1e9f;
    for (const std::string joint : {"foot_l", "foot_r", "ball_l", "ball_r"}) {
      support = std::min(support, m[index(joint)][3].y - RestPosition(joint).y);
    }
    highest_support = std::max(highest_support, support);
    lowest_support = std::min(lowest_support, support);
  }
  EXPECT_GT(most_ahead, 0.3f) << "left foot well ahead at some point";
  EXPECT_LT(most_behind, -0.3f) << "right foot well ahead at some point";
  EXPECT_LT(highest_support, 0.03f) << "a foot stays on the floor";
  EXPECT_GT(lowest_support, -0.03f) << "no foot sinks into the floor";
}

TEST_F(CharacterTest, LadderClimbKeepsHandsAndFeetOnTheLadderInFront) {
  const int climb = Animation("ladder_climb");
  ASSERT_GE(climb, 0);
  const auto& sampler = json()["animations"][climb]["samplers"][0];
  const std::size_t keys = glb().Count(sampler["input"].get<int>());
  float hand_low = 9.0f, hand_high = -9.0f;
  for (std::size_t k = 0; k < keys; ++k) {
    const std::vector<glm::mat4> m = glb().ModelMatrices(glb().PoseAtKey(climb, k));
    for (const char* side : {"_l", "_r"}) {
      const glm::vec3 hand(
          m[static_cast<std::size_t>(glb().NodeIndex(std::string("hand") + side))][3]);
      const glm::vec3 ball(
          m[static_cast<std::size_t>(glb().NodeIndex(std::string("ball") + side))][3]);
      EXPECT_GT(hand.z, 0.15f) << "key " << k << side;
      EXPECT_LT(hand.z, 0.40f) << "key " << k << side;
      EXPECT_GT(ball.z, 0.15f) << "key " << k << side;
      EXPECT_LT(ball.z, 0.40f) << "key " << k << side;
      hand_low = std::min(hand_low, hand.y);
      hand_high = std::max(hand_high, hand.y);
    }
  }
  EXPECT_GT(hand_high - hand_low, 0.3f) << "hands climb at least a rung";
}

TEST_F(CharacterTest, GeneratorReproducesTheCommittedFileByteForByte) {
  const std::filesystem::path out =
      std::filesystem::path(IKPOSE_BINARY_DIR) / "tests" / "assets" / "regenerated_character.glb";
  std::filesystem::create_directories(out.parent_path());
  const std::string command =
      std::string("\"") + IKPOSE_MAKE_CHARACTER + "\" \"" + out.string() + "\" > /dev/null";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  const std::vector<std::uint8_t> committed = ReadBytes(kCharacter);
  const std::vector<std::uint8_t> regenerated = ReadBytes(out.string());
  EXPECT_EQ(committed.size(), regenerated.size());
  EXPECT_TRUE(committed == regenerated)
      << "assets/character.glb is stale: run `cmake --build <dir> --target regenerate_character`";
  std::filesystem::remove(out);
}

}  // namespace
}  // namespace ikpose::test
