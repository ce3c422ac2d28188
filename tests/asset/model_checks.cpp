#include "model_checks.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "anim/apply_ik.h"
#include "anim/skinning.h"
#include "support/glm_expect.h"

namespace ikpose::asset::test {

namespace fs = std::filesystem;

fs::path SharedModelsDir() {
  const fs::path dir = fs::path(IKPOSE_SOURCE_DIR) / ".." / "shared" / "models";
  std::error_code ec;
  return fs::is_directory(dir, ec) ? dir.lexically_normal() : fs::path();
}

fs::path AssimpTestModelsDir() {
  for (const char* dir : {"/usr/share/assimp/models", "/usr/share/assimp-testmodels"}) {
    std::error_code ec;
    if (fs::is_directory(fs::path(dir) / "glTF2", ec)) return dir;
  }
  return {};
}

fs::path DefaultCharacter() {
  const fs::path file = fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb";
  std::error_code ec;
  return fs::is_regular_file(file, ec) ? file : fs::path();
}

namespace {

using ikpose::test::Finite;

float Scale(const anim::Pose& pose, const anim::LimbChain& chain) {
  return chain.upper_length + chain.lower_length +
         1e-6f * glm::length(anim::PositionMs(pose, chain.upper));
}

// Where the knee of a chain with bone lengths l1, l2 must go for a reachable target t when it
// bends toward `toward`: on the circle where the spheres (a, l1) and (t, l2) meet (law of
// cosines), at its point in the plane of a, t and `toward`, on toward's side of the line a-t.
glm::vec3 KneeToward(const glm::vec3& a, const glm::vec3& t, float l1, float l2,
                     const glm::vec3& toward) {
  const float d = glm::length(t - a);
  const glm::vec3 u = (t - a) / d;
  const float along = (l1 * l1 - l2 * l2 + d * d) / (2.f * d);
  const float away = std::sqrt(std::max(0.f, l1 * l1 - along * along));
  const glm::vec3 off = (toward - a) - glm::dot(toward - a, u) * u;
  return a + along * u + away * glm::normalize(off);
}

}  // namespace

void ExpectWellFormed(const anim::Model& model) {
  const anim::Skeleton& s = model.skeleton;
  EXPECT_EQ(s.Validate(), "");
  for (std::size_t k = 0; k < model.skins.size(); ++k) {
    const anim::Skin& skin = model.skins[k];
    ASSERT_EQ(skin.joints.size(), skin.inverse_bind.size());
    for (int j : skin.joints) {
      ASSERT_GE(j, 0);
      ASSERT_LT(j, s.size());
    }
  }
  for (const anim::Mesh& mesh : model.meshes) {
    SCOPED_TRACE(mesh.name);
    ASSERT_GE(mesh.skin, 0);
    ASSERT_LT(mesh.skin, static_cast<int>(model.skins.size()));
    const std::size_t n = mesh.positions_bs.size();
    ASSERT_EQ(mesh.joints.size(), n);
    ASSERT_EQ(mesh.weights.size(), n);
    if (!mesh.normals_bs.empty()) {
      EXPECT_EQ(mesh.normals_bs.size(), n);
    }
    if (!mesh.uvs.empty()) {
      EXPECT_EQ(mesh.uvs.size(), n);
    }
    EXPECT_EQ(mesh.indices.size() % 3, 0u);
    EXPECT_GT(mesh.indices.size(), 0u);
    for (std::uint32_t i : mesh.indices) ASSERT_LT(i, n);
    const std::size_t joints = model.skins[static_cast<std::size_t>(mesh.skin)].joints.size();
    for (std::size_t v = 0; v < n; ++v) {
      ASSERT_TRUE(Finite(mesh.positions_bs[v]));
      float sum = 0.f;
      for (int i = 0; i < 4; ++i) {
        ASSERT_GE(mesh.weights[v][i], 0.f);
        if (mesh.weights[v][i] > 0.f) {
          ASSERT_LT(mesh.joints[v][i], joints);
        }
        sum += mesh.weights[v][i];
      }
      ASSERT_NEAR(sum, 1.f, 1e-5f) << "vertex " << v;
    }
    if (!mesh.skinned) {
      EXPECT_EQ(mesh.follow_bone, mesh.node);
    }
    if (mesh.material >= 0) {
      EXPECT_LT(mesh.material, static_cast<int>(model.materials.size()));
    }
  }
  for (const anim::Material& m : model.materials) {
    if (m.base_color_texture >= 0) {
      ASSERT_LT(m.base_color_texture, static_cast<int>(model.textures.size()));
      const anim::Texture& t = model.textures[static_cast<std::size_t>(m.base_color_texture)];
      EXPECT_TRUE(!t.encoded.empty() || !t.path.empty() || !t.rgba8.empty());
    }
  }
  for (const anim::Clip& clip : model.clips) EXPECT_EQ(anim::ValidateClip(clip, s.size()), "");
  for (const std::string& w : model.warnings) EXPECT_EQ(w.find('\n'), std::string::npos) << w;
}

void ExpectSolveKeepsTheContract(const anim::Model& model, const anim::LimbChain& chain,
                                 const anim::Pose& start, const std::string& what) {
  SCOPED_TRACE(what);
  const anim::Skeleton& s = model.skeleton;
  ASSERT_TRUE(chain.valid());
  const glm::vec3 a = anim::PositionMs(start, chain.upper);
  const glm::vec3 b = anim::PositionMs(start, chain.lower);
  const glm::vec3 c = anim::EndPositionMs(chain, start);
  const float l1 = glm::length(b - a);
  const float l2 = glm::length(c - b);
  const float scale = Scale(start, chain);
  // A reachable target: 75% of the full reach, off the current line toward the current knee
  // side, so the bend is well defined.
  glm::vec3 dir = c - a;
  if (glm::length(dir) < 1e-6f * scale) dir = b - a;
  dir = glm::normalize(dir);
  glm::vec3 side = (b - a) - glm::dot(b - a, dir) * dir;
  if (glm::length(side) < 1e-3f * scale) side = glm::vec3(0.f, 0.f, 1.f) - dir.z * dir;
  side = glm::normalize(side);
  const float reach = std::max(0.75f * (l1 + l2), std::abs(l1 - l2) * 1.2f + 1e-3f * scale);
  const glm::vec3 target = a + reach * glm::normalize(dir + 0.3f * side);

  anim::Pose pose = start;
  const anim::ChainSolveResult r = anim::SolveChainOnPose(s, chain, target, {}, pose);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.output.reach, ik::Reach::kReachable);
  const float tolerance = 1e-4f * scale;
  // The end joint is on the target; knee and end on the solver's b' and c'.
  EXPECT_LT(glm::length(anim::EndPositionMs(chain, pose) - target), tolerance);
  EXPECT_LT(glm::length(anim::PositionMs(pose, chain.lower) - r.report.positions.result.knee_ms),
            tolerance);
  if (!chain.end_is_child) {
    EXPECT_LT(glm::length(anim::PositionMs(pose, chain.end) - target), tolerance);
  }
  // The knee kept its side. The target is in the current bend plane, so the circle point nearest
  // the current knee (the default rule) is in that plane, on the current knee's side of the
  // hip-target line.
  const glm::vec3 toward_target = glm::normalize(target - a);
  const glm::vec3 knee_side = (b - a) - glm::dot(b - a, toward_target) * toward_target;
  ASSERT_GT(glm::length(knee_side), 1e-3f * scale) << "the current knee should be off the line";
  EXPECT_LT(glm::length(anim::PositionMs(pose, chain.lower) - KneeToward(a, target, l1, l2, b)),
            tolerance)
      << "knee on the wrong side of the hip-target line";
  // A pole on the other side pins the knee there instead.
  {
    anim::ChainSolveOptions toward_pole;
    toward_pole.solver.use_pole = true;
    toward_pole.solver.pole_ms = 0.5f * (a + target) - (l1 + l2) * glm::normalize(knee_side);
    anim::Pose flipped = start;
    const anim::ChainSolveResult p = anim::SolveChainOnPose(s, chain, target, toward_pole, flipped);
    ASSERT_TRUE(p.ok) << p.error;
    EXPECT_LT(glm::length(anim::EndPositionMs(chain, flipped) - target), tolerance);
    EXPECT_LT(glm::length(anim::PositionMs(flipped, chain.lower) -
                          KneeToward(a, target, l1, l2, toward_pole.solver.pole_ms)),
              tolerance)
        << "knee not on the pole's side";
  }
  // Bone lengths unchanged.
  EXPECT_NEAR(
      glm::length(anim::PositionMs(pose, chain.lower) - anim::PositionMs(pose, chain.upper)), l1,
      tolerance);
  EXPECT_NEAR(glm::length(anim::EndPositionMs(chain, pose) - anim::PositionMs(pose, chain.lower)),
              l2, tolerance);
  // Bones outside the chain (and its descendants, and a detached end's subtree) untouched;
  // inside, only the chain's own local transforms changed.
  for (int bone = 0; bone < s.size(); ++bone) {
    const bool below_chain = s.IsAncestorOrSelf(chain.upper, bone);
    const bool below_end = s.IsAncestorOrSelf(chain.end, bone);
    if (!below_chain && !below_end) {
      for (int col = 0; col < 4; ++col) {
        for (int row = 0; row < 4; ++row) {
          ASSERT_NEAR(pose.models_ms[bone][col][row], start.models_ms[bone][col][row],
                      1e-6f * std::max(1.f, std::abs(start.models_ms[bone][col][row])))
              << s.names[bone] << " moved";
        }
      }
    }
    if (bone != chain.upper && bone != chain.lower && bone != chain.end) {
      ASSERT_EQ(pose.locals_ls[bone].rotation, start.locals_ls[bone].rotation) << s.names[bone];
      ASSERT_EQ(pose.locals_ls[bone].translation, start.locals_ls[bone].translation)
          << s.names[bone];
    }
  }
  // The model matrices are those of the new local transforms (children followed).
  anim::Pose recomputed = pose;
  anim::UpdateModels(s, recomputed);
  for (int bone = 0; bone < s.size(); ++bone) {
    for (int col = 0; col < 4; ++col) {
      for (int row = 0; row < 4; ++row) {
        ASSERT_NEAR(pose.models_ms[bone][col][row], recomputed.models_ms[bone][col][row],
                    1e-5f * std::max(1.f, std::abs(recomputed.models_ms[bone][col][row])))
            << s.names[bone];
      }
    }
  }
  // Skinned vertices stay finite.
  for (int m = 0; m < static_cast<int>(model.meshes.size()); ++m) {
    for (const glm::vec3& p : anim::SkinnedPositions(model, m, pose)) ASSERT_TRUE(Finite(p));
  }
}

}  // namespace ikpose::asset::test
