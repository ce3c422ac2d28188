#include "scene/world/ladder.h"

#include <algorithm>
#include <cmath>

#include "anim/debug_draw.h"

namespace ikpose::scene {

Ladder LadderFor(float height, const glm::vec3& floor_ms, const glm::vec3& forward_ms, float leg) {
  // Fractions of the character's height; for 1.8 m: 31 cm spacing, 50 cm between the rails, a
  // 4 cm thick rung, the first rung 25 cm up, the ladder 36 cm in front.
  constexpr float kSpacing = 0.17f, kRailWidth = 0.28f, kRungRadius = 0.011f;
  constexpr float kFirstRung = 0.14f, kInFront = 0.2f;
  // Caps as fractions of the leg: above an adult's (0.34 and 0.28 of a 0.9 m leg), so they act
  // only on short legs; below world_scale.h's out-of-reach warning (0.5 and 0.6).
  constexpr float kSpacingOfLeg = 0.4f, kFirstRungOfLeg = 0.45f;
  const float h = std::max(height, 1e-3f);
  Ladder ladder;
  glm::vec3 ahead(forward_ms.x, 0.0f, forward_ms.z);
  ahead = glm::length(ahead) > 1e-6f ? glm::normalize(ahead) : glm::vec3(0.0f, 0.0f, 1.0f);
  ladder.base_ms = floor_ms + kInFront * h * ahead;
  // The face toward the character: the face normal (sin yaw, 0, cos yaw) along `ahead`. A
  // character facing +Z gets yaw 0 exactly, as before the turn existed.
  ladder.yaw_deg = glm::degrees(std::atan2(ahead.x, ahead.z));
  ladder.rung_spacing = kSpacing * h;
  if (leg > 0.0f) ladder.rung_spacing = std::min(ladder.rung_spacing, kSpacingOfLeg * leg);
  ladder.rail_width = kRailWidth * h;
  ladder.rung_radius = kRungRadius * h;
  ladder.first_rung_height = kFirstRung * h;
  if (leg > 0.0f)
    ladder.first_rung_height = std::min(ladder.first_rung_height, kFirstRungOfLeg * leg);
  return ladder;
}

bool Ladder::Valid() const {
  return rung_spacing > 0.0f && rung_count > 0 && rung_count <= kMaxRungs && rail_width > 0.0f &&
         rung_radius >= 0.0f && std::isfinite(base_ms.x) && std::isfinite(base_ms.y) &&
         std::isfinite(base_ms.z) && std::isfinite(yaw_deg);
}

glm::vec3 Ladder::AlongRungsMs() const {
  const float yaw = glm::radians(yaw_deg);
  return {std::cos(yaw), 0.0f, -std::sin(yaw)};
}

glm::vec3 Ladder::FaceNormalMs() const {
  const float yaw = glm::radians(yaw_deg);
  return {std::sin(yaw), 0.0f, std::cos(yaw)};
}

glm::vec3 Ladder::NormalToward(const glm::vec3& point_ms) const {
  const glm::vec3 n = FaceNormalMs();
  return glm::dot(point_ms - base_ms, n) < 0.0f ? -n : n;
}

glm::vec3 Ladder::RungCenter(int rung) const {
  return base_ms +
         glm::vec3(0.0f, first_rung_height + static_cast<float>(rung) * rung_spacing, 0.0f);
}

int Ladder::NearestRung(const glm::vec3& point_ms) const {
  const float above = point_ms.y - (base_ms.y + first_rung_height);
  // Clamped in float first: a far-off point must not overflow the conversion to int.
  const float rung_f = std::clamp(above / rung_spacing, -1.0f, static_cast<float>(rung_count));
  const int rung = std::isfinite(rung_f) ? static_cast<int>(std::lround(rung_f)) : 0;
  return std::clamp(rung, 0, rung_count - 1);
}

glm::vec3 Ladder::GripPoint(int rung, const glm::vec3& near_ms) const {
  const glm::vec3 center = RungCenter(rung);
  const glm::vec3 along = AlongRungsMs();
  const float half = std::max(0.5f * rail_width - rung_radius, 0.0f);
  return center + std::clamp(glm::dot(near_ms - center, along), -half, half) * along;
}

float Ladder::RailRadius() const {
  return std::max(1.5f * rung_radius, 0.02f * rung_spacing);
}

glm::vec3 Ladder::RestPoint(int rung, const glm::vec3& near_ms) const {
  return GripPoint(rung, near_ms) + glm::vec3(0.0f, rung_radius, 0.0f);
}

void Ladder::Draw(anim::DebugDraw& draw) const {
  const glm::vec4 wood(0.80f, 0.62f, 0.38f, 1.0f);
  const float top =
      first_rung_height + static_cast<float>(rung_count - 1) * rung_spacing + 0.5f * rung_spacing;
  const glm::vec3 half = 0.5f * rail_width * AlongRungsMs();
  for (float side : {-1.0f, 1.0f}) {
    const glm::vec3 foot = base_ms + side * half;
    draw.Line(foot, foot + glm::vec3(0.0f, top, 0.0f), wood);
  }
  for (int i = 0; i < rung_count; ++i) {
    const glm::vec3 c = RungCenter(i);
    // Two lines a rung's diameter apart read as a round bar from any angle.
    for (float dy : {-rung_radius, rung_radius}) {
      draw.Line(c - half + glm::vec3(0, dy, 0), c + half + glm::vec3(0, dy, 0), wood);
    }
  }
}

}  // namespace ikpose::scene
