#include "scene/world/limb_radius.h"

#include <algorithm>
#include <cmath>

#include "anim/skinning.h"

namespace ikpose::scene {

namespace {

float DistanceToSegment(const glm::vec3& p, const glm::vec3& a, const glm::vec3& b) {
  const glm::vec3 ab = b - a;
  const float len2 = glm::dot(ab, ab);
  const float t = len2 > 0.0f ? std::clamp(glm::dot(p - a, ab) / len2, 0.0f, 1.0f) : 0.0f;
  return glm::length(p - (a + t * ab));
}

}  // namespace

std::vector<float> MeasureLimbRadii(const anim::Model& model, const anim::Pose& rest,
                                    float soles_y) {
  const anim::Skeleton& skeleton = model.skeleton;
  const int n = skeleton.size();
  std::vector<std::vector<int>> children(static_cast<std::size_t>(n));
  for (int bone = 0; bone < n; ++bone) {
    const int parent = skeleton.parents[static_cast<std::size_t>(bone)];
    if (parent >= 0) children[static_cast<std::size_t>(parent)].push_back(bone);
  }
  // Each vertex's distance from the nearest bone its strongest joint moves, by that bone's child.
  std::vector<std::vector<float>> distances(static_cast<std::size_t>(n));
  const auto add = [&](int joint, const glm::vec3& p) {
    if (joint < 0 || joint >= n) return;
    int best = -1;
    float best_d = 0.0f;
    const auto consider = [&](int child) {
      const int parent = skeleton.parents[static_cast<std::size_t>(child)];
      const float d =
          DistanceToSegment(p, anim::PositionMs(rest, parent), anim::PositionMs(rest, child));
      if (best < 0 || d < best_d) best = child, best_d = d;
    };
    for (int child : children[static_cast<std::size_t>(joint)]) consider(child);
    if (best < 0 && skeleton.parents[static_cast<std::size_t>(joint)] >= 0) consider(joint);
    if (best >= 0 && std::isfinite(best_d))
      distances[static_cast<std::size_t>(best)].push_back(best_d);
  };
  for (int m = 0; m < static_cast<int>(model.meshes.size()); ++m) {
    const anim::Mesh& mesh = model.meshes[static_cast<std::size_t>(m)];
    const std::vector<glm::vec3> positions = anim::SkinnedPositions(model, m, rest);
    const bool has_skin =
        mesh.skinned && mesh.skin >= 0 && mesh.skin < static_cast<int>(model.skins.size()) &&
        mesh.joints.size() == positions.size() && mesh.weights.size() == positions.size();
    for (std::size_t v = 0; v < positions.size(); ++v) {
      int joint = mesh.follow_bone;
      if (has_skin) {
        const anim::Skin& skin = model.skins[static_cast<std::size_t>(mesh.skin)];
        int strongest = 0;
        for (int k = 1; k < 4; ++k)
          if (mesh.weights[v][k] > mesh.weights[v][strongest]) strongest = k;
        const unsigned slot = mesh.joints[v][strongest];
        joint = slot < skin.joints.size() ? skin.joints[slot] : -1;
      }
      add(joint, positions[v]);
    }
  }
  std::vector<float> radii(static_cast<std::size_t>(n), 0.0f);
  for (int bone = 0; bone < n; ++bone) {
    const int parent = skeleton.parents[static_cast<std::size_t>(bone)];
    if (parent < 0) continue;
    const glm::vec3 a = anim::PositionMs(rest, parent);
    const glm::vec3 b = anim::PositionMs(rest, bone);
    const float length = glm::length(b - a);
    std::vector<float>& d = distances[static_cast<std::size_t>(bone)];
    float radius = kLimbRadius.of_length * length;
    if (!d.empty()) {
      const auto at = d.begin() + static_cast<long>(kLimbRadius.vertex_quantile *
                                                    static_cast<float>(d.size() - 1));
      std::nth_element(d.begin(), at, d.end());
      radius = *at;
    }
    radius = std::min(radius, kLimbRadius.max_of_length * length);
    // A foot standing as at rest touches the floor with its skin, no deeper.
    radius = std::min(radius, std::max(0.0f, std::min(a.y, b.y) - soles_y));
    radii[static_cast<std::size_t>(bone)] = std::isfinite(radius) ? radius : 0.0f;
  }
  return radii;
}

}  // namespace ikpose::scene
