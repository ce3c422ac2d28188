// Animation clips: keyed translation, rotation and scale per bone, and sampling them.
//
// What: a clip is a list of bone tracks; each track keys a bone's local translation, rotation
// and/or scale with glTF's three interpolations: step (hold the previous key), linear (lerp;
// shortest-path slerp for rotations) and cubic spline (Hermite with per-key tangents, glTF 2.0
// appendix C; a cubic rotation is normalised after interpolation).
// Why: `ikpose pose --clip NAME --time T` poses the model from a clip before solving, and the
// viewer plays clips under the IK.
// Limits: times are in seconds. Before the first key a track holds the first value, after the
// last key the last value. A looping clip wraps time into [0, duration); a clip that does not
// loop clamps it. Morph-target weights are not animated.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "anim/skeleton.h"

namespace ikpose::anim {

enum class Interpolation : std::uint8_t { kStep, kLinear, kCubicSpline };

// For kCubicSpline, `values` holds three entries per key in glTF's order: in-tangent, value,
// out-tangent (tangents are per second). Otherwise one entry per key.
struct Vec3Track {
  Interpolation interpolation = Interpolation::kLinear;
  std::vector<float> times;
  std::vector<glm::vec3> values;
  bool empty() const { return times.empty(); }
};

struct QuatTrack {
  Interpolation interpolation = Interpolation::kLinear;
  std::vector<float> times;
  std::vector<glm::quat> values;
  bool empty() const { return times.empty(); }
};

struct BoneTrack {
  int bone = -1;  // skeleton index
  Vec3Track translation;
  QuatTrack rotation;
  Vec3Track scale;
};

struct Clip {
  std::string name;
  float duration = 0.f;  // seconds; the last key time of any track (at least 0)
  bool loop = true;
  std::vector<BoneTrack> tracks;
};

// The value of a track at `time` (seconds); `fallback` when the track has no keys.
glm::vec3 Sample(const Vec3Track& track, float time, const glm::vec3& fallback);
glm::quat Sample(const QuatTrack& track, float time, const glm::quat& fallback);

// Time inside the clip: wrapped into [0, duration) when `loop`, else clamped to [0, duration].
float ClipTime(float duration, bool loop, float time);

// Writes the sampled local transforms of the bones the clip animates into `locals_ls`
// (indexed by bone); other bones keep what they had (start from the rest pose).
void SampleClip(const Clip& clip, float time, std::span<Transform> locals_ls);

// Shortest-path spherical interpolation of unit quaternions; nlerp when nearly equal.
glm::quat Slerp(const glm::quat& a, const glm::quat& b, float t);

// Checks key counts, increasing times and finite values; "" when fine, else why not.
std::string ValidateClip(const Clip& clip, int bone_count);

}  // namespace ikpose::anim
