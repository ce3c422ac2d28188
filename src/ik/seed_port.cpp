#include "ik/seed_port.h"

namespace ikpose::ik::seed {

glm::quat RotationBetween(const glm::vec3&, const glm::vec3&, float) {
  return {1.f, 0.f, 0.f, 0.f};
}

SeedRotations SolveOrientations(const glm::mat4&, const LocalTransform&, const LocalTransform&,
                                const LocalTransform&, const glm::vec3&) {
  return {};
}

}  // namespace ikpose::ik::seed
