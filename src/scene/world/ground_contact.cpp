#include "scene/world/ground_contact.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

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
                                         const glm::vec3& b_ms, float radius,
                                         const World* prop_of) {
  const glm::vec3 ab = b_ms - a_ms;
  const float length = glm::length(ab);
  if (bvh.empty() || !(length > 0.0f) || !std::isfinite(length) || !(radius >= 0.0f) ||
      !std::isfinite(radius))
    return std::nullopt;
  const glm::vec3 dir = ab / length;
  const glm::vec3 mid = 0.5f * (a_ms + b_ms);
  // Nothing within the sphere round the whole limb: outside (most bones, one query).
  if (!bvh.Nearest(mid, 0.5f * length + radius)) return std::nullopt;
  // The stretches of the axis inside, from the crossings a -> b: an entry (front face) starts
  // one, an exit ends it; a first exit means a started inside.
  std::vector<std::pair<float, float>> inside;
  float t = 0.0f;
  float inside_from = -1.0f;  // where the current inside stretch began, -1 when outside
  bool first = true;
  for (int crossings = 0; crossings < 64 && t < length; ++crossings) {
    const std::optional<RayHit> hit = bvh.Cast(a_ms + dir * t, dir, length - t);
    if (!hit) break;
    const float at = t + hit->distance;
    if (hit->front) {
      inside_from = at;
    } else {
      if (inside_from >= 0.0f) {
        inside.emplace_back(inside_from, at);
      } else if (first) {
        inside.emplace_back(0.0f, at);
      }
      inside_from = -1.0f;
    }
    first = false;
    t = at + 1e-5f * std::max(1.0f, length);
  }
  if (inside_from >= 0.0f) inside.emplace_back(inside_from, length);
  // How deep the limb's skin is at axis point s: the radius plus how far the axis is under the
  // surface (inside), or the radius less how far the axis is from it (outside).
  struct Depth {
    float depth = -1.0f;
    std::uint32_t triangle = 0;
  };
  const auto depth_at = [&](float s) {
    const glm::vec3 p = a_ms + dir * s;
    const bool in = std::any_of(inside.begin(), inside.end(),
                                [&](const auto& r) { return s >= r.first && s <= r.second; });
    Depth d;
    const std::optional<SurfacePoint> near =
        bvh.Nearest(p, in ? std::numeric_limits<float>::infinity() : radius);
    if (!near) {
      if (in) d.depth = radius;
      return d;
    }
    d.depth = in ? radius + near->distance : radius - near->distance;
    d.triangle = near->triangle;
    return d;
  };
  // Samples closer than the thinner of the limb and the stretches inside, then the deepest
  // refined between its neighbours (the depth is smooth round its peak).
  float step = 0.5f * std::max(radius, 1e-3f * length);
  for (const auto& r : inside) step = std::min(step, std::max(r.second - r.first, 1e-3f * length));
  const int count = std::clamp(static_cast<int>(std::ceil(length / step)), 2, 256);
  step = length / static_cast<float>(count);
  float best_s = 0.0f;
  Depth best;
  int touching = 0;
  for (int i = 0; i <= count; ++i) {
    const float s = static_cast<float>(i) * step;
    const Depth d = depth_at(s);
    touching += d.depth > 0.0f ? 1 : 0;
    if (d.depth > best.depth) best = d, best_s = s;
  }
  if (!(best.depth > 0.0f)) return std::nullopt;
  float lo = std::max(0.0f, best_s - step), hi = std::min(length, best_s + step);
  for (int i = 0; i < 24; ++i) {
    const float m1 = lo + (hi - lo) / 3.0f, m2 = hi - (hi - lo) / 3.0f;
    if (depth_at(m1).depth < depth_at(m2).depth) {
      lo = m1;
    } else {
      hi = m2;
    }
  }
  const float refined_s = 0.5f * (lo + hi);
  const Depth refined = depth_at(refined_s);
  if (refined.depth > best.depth) best = refined, best_s = refined_s;
  Penetration p;
  p.prop = prop_of ? prop_of->PropOfTriangle(best.triangle) : -1;
  p.depth = best.depth;
  p.radius = radius;
  p.inside_length = std::min(length, static_cast<float>(touching) * step);
  p.point_ms = a_ms + dir * best_s;
  return p;
}

float BallInsideProps(const World& world, const glm::vec3& center_ms, float radius) {
  if (!(radius >= 0.0f) || !std::isfinite(radius) || !std::isfinite(center_ms.x) ||
      !std::isfinite(center_ms.y) || !std::isfinite(center_ms.z))
    return 0.0f;
  const int ladder = world.LadderProp();
  bool near = false, in_box = false;
  for (std::size_t p = 0; p < world.props().size() && !in_box; ++p) {
    if (static_cast<int>(p) == ladder) continue;
    const anim::Bounds& box = world.PropBounds(p);
    if (box.empty()) continue;
    near = near || (glm::all(glm::greaterThanEqual(center_ms, box.min - radius)) &&
                    glm::all(glm::lessThanEqual(center_ms, box.max + radius)));
    in_box = glm::all(glm::greaterThanEqual(center_ms, box.min)) &&
             glm::all(glm::lessThanEqual(center_ms, box.max));
  }
  if (!near) return 0.0f;
  const SurfaceBvh& bvh = world.bvh();
  // A surface within the radius: the side of it the centre is on says in or out.
  if (const std::optional<SurfacePoint> s = bvh.Nearest(center_ms, radius)) {
    if (world.PropOfTriangle(s->triangle) == ladder) return 0.0f;
    const bool behind = glm::dot(center_ms - s->point_ms, s->normal_ms) < 0.0f;
    return behind ? radius + s->distance : std::max(0.0f, radius - s->distance);
  }
  // None: outside, or deeper inside than the radius, where the first surface straight up is
  // met from behind.
  if (!in_box) return 0.0f;
  const std::optional<RayHit> up =
      bvh.Cast(center_ms, glm::vec3(0.0f, 1.0f, 0.0f), std::numeric_limits<float>::infinity());
  if (!up || up->front || world.PropOfTriangle(up->triangle) == ladder) return 0.0f;
  const std::optional<SurfacePoint> s =
      bvh.Nearest(center_ms, std::numeric_limits<float>::infinity());
  return s ? radius + s->distance : radius;
}

}  // namespace ikpose::scene
