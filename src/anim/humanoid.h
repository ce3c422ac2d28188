// Humanoid map: which bones are the pelvis, spine, chest, neck, head, clavicles and toes.
//
// What: found from the detected limb chains (anim/chains.h) and the tree around them, so it
// works on unnamed joints as well as named ones:
//   - pelvis: the lowest common ancestor of the two legs' upper bones (the bone both thighs
//     hang from: `pelvis`, `Hips`, Rigify's `spine`);
//   - chest: the lowest common ancestor of the two arms' upper bones, when it lies above the
//     pelvis; the spine is the path from the pelvis (excluded) to the chest (included);
//   - clavicle: the arm's upper bone's parent when that is not the chest (`clavicle_l`,
//     `shoulder.L`, `LeftShoulder`);
//   - neck and head: the chest's branch that leads up and holds no arm; the head is the bone of
//     that branch named "head", else its last bone (or the one before an end leaf); the neck is
//     the branch's first bone when that is not the head;
//   - toe: the foot's child that lies furthest forward (`ball_l`, `toe.L`, `LeftToeBase`).
// The torso's facing is the mean of the hips' facing (from the left hip to the right hip) and
// the shoulders' facing (left arm to right arm), each the horizontal direction perpendicular to
// that line on the side the limbs' left/right says is front: a fighting-stance rest whose hips
// and chest turn different ways faces between them.
// Why: the body solve, joint ranges and ready poses need to know these bones; the knee policy
// and "front" views need a facing that the whole torso agrees on, not the toes alone.
// Limits: up is +Y (the file's scene space, glTF). A rig whose arms hang from the pelvis (or
// below it) has no spine or chest; a missing limb leaves its bones at -1. Bones are joints
// (or any node of a file with no skin), as for the chains.
#pragma once

#include <array>
#include <vector>

#include <glm/glm.hpp>

#include "anim/chains.h"
#include "anim/skeleton.h"

namespace ikpose::anim {

enum class Side : int { kLeft = 0, kRight = 1 };

struct HumanoidMap {
  int pelvis = -1;
  std::vector<int> spine;  // pelvis (excluded) -> chest (included), root first
  int chest = -1;
  int neck = -1;
  int head = -1;
  std::array<int, 2> clavicles{-1, -1};  // indexed by Side
  std::array<int, 2> toes{-1, -1};       // indexed by Side

  // Unit, horizontal; valid only when `facing_valid`.
  bool facing_valid = false;
  glm::vec3 facing_ms{0.f, 0.f, 1.f};            // mean of the two below (or the one there is)
  glm::vec3 hips_facing_ms{0.f, 0.f, 0.f};       // zero when the legs are missing
  glm::vec3 shoulders_facing_ms{0.f, 0.f, 0.f};  // zero when the arms are missing

  int clavicle(Side side) const { return clavicles[static_cast<int>(side)]; }
  int toe(Side side) const { return toes[static_cast<int>(side)]; }
};

// `rest` is the rest pose of `skeleton`, `chains` its detected limbs.
HumanoidMap MapHumanoid(const Skeleton& skeleton, const Pose& rest, const ChainSet& chains);

// The facing of a line from a left joint to a right joint: horizontal, perpendicular to it,
// unit; zero when the line is vertical or empty.
glm::vec3 FacingFromLeftRight(const glm::vec3& left_ms, const glm::vec3& right_ms);

}  // namespace ikpose::anim
