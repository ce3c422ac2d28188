// CPU reference linear-blend skinning: the formula the GPU path must reproduce.
//
// What: for each vertex, M = sum_i w_i * palette[j_i]; position = M * p; normal =
// normalize(inverse-transpose(mat3(M)) * n) (equal to normalize(mat3(M) * n) when M has no
// non-uniform scale).
// Why: tests compare GPU skinning against it, and `ikpose inspect` measures the skinned model.
// Limits: no dual quaternions; a vertex whose blended matrix is singular keeps its normal.
#pragma once

#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "anim/model.h"

namespace ikpose::anim {

// `palette` is BuildPalette(skin of `mesh`, models). Outputs have mesh.vertex_count() items;
// `normals_ms` may be empty (then normals are not computed).
void SkinMesh(const Mesh& mesh, std::span<const glm::mat4> palette,
              std::span<glm::vec3> positions_ms, std::span<glm::vec3> normals_ms);

// Convenience: skinned positions of one mesh of `model` in `pose`.
std::vector<glm::vec3> SkinnedPositions(const Model& model, int mesh, const Pose& pose);

}  // namespace ikpose::anim
