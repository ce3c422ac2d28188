// Seeded random chains and targets for the solver's tests, and double-precision helpers.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>

#include <glm/glm.hpp>

namespace ikpose::ik::testing {

using dvec3 = glm::dvec3;

inline dvec3 D(const glm::vec3& v) {
  return dvec3(v);
}

struct RandomChain {
  glm::vec3 a, b, c, t;
  float limb;  // |ab| + |bc| as generated
};

// Limb lengths log-uniform from 1 cm to 100 m, bone ratio from 1:10 to 10:1, the hip within
// one limb length of the origin, target distance uniform in [0, 1.3] limb lengths (too close,
// reachable and too far all occur).
class ChainGenerator {
 public:
  explicit ChainGenerator(std::uint32_t seed) : rng_(seed) {}

  float Uniform(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng_); }

  glm::vec3 UnitVector() {
    std::normal_distribution<float> n(0.f, 1.f);
    for (;;) {
      const glm::vec3 v(n(rng_), n(rng_), n(rng_));
      const float len = glm::length(v);
      if (len > 1e-3f) return v / len;
    }
  }

  RandomChain Next() {
    RandomChain ch;
    const float limb = std::pow(10.f, Uniform(-2.f, 2.f));
    const float ratio = std::pow(10.f, Uniform(-1.f, 1.f));  // l1 / l2
    const float l1 = limb * ratio / (1.f + ratio);
    const float l2 = limb - l1;
    ch.a = glm::vec3(Uniform(-1.f, 1.f), Uniform(-1.f, 1.f), Uniform(-1.f, 1.f)) * limb;
    ch.b = ch.a + UnitVector() * l1;
    ch.c = ch.b + UnitVector() * l2;
    ch.t = ch.a + UnitVector() * (Uniform(0.f, 1.3f) * limb);
    ch.limb = limb;
    return ch;
  }

 private:
  std::mt19937 rng_;
};

}  // namespace ikpose::ik::testing
