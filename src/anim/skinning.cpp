#include "anim/skinning.h"

#include <cmath>

namespace ikpose::anim {

void SkinMesh(const Mesh& mesh, std::span<const glm::mat4> palette,
              std::span<glm::vec3> positions_ms, std::span<glm::vec3> normals_ms) {
  const std::size_t n = mesh.positions_bs.size();
  const bool with_normals = !normals_ms.empty() && mesh.normals_bs.size() == n;
  for (std::size_t v = 0; v < n; ++v) {
    glm::mat4 blend(0.f);
    const glm::uvec4& j = mesh.joints[v];
    const glm::vec4& w = mesh.weights[v];
    for (int i = 0; i < 4; ++i) {
      if (w[i] != 0.f) blend += w[i] * palette[j[i]];
    }
    positions_ms[v] = glm::vec3(blend * glm::vec4(mesh.positions_bs[v], 1.f));
    if (with_normals) {
      const glm::mat3 linear(blend);
      const float det = glm::determinant(linear);
      glm::vec3 normal = mesh.normals_bs[v];
      if (std::abs(det) > 1e-12f) normal = glm::transpose(glm::inverse(linear)) * normal;
      const float length = glm::length(normal);
      normals_ms[v] = length > 0.f ? normal / length : mesh.normals_bs[v];
    }
  }
}

std::vector<glm::vec3> SkinnedPositions(const Model& model, int mesh, const Pose& pose) {
  const Mesh& m = model.meshes[mesh];
  const std::vector<glm::mat4> palette = BuildPalette(model.skins[m.skin], pose.models_ms);
  std::vector<glm::vec3> positions(m.positions_bs.size());
  SkinMesh(m, palette, positions, {});
  return positions;
}

}  // namespace ikpose::anim
