#include "anim/key_reduction.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace ikpose::anim {

namespace {

constexpr std::size_t kWindow = 256;

std::size_t Keys(const BoneTrack& t) {
  return t.translation.times.size() + t.rotation.times.size() + t.scale.times.size();
}

float AngleBetween(const glm::quat& a, const glm::quat& b) {
  const float d = std::min(1.f, std::abs(glm::dot(glm::normalize(a), glm::normalize(b))));
  return 2.f * std::acos(d);
}

// Greedy linear key reduction: `off(i, j, k)` is how far key k is from the interpolation between
// kept keys i and j, in the channel's own measure; keys stay within `tolerance`.
template <typename Track, typename Off>
void ReduceTrack(Track& track, float tolerance, Off off) {
  const std::size_t n = track.times.size();
  if (track.interpolation != Interpolation::kLinear || n < 3) return;
  std::vector<std::size_t> kept{0};
  std::size_t anchor = 0;
  while (anchor + 1 < n) {
    std::size_t best = anchor + 1;
    for (std::size_t j = anchor + 2; j < n && j - anchor <= kWindow; ++j) {
      bool fits = true;
      for (std::size_t k = anchor + 1; k < j && fits; ++k) fits = off(anchor, j, k) <= tolerance;
      if (!fits) break;
      best = j;
    }
    kept.push_back(best);
    anchor = best;
  }
  Track out;
  out.interpolation = track.interpolation;
  for (std::size_t k : kept) {
    out.times.push_back(track.times[k]);
    out.values.push_back(track.values[k]);
  }
  track = std::move(out);
}

float Fraction(const std::vector<float>& times, std::size_t i, std::size_t j, std::size_t k) {
  const float span = times[j] - times[i];
  return span > 0.f ? (times[k] - times[i]) / span : 0.f;
}

void ReduceVec3(Vec3Track& track, float tolerance, float factor) {
  ReduceTrack(track, tolerance, [&](std::size_t i, std::size_t j, std::size_t k) {
    const glm::vec3 v = glm::mix(track.values[i], track.values[j], Fraction(track.times, i, j, k));
    return glm::length(v - track.values[k]) * factor;
  });
}

}  // namespace

KeyCount ReduceKeys(const Skeleton& skeleton, float max_error_ms, Clip& clip) {
  KeyCount count;
  for (const BoneTrack& t : clip.tracks) count.before += Keys(t);
  const int n = skeleton.size();
  if (!(max_error_ms > 0.f) || n == 0) {
    count.after = count.before;
    return count;
  }
  const Pose rest = RestPose(skeleton);
  std::vector<bool> animated(static_cast<std::size_t>(n), false);
  for (const BoneTrack& t : clip.tracks) {
    if (t.bone >= 0 && t.bone < n) animated[static_cast<std::size_t>(t.bone)] = true;
  }
  // How many animated bones one joint's error can add up over, and each bone's lever: the
  // farthest rest joint at or below it (children come after parents, so one backward pass).
  std::vector<int> depth(static_cast<std::size_t>(n), 0);
  int deepest = 1;
  for (int b = 0; b < n; ++b) {
    const int parent = skeleton.parents[static_cast<std::size_t>(b)];
    depth[static_cast<std::size_t>(b)] =
        (parent >= 0 ? depth[static_cast<std::size_t>(parent)] : 0) +
        (animated[static_cast<std::size_t>(b)] ? 1 : 0);
    deepest = std::max(deepest, depth[static_cast<std::size_t>(b)]);
  }
  std::vector<float> lever(static_cast<std::size_t>(n), 0.f);
  for (int d = n - 1; d >= 0; --d) {
    for (int a = skeleton.parents[static_cast<std::size_t>(d)]; a >= 0;
         a = skeleton.parents[static_cast<std::size_t>(a)]) {
      lever[static_cast<std::size_t>(a)] =
          std::max(lever[static_cast<std::size_t>(a)],
                   glm::distance(PositionMs(rest, a), PositionMs(rest, d)));
    }
  }
  // Three channels per bone share its part of the bound.
  const float share = max_error_ms / static_cast<float>(deepest) / 3.f;
  for (BoneTrack& t : clip.tracks) {
    if (t.bone < 0 || t.bone >= n) continue;
    const std::size_t b = static_cast<std::size_t>(t.bone);
    const int parent = skeleton.parents[b];
    const float parent_scale =
        parent >= 0 ? glm::length(glm::vec3(rest.models_ms[static_cast<std::size_t>(parent)][0]))
                    : 1.f;
    const float arm = std::max(lever[b], 1e-6f);
    ReduceVec3(t.translation, share, parent_scale);
    ReduceTrack(t.rotation, share / arm, [&](std::size_t i, std::size_t j, std::size_t k) {
      const glm::quat q =
          Slerp(t.rotation.values[i], t.rotation.values[j], Fraction(t.rotation.times, i, j, k));
      return AngleBetween(q, t.rotation.values[k]);
    });
    ReduceVec3(t.scale, share, arm);
  }
  for (const BoneTrack& t : clip.tracks) count.after += Keys(t);
  return count;
}

float MaxJointError(const Skeleton& skeleton, const Clip& a, const Clip& b) {
  std::set<float> times;
  for (const BoneTrack& t : a.tracks) {
    times.insert(t.translation.times.begin(), t.translation.times.end());
    times.insert(t.rotation.times.begin(), t.rotation.times.end());
    times.insert(t.scale.times.begin(), t.scale.times.end());
  }
  Pose pa = RestPose(skeleton);
  Pose pb = RestPose(skeleton);
  const std::vector<Transform> rest = skeleton.rest_ls;
  float worst = 0.f;
  for (float time : times) {
    pa.locals_ls = rest;
    pb.locals_ls = rest;
    SampleClip(a, time, pa.locals_ls);
    SampleClip(b, time, pb.locals_ls);
    UpdateModels(skeleton, pa);
    UpdateModels(skeleton, pb);
    for (int i = 0; i < skeleton.size(); ++i) {
      worst = std::max(worst, glm::distance(PositionMs(pa, i), PositionMs(pb, i)));
    }
  }
  return worst;
}

}  // namespace ikpose::anim
