// GPU linear-blend skinning must equal the CPU reference (anim::SkinMesh) for the same pose.
// Runs headless through SDL's offscreen driver (EGL; llvmpipe without a GPU).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "anim/skinning.h"
#include "app/gl_window.h"
#include "asset/load_model.h"
#include "render/model_renderer.h"

namespace ikpose::render {
namespace {

const std::filesystem::path kShaders = std::filesystem::path(IKPOSE_SOURCE_DIR) / "shaders";

// A tube along +Y bent by two joints, weights blending across the middle (RiggedSimple-like),
// plus a rigid box that follows the second joint.
anim::Model BentTube() {
  anim::Model model;
  model.skeleton.names = {"root", "lower", "upper"};
  model.skeleton.parents = {-1, 0, 1};
  model.skeleton.flags = {0, anim::kBoneIsJoint, anim::kBoneIsJoint};
  model.skeleton.rest_ls.resize(3);
  model.skeleton.rest_ls[1].translation = {0.0f, 0.0f, 0.0f};
  model.skeleton.rest_ls[2].translation = {0.0f, 1.0f, 0.0f};
  anim::Pose rest = anim::RestPose(model.skeleton);
  anim::Skin skin;
  skin.joints = {1, 2};
  skin.inverse_bind = {glm::inverse(rest.models_ms[1]), glm::inverse(rest.models_ms[2])};
  model.skins.push_back(skin);
  anim::Mesh tube;
  tube.skin = 0;
  tube.skinned = true;
  for (int ring = 0; ring <= 20; ++ring) {
    const float y = 2.0f * static_cast<float>(ring) / 20.0f;
    const float w_upper = glm::clamp((y - 0.7f) / 0.6f, 0.0f, 1.0f);
    for (int k = 0; k < 12; ++k) {
      const float a = 6.2831853f * static_cast<float>(k) / 12.0f;
      tube.positions_bs.push_back({0.2f * std::cos(a), y, 0.2f * std::sin(a)});
      tube.normals_bs.push_back({std::cos(a), 0.0f, std::sin(a)});
      tube.joints.push_back({0, 1, 0, 0});
      tube.weights.push_back({1.0f - w_upper, w_upper, 0.0f, 0.0f});
      if (ring > 0) {
        const auto base = static_cast<std::uint32_t>((ring - 1) * 12);
        const auto next = static_cast<std::uint32_t>((k + 1) % 12);
        tube.indices.insert(tube.indices.end(),
                            {base + static_cast<std::uint32_t>(k),
                             base + 12 + static_cast<std::uint32_t>(k), base + next});
      }
    }
  }
  model.meshes.push_back(tube);
  return model;
}

class GpuSkinning : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string error;
    window_ = app::GlWindow::Open({"gpu-skinning-test", 64, 64, true}, &error);
    ASSERT_NE(window_, nullptr) << error;
    ASSERT_TRUE(renderer_.Init(kShaders, &error)) << error;
  }
  std::unique_ptr<app::GlWindow> window_;
  ModelRenderer renderer_;
};

TEST_F(GpuSkinning, BentTubeMatchesCpuReference) {
  const anim::Model model = BentTube();
  std::vector<std::string> warnings;
  renderer_.Load(model, &warnings);
  anim::Pose pose = anim::RestPose(model.skeleton);
  pose.locals_ls[2].rotation = glm::angleAxis(glm::radians(70.0f), glm::vec3(0, 0, 1));
  pose.locals_ls[1].rotation = glm::angleAxis(glm::radians(-25.0f), glm::vec3(1, 0, 0));
  pose.locals_ls[0].translation = {0.3f, -0.2f, 0.1f};
  anim::UpdateModels(model.skeleton, pose);
  renderer_.UpdatePose(model, pose.models_ms);

  const std::vector<glm::vec3> gpu = renderer_.CaptureSkinnedPositions(0);
  const std::vector<glm::vec3> cpu = anim::SkinnedPositions(model, 0, pose);
  ASSERT_EQ(gpu.size(), cpu.size());
  float worst = 0.0f;
  float moved = 0.0f;
  for (std::size_t i = 0; i < gpu.size(); ++i) {
    worst = std::max(worst, glm::length(gpu[i] - cpu[i]));
    moved = std::max(moved, glm::length(cpu[i] - model.meshes[0].positions_bs[i]));
  }
  const float model_size = 2.0f;
  EXPECT_LT(worst, 1e-4f * model_size);
  EXPECT_GT(moved, 0.5f) << "the pose should visibly bend the tube";
}

TEST_F(GpuSkinning, ThousandsOfJointsHaveNoFixedLimit) {
  // A chain of 1,500 joints; the mesh's one vertex per joint follows the last ones too.
  anim::Model model;
  const int joints = 1500;
  anim::Skin skin;
  anim::Mesh mesh;
  mesh.skin = 0;
  mesh.skinned = true;
  for (int i = 0; i < joints; ++i) {
    model.skeleton.names.push_back("j" + std::to_string(i));
    model.skeleton.parents.push_back(i - 1);
    model.skeleton.flags.push_back(anim::kBoneIsJoint);
    anim::Transform t;
    t.translation = {0.0f, i == 0 ? 0.0f : 0.01f, 0.0f};
    model.skeleton.rest_ls.push_back(t);
  }
  anim::Pose rest = anim::RestPose(model.skeleton);
  for (int i = 0; i < joints; ++i) {
    skin.joints.push_back(i);
    skin.inverse_bind.push_back(glm::inverse(rest.models_ms[static_cast<std::size_t>(i)]));
    mesh.positions_bs.push_back(anim::PositionMs(rest, i) + glm::vec3(0.05f, 0, 0));
    mesh.normals_bs.push_back({1, 0, 0});
    mesh.joints.push_back({static_cast<unsigned>(i), 0, 0, 0});
    mesh.weights.push_back({1, 0, 0, 0});
  }
  model.skins.push_back(skin);
  model.meshes.push_back(mesh);
  std::vector<std::string> warnings;
  renderer_.Load(model, &warnings);
  anim::Pose pose = rest;
  for (auto& local : pose.locals_ls) {
    local.rotation = glm::angleAxis(glm::radians(0.2f), glm::vec3(0, 0, 1));
  }
  anim::UpdateModels(model.skeleton, pose);
  renderer_.UpdatePose(model, pose.models_ms);
  const auto gpu = renderer_.CaptureSkinnedPositions(0);
  const auto cpu = anim::SkinnedPositions(model, 0, pose);
  ASSERT_EQ(gpu.size(), cpu.size());
  for (std::size_t i = 0; i < gpu.size(); i += 97) {
    EXPECT_LT(glm::length(gpu[i] - cpu[i]), 1e-4f * 15.0f) << "joint " << i;
  }
  EXPECT_LT(glm::length(gpu.back() - cpu.back()), 1e-4f * 15.0f);
}

// Four joints hanging off a root in different directions, each turned and moved its own way
// in the pose, and a grid of vertices each weighted to all four with four distinct nonzero
// weights (their order and joint slots shuffled per vertex).
anim::Model FourInfluenceGrid() {
  anim::Model model;
  model.skeleton.names = {"root", "a", "b", "c", "d"};
  model.skeleton.parents = {-1, 0, 0, 0, 0};
  model.skeleton.flags = std::vector<std::uint8_t>(5, anim::kBoneIsJoint);
  model.skeleton.rest_ls.resize(5);
  model.skeleton.rest_ls[1].translation = {0.5f, 0.0f, 0.0f};
  model.skeleton.rest_ls[2].translation = {-0.5f, 0.0f, 0.0f};
  model.skeleton.rest_ls[3].translation = {0.0f, 0.5f, 0.0f};
  model.skeleton.rest_ls[4].translation = {0.0f, 0.0f, 0.5f};
  const anim::Pose rest = anim::RestPose(model.skeleton);
  anim::Skin skin;
  for (int j = 1; j <= 4; ++j) {
    skin.joints.push_back(j);
    skin.inverse_bind.push_back(glm::inverse(rest.models_ms[static_cast<std::size_t>(j)]));
  }
  model.skins.push_back(skin);
  anim::Mesh grid;
  grid.skin = 0;
  grid.skinned = true;
  const float weights[4] = {0.1f, 0.2f, 0.3f, 0.4f};
  for (int i = 0; i < 8; ++i) {
    for (int k = 0; k < 8; ++k) {
      const int v = i * 8 + k;
      grid.positions_bs.push_back({0.1f * static_cast<float>(i) - 0.35f,
                                   0.05f * static_cast<float>(k),
                                   0.1f * static_cast<float>(k) - 0.35f});
      grid.normals_bs.push_back({0.0f, 1.0f, 0.0f});
      // Slot s holds skin joint (s + v) % 4 with weight weights[(s + v / 4) % 4]: every joint
      // and every weight in every slot somewhere on the grid.
      glm::uvec4 joints;
      glm::vec4 w;
      for (int slot = 0; slot < 4; ++slot) {
        joints[slot] = static_cast<unsigned>((slot + v) % 4);
        w[slot] = weights[(slot + v / 4) % 4];
      }
      grid.joints.push_back(joints);
      grid.weights.push_back(w);
      if (i > 0 && k > 0) {
        const auto at = [](int row, int col) { return static_cast<std::uint32_t>(row * 8 + col); };
        grid.indices.insert(grid.indices.end(), {at(i - 1, k - 1), at(i, k - 1), at(i, k)});
      }
    }
  }
  model.meshes.push_back(grid);
  return model;
}

TEST_F(GpuSkinning, FourDistinctInfluencesOnFourMovingBonesMatchTheCpuReference) {
  const anim::Model model = FourInfluenceGrid();
  std::vector<std::string> warnings;
  renderer_.Load(model, &warnings);
  anim::Pose pose = anim::RestPose(model.skeleton);
  pose.locals_ls[1].rotation = glm::angleAxis(glm::radians(50.0f), glm::vec3(0, 0, 1));
  pose.locals_ls[2].rotation = glm::angleAxis(glm::radians(-70.0f), glm::vec3(1, 0, 0));
  pose.locals_ls[2].translation += glm::vec3(0.0f, 0.3f, 0.0f);
  pose.locals_ls[3].rotation = glm::angleAxis(glm::radians(110.0f), glm::vec3(0, 1, 0));
  pose.locals_ls[3].scale = glm::vec3(1.3f);
  pose.locals_ls[4].rotation =
      glm::angleAxis(glm::radians(35.0f), glm::normalize(glm::vec3(1, 1, 0)));
  pose.locals_ls[4].translation += glm::vec3(-0.2f, 0.0f, 0.4f);
  anim::UpdateModels(model.skeleton, pose);
  renderer_.UpdatePose(model, pose.models_ms);

  const std::vector<glm::vec3> gpu = renderer_.CaptureSkinnedPositions(0);
  const std::vector<glm::vec3> cpu = anim::SkinnedPositions(model, 0, pose);
  ASSERT_EQ(gpu.size(), cpu.size());
  const anim::Mesh& mesh = model.meshes[0];
  const float tolerance = 1e-4f * 2.0f;  // the posed grid spans about 2 units
  float worst = 0.0f;
  float smallest_pull = 1e9f;
  for (std::size_t v = 0; v < gpu.size(); ++v) {
    worst = std::max(worst, glm::length(gpu[v] - cpu[v]));
    // The third and fourth influences matter here: without them (and the first two scaled
    // up to sum to 1) the vertex would land far from where it does.
    glm::vec3 two(0.0f);
    const float w01 = mesh.weights[v][0] + mesh.weights[v][1];
    for (int slot = 0; slot < 2; ++slot) {
      const int joint = model.skins[0].joints[mesh.joints[v][slot]];
      const glm::mat4 skinning = pose.models_ms[static_cast<std::size_t>(joint)] *
                                 model.skins[0].inverse_bind[mesh.joints[v][slot]];
      two += (mesh.weights[v][slot] / w01) *
             glm::vec3(skinning * glm::vec4(mesh.positions_bs[v], 1.0f));
    }
    smallest_pull = std::min(smallest_pull, glm::length(two - cpu[v]));
  }
  EXPECT_LT(worst, tolerance);
  EXPECT_GT(smallest_pull, 100.0f * tolerance) << "a vertex barely depends on influences 3-4";
}

TEST_F(GpuSkinning, TheBundledCharacterPosedMatchesTheCpuReference) {
  const std::filesystem::path file =
      std::filesystem::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << file << " does not exist";
  const anim::Model model = asset::LoadModel(file);
  ASSERT_FALSE(model.meshes.empty());
  std::vector<std::string> warnings;
  renderer_.Load(model, &warnings);
  // A clip part-way through, and every joint turned a little more, each about its own axis,
  // so that no bone is where the clip alone or the rest pose would put it.
  anim::Pose pose = anim::RestPose(model.skeleton);
  if (!model.clips.empty()) {
    anim::SampleClip(model.clips[0], 0.37f * model.clips[0].duration, pose.locals_ls);
  }
  for (std::size_t b = 0; b < pose.locals_ls.size(); ++b) {
    const float f = static_cast<float>(b);
    const glm::vec3 axis = glm::normalize(glm::vec3(std::sin(f), std::cos(1.7f * f), 0.5f));
    pose.locals_ls[b].rotation =
        glm::angleAxis(glm::radians(12.0f + 3.0f * static_cast<float>(b % 5)), axis) *
        pose.locals_ls[b].rotation;
  }
  anim::UpdateModels(model.skeleton, pose);
  renderer_.UpdatePose(model, pose.models_ms);
  const anim::Bounds bounds = anim::ComputeBounds(model, pose);
  const float tolerance = 1e-4f * glm::length(bounds.max - bounds.min);
  std::size_t four_influences = 0;
  for (int m = 0; m < static_cast<int>(model.meshes.size()); ++m) {
    SCOPED_TRACE(model.meshes[static_cast<std::size_t>(m)].name);
    const std::vector<glm::vec3> gpu = renderer_.CaptureSkinnedPositions(m);
    const std::vector<glm::vec3> cpu = anim::SkinnedPositions(model, m, pose);
    ASSERT_EQ(gpu.size(), cpu.size());
    float worst = 0.0f;
    for (std::size_t v = 0; v < gpu.size(); ++v) {
      worst = std::max(worst, glm::length(gpu[v] - cpu[v]));
    }
    EXPECT_LT(worst, tolerance);
    for (const glm::vec4& w : model.meshes[static_cast<std::size_t>(m)].weights) {
      four_influences += (w.x > 0.0f && w.y > 0.0f && w.z > 0.0f && w.w > 0.0f) ? 1 : 0;
    }
  }
  EXPECT_GT(four_influences, 0u) << "no vertex of the character uses all four slots";
}

}  // namespace
}  // namespace ikpose::render
