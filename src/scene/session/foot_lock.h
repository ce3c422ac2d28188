// Foot lock: where a clip plants a foot, and holding it there so a baked clip does not slide.
//
// What: `FindPlants` reads one foot's path over the frames of a bake (model space, the model's
// units) and finds its plants: runs of frames where the foot is near the lowest height it reaches
// (within `PlantRules::height_fraction` of the body's height) and nearly still (slower than
// `speed_fraction` of the body's height a second), at least `min_seconds` long. Each plant holds
// the foot at the mean of its positions; `LockWeights` gives, per frame, how far the foot is
// pulled onto its plant's point: 1 inside the plant, easing in and out over `blend_seconds` on
// either side (smoothstep), 0 elsewhere. `Slide` is how far a foot moves during its plants: the
// largest distance between any of a plant's frames and the plant's first frame.
// Why: clips often let a planted foot drift by millimetres to centimetres (compression,
// retargeting, a clip made for another body); a bake with IK can hold it exactly, the way engines'
// foot locking and ozz's foot-IK sample do, and the numbers before and after say whether it worked.
// A clip that walks in place (a treadmill: its stance foot slides back at the walking speed) stands
// on ground that moves: the ground's speed is the median horizontal speed of the foot's low frames
// (zero when that is below the stillness threshold), "still" is measured against it, and a plant
// holds the foot to that moving ground (the point moves at the ground's speed), so the baked
// stance foot slides at exactly the speed the game moves the character, with no jitter.
// Limits: a plant is found from the path alone (no contact data in glTF); frames where something
// else drives the leg (a target, the ladder) are never part of a plant.
#pragma once

#include <array>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "anim/model.h"

namespace ikpose::scene {

struct PlantRules {
  float height_fraction = 0.03f;  // of the body's height, above the foot's lowest point
  float speed_fraction = 0.15f;   // of the body's height per second
  float min_seconds = 0.1f;
  float blend_seconds = 0.1f;
};

struct Plant {
  int first = 0;  // frames, inclusive
  int last = 0;
  glm::vec3 point_ms{0.f};            // where the foot is held at `first`
  glm::vec3 ground_velocity_ms{0.f};  // model units a second: the ground under an in-place clip

  // Where the foot is held at `frame` (the moving ground carries it).
  glm::vec3 PointAt(int frame, float fps) const {
    return point_ms + ground_velocity_ms * (static_cast<float>(frame - first) / fps);
  }
};

// `free[i]`: frame i's foot is the clip's (nothing else placed it). `fps` > 0.
class PosingSession;

// Whether a leg's foot is the clip's own this frame (free to plant and lock): nobody solved it,
// or only the ground stood it on the surface under the clip's foot.
bool FootIsTheClips(const PosingSession& session, anim::Limb leg);

std::vector<Plant> FindPlants(std::span<const glm::vec3> foot_ms, const std::vector<bool>& free,
                              float fps, float body_height, const PlantRules& rules = {});

// `point_ms` (the plant's point at its first frame) moved the least it must so that a leg of length
// `reach` from each hip of the plant's frames reaches where the plant holds the foot then
// (alternating projections onto the balls; the mean of a swaying clip's foot can lie just beyond a
// straight leg's reach). Unchanged when every hip reaches it.
glm::vec3 ReachablePoint(const glm::vec3& point_ms, std::span<const glm::vec3> hips_ms,
                         const Plant& plant, float reach, float fps);

// Per frame, how far the foot is pulled onto its plant (0..1) and the plant's index (-1: none).
struct LockWeight {
  float weight = 0.f;
  int plant = -1;
};
std::vector<LockWeight> LockWeights(std::span<const Plant> plants, int frames,
                                    const std::vector<bool>& free, float fps,
                                    const PlantRules& rules = {});

// The largest distance a foot moves from where its plant starts (carried by the plant's ground),
// over all plants (model units).
float Slide(std::span<const glm::vec3> foot_ms, std::span<const Plant> plants, float fps);

// The body's height the rules are measured in: the rest pose's bounds.
float BodyHeight(const anim::Model& model);

class PosingSession;

// The feet of a run of solved frames (`ikpose trace`), for how far the clip's planted feet slide:
// each leg's foot and whether the clip alone placed it, frame by frame.
class FootPaths {
 public:
  void Record(const PosingSession& session);

  struct Leg {
    bool recorded = false;  // the leg exists
    int plants = 0;
    float slide_ms = 0.f;  // Slide() over its plants, model units
  };
  // By anim::Limb (arms stay unrecorded).
  std::array<Leg, 4> Summarize(float fps, float body_height, const PlantRules& rules = {}) const;

 private:
  std::array<std::vector<glm::vec3>, 4> feet_ms_;
  std::array<std::vector<bool>, 4> free_;
};

}  // namespace ikpose::scene
