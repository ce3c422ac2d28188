#include "scene/session/foot_lock.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "scene/session/posing_session.h"

namespace ikpose::scene {

std::vector<Plant> FindPlants(std::span<const glm::vec3> foot_ms, const std::vector<bool>& free,
                              float fps, float body_height, const PlantRules& rules) {
  std::vector<Plant> plants;
  const int n = static_cast<int>(std::min(foot_ms.size(), free.size()));
  if (n < 2 || !(fps > 0.f) || !(body_height > 0.f)) return plants;
  float lowest = std::numeric_limits<float>::max();
  for (int i = 0; i < n; ++i) {
    if (free[static_cast<std::size_t>(i)])
      lowest = std::min(lowest, foot_ms[static_cast<std::size_t>(i)].y);
  }
  const float near = rules.height_fraction * body_height;
  const float still = rules.speed_fraction * body_height;
  const int min_frames = std::max(2, static_cast<int>(std::ceil(rules.min_seconds * fps)));
  // A frame's velocity from its neighbours (central difference; one-sided at the ends).
  auto velocity = [&](int i) {
    const int a = std::max(0, i - 1);
    const int b = std::min(n - 1, i + 1);
    return (foot_ms[static_cast<std::size_t>(b)] - foot_ms[static_cast<std::size_t>(a)]) * fps /
           static_cast<float>(b - a);
  };
  auto low = [&](int i) {
    const std::size_t k = static_cast<std::size_t>(i);
    return free[k] && foot_ms[k].y <= lowest + near;
  };
  // The ground's speed: the median horizontal velocity of the low frames.
  std::vector<float> xs, zs;
  for (int i = 0; i < n; ++i) {
    if (!low(i)) continue;
    const glm::vec3 v = velocity(i);
    xs.push_back(v.x);
    zs.push_back(v.z);
  }
  glm::vec3 ground(0.f);
  if (!xs.empty()) {
    const std::size_t mid = xs.size() / 2;
    std::nth_element(xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(mid), xs.end());
    std::nth_element(zs.begin(), zs.begin() + static_cast<std::ptrdiff_t>(mid), zs.end());
    ground = glm::vec3(xs[mid], 0.f, zs[mid]);
    if (glm::length(ground) < still) ground = glm::vec3(0.f);
  }
  auto planted = [&](int i) { return low(i) && glm::length(velocity(i) - ground) < still; };
  for (int i = 0; i < n;) {
    if (!planted(i)) {
      ++i;
      continue;
    }
    int j = i;
    while (j + 1 < n && planted(j + 1)) ++j;
    if (j - i + 1 >= min_frames) {
      Plant plant{i, j, glm::vec3(0.f), ground};
      glm::dvec3 sum(0.0);
      for (int k = i; k <= j; ++k) {
        sum += glm::dvec3(foot_ms[static_cast<std::size_t>(k)] -
                          ground * (static_cast<float>(k - i) / fps));
      }
      plant.point_ms = glm::vec3(sum / static_cast<double>(j - i + 1));
      plants.push_back(plant);
    }
    i = j + 1;
  }
  return plants;
}

glm::vec3 ReachablePoint(const glm::vec3& point_ms, std::span<const glm::vec3> hips_ms,
                         const Plant& plant, float reach, float fps) {
  glm::vec3 p = point_ms;
  if (plant.first < 0 || static_cast<std::size_t>(plant.last) >= hips_ms.size() || !(reach > 0.f))
    return p;
  for (int round = 0; round < 64; ++round) {
    bool inside = true;
    for (int i = plant.first; i <= plant.last; ++i) {
      // The hip as seen from the moving ground (the held point is still there).
      const glm::vec3 hip = hips_ms[static_cast<std::size_t>(i)] -
                            plant.ground_velocity_ms * (static_cast<float>(i - plant.first) / fps);
      const float d = glm::distance(p, hip);
      if (d > reach) {
        p = hip + (p - hip) * (reach / d);
        inside = false;
      }
    }
    if (inside) break;
  }
  return p;
}

std::vector<LockWeight> LockWeights(std::span<const Plant> plants, int frames,
                                    const std::vector<bool>& free, float fps,
                                    const PlantRules& rules) {
  std::vector<LockWeight> weights(static_cast<std::size_t>(std::max(frames, 0)));
  const float blend = std::max(rules.blend_seconds * fps, 0.f);
  for (int p = 0; p < static_cast<int>(plants.size()); ++p) {
    const Plant& plant = plants[static_cast<std::size_t>(p)];
    const int reach = static_cast<int>(std::ceil(blend));
    for (int i = std::max(0, plant.first - reach); i <= std::min(frames - 1, plant.last + reach);
         ++i) {
      const std::size_t k = static_cast<std::size_t>(i);
      if (k >= free.size() || !free[k]) continue;
      float w = 1.f;
      if (i < plant.first) w = 1.f - static_cast<float>(plant.first - i) / (blend + 1.f);
      if (i > plant.last) w = 1.f - static_cast<float>(i - plant.last) / (blend + 1.f);
      w = std::clamp(w, 0.f, 1.f);
      w = w * w * (3.f - 2.f * w);  // smoothstep: no kink where the blend starts
      if (w > weights[k].weight) weights[k] = {w, p};
    }
  }
  return weights;
}

float Slide(std::span<const glm::vec3> foot_ms, std::span<const Plant> plants, float fps) {
  float slide = 0.f;
  for (const Plant& plant : plants) {
    if (plant.first < 0 || static_cast<std::size_t>(plant.last) >= foot_ms.size()) continue;
    const glm::vec3 start = foot_ms[static_cast<std::size_t>(plant.first)];
    for (int i = plant.first; i <= plant.last; ++i) {
      const glm::vec3 ground_moved =
          plant.ground_velocity_ms * (static_cast<float>(i - plant.first) / fps);
      slide = std::max(slide,
                       glm::distance(foot_ms[static_cast<std::size_t>(i)], start + ground_moved));
    }
  }
  return slide;
}

float BodyHeight(const anim::Model& model) {
  const anim::Bounds bounds = anim::ComputeBounds(model, anim::RestPose(model.skeleton));
  return bounds.empty() ? 0.f : bounds.max.y - bounds.min.y;
}

bool FootIsTheClips(const PosingSession& session, anim::Limb leg) {
  const bool grounded = session.ground_report().feet[static_cast<std::size_t>(leg)].moves() &&
                        !session.target(leg).given;
  return (!session.result(leg).ok || grounded) && !session.Mirrored(leg);
}

void FootPaths::Record(const PosingSession& session) {
  for (anim::Limb limb : {anim::Limb::kLeftLeg, anim::Limb::kRightLeg}) {
    const int l = static_cast<int>(limb);
    const anim::LimbChain& chain = session.chain(limb);
    if (!chain.valid()) continue;
    feet_ms_[l].push_back(anim::EndPositionMs(chain, session.pose()));
    free_[l].push_back(FootIsTheClips(session, limb));
  }
}

std::array<FootPaths::Leg, 4> FootPaths::Summarize(float fps, float body_height,
                                                   const PlantRules& rules) const {
  std::array<Leg, 4> legs{};
  for (int l = 0; l < 4; ++l) {
    if (feet_ms_[l].empty()) continue;
    const std::vector<Plant> plants = FindPlants(feet_ms_[l], free_[l], fps, body_height, rules);
    legs[l] = {true, static_cast<int>(plants.size()), Slide(feet_ms_[l], plants, fps)};
  }
  return legs;
}

}  // namespace ikpose::scene
