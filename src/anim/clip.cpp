#include "anim/clip.h"

#include <algorithm>
#include <cmath>

namespace ikpose::anim {

namespace {

// Index k of the key interval [times[k], times[k+1]) that holds `time` and the fraction in it.
// Returns false when time is before the first or after the last key (k is then that key).
bool FindInterval(const std::vector<float>& times, float time, std::size_t* k, float* fraction) {
  if (time <= times.front()) {
    *k = 0;
    return false;
  }
  if (time >= times.back()) {
    *k = times.size() - 1;
    return false;
  }
  const auto upper = std::upper_bound(times.begin(), times.end(), time);
  *k = static_cast<std::size_t>(upper - times.begin()) - 1;
  const float span = times[*k + 1] - times[*k];
  *fraction = span > 0.f ? (time - times[*k]) / span : 0.f;
  return true;
}

template <typename T>
T Hermite(const T& v0, const T& out0, const T& in1, const T& v1, float t, float dt) {
  const float t2 = t * t;
  const float t3 = t2 * t;
  return (2.f * t3 - 3.f * t2 + 1.f) * v0 + (t3 - 2.f * t2 + t) * dt * out0 +
         (-2.f * t3 + 3.f * t2) * v1 + (t3 - t2) * dt * in1;
}

// Value of key k (the middle of the triple for cubic splines).
template <typename Track>
auto KeyValue(const Track& track, std::size_t k) {
  return track.interpolation == Interpolation::kCubicSpline ? track.values[3 * k + 1]
                                                            : track.values[k];
}

template <typename Track>
std::string ValidateTrack(const Track& track, const char* what) {
  const std::size_t keys = track.times.size();
  const std::size_t per_key = track.interpolation == Interpolation::kCubicSpline ? 3 : 1;
  if (track.values.size() != keys * per_key) {
    return std::string(what) + " track has " + std::to_string(track.values.size()) +
           " values for " + std::to_string(keys) + " keys";
  }
  for (std::size_t i = 0; i < keys; ++i) {
    if (!std::isfinite(track.times[i])) return std::string(what) + " track has a non-finite time";
    if (i > 0 && track.times[i] < track.times[i - 1]) {
      return std::string(what) + " track times decrease";
    }
  }
  for (const auto& v : track.values) {
    for (int c = 0; c < v.length(); ++c) {
      if (!std::isfinite(v[c])) return std::string(what) + " track has a non-finite value";
    }
  }
  return "";
}

}  // namespace

glm::quat Slerp(const glm::quat& a, const glm::quat& b, float t) {
  glm::quat end = b;
  float cosine = glm::dot(a, b);
  if (cosine < 0.f) {
    end = -b;
    cosine = -cosine;
  }
  if (cosine > 0.9995f) return glm::normalize(a * (1.f - t) + end * t);
  const float angle = std::acos(std::clamp(cosine, -1.f, 1.f));
  const float sine = std::sin(angle);
  return glm::normalize(a * (std::sin((1.f - t) * angle) / sine) +
                        end * (std::sin(t * angle) / sine));
}

glm::vec3 Sample(const Vec3Track& track, float time, const glm::vec3& fallback) {
  if (track.times.empty()) return fallback;
  std::size_t k = 0;
  float f = 0.f;
  if (!FindInterval(track.times, time, &k, &f)) return KeyValue(track, k);
  switch (track.interpolation) {
    case Interpolation::kStep:
      return track.values[k];
    case Interpolation::kLinear:
      return glm::mix(track.values[k], track.values[k + 1], f);
    case Interpolation::kCubicSpline: {
      const float dt = track.times[k + 1] - track.times[k];
      return Hermite(track.values[3 * k + 1], track.values[3 * k + 2], track.values[3 * k + 3],
                     track.values[3 * k + 4], f, dt);
    }
  }
  return fallback;
}

glm::quat Sample(const QuatTrack& track, float time, const glm::quat& fallback) {
  if (track.times.empty()) return fallback;
  std::size_t k = 0;
  float f = 0.f;
  if (!FindInterval(track.times, time, &k, &f)) return glm::normalize(KeyValue(track, k));
  switch (track.interpolation) {
    case Interpolation::kStep:
      return glm::normalize(track.values[k]);
    case Interpolation::kLinear:
      return Slerp(glm::normalize(track.values[k]), glm::normalize(track.values[k + 1]), f);
    case Interpolation::kCubicSpline: {
      const float dt = track.times[k + 1] - track.times[k];
      const glm::quat q = Hermite(track.values[3 * k + 1], track.values[3 * k + 2],
                                  track.values[3 * k + 3], track.values[3 * k + 4], f, dt);
      const float length = glm::length(q);
      return length > 0.f ? q / length : fallback;
    }
  }
  return fallback;
}

float ClipTime(float duration, bool loop, float time) {
  if (!std::isfinite(time) || duration <= 0.f) return 0.f;
  if (!loop) return std::clamp(time, 0.f, duration);
  float t = std::fmod(time, duration);
  if (t < 0.f) t += duration;
  if (t >= duration) t = 0.f;
  return t;
}

void SampleClip(const Clip& clip, float time, std::span<Transform> locals_ls) {
  const float t = ClipTime(clip.duration, clip.loop, time);
  for (const BoneTrack& track : clip.tracks) {
    if (track.bone < 0 || static_cast<std::size_t>(track.bone) >= locals_ls.size()) continue;
    Transform& local = locals_ls[static_cast<std::size_t>(track.bone)];
    local.translation = Sample(track.translation, t, local.translation);
    local.rotation = Sample(track.rotation, t, local.rotation);
    local.scale = Sample(track.scale, t, local.scale);
  }
}

std::string ValidateClip(const Clip& clip, int bone_count) {
  if (!std::isfinite(clip.duration) || clip.duration < 0.f) {
    return "clip '" + clip.name + "' has a bad duration";
  }
  for (const BoneTrack& track : clip.tracks) {
    if (track.bone < 0 || track.bone >= bone_count) {
      return "clip '" + clip.name + "' animates a bone that does not exist";
    }
    for (const std::string& problem :
         {ValidateTrack(track.translation, "translation"),
          ValidateTrack(track.rotation, "rotation"), ValidateTrack(track.scale, "scale")}) {
      if (!problem.empty()) return "clip '" + clip.name + "': " + problem;
    }
  }
  return "";
}

}  // namespace ikpose::anim
