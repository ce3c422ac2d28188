// Whether every component of a glm vector, quaternion or matrix is a finite number.
//
// What: `Finite(v)` for any glm vec, quat or mat.
// Why: values read from files or typed by users are checked before they reach the solver, the
// skinning or an exporter; one definition serves them all.
// Limits: none beyond std::isfinite (NaN and both infinities are not finite).
#pragma once

#include <cmath>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace ikpose::anim {

template <glm::length_t L, typename T, glm::qualifier Q>
bool Finite(const glm::vec<L, T, Q>& v) {
  for (glm::length_t i = 0; i < L; ++i) {
    if (!std::isfinite(v[i])) return false;
  }
  return true;
}

template <typename T, glm::qualifier Q>
bool Finite(const glm::qua<T, Q>& q) {
  return std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z) && std::isfinite(q.w);
}

template <glm::length_t C, glm::length_t R, typename T, glm::qualifier Q>
bool Finite(const glm::mat<C, R, T, Q>& m) {
  for (glm::length_t c = 0; c < C; ++c) {
    if (!Finite(m[c])) return false;
  }
  return true;
}

}  // namespace ikpose::anim
