// A ladder prop for the game developer's case: hands on rungs, feet on rungs. The ladder
// stands on the floor with its rungs along the model's X axis turned `yaw_deg` about +Y (so a
// character facing +X climbs a ladder turned 90 degrees); rung i is at height
// first_rung_height + i * rung_spacing above `base_ms`. Hands grip the rung's axis, feet rest
// on the rung's top.
#pragma once

#include <glm/glm.hpp>

namespace ikpose::anim {
class DebugDraw;
}

namespace ikpose::scene {

struct Ladder {
  // Scenario files are untrusted: every rung is drawn and searched, so the count is bounded.
  static constexpr int kMaxRungs = 1000;

  glm::vec3 base_ms{0.0f, 0.0f, 0.35f};  // floor point midway between the rails
  float rung_spacing = 0.30f;
  int rung_count = 12;       // 1..kMaxRungs
  float rail_width = 0.50f;  // distance between the rails
  float rung_radius = 0.02f;
  float first_rung_height = 0.25f;
  float yaw_deg = 0.0f;  // about +Y; 0: rungs along X, the ladder's face toward +Z and -Z

  bool operator==(const Ladder&) const = default;

  bool Valid() const;
  // Unit vectors, model space: along the rungs, and horizontal across the rungs' plane (the
  // +Z side at yaw 0).
  glm::vec3 AlongRungsMs() const;
  glm::vec3 FaceNormalMs() const;
  // The face normal turned toward `point_ms` (the side of the rungs' plane it is on).
  glm::vec3 NormalToward(const glm::vec3& point_ms) const;
  glm::vec3 RungCenter(int rung) const;
  // The rung whose axis is closest in height to `point_ms`, clamped to the ladder.
  int NearestRung(const glm::vec3& point_ms) const;
  // A point on rung `rung`'s axis nearest `near_ms`, kept between the rails.
  glm::vec3 GripPoint(int rung, const glm::vec3& near_ms) const;
  // The top of rung `rung` above its grip point for `near_ms`.
  glm::vec3 RestPoint(int rung, const glm::vec3& near_ms) const;
  // The rails' radius as the solid ladder has them: 1.5 rung radii, at least a fiftieth of the
  // rung spacing (a thin rung's ladder still has rails a hand can see).
  float RailRadius() const;
  // Rails and rungs as lines.
  void Draw(anim::DebugDraw& draw) const;
};

// A ladder sized to a character `height` tall standing on `floor_ms` (the point under its
// centre), a fifth of its height in front of it along `forward_ms` and turned to face it:
// rungs as far apart as common ladders are for a 1.8 m adult (30 cm), rails a shoulder-width
// apart, rungs a grip thick. `leg` (hip to ankle; 0 when unknown) caps the spacing and the first
// rung for a figure whose legs are short for its height (a big-headed cartoon robot), so a foot
// can still take the next rung.
Ladder LadderFor(float height, const glm::vec3& floor_ms, const glm::vec3& forward_ms,
                 float leg = 0.0f);

}  // namespace ikpose::scene
