// GPU linear-blend skinning must equal the CPU reference (anim::SkinMesh) for the same pose.
// Runs headless through SDL's offscreen driver (EGL; llvmpipe without a GPU).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <memory>

#include <glm/gtc/quaternion.hpp>

#include "anim/skinning.h"
#include "app/gl_window.h"
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

}  // namespace
}  // namespace ikpose::render
