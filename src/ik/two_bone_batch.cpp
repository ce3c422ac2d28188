#include "ik/two_bone_batch.h"

namespace ikpose::ik {

ChainSolution SolveChain(const glm::vec3&, const glm::vec3&, const glm::vec3&, const glm::vec3&) {
  return {};
}

void SolveChainBatch(const ChainBatchInput&, const ChainBatchOutput&, std::size_t) {}

}  // namespace ikpose::ik
