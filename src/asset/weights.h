// Vertex weights for linear-blend skinning: at most 4 influences per vertex, summing to 1.
//
// What: `KeepFourLargest` turns one vertex's list of (weight, joint) influences into 4 joint
// indices and 4 weights: non-positive and non-finite weights are dropped, the 4 largest are
// kept and renormalised to sum 1; unused slots get joint 0 and weight 0.
// Why: the GPU path takes exactly 4; assimp's LimitBoneWeights would do this too but drops the
// bones left without weights from the skeleton, so the importer does it itself.
// Limits: ties are broken by the lower joint index, so the result does not depend on input order.
#pragma once

#include <utility>
#include <vector>

#include <glm/glm.hpp>

namespace ikpose::asset {

struct VertexInfluences {
  glm::uvec4 joints{0};
  glm::vec4 weights{0.f};
  int count = 0;         // influences kept (0: the vertex had no usable weight)
  bool dropped = false;  // more than 4 usable influences were given
};

VertexInfluences KeepFourLargest(std::vector<std::pair<float, int>> influences);

}  // namespace ikpose::asset
