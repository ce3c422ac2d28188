// A plain port of the seed's code (the blog post): not part of the product, the reference
// that the solver's tests compare against and the baseline that bench_ik measures.
//
// What: the post's positions step, templated on the scalar so tests can run it in double,
// and its orientation step on 4x4 model matrices with general glm::inverse and acos.
// Why: "with no options, results equal the seed's algorithm" needs the seed to compare with;
// the benchmark needs the straightforward version to compare speed with.
// Limits: only the two defects named in docs/DESIGN.md are fixed (the identity quaternion is
// glm's (1,0,0,0), and anti-parallel vectors get a half turn); everything else is as the post
// wrote it, including its absolute 1e-3 threshold for a target on the hip and the missing
// clamp before sqrt (a cosine a rounding error above 1 gives NaN).
#pragma once

#include <cmath>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "ik/transform.h"

namespace ikpose::ik::seed {

template <typename T>
struct SeedPositions {
  glm::vec<3, T> knee;
  glm::vec<3, T> foot;
  bool reached = false;
};

// The post's "Finding the New Positions". `GetPerpendicularUnitVector` is not shown in the
// post; as it describes, it removes n's component from b - m, normalizes, and falls back to
// any perpendicular of n when that is zero.
template <typename T>
SeedPositions<T> SolvePositions(const glm::vec<3, T>& a, const glm::vec<3, T>& b,
                                const glm::vec<3, T>& c, const glm::vec<3, T>& t) {
  using V = glm::vec<3, T>;
  const T len_ab = glm::length(b - a);
  const T len_bc = glm::length(c - b);
  const T len_at = glm::length(t - a);
  V n = (a - t) / len_at;  // unit, from t to a
  if (len_at < T(1e-3)) n = V(1, 0, 0);
  SeedPositions<T> out;
  if (len_at < std::abs(len_ab - len_bc)) {
    const T sign = len_ab > len_bc ? T(1) : T(-1);
    out.knee = a - sign * len_ab * n;
    out.foot = out.knee + sign * len_bc * n;
  } else if (len_at <= len_ab + len_bc) {
    out.reached = true;
    out.foot = t;
    const T cos_theta =
        (len_bc * len_bc - len_ab * len_ab - len_at * len_at) / (T(-2) * len_ab * len_at);
    const T sin_theta = std::sqrt(T(1) - cos_theta * cos_theta);
    const T r = len_ab * sin_theta;
    const V m = a - len_ab * cos_theta * n;
    V v = b - m;
    V u = v - glm::dot(v, n) * n;
    const T len_u = glm::length(u);
    if (len_u > T(0)) {
      u /= len_u;
    } else {
      const V other = std::abs(n.x) < T(0.9) ? V(1, 0, 0) : V(0, 1, 0);
      u = glm::normalize(glm::cross(n, other));
    }
    out.knee = m + r * u;
  } else {
    out.knee = a - len_ab * n;
    out.foot = out.knee - len_bc * n;
  }
  return out;
}

// The post's GetRotationBetween with glm's identity and a half turn for anti-parallel input.
glm::quat RotationBetween(const glm::vec3& u, const glm::vec3& v, float eps = 1e-3f);

// The post's orientation step on model matrices. `hip_parent_ms` is the hip's parent model
// matrix; the local transforms are as in TwoBoneJob. Returns the new local rotations of hip
// and knee, computed with 4x4 glm::inverse as the post does.
struct SeedRotations {
  glm::quat hip_rotation_ls{1.f, 0.f, 0.f, 0.f};
  glm::quat knee_rotation_ls{1.f, 0.f, 0.f, 0.f};
};
SeedRotations SolveOrientations(const glm::mat4& hip_parent_ms, const LocalTransform& hip_ls,
                                const LocalTransform& knee_ls, const LocalTransform& foot_ls,
                                const glm::vec3& target_ms);

}  // namespace ikpose::ik::seed
