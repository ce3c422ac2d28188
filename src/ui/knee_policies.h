// The knee policies as one table: each entry the policy (its name is anim::PolicyName) and the
// colour its ghost is drawn in; and PerKneePolicy, a value per policy looked up by the policy.
// Why: the timeline shows a checkbox, a pop count and a ghost per policy; kept as parallel
// arrays indexed by a bare int, a fourth policy or a reordering would pair a name with another
// policy's count or colour.
#pragma once

#include <array>
#include <cstddef>

#include <glm/vec4.hpp>

#include "anim/knee_policy.h"

namespace ikpose::ui {

struct KneePolicyEntry {
  anim::KneePolicy policy;
  glm::vec4 ghost_color;  // RGBA
};

// In the order the timeline shows them: seed yellow, natural green, pole magenta.
inline const std::array<KneePolicyEntry, 3> kKneePolicies = {{
    {anim::KneePolicy::kSeed, {1.0f, 0.9f, 0.2f, 1.0f}},
    {anim::KneePolicy::kNatural, {0.3f, 1.0f, 0.4f, 1.0f}},
    {anim::KneePolicy::kPole, {1.0f, 0.3f, 1.0f, 1.0f}},
}};

template <typename T>
class PerKneePolicy {
 public:
  PerKneePolicy() = default;
  explicit PerKneePolicy(const T& all) { values_.fill(all); }

  T& operator[](anim::KneePolicy policy) { return values_[Slot(policy)]; }
  const T& operator[](anim::KneePolicy policy) const { return values_[Slot(policy)]; }
  bool operator==(const PerKneePolicy&) const = default;

 private:
  static std::size_t Slot(anim::KneePolicy policy) {
    switch (policy) {
      case anim::KneePolicy::kSeed:
        return 0;
      case anim::KneePolicy::kNatural:
        return 1;
      case anim::KneePolicy::kPole:
        break;
    }
    return 2;
  }
  std::array<T, 3> values_{};
};

}  // namespace ikpose::ui
