// The posed-model export round trip: a model posed here, written as .glb and loaded again,
// has the pose as its node pose, and its CPU-skinned vertices at that node pose are where the
// original's are in the pose. On the bundled character with IK targets, on every model in
// ../shared/models (skipped, saying so, when absent), on the small scene with a rigid mesh
// under a bone, and on a static model. Exported files pass the Khronos validator (skipped,
// saying so, when node or the validator is not installed).
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "anim/apply_ik.h"
#include "anim/skinning.h"
#include "asset/export_gltf.h"
#include "asset/gltf_document.h"
#include "asset/load_model.h"
#include "asset/report.h"
#include "assets/glb_file.h"
#include "gltf_test_scene.h"
#include "model_checks.h"

namespace ikpose::asset {
namespace {

namespace fs = std::filesystem;

// Runs tools/validator on `file`: 0 no errors, 77 not installed, else errors (in *output).
int RunValidator(const fs::path& file, std::string* output) {
  const std::string command = std::string("sh '") + IKPOSE_SOURCE_DIR +
                              "/tests/assets/run_validator.sh' '" + IKPOSE_SOURCE_DIR +
                              "/tools/validator' '" + file.string() + "' 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return -1;
  char buffer[4096];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof(buffer), pipe)) > 0) output->append(buffer, n);
  const int status = ::pclose(pipe);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// Each bone of `from` matched to the bone of `to` with the same name (the k-th of a repeated
// name to the k-th); -1 when `to` has no such bone.
std::vector<int> MatchByName(const anim::Skeleton& from, const anim::Skeleton& to) {
  std::map<std::string, std::vector<int>> by_name;
  for (int i = 0; i < to.size(); ++i) by_name[to.names[i]].push_back(i);
  std::map<std::string, std::size_t> used;
  std::vector<int> match;
  for (int i = 0; i < from.size(); ++i) {
    const std::vector<int>& list = by_name[from.names[i]];
    std::size_t& k = used[from.names[i]];
    match.push_back(k < list.size() ? list[k++] : -1);
  }
  return match;
}

// What a mesh looks like: the material's colour, PBR factors, sidedness and texture bytes.
void ExpectSameMaterial(const anim::Model& a, int a_index, const anim::Model& b, int b_index) {
  const anim::Material none;
  const anim::Material& x = a_index >= 0 ? a.materials[a_index] : none;
  const anim::Material& y = b_index >= 0 ? b.materials[b_index] : none;
  EXPECT_EQ(x.name, y.name);
  EXPECT_EQ(x.base_color, y.base_color) << x.name;
  EXPECT_EQ(x.metallic, y.metallic) << x.name;
  EXPECT_EQ(x.roughness, y.roughness) << x.name;
  EXPECT_EQ(x.double_sided, y.double_sided) << x.name;
  EXPECT_EQ(x.alpha_mode, y.alpha_mode) << x.name;
  // A PNG or JPEG texture is embedded with the same bytes; any other is left out.
  std::vector<std::uint8_t> bytes;
  if (x.base_color_texture >= 0) {
    const anim::Texture& t = a.textures[x.base_color_texture];
    bytes = !t.encoded.empty() || t.path.empty() || !fs::exists(t.path)
                ? t.encoded
                : ikpose::test::ReadBytes(t.path);
  }
  const bool image = bytes.size() > 3 && ((bytes[0] == 0x89 && bytes[1] == 'P') ||
                                          (bytes[0] == 0xFF && bytes[1] == 0xD8));
  ASSERT_EQ(y.base_color_texture >= 0, image) << x.name;
  if (image) {
    EXPECT_EQ(b.textures[y.base_color_texture].encoded, bytes) << x.name;
  }
}

struct RoundTrip {
  anim::Model reloaded;
  float height = 1.f;
  float max_joint_error = 0.f;   // model units: reloaded rest joint vs posed joint
  float max_vertex_error = 0.f;  // model units: skinned vertex, reloaded rest vs original posed
  std::vector<std::string> warnings;
};

// Exports `model` in `pose`, loads the file back and measures how far it is from the pose.
// Adds gtest failures for anything that does not round-trip within 1e-5 of the model height.
RoundTrip ExportAndReload(const anim::Model& model, const anim::Pose& pose, const fs::path& file) {
  RoundTrip trip;
  std::string error;
  EXPECT_TRUE(WritePosedGlb(model, pose.locals_ls, file, &trip.warnings, &error)) << error;
  EXPECT_TRUE(TryLoadModel(file, &trip.reloaded, &error)) << error;
  const anim::Model& back = trip.reloaded;
  test::ExpectWellFormed(back);
  trip.height = std::max(ModelHeight(model, anim::RestPose(model.skeleton)), 1e-3f);
  const float tolerance = 1e-5f * trip.height;

  // The file's node pose is the pose: local transforms and joint positions.
  const anim::Pose back_rest = anim::RestPose(back.skeleton);
  const std::vector<int> match = MatchByName(model.skeleton, back.skeleton);
  for (int b = 0; b < model.skeleton.size(); ++b) {
    const std::string& name = model.skeleton.names[b];
    if (match[b] < 0) {
      ADD_FAILURE() << "bone '" << name << "' is missing from the exported file";
      continue;
    }
    const anim::Transform& want = pose.locals_ls[b];
    const anim::Transform& got = back.skeleton.rest_ls[match[b]];
    EXPECT_LT(glm::length(got.translation - want.translation), tolerance) << name;
    EXPECT_GT(std::abs(glm::dot(glm::normalize(got.rotation), glm::normalize(want.rotation))),
              1.f - 1e-6f)
        << name;
    EXPECT_LT(glm::length(got.scale - want.scale), 1e-5f * glm::length(want.scale) + 1e-6f) << name;
    const float moved =
        glm::length(anim::PositionMs(back_rest, match[b]) - anim::PositionMs(pose, b));
    trip.max_joint_error = std::max(trip.max_joint_error, moved);
    EXPECT_LT(moved, tolerance) << name;
  }

  // Same meshes; skinned at the file's node pose they are where the original is in the pose.
  EXPECT_EQ(back.meshes.size(), model.meshes.size());
  EXPECT_EQ(back.has_file_skin, model.has_file_skin);
  std::vector<bool> taken(back.meshes.size(), false);
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const std::vector<glm::vec3> want = anim::SkinnedPositions(model, static_cast<int>(m), pose);
    float best = 1e30f;
    std::size_t best_index = back.meshes.size();
    for (std::size_t k = 0; k < back.meshes.size(); ++k) {
      if (taken[k] || back.meshes[k].vertex_count() != model.meshes[m].vertex_count() ||
          back.meshes[k].indices != model.meshes[m].indices) {
        continue;
      }
      const std::vector<glm::vec3> got =
          anim::SkinnedPositions(back, static_cast<int>(k), back_rest);
      float worst = 0.f;
      for (std::size_t v = 0; v < got.size(); ++v)
        worst = std::max(worst, glm::length(got[v] - want[v]));
      if (worst < best) {
        best = worst;
        best_index = k;
      }
    }
    if (best_index == back.meshes.size()) {
      ADD_FAILURE() << "mesh '" << model.meshes[m].name << "' has no counterpart in the file";
      continue;
    }
    taken[best_index] = true;
    EXPECT_EQ(back.meshes[best_index].skinned, model.meshes[m].skinned) << model.meshes[m].name;
    ExpectSameMaterial(model, model.meshes[m].material, back, back.meshes[best_index].material);
    EXPECT_EQ(back.meshes[best_index].uvs.size(), model.meshes[m].uvs.size());
    trip.max_vertex_error = std::max(trip.max_vertex_error, best);
    EXPECT_LT(best, tolerance) << "mesh '" << model.meshes[m].name << "'";
  }
  return trip;
}

// The validator finds no errors in `file` but those listed in `allowed` (codes).
void ExpectValid(const fs::path& file, const std::vector<std::string>& allowed = {}) {
  std::string output;
  const int code = RunValidator(file, &output);
  if (code == 77) {
    std::cout << "validator not run, " << output;
    return;
  }
  if (allowed.empty()) {
    EXPECT_EQ(code, 0) << output;
    return;
  }
  std::istringstream lines(output);
  for (std::string line; std::getline(lines, line);) {
    const std::size_t at = line.find("  error ");
    if (at != 0) continue;
    const std::string error_code = line.substr(8, line.find(':') - 8);
    EXPECT_NE(std::find(allowed.begin(), allowed.end(), error_code), allowed.end()) << line;
  }
}

// A target the chain reaches: 75% of its full length from the hip, off the current line
// toward the current knee side.
glm::vec3 ReachableTarget(const anim::LimbChain& chain, const anim::Pose& pose) {
  const glm::vec3 a = anim::PositionMs(pose, chain.upper);
  const glm::vec3 b = anim::PositionMs(pose, chain.lower);
  const glm::vec3 c = anim::EndPositionMs(chain, pose);
  const glm::vec3 dir = glm::normalize(c - a);
  glm::vec3 side = (b - a) - glm::dot(b - a, dir) * dir;
  if (glm::length(side) < 1e-4f * (chain.upper_length + chain.lower_length))
    side = glm::vec3(0, 0, 1) - dir.z * dir;
  return a + 0.75f * (chain.upper_length + chain.lower_length) *
                 glm::normalize(dir + 0.4f * glm::normalize(side));
}

class PosedExport : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ikpose-export-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

const glm::vec3 kFootTarget(0.14f, 0.35f, 0.25f);  // the character's left knee lifted forward
const glm::vec3 kHandTarget(-0.3f, 1.25f, 0.35f);  // its right hand reaching forward

// The bundled character with its left foot and right hand on kFootTarget and kHandTarget.
anim::Pose LegAndArmPose(const anim::Model& model) {
  anim::Pose pose = anim::RestPose(model.skeleton);
  const anim::LimbChain& leg = model.chains[anim::Limb::kLeftLeg];
  const anim::LimbChain& arm = model.chains[anim::Limb::kRightArm];
  EXPECT_TRUE(leg.valid() && arm.valid());
  for (const auto& [chain, target] : {std::pair{&leg, kFootTarget}, std::pair{&arm, kHandTarget}}) {
    const anim::ChainSolveResult r =
        anim::SolveChainOnPose(model.skeleton, *chain, target, {}, pose);
    EXPECT_TRUE(r.ok) << r.error;
    EXPECT_EQ(r.output.reach, ik::Reach::kReachable);
  }
  return pose;
}

// Writes the bundled character in LegAndArmPose to `out`. Returns the character's file, or an
// empty path when it has not been generated yet.
fs::path ExportLegAndArmPose(const fs::path& out) {
  const fs::path file = test::DefaultCharacter();
  if (file.empty()) return {};
  const anim::Model model = LoadModel(file);
  std::string error;
  EXPECT_TRUE(WritePosedGlb(model, LegAndArmPose(model).locals_ls, out, nullptr, &error)) << error;
  return file;
}

TEST_F(PosedExport, CharacterWithLegAndArmTargetsRoundTrips) {
  const fs::path file = test::DefaultCharacter();
  if (file.empty()) GTEST_SKIP() << "assets/character.glb does not exist yet; test skipped";
  const anim::Model model = LoadModel(file);
  const anim::Pose rest = anim::RestPose(model.skeleton);
  const anim::Pose pose = LegAndArmPose(model);
  const anim::LimbChain& leg = model.chains[anim::Limb::kLeftLeg];
  const anim::LimbChain& arm = model.chains[anim::Limb::kRightArm];

  const fs::path out = dir_ / "posed.glb";
  const RoundTrip trip = ExportAndReload(model, pose, out);
  const anim::Model& back = trip.reloaded;
  const anim::Pose back_rest = anim::RestPose(back.skeleton);
  // The reloaded file's foot and hand are on their targets.
  const float tolerance = 1e-5f * trip.height;
  const int foot = back.skeleton.Find(model.skeleton.names[leg.end]);
  const int hand = back.skeleton.Find(model.skeleton.names[arm.end]);
  ASSERT_GE(foot, 0);
  ASSERT_GE(hand, 0);
  EXPECT_LT(glm::length(anim::PositionMs(back_rest, foot) - kFootTarget), tolerance);
  EXPECT_LT(glm::length(anim::PositionMs(back_rest, hand) - kHandTarget), tolerance);
  // Bones outside the two chains are where they were at rest.
  for (int b = 0; b < model.skeleton.size(); ++b) {
    if (model.skeleton.IsAncestorOrSelf(leg.upper, b) ||
        model.skeleton.IsAncestorOrSelf(arm.upper, b)) {
      continue;
    }
    const int k = back.skeleton.Find(model.skeleton.names[b]);
    ASSERT_GE(k, 0) << model.skeleton.names[b];
    EXPECT_LT(glm::length(anim::PositionMs(back_rest, k) - anim::PositionMs(rest, b)), tolerance)
        << model.skeleton.names[b];
  }
  // No clips: the file opens in the pose.
  EXPECT_TRUE(back.clips.empty());
  EXPECT_TRUE(trip.warnings.empty());
  std::cout << "character: max joint error " << trip.max_joint_error << ", max vertex error "
            << trip.max_vertex_error << " (height " << trip.height << ")\n";
}

TEST_F(PosedExport, CharacterExportPassesTheGltfValidator) {
  const fs::path out = dir_ / "posed.glb";
  const fs::path file = ExportLegAndArmPose(out);
  if (file.empty()) GTEST_SKIP() << "assets/character.glb does not exist yet; test skipped";
  std::string output;
  const int code = RunValidator(out, &output);
  if (code == 77) GTEST_SKIP() << output;
  EXPECT_EQ(code, 0) << output;
  EXPECT_NE(output.find(": 0 errors, 0 warnings"), std::string::npos) << output;
}

TEST_F(PosedExport, BindPoseStaysTheBindPose) {
  const fs::path out = dir_ / "posed.glb";
  const fs::path file = ExportLegAndArmPose(out);
  if (file.empty()) GTEST_SKIP() << "assets/character.glb does not exist yet; test skipped";
  const ikpose::test::GlbFile glb = ikpose::test::GlbFile::Load(out.string());
  const ikpose::test::GlbFile source = ikpose::test::GlbFile::Load(file.string());
  ASSERT_EQ(glb.json["skins"].size(), 1u);
  const std::vector<float> ibm = glb.Floats(glb.json["skins"][0]["inverseBindMatrices"].get<int>());
  const std::vector<float> source_ibm =
      source.Floats(source.json["skins"][0]["inverseBindMatrices"].get<int>());
  EXPECT_EQ(ibm, source_ibm);
  // The joints are the same nodes, by name and order.
  std::vector<std::string> names, source_names;
  for (const auto& j : glb.json["skins"][0]["joints"])
    names.push_back(glb.json["nodes"][j.get<int>()]["name"].get<std::string>());
  for (const auto& j : source.json["skins"][0]["joints"])
    source_names.push_back(source.json["nodes"][j.get<int>()]["name"].get<std::string>());
  EXPECT_EQ(names, source_names);
  // The scene has the source's roots (the skeleton and the mesh node), not the importer's ROOT.
  EXPECT_EQ(glb.json["scenes"][0]["nodes"].size(), source.json["scenes"][0]["nodes"].size());
  EXPECT_EQ(glb.NodeIndex("ROOT"), -1);
  EXPECT_EQ(glb.json["nodes"].size(), source.json["nodes"].size());
}

TEST_F(PosedExport, RigidMeshUnderABoneAndSkinnedMeshesFollowTheBones) {
  const anim::Model model = LoadModel(ikpose::test::WriteTestScene(dir_));
  anim::Pose pose = anim::RestPose(model.skeleton);
  pose.locals_ls[model.skeleton.Find("arm")].rotation =
      glm::angleAxis(glm::radians(90.f), glm::vec3(0, 0, 1));
  pose.locals_ls[model.skeleton.Find("hand")].translation = glm::vec3(1.5f, 0, 0);
  pose.locals_ls[model.skeleton.Find("prop")].scale = glm::vec3(2.f);
  anim::UpdateModels(model.skeleton, pose);
  const RoundTrip trip = ExportAndReload(model, pose, dir_ / "posed.glb");
  const anim::Model& back = trip.reloaded;
  // The prop is still rigid, on its node under the hand; the skinned meshes keep their skins.
  int rigid = 0;
  for (const anim::Mesh& m : back.meshes) {
    if (m.skinned) continue;
    ++rigid;
    EXPECT_EQ(back.skeleton.names[m.follow_bone], "prop");
    EXPECT_EQ(back.skeleton.names[back.skeleton.parents[m.follow_bone]], "hand");
  }
  EXPECT_EQ(rigid, 1);
  EXPECT_EQ(back.skins.size(), model.skins.size());
  // The external "texture" is not an image: left out with a warning; the embedded one is kept.
  ASSERT_EQ(trip.warnings.size(), 1u);
  EXPECT_NE(trip.warnings[0].find("neither PNG nor JPEG"), std::string::npos) << trip.warnings[0];
  ASSERT_EQ(back.textures.size(), 1u);
  EXPECT_EQ(back.textures[0].encoded.size(), 16u);
  // The scene's embedded image is a 16-byte stand-in, not a whole PNG.
  ExpectValid(dir_ / "posed.glb", {"IMAGE_UNEXPECTED_EOS"});
}

TEST_F(PosedExport, StaticModelWithoutSkinComesOutPosed) {
  const fs::path dir = test::AssimpTestModelsDir();
  const fs::path file = dir / "glTF2" / "2CylinderEngine-glTF-Binary" / "2CylinderEngine.glb";
  if (dir.empty() || !fs::exists(file))
    GTEST_SKIP() << "assimp-testmodels' 2CylinderEngine is absent; test skipped";
  const anim::Model model = LoadModel(file);
  ASSERT_FALSE(model.has_file_skin);
  anim::Pose pose = anim::RestPose(model.skeleton);
  // Turn every node that carries a mesh's parent a little: parts move with their nodes.
  for (const anim::Mesh& m : model.meshes) {
    const int parent = model.skeleton.parents[m.node];
    if (parent > 0) {
      pose.locals_ls[parent].rotation = glm::normalize(
          pose.locals_ls[parent].rotation * glm::angleAxis(0.3f, glm::vec3(0.6f, 0.8f, 0)));
    }
  }
  anim::UpdateModels(model.skeleton, pose);
  const RoundTrip trip = ExportAndReload(model, pose, dir_ / "engine.glb");
  std::cout << "2CylinderEngine: max joint error " << trip.max_joint_error << ", max vertex error "
            << trip.max_vertex_error << " (height " << trip.height << ")\n";
  ExpectValid(dir_ / "engine.glb");
}

TEST_F(PosedExport, ExternalPngTextureIsEmbedded) {
  const fs::path dir = test::AssimpTestModelsDir();
  const fs::path file = dir / "glTF2" / "BoxTextured-glTF" / "BoxTextured.gltf";
  if (dir.empty() || !fs::exists(file))
    GTEST_SKIP() << "assimp-testmodels' BoxTextured is absent; test skipped";
  const anim::Model model = LoadModel(file);
  ASSERT_EQ(model.textures.size(), 1u);
  ASSERT_FALSE(model.textures[0].path.empty());
  const RoundTrip trip = ExportAndReload(model, anim::RestPose(model.skeleton), dir_ / "box.glb");
  ASSERT_EQ(trip.reloaded.textures.size(), 1u);
  EXPECT_TRUE(trip.reloaded.textures[0].path.empty());
  EXPECT_EQ(trip.reloaded.textures[0].encoded, ikpose::test::ReadBytes(model.textures[0].path));
  EXPECT_TRUE(trip.warnings.empty());
  ExpectValid(dir_ / "box.glb");
}

// An accessor of `count` elements over a new data-URI buffer, appended to `gltf`.
int AddAccessor(nlohmann::json& gltf, const std::vector<float>& values, const char* type,
                int count) {
  std::vector<std::uint8_t> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.data(), bytes.size());
  gltf["buffers"].push_back(
      {{"byteLength", bytes.size()},
       {"uri", "data:application/octet-stream;base64," + EncodeBase64(bytes)}});
  gltf["bufferViews"].push_back(
      {{"buffer", gltf["buffers"].size() - 1}, {"byteLength", bytes.size()}});
  gltf["accessors"].push_back({{"bufferView", gltf["bufferViews"].size() - 1},
                               {"componentType", 5126},
                               {"type", type},
                               {"count", count}});
  return static_cast<int>(gltf["accessors"].size()) - 1;
}

// The small test scene with every map on material "embedded", a second UV set, vertex colours,
// normals and tangents on mesh "b", and a morph target on mesh "a".
fs::path WriteRichScene(const fs::path& dir) {
  const fs::path file = ikpose::test::WriteTestScene(dir);
  nlohmann::json gltf = nlohmann::json::parse(std::ifstream(file));
  nlohmann::json& b = gltf["meshes"][1]["primitives"][0]["attributes"];
  b["TEXCOORD_1"] = AddAccessor(gltf, {0.5f, 0.5f, 0.25f, 0.75f, 1, 0}, "VEC2", 3);
  b["COLOR_0"] = AddAccessor(gltf, {1, 0, 0, 1, 0, 1, 0, 0.5f, 0, 0, 1, 1}, "VEC4", 3);
  b["NORMAL"] = AddAccessor(gltf, {0, 0, 1, 0, 0, 1, 0, 0, 1}, "VEC3", 3);
  b["TANGENT"] = AddAccessor(gltf, {1, 0, 0, 1, 0, 1, 0, -1, 1, 0, 0, 1}, "VEC4", 3);
  gltf["meshes"][0]["primitives"][0]["targets"] = nlohmann::json::array(
      {{{"POSITION", AddAccessor(gltf, {0, 0.1f, 0, 0, 0, 0, 0, 0, 0}, "VEC3", 3)}}});
  gltf["meshes"][0]["weights"] = {0.25};
  gltf["meshes"][0]["extras"] = {{"targetNames", {"raise"}}};
  nlohmann::json& m = gltf["materials"][1];
  m["pbrMetallicRoughness"]["metallicRoughnessTexture"] = {{"index", 1}};
  m["normalTexture"] = {{"index", 1}, {"texCoord", 1}, {"scale", 0.5}};
  m["occlusionTexture"] = {{"index", 1}, {"strength", 0.25}};
  m["emissiveTexture"] = {{"index", 1}};
  m["emissiveFactor"] = {1, 0.5, 0};
  std::ofstream(file) << gltf.dump(1);
  return file;
}

// The maps, UV sets, colours and tangents the rich scene's material 1 and mesh "b" hold, and
// mesh "a"'s morph target.
void ExpectRichParts(const anim::Model& model) {
  const auto found = std::find_if(model.materials.begin(), model.materials.end(),
                                  [](const anim::Material& x) { return x.name == "embedded"; });
  ASSERT_NE(found, model.materials.end());
  const anim::Material& m = *found;
  ASSERT_GE(m.base_color_texture, 0);
  const std::vector<std::uint8_t>& png = model.textures[m.base_color_texture].encoded;
  for (const anim::TextureUse* map :
       {&m.metallic_roughness_map, &m.normal_map, &m.occlusion_map, &m.emissive_map}) {
    ASSERT_GE(map->texture, 0);
    EXPECT_EQ(model.textures[map->texture].encoded, png);
  }
  EXPECT_EQ(m.normal_map.uv_set, 1);
  EXPECT_EQ(m.occlusion_map.uv_set, 0);
  EXPECT_EQ(m.normal_scale, 0.5f);
  EXPECT_EQ(m.occlusion_strength, 0.25f);
  EXPECT_EQ(m.emissive, glm::vec3(1.f, 0.5f, 0.f));
  const auto b = std::find_if(model.meshes.begin(), model.meshes.end(),
                              [](const anim::Mesh& mesh) { return mesh.name == "b"; });
  ASSERT_NE(b, model.meshes.end());
  ASSERT_EQ(b->extra_uvs.size(), 1u);
  ASSERT_EQ(b->colors.size(), 3u);
  ASSERT_EQ(b->tangents_bs.size(), 3u);
  // Vertices may be reordered: compare as sets of (uv1, colour, tangent) per position.
  std::map<std::tuple<float, float, float>, std::tuple<glm::vec2, glm::vec4, glm::vec4>>
      by_position;
  for (std::size_t v = 0; v < 3; ++v) {
    const glm::vec3 p = b->positions_bs[v];
    by_position[{p.x, p.y, p.z}] = {b->extra_uvs[0][v], b->colors[v], b->tangents_bs[v]};
  }
  // glTF's (0.5, 0.5) is stored flipped like the first set: v -> 1 - v, and flipped back out.
  const auto& [uv1, color1, tangent1] = by_position.at({2.f, 1.f, 0.f});
  EXPECT_EQ(uv1, glm::vec2(0.25f, 0.75f));
  EXPECT_EQ(color1, glm::vec4(0.f, 1.f, 0.f, 0.5f));
  EXPECT_EQ(tangent1, glm::vec4(0.f, 1.f, 0.f, -1.f));
  const auto& [uv2, color2, tangent2] = by_position.at({1.f, 2.f, 0.f});
  EXPECT_EQ(uv2, glm::vec2(1.f, 0.f));
  EXPECT_EQ(color2, glm::vec4(0.f, 0.f, 1.f, 1.f));
  EXPECT_EQ(tangent2, glm::vec4(1.f, 0.f, 0.f, 1.f));

  const auto a = std::find_if(model.meshes.begin(), model.meshes.end(),
                              [](const anim::Mesh& mesh) { return mesh.name == "a"; });
  ASSERT_NE(a, model.meshes.end());
  ASSERT_EQ(a->morph_targets.size(), 1u);
  const anim::MorphTarget& raise = a->morph_targets[0];
  EXPECT_EQ(raise.name, "raise");
  EXPECT_EQ(raise.weight, 0.25f);
  ASSERT_EQ(raise.position_offsets_bs.size(), a->positions_bs.size());
  for (std::size_t v = 0; v < a->positions_bs.size(); ++v) {
    // Only the vertex at (0, 1, 0) moves, 0.1 up.
    const bool moved = glm::length(a->positions_bs[v] - glm::vec3(0, 1, 0)) < 1e-6f;
    EXPECT_LT(glm::length(raise.position_offsets_bs[v] - glm::vec3(0, moved ? 0.1f : 0.f, 0)),
              1e-6f)
        << v;
  }
}

TEST_F(PosedExport, MapsUvSetsColoursTangentsAndMorphTargetsRoundTrip) {
  const anim::Model model = LoadModel(WriteRichScene(dir_));
  {
    SCOPED_TRACE("loaded");
    ExpectRichParts(model);
  }
  const RoundTrip trip = ExportAndReload(model, anim::RestPose(model.skeleton), dir_ / "rich.glb");
  {
    SCOPED_TRACE("exported and loaded again");
    ExpectRichParts(trip.reloaded);
  }
  // Nothing is left out but the scene's stand-in external image (not really a PNG).
  ASSERT_EQ(trip.warnings.size(), 1u);
  EXPECT_NE(trip.warnings[0].find("is neither PNG nor JPEG"), std::string::npos)
      << trip.warnings[0];
}

// A glTF source's sampler modes, texture transform, camera and node extras are kept in the
// export; only what glTF gives the export no place for (a mesh's own extras: meshes are
// regrouped) is listed as left out.
TEST_F(PosedExport, KeepsSamplersTextureTransformsCamerasAndExtrasOfAGltfSource) {
  const fs::path file = ikpose::test::WriteTestScene(dir_);
  nlohmann::json gltf = nlohmann::json::parse(std::ifstream(file));
  int material = -1;
  for (std::size_t m = 0; m < gltf["materials"].size(); ++m) {
    if (gltf["materials"][m].value("name", "") == "embedded") material = static_cast<int>(m);
  }
  ASSERT_GE(material, 0);
  nlohmann::json& base = gltf["materials"][material]["pbrMetallicRoughness"]["baseColorTexture"];
  const int texture = base["index"].get<int>();
  base["extensions"]["KHR_texture_transform"] = {{"offset", {0.5, 0}}, {"scale", {2, 2}}};
  gltf["extensionsUsed"] = {"KHR_texture_transform"};
  gltf["samplers"] = {
      {{"magFilter", 9728}, {"minFilter", 9728}, {"wrapS", 33071}, {"wrapT", 33071}}};
  gltf["textures"][texture]["sampler"] = 0;
  gltf["cameras"] = {{{"type", "perspective"}, {"perspective", {{"yfov", 0.8}, {"znear", 0.1}}}}};
  gltf["nodes"].push_back({{"name", "eye"}, {"camera", 0}, {"translation", {0, 1, 3}}});
  gltf["scenes"][0]["nodes"].push_back(gltf["nodes"].size() - 1);
  int arm = -1;
  for (std::size_t n = 0; n < gltf["nodes"].size(); ++n) {
    if (gltf["nodes"][n].value("name", "") == "arm") arm = static_cast<int>(n);
  }
  ASSERT_GE(arm, 0);
  gltf["nodes"][arm]["extras"] = {{"tag", "left"}};
  gltf["meshes"][1]["extras"] = {{"lod", 2}};
  std::ofstream(file) << gltf.dump(1);

  const anim::Model model = LoadModel(file);
  const GltfDocument source = GltfDocument::Read(file);
  std::vector<std::string> warnings;
  std::vector<std::string> left_out;
  const std::vector<std::uint8_t> bytes = PosedGlb(model, anim::RestPose(model.skeleton).locals_ls,
                                                   &warnings, {}, {&source.json, &left_out});
  EXPECT_EQ(left_out, std::vector<std::string>{"meshes[1].extras"});
  const GltfJson out = GltfDocument::Parse(bytes, dir_ / "out.glb", false).json;

  const GltfJson* exported_material = nullptr;
  for (const GltfJson& m : out["materials"]) {
    if (m.value("name", "") == "embedded") exported_material = &m;
  }
  ASSERT_NE(exported_material, nullptr);
  const GltfJson& info = (*exported_material)["pbrMetallicRoughness"]["baseColorTexture"];
  EXPECT_EQ(info["extensions"]["KHR_texture_transform"]["offset"], GltfJson({0.5, 0}));
  EXPECT_EQ(info["extensions"]["KHR_texture_transform"]["scale"], GltfJson({2, 2}));
  EXPECT_EQ(out["extensionsUsed"], GltfJson({"KHR_texture_transform"}));
  const GltfJson& sampler =
      out["samplers"][out["textures"][info["index"].get<int>()]["sampler"].get<int>()];
  EXPECT_EQ(sampler["magFilter"], 9728);
  EXPECT_EQ(sampler["wrapS"], 33071);
  ASSERT_EQ(out["cameras"].size(), 1u);
  EXPECT_EQ(out["cameras"][0]["perspective"]["yfov"], 0.8);
  bool eye = false, arm_extras = false;
  for (const GltfJson& node : out["nodes"]) {
    if (node.value("name", "") == "eye") eye = node.value("camera", -1) == 0;
    if (node.value("name", "") == "arm")
      arm_extras = node.contains("extras") && node["extras"]["tag"] == "left";
  }
  EXPECT_TRUE(eye);
  EXPECT_TRUE(arm_extras);
}

TEST_F(PosedExport, CentimetreModelIsWrittenInMetres) {
  const fs::path dir = test::AssimpTestModelsDir();
  const fs::path file = dir / "FBX" / "huesitos.fbx";
  if (dir.empty() || !fs::exists(file))
    GTEST_SKIP() << "assimp-testmodels' huesitos.fbx is absent; test skipped";
  const anim::Model model = LoadModel(file);
  ASSERT_EQ(model.units, "cm");
  anim::Pose pose = anim::RestPose(model.skeleton);
  const int bent = model.skeleton.size() / 2;
  pose.locals_ls[bent].rotation = glm::angleAxis(0.5f, glm::vec3(0, 0, 1));
  anim::UpdateModels(model.skeleton, pose);
  std::vector<std::string> warnings;
  std::string error;
  ASSERT_TRUE(WritePosedGlb(model, pose.locals_ls, dir_ / "metres.glb", &warnings, &error))
      << error;
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("lengths written in metres"), std::string::npos) << warnings[0];
  const anim::Model back = LoadModel(dir_ / "metres.glb");
  EXPECT_EQ(back.units, "m");
  const float height_m = 0.01f * ModelHeight(model, anim::RestPose(model.skeleton));
  EXPECT_NEAR(ModelHeight(back, anim::RestPose(back.skeleton)), height_m, 1e-5f * height_m);
  // Every joint and every skinned vertex where the pose put it, a hundredth as far out.
  const anim::Pose back_rest = anim::RestPose(back.skeleton);
  const std::vector<int> match = MatchByName(model.skeleton, back.skeleton);
  for (int b = 0; b < model.skeleton.size(); ++b) {
    if (match[b] < 0) continue;  // assimp's FBX helper nodes
    EXPECT_LT(
        glm::length(anim::PositionMs(back_rest, match[b]) - 0.01f * anim::PositionMs(pose, b)),
        1e-5f * height_m)
        << model.skeleton.names[b];
  }
  ASSERT_EQ(back.meshes.size(), model.meshes.size());
  const std::vector<glm::vec3> want = anim::SkinnedPositions(model, 0, pose);
  const std::vector<glm::vec3> got = anim::SkinnedPositions(back, 0, back_rest);
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t v = 0; v < want.size(); ++v) {
    EXPECT_LT(glm::length(got[v] - 0.01f * want[v]), 1e-5f * height_m) << v;
  }
}

TEST_F(PosedExport, UnusablePoseIsRefusedAndLeavesNoFile) {
  const anim::Model model = LoadModel(ikpose::test::WriteTestScene(dir_));
  anim::Pose pose = anim::RestPose(model.skeleton);
  const fs::path out = dir_ / "posed.glb";
  std::string error;
  pose.locals_ls[1].translation.x = std::nanf("");
  EXPECT_FALSE(WritePosedGlb(model, pose.locals_ls, out, nullptr, &error));
  EXPECT_NE(error.find("non-finite transform"), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos);
  pose = anim::RestPose(model.skeleton);
  pose.locals_ls.pop_back();
  EXPECT_FALSE(WritePosedGlb(model, pose.locals_ls, out, nullptr, &error));
  EXPECT_NE(error.find("the pose has"), std::string::npos) << error;
  pose = anim::RestPose(model.skeleton);
  EXPECT_FALSE(
      WritePosedGlb(model, pose.locals_ls, dir_ / "missing" / "posed.glb", nullptr, &error));
  EXPECT_NE(error.find("cannot write"), std::string::npos) << error;
  EXPECT_FALSE(fs::exists(out));
  int files = 0;
  for (const auto& entry : fs::directory_iterator(dir_))
    files += entry.path().extension() == ".glb" || entry.path().filename().string()[0] == '.';
  EXPECT_EQ(files, 0) << "a temporary or partial file was left behind";
}

// Every model in ../shared/models: a clip sampled (translations move too), then every
// detected limb solved toward a reachable target; exported, validated, reloaded.
class SharedModelExport : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    if (test::SharedModelsDir().empty()) {
      GTEST_SKIP() << "../shared/models is absent beside the checkout; the real-character "
                      "export tests are skipped";
    }
    dir_ = fs::temp_directory_path() / ("ikpose-export-shared-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }
  fs::path dir_;
};

// What a model carries beyond its pose, by kind: an export must keep every kind it loaded.
std::vector<std::string> CarriedKinds(const anim::Model& model) {
  std::set<std::string> kinds;
  for (const anim::Mesh& mesh : model.meshes) {
    if (!mesh.morph_targets.empty()) kinds.insert("morph targets");
    if (!mesh.extra_uvs.empty()) kinds.insert("extra UV sets");
    if (!mesh.colors.empty()) kinds.insert("vertex colours");
    if (!mesh.tangents_bs.empty()) kinds.insert("tangents");
    if (!mesh.uvs.empty()) kinds.insert("UVs");
  }
  for (const anim::Material& m : model.materials) {
    if (m.base_color_texture >= 0) kinds.insert("base colour map");
    if (m.metallic_roughness_map.texture >= 0) kinds.insert("metallic-roughness map");
    if (m.normal_map.texture >= 0) kinds.insert("normal map");
    if (m.occlusion_map.texture >= 0) kinds.insert("occlusion map");
    if (m.emissive_map.texture >= 0) kinds.insert("emissive map");
  }
  return {kinds.begin(), kinds.end()};
}

TEST_P(SharedModelExport, PoseRoundTripsThroughTheExportedFile) {
  const fs::path file = test::SharedModelsDir() / GetParam();
  if (!fs::exists(file)) GTEST_SKIP() << file << " is absent";
  const anim::Model model = LoadModel(file);
  anim::Pose pose = anim::RestPose(model.skeleton);
  if (!model.clips.empty()) {
    const anim::Clip& clip = model.clips.back();
    anim::SampleClip(clip, 0.4f * clip.duration, pose.locals_ls);
    anim::UpdateModels(model.skeleton, pose);
  }
  int solved = 0;
  for (anim::Limb limb : anim::kLimbs) {
    const anim::LimbChain& chain = model.chains[limb];
    if (!chain.valid()) continue;
    const anim::ChainSolveResult r =
        anim::SolveChainOnPose(model.skeleton, chain, ReachableTarget(chain, pose), {}, pose);
    ASSERT_TRUE(r.ok) << anim::LimbName(limb) << ": " << r.error;
    ++solved;
  }
  const fs::path out = dir_ / (file.stem().string() + "-posed.glb");
  const RoundTrip trip = ExportAndReload(model, pose, out);
  std::cout << GetParam() << ": " << solved << " limbs solved, max joint error "
            << trip.max_joint_error << ", max vertex error " << trip.max_vertex_error << " (height "
            << trip.height << ")\n";
  ExpectValid(out);
  // Maps, UV sets, colours, tangents and morph targets survive; the size is the vertex check's.
  EXPECT_EQ(CarriedKinds(trip.reloaded), CarriedKinds(model));
}

INSTANTIATE_TEST_SUITE_P(Models, SharedModelExport,
                         ::testing::Values("CesiumMan/CesiumMan.glb",
                                           "RiggedFigure/RiggedFigure.glb",
                                           "RiggedSimple/RiggedSimple.glb", "Fox/Fox.glb",
                                           "MaleBaseMesh/male_base_mesh.glb",
                                           "Mesh2MotionHumanMale/human-male.glb",
                                           "QuaterniusRobot/robot.glb", "Greenman/greenman.glb"),
                         [](const ::testing::TestParamInfo<const char*>& param_info) {
                           std::string name = fs::path(param_info.param).stem().string();
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

// Clips go out as glTF animations with their own interpolation (what a bake writes beside the
// model's clips) and read back as they were: step, linear and cubic (tangents included).
TEST_F(PosedExport, ClipsComeBackWithTheirInterpolationTimesAndValues) {
  const fs::path file = test::DefaultCharacter();
  if (file.empty()) GTEST_SKIP() << "assets/character.glb does not exist yet; test skipped";
  const anim::Model model = LoadModel(file);
  const int arm = model.chains[anim::Limb::kRightArm].upper;
  const int leg = model.chains[anim::Limb::kLeftLeg].upper;
  anim::Clip clip;
  clip.name = "mixed";
  clip.duration = 1.f;
  anim::BoneTrack a;
  a.bone = arm;
  a.translation.interpolation = anim::Interpolation::kStep;
  a.translation.times = {0.f, 0.5f, 1.f};
  const glm::vec3 t0 = model.skeleton.rest_ls[static_cast<std::size_t>(arm)].translation;
  a.translation.values = {t0, t0 + glm::vec3(0.01f, 0.f, 0.f), t0};
  a.rotation.times = {0.f, 1.f};
  a.rotation.values = {glm::quat(1, 0, 0, 0), glm::angleAxis(0.5f, glm::vec3(0, 0, 1))};
  anim::BoneTrack l;
  l.bone = leg;
  l.rotation.interpolation = anim::Interpolation::kCubicSpline;
  l.rotation.times = {0.f, 1.f};
  const glm::quat bent = glm::angleAxis(0.4f, glm::vec3(1, 0, 0));
  l.rotation.values = {glm::quat(0, 0, 0, 0),
                       glm::quat(1, 0, 0, 0),
                       glm::quat(0, 0.1f, 0, 0),
                       glm::quat(0, 0.1f, 0, 0),
                       bent,
                       glm::quat(0, 0, 0, 0)};
  l.scale.times = {0.f, 0.25f};
  l.scale.values = {glm::vec3(1.f), glm::vec3(1.f, 1.1f, 1.f)};
  clip.tracks = {a, l};
  anim::Clip repeated = clip;
  repeated.name = "repeated";
  repeated.tracks[0].translation.times = {0.f, 0.5f, 0.5f};
  std::vector<anim::Clip> clips = model.clips;
  clips.push_back(clip);
  clips.push_back(repeated);

  const fs::path out = dir_ / "clips.glb";
  std::vector<std::string> warnings;
  std::string error;
  ASSERT_TRUE(WritePosedGlb(model, model.skeleton.rest_ls, out, &warnings, &error, clips)) << error;
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("clip 'repeated' left out"), std::string::npos) << warnings[0];
  anim::Model back;
  ASSERT_TRUE(TryLoadModel(out, &back, &error)) << error;
  ASSERT_EQ(back.clips.size(), model.clips.size() + 1);
  for (std::size_t c = 0; c + 1 < back.clips.size(); ++c) {
    EXPECT_EQ(back.clips[c].name, model.clips[c].name);
    EXPECT_EQ(back.clips[c].tracks.size(), model.clips[c].tracks.size());
  }
  const anim::Clip& got = back.clips.back();
  EXPECT_EQ(got.name, "mixed");
  EXPECT_FLOAT_EQ(got.duration, 1.f);
  ASSERT_EQ(got.tracks.size(), 2u);
  for (std::size_t k = 0; k < 2; ++k) {
    const anim::BoneTrack& want = clip.tracks[k];
    const anim::BoneTrack& have = got.tracks[k];
    EXPECT_EQ(back.skeleton.names[static_cast<std::size_t>(have.bone)],
              model.skeleton.names[static_cast<std::size_t>(want.bone)]);
    EXPECT_EQ(have.translation.interpolation, want.translation.interpolation);
    EXPECT_EQ(have.translation.times, want.translation.times);
    ASSERT_EQ(have.translation.values.size(), want.translation.values.size());
    for (std::size_t i = 0; i < want.translation.values.size(); ++i) {
      EXPECT_LT(glm::distance(have.translation.values[i], want.translation.values[i]), 1e-6f);
    }
    EXPECT_EQ(have.rotation.interpolation, want.rotation.interpolation);
    EXPECT_EQ(have.rotation.times, want.rotation.times);
    ASSERT_EQ(have.rotation.values.size(), want.rotation.values.size());
    for (std::size_t i = 0; i < want.rotation.values.size(); ++i) {
      const glm::quat d = have.rotation.values[i] - want.rotation.values[i];
      EXPECT_LT(glm::length(glm::vec4(d.x, d.y, d.z, d.w)), 1e-6f) << k << " key " << i;
    }
    EXPECT_EQ(have.scale.times, want.scale.times);
  }
}

}  // namespace
}  // namespace ikpose::asset
