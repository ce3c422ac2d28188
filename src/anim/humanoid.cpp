#include "anim/humanoid.h"

#include <algorithm>
#include <string>

namespace ikpose::anim {
namespace {

constexpr glm::vec3 kUp{0.f, 1.f, 0.f};

// Bones from `bone` up to the root, `bone` first.
std::vector<int> PathToRoot(const Skeleton& s, int bone) {
  std::vector<int> path;
  for (int b = bone; b >= 0; b = s.parents[static_cast<std::size_t>(b)]) path.push_back(b);
  return path;
}

int CommonAncestor(const Skeleton& s, int a, int b) {
  if (a < 0 || b < 0) return -1;
  for (int x : PathToRoot(s, a)) {
    if (s.IsAncestorOrSelf(x, b)) return x;
  }
  return -1;
}

bool HasWord(const Skeleton& s, int bone, const char* word) {
  for (const std::string& w : NameWords(s.names[static_cast<std::size_t>(bone)])) {
    if (w == word) return true;
  }
  return false;
}

bool Usable(const Skeleton& s, int bone) {
  return s.IsJoint(bone) || s.JointCount() == 0;
}

glm::vec3 Horizontal(glm::vec3 v) {
  v.y = 0.f;
  return v;
}

}  // namespace

glm::vec3 FacingFromLeftRight(const glm::vec3& left_ms, const glm::vec3& right_ms) {
  // left = up x forward, so forward = left x up.
  const glm::vec3 across = Horizontal(left_ms - right_ms);
  const float length = glm::length(across);
  if (!(length > 1e-6f)) return glm::vec3(0.f);
  return glm::cross(across / length, kUp);
}

HumanoidMap MapHumanoid(const Skeleton& s, const Pose& rest, const ChainSet& chains) {
  HumanoidMap map;
  const LimbChain& leg_l = chains[Limb::kLeftLeg];
  const LimbChain& leg_r = chains[Limb::kRightLeg];
  const LimbChain& arm_l = chains[Limb::kLeftArm];
  const LimbChain& arm_r = chains[Limb::kRightArm];
  const auto P = [&rest](int bone) { return PositionMs(rest, bone); };

  if (leg_l.valid() && leg_r.valid()) {
    map.pelvis = CommonAncestor(s, leg_l.upper, leg_r.upper);
    map.hips_facing_ms = FacingFromLeftRight(P(leg_l.upper), P(leg_r.upper));
  }
  if (arm_l.valid() && arm_r.valid()) {
    map.shoulders_facing_ms = FacingFromLeftRight(P(arm_l.upper), P(arm_r.upper));
    const int chest = CommonAncestor(s, arm_l.upper, arm_r.upper);
    // A chest at or below the pelvis is no chest: the arms then hang from the hips.
    if (chest >= 0 && map.pelvis >= 0 && chest != map.pelvis &&
        s.IsAncestorOrSelf(map.pelvis, chest)) {
      map.chest = chest;
      for (int b = chest; b != map.pelvis; b = s.parents[static_cast<std::size_t>(b)]) {
        map.spine.push_back(b);
      }
      std::reverse(map.spine.begin(), map.spine.end());
    } else if (chest >= 0 && map.pelvis < 0) {
      map.chest = chest;
    }
    for (Side side : {Side::kLeft, Side::kRight}) {
      const LimbChain& arm = side == Side::kLeft ? arm_l : arm_r;
      const int parent = s.parents[static_cast<std::size_t>(arm.upper)];
      if (parent >= 0 && parent != chest && Usable(s, parent)) {
        map.clavicles[static_cast<int>(side)] = parent;
      }
    }
  }

  // Neck and head: up from the chest along the branch that holds no arm.
  if (map.chest >= 0) {
    const auto holds_arm = [&](int bone) {
      return s.IsAncestorOrSelf(bone, arm_l.upper) || s.IsAncestorOrSelf(bone, arm_r.upper);
    };
    std::vector<int> branch;
    int at = map.chest;
    for (int guard = 0; guard < s.size(); ++guard) {
      int best = -1;
      float best_up = 0.f;
      for (int child : s.Children(at)) {
        if (!Usable(s, child) || holds_arm(child)) continue;
        const float up = glm::dot(P(child) - P(map.chest), kUp);
        // The first bone must lead up; below it, follow the bone that continues the branch.
        if (branch.empty() && !(up > 0.f)) continue;
        if (best < 0 || up > best_up) {
          best = child;
          best_up = up;
        }
      }
      if (best < 0) break;
      branch.push_back(best);
      at = best;
    }
    if (!branch.empty()) {
      const auto named =
          std::find_if(branch.begin(), branch.end(), [&](int b) { return HasWord(s, b, "head"); });
      if (named != branch.end()) {
        map.head = *named;
      } else if (branch.size() >= 3 && s.Children(branch.back()).empty()) {
        map.head = branch[branch.size() - 2];  // the last bone is an end marker
      } else if (branch.size() >= 2) {
        map.head = branch.back();
      }
      if (branch.front() != map.head) map.neck = branch.front();
    }
  }

  // Facing from the whole torso; left/right of the legs and arms say which side is front.
  glm::vec3 facing = map.hips_facing_ms + map.shoulders_facing_ms;
  if (glm::length(facing) > 1e-4f) {
    map.facing_valid = true;
    map.facing_ms = glm::normalize(facing);
  }

  // Toes: the foot's child furthest forward.
  for (Side side : {Side::kLeft, Side::kRight}) {
    const LimbChain& leg = side == Side::kLeft ? leg_l : leg_r;
    if (!leg.valid()) continue;
    const glm::vec3 foot = P(leg.end);
    const glm::vec3 forward = map.facing_valid ? map.facing_ms : chains.forward_ms;
    float best_forward = 0.f;
    for (int child : s.Children(leg.end)) {
      if (!Usable(s, child)) continue;
      const float ahead = glm::dot(Horizontal(P(child) - foot), forward);
      if (ahead > best_forward) {
        best_forward = ahead;
        map.toes[static_cast<int>(side)] = child;
      }
    }
  }
  return map;
}

}  // namespace ikpose::anim
