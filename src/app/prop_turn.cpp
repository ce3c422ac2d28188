#include "app/prop_turn.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <glm/gtc/constants.hpp>

#include "app/ring_drag.h"
#include "scene/view/bone_rings.h"

namespace ikpose::app {

PropRing PropTurnRing(const scene::Prop& prop, float model_height) {
  std::vector<glm::vec3> vertices_ms;
  std::vector<std::uint32_t> indices;
  scene::AppendPropTriangles(prop, &vertices_ms, &indices);
  const glm::vec3 axis_ms = prop.placement.position_ms;
  float reach = 0.0f, lowest = axis_ms.y;
  if (!vertices_ms.empty()) lowest = vertices_ms.front().y;
  for (const glm::vec3& v : vertices_ms) {
    reach = std::max(reach, glm::length(glm::vec2(v.x - axis_ms.x, v.z - axis_ms.z)));
    lowest = std::min(lowest, v.y);
  }
  PropRing ring;
  ring.center_ms = glm::vec3(axis_ms.x, lowest, axis_ms.z);
  ring.radius = std::max(kPropRingMargin * reach, kPropRingMinOfHeight * model_height);
  return ring;
}

glm::vec3 PropRingPoint(const PropRing& ring, float azimuth) {
  return ring.center_ms + ring.radius * glm::vec3(std::cos(azimuth), 0.0f, -std::sin(azimuth));
}

bool RayNearRing(const Ray& ray, const PropRing& ring, float tolerance) {
  for (int i = 0; i < kPropRingPoints; ++i) {
    const glm::vec3 to_point =
        PropRingPoint(ring, glm::two_pi<float>() * static_cast<float>(i) / kPropRingPoints) -
        ray.origin_ms;
    if (glm::dot(to_point, ray.direction_ms) > 0.0f &&
        glm::length(glm::cross(to_point, ray.direction_ms)) < tolerance)
      return true;
  }
  return false;
}

bool PropTurn::Begin(const Ray& ray, int prop, const PropRing& ring, float yaw_deg,
                     float tolerance) {
  active_ = false;
  if (!RayNearRing(ray, ring, tolerance)) return false;
  ring_ = ring;
  if (!Arm(ray, &last_arm_ms_)) return false;
  prop_ = prop;
  start_yaw_deg_ = yaw_deg;
  total_ = 0.0f;
  active_ = true;
  return true;
}

bool PropTurn::Arm(const Ray& ray, glm::vec3* arm_ms) const {
  const glm::vec3 up(0.0f, 1.0f, 0.0f);
  glm::vec3 hit;
  if (!RayPlane(ray, ring_.center_ms, up, &hit)) return false;
  if (glm::dot(hit - ray.origin_ms, ray.direction_ms) <= 0.0f) return false;  // behind the eye
  *arm_ms = hit - ring_.center_ms;
  return true;
}

std::optional<float> PropTurn::Update(const Ray& ray, bool snap) {
  glm::vec3 arm;
  if (!active_ || !Arm(ray, &arm)) return std::nullopt;
  // Summed move by move, so a drag round the prop can pass half a turn.
  total_ += scene::SweptAngle(last_arm_ms_, arm, glm::vec3(0.0f, 1.0f, 0.0f));
  last_arm_ms_ = arm;
  const float angle = snap ? scene::SnapAngle(total_, glm::radians(kRingSnapDeg)) : total_;
  return start_yaw_deg_ + glm::degrees(angle);
}

}  // namespace ikpose::app
