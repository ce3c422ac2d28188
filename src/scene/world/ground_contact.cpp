#include "scene/world/ground_contact.h"

#include <algorithm>
#include <cmath>

#include "ik/rotation.h"
#include "scene/world/world.h"

namespace ikpose::scene {

std::optional<RayHit> GroundBelow(const World* world, bool floor, float floor_y,
                                  const glm::vec3& from_ms, float max_distance, int* prop) {
  *prop = -1;
  std::optional<RayHit> best;
  if (world) {
    best = world->bvh().CastDown(from_ms, max_distance);
    if (best) *prop = world->PropOfTriangle(best->triangle);
  }
  // The floor counts where it is above the prop's hit (or there is none).
  if (floor && std::isfinite(from_ms.y) && from_ms.y >= floor_y &&
      from_ms.y - floor_y <= max_distance && (!best || best->point_ms.y < floor_y)) {
    RayHit hit;
    hit.point_ms = glm::vec3(from_ms.x, floor_y, from_ms.z);
    hit.distance = from_ms.y - floor_y;
    best = hit;
    *prop = -1;
  }
  return best;
}

glm::quat SoleTilt(const glm::vec3& normal_ms, float max_deg, float* tilt_deg, bool* clamped) {
  const glm::vec3 up(0.0f, 1.0f, 0.0f);
  const float angle = std::acos(std::clamp(glm::dot(up, normal_ms), -1.0f, 1.0f));
  *tilt_deg = glm::degrees(angle);
  *clamped = *tilt_deg > max_deg;
  if (angle < 1e-6f) return glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  const glm::quat full = ik::RotationBetween(up, normal_ms);
  if (!*clamped) return full;
  *tilt_deg = max_deg;
  return glm::angleAxis(glm::radians(max_deg), glm::normalize(glm::axis(full)));
}

float HipDropToReach(const glm::vec3& hip_ms, const glm::vec3& target_ms, float reach) {
  const glm::vec3 d = hip_ms - target_ms;
  const float side2 = d.x * d.x + d.z * d.z;
  if (d.y * d.y + side2 <= reach * reach) return 0.0f;
  const float below = side2 < reach * reach ? std::sqrt(reach * reach - side2) : 0.0f;
  return std::max(0.0f, d.y - below);
}

float HipRiseToFold(const glm::vec3& hip_ms, const glm::vec3& target_ms, float min_distance) {
  const glm::vec3 d = hip_ms - target_ms;
  const float side2 = d.x * d.x + d.z * d.z;
  const float min2 = min_distance * min_distance;
  if (d.y * d.y + side2 >= min2 || side2 >= min2) return 0.0f;
  return std::max(0.0f, std::sqrt(min2 - side2) - d.y);
}

float HipRiseToReach(const glm::vec3& hip_ms, const glm::vec3& target_ms, float reach) {
  const glm::vec3 d = hip_ms - target_ms;
  const float side2 = d.x * d.x + d.z * d.z;
  if (side2 >= reach * reach) return 0.0f;
  return std::max(0.0f, std::sqrt(reach * reach - side2) - d.y);
}

float FoldedLegLength(float upper, float lower, float fold_deg) {
  // The knee's inner angle is 180 degrees less the fold: the law of cosines.
  const float inner = glm::radians(180.0f - fold_deg);
  return std::sqrt(
      std::max(0.0f, upper * upper + lower * lower - 2.0f * upper * lower * std::cos(inner)));
}

std::optional<Penetration> SegmentInside(const SurfaceBvh& bvh, const glm::vec3& a_ms,
                                         const glm::vec3& b_ms, const World* prop_of) {
  const glm::vec3 ab = b_ms - a_ms;
  const float length = glm::length(ab);
  if (bvh.empty() || !(length > 0.0f) || !std::isfinite(length)) return std::nullopt;
  const glm::vec3 dir = ab / length;
  // Walk the crossings from a to b: an entry (front face) starts an inside stretch, an exit
  // ends it; a first exit means a started inside.
  std::optional<Penetration> deepest;
  float t = 0.0f;
  float inside_from = -1.0f;  // where the current inside stretch began, -1 when outside
  bool first = true;
  int prop = -1;
  const auto close = [&](float from, float to, bool open_start, bool open_end) {
    const float stretch = to - from;
    if (!(stretch > 0.0f)) return;
    // Crossing through: the middle is deepest; a joint inside: the joint is.
    float depth = 0.5f * stretch;
    float at = from + 0.5f * stretch;
    if (open_start) depth = stretch, at = from;
    if (open_end) depth = stretch, at = to;
    if (open_start && open_end) depth = 0.5f * stretch, at = from + 0.5f * stretch;
    if (deepest && deepest->depth >= depth) {
      deepest->inside_length += stretch;
      return;
    }
    Penetration p;
    p.prop = prop;
    p.depth = depth;
    p.inside_length = stretch + (deepest ? deepest->inside_length : 0.0f);
    p.point_ms = a_ms + dir * at;
    deepest = p;
  };
  for (int crossings = 0; crossings < 64 && t < length; ++crossings) {
    const std::optional<RayHit> hit = bvh.Cast(a_ms + dir * t, dir, length - t);
    if (!hit) break;
    const float at = t + hit->distance;
    if (prop_of) prop = prop_of->PropOfTriangle(hit->triangle);
    if (hit->front) {
      inside_from = at;
    } else {
      if (inside_from >= 0.0f) {
        close(inside_from, at, false, false);
      } else if (first) {
        close(0.0f, at, true, false);
      }
      inside_from = -1.0f;
    }
    first = false;
    t = at + 1e-5f * std::max(1.0f, length);
  }
  if (inside_from >= 0.0f) close(inside_from, length, false, true);
  return deepest;
}

}  // namespace ikpose::scene
