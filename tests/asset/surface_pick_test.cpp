// Picking on the skinned surface (scene/world/surface_pick.h) on real characters: rays through
// known skinned vertices of a posed (not rest) character pick the bone those vertices follow, on
// the bundled character and on every model in ../shared/models (skipped, saying so, when absent);
// a click on the bundled character's face takes the head and one on its shin takes the calf;
// a still pose is skinned once.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "anim/skinning.h"
#include "asset/load_model.h"
#include "model_checks.h"
#include "scene/world/surface_pick.h"

namespace ikpose::scene {
namespace {

namespace fs = std::filesystem;

// Every joint turned 10 degrees off its rest: a pose no file has, so a pick that skinned the
// rest pose (or not at all) misses.
anim::Pose Posed(const anim::Model& model) {
  anim::Pose pose = anim::RestPose(model.skeleton);
  const glm::quat turn = glm::angleAxis(glm::radians(10.0f), glm::normalize(glm::vec3(1, 1, 0)));
  for (int b = 0; b < model.skeleton.size(); ++b) {
    if (!model.skeleton.IsJoint(b)) continue;
    auto& local = pose.locals_ls[static_cast<std::size_t>(b)];
    local.rotation = local.rotation * turn;
  }
  anim::UpdateModels(model.skeleton, pose);
  return pose;
}

float Height(const std::vector<glm::vec3>& points) {
  glm::vec3 lo(1e30f), hi(-1e30f);
  for (const glm::vec3& p : points) {
    lo = glm::min(lo, p);
    hi = glm::max(hi, p);
  }
  return glm::length(hi - lo);
}

// For each bone, the vertex it weighs most (at least 0.9, so the vertex clearly follows it):
// a ray from just outside the surface, along the normal of a triangle at that vertex, toward a
// point of that triangle next to the vertex (a fifth of the way to the other corners, so the
// blend is still mostly that vertex's), picks that bone there. Returns how many bones were
// tried.
int ExpectVerticesPickTheirBone(const anim::Model& model, const std::string& what) {
  const anim::Pose pose = Posed(model);
  SurfacePicker picker;
  picker.Update(model, pose);
  int tried = 0;
  for (int m = 0; m < static_cast<int>(model.meshes.size()); ++m) {
    const anim::Mesh& mesh = model.meshes[static_cast<std::size_t>(m)];
    // Skinned here, independently of the picker's own cache.
    const std::vector<glm::vec3> skinned = anim::SkinnedPositions(model, m, pose);
    if (mesh.triangle_count() == 0 || mesh.skin < 0) continue;
    const float eps = 1e-4f * std::max(Height(skinned), 1e-6f);
    const std::vector<int>& joints = model.skins[static_cast<std::size_t>(mesh.skin)].joints;
    std::vector<int> best_vertex(joints.size(), -1);
    std::vector<float> best_weight(joints.size(), 0.9f);
    for (int v = 0; v < mesh.vertex_count(); ++v) {
      for (int i = 0; i < 4; ++i) {
        const unsigned j = mesh.joints[static_cast<std::size_t>(v)][i];
        const float w = mesh.weights[static_cast<std::size_t>(v)][i];
        if (j < joints.size() && w > best_weight[j]) {
          best_weight[j] = w;
          best_vertex[j] = v;
        }
      }
    }
    for (std::size_t j = 0; j < joints.size(); ++j) {
      const int v = best_vertex[j];
      if (v < 0) continue;
      // A triangle at the vertex that is not degenerate in this pose.
      glm::vec3 normal(0.0f), aim(0.0f);
      for (std::size_t t = 0; t + 2 < mesh.indices.size() && glm::length(normal) == 0.0f; t += 3) {
        if (mesh.indices[t] != static_cast<unsigned>(v) &&
            mesh.indices[t + 1] != static_cast<unsigned>(v) &&
            mesh.indices[t + 2] != static_cast<unsigned>(v)) {
          continue;
        }
        const glm::vec3 n = glm::cross(skinned[mesh.indices[t + 1]] - skinned[mesh.indices[t]],
                                       skinned[mesh.indices[t + 2]] - skinned[mesh.indices[t]]);
        if (glm::length(n) < 1e-12f) continue;
        normal = glm::normalize(n);
        aim = 0.4f * skinned[static_cast<std::size_t>(v)];  // 0.6 v with its own corner
        for (std::size_t c = 0; c < 3; ++c) aim += 0.2f * skinned[mesh.indices[t + c]];
      }
      if (glm::length(normal) == 0.0f) continue;
      const glm::vec3 vertex = aim;
      const SurfaceHit hit = picker.Pick(model, vertex + eps * normal, -normal);
      const std::string bone = model.skeleton.names[static_cast<std::size_t>(joints[j])];
      ++tried;
      EXPECT_TRUE(hit.hit) << what << ": the ray toward a vertex of " << bone << " missed";
      EXPECT_LT(glm::length(hit.point_ms - vertex), 2.0f * eps)
          << what << ": the ray toward a vertex of " << bone << " stopped elsewhere";
      EXPECT_EQ(hit.bone, joints[j]) << what << ": a vertex of " << bone << " picked "
                                     << (hit.bone >= 0 ? model.skeleton.names[hit.bone] : "none");
    }
  }
  return tried;
}

TEST(SurfacePick, VerticesOfTheBundledCharacterPickTheirBoneInAPose) {
  const fs::path path = asset::test::DefaultCharacter();
  ASSERT_FALSE(path.empty()) << "assets/character.glb is missing";
  const anim::Model model = asset::LoadModel(path);
  EXPECT_GE(ExpectVerticesPickTheirBone(model, "character.glb"), 20);
}

TEST(SurfacePick, VerticesOfEverySharedModelPickTheirBoneInAPose) {
  const fs::path dir = asset::test::SharedModelsDir();
  if (dir.empty()) {
    GTEST_SKIP() << "../shared/models is absent beside the checkout; the real-character "
                    "picking checks did not run";
  }
  int models = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.path().extension() != ".glb") continue;
    const anim::Model model = asset::LoadModel(entry.path());
    const std::string what = entry.path().filename().string();
    EXPECT_GE(ExpectVerticesPickTheirBone(model, what), 2) << what;
    ++models;
  }
  EXPECT_GE(models, 8);
}

// What a user sees: a click in front of the face takes the head, one on the shin the calf, in
// a pose (the knee bent) and after the pose changes; a still pose is skinned once.
TEST(SurfacePick, ClicksFromTheFrontTakeTheBoneUnderThem) {
  const fs::path path = asset::test::DefaultCharacter();
  ASSERT_FALSE(path.empty());
  const anim::Model model = asset::LoadModel(path);
  anim::Pose pose = anim::RestPose(model.skeleton);
  const int calf = model.skeleton.Find("calf_l"), foot = model.skeleton.Find("foot_l");
  const int head = model.skeleton.Find("head"), thigh = model.skeleton.Find("thigh_l");
  ASSERT_GE(calf, 0);
  ASSERT_GE(thigh, 0);
  // The thigh lifted forward 40 degrees and the knee bent 80: the shin slants back.
  pose.locals_ls[static_cast<std::size_t>(thigh)].rotation =
      glm::angleAxis(glm::radians(-40.0f), glm::vec3(1, 0, 0)) *
      pose.locals_ls[static_cast<std::size_t>(thigh)].rotation;
  pose.locals_ls[static_cast<std::size_t>(calf)].rotation =
      glm::angleAxis(glm::radians(80.0f), glm::vec3(1, 0, 0)) *
      pose.locals_ls[static_cast<std::size_t>(calf)].rotation;
  anim::UpdateModels(model.skeleton, pose);
  SurfacePicker picker;
  picker.Update(model, pose);
  const auto from_front = [&](const glm::vec3& point_ms) {
    const glm::vec3 eye = point_ms + glm::vec3(0.0f, 0.0f, 3.0f);
    return picker.Pick(model, eye, glm::normalize(point_ms - eye));
  };
  const glm::vec3 shin = 0.5f * (anim::PositionMs(pose, calf) + anim::PositionMs(pose, foot));
  const glm::vec3 head_ms = anim::PositionMs(pose, head) + glm::vec3(0.0f, 0.05f, 0.0f);
  EXPECT_EQ(from_front(shin).bone, calf);
  EXPECT_EQ(from_front(head_ms).bone, head);
  EXPECT_EQ(picker.skin_count(), 1);
  picker.Update(model, pose);  // the same pose: not skinned again
  EXPECT_EQ(picker.skin_count(), 1);
  // Back to rest: the shin is where the rest pose has it.
  const anim::Pose rest = anim::RestPose(model.skeleton);
  picker.Update(model, rest);
  EXPECT_EQ(picker.skin_count(), 2);
  EXPECT_EQ(from_front(0.5f * (anim::PositionMs(rest, calf) + anim::PositionMs(rest, foot))).bone,
            calf);
}

}  // namespace
}  // namespace ikpose::scene
