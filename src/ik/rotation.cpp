#include "ik/rotation.h"

namespace ikpose::ik {

glm::quat RotationBetween(const glm::vec3&, const glm::vec3&) {
  return {1.f, 0.f, 0.f, 0.f};
}
glm::vec3 AnyPerpendicular(const glm::vec3&) {
  return {1.f, 0.f, 0.f};
}
AxisAngle ToAxisAngle(const glm::quat&) {
  return {};
}
SwingTwist DecomposeSwingTwist(const glm::quat&, const glm::vec3&) {
  return {};
}
RotationReport DescribeRotation(const glm::quat& q, const glm::vec3&) {
  RotationReport r;
  r.rotation = q;
  return r;
}

}  // namespace ikpose::ik
