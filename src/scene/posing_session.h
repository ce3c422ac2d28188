// PosingSession: what the user edits over one loaded model, and the pose it produces.
//
// What: per limb (left/right arm and leg) a target, options and the last solve's result; the
// clip playing underneath (IK is applied on top of it); the ladder prop. Evaluate() samples the
// clip into a base pose, then solves every enabled limb on it in order (arms, then legs), so
// the pose the renderer draws is always base pose + IK.
// Why: the viewer, `ikpose render` and the per-frame benchmark all pose through this one path,
// so what the tests check is what users see.
// Limits: limbs only (the four detected chains). Targets live in model space.
#pragma once

#include <array>
#include <string>

#include "anim/apply_ik.h"
#include "anim/chains.h"
#include "anim/model.h"
#include "scene/ladder.h"

namespace ikpose::scene {

struct LimbTarget {
  bool available = false;  // the model has this chain
  bool enabled = true;
  glm::vec3 target_ms{0.0f};
  anim::ChainSolveOptions options;
  bool from_rest = false;  // solve from the rest pose instead of the clip's pose
  int rung = -1;           // the ladder rung this target is snapped to, -1 for none

  bool operator==(const LimbTarget&) const = default;
};

struct ClipPlayback {
  int clip = -1;  // index into the model's clips, -1 for the rest pose
  float time = 0.0f;
  bool playing = false;
  float speed = 1.0f;
};

class PosingSession {
 public:
  // Detects the model's limb chains and puts every target on its hand or foot.
  explicit PosingSession(const anim::Model& model);

  const anim::Model& model() const { return *model_; }
  const anim::ChainSet& chains() const { return chains_; }
  const anim::LimbChain& chain(anim::Limb limb) const { return chains_[limb]; }
  LimbTarget& target(anim::Limb limb) { return targets_[static_cast<int>(limb)]; }
  const LimbTarget& target(anim::Limb limb) const { return targets_[static_cast<int>(limb)]; }
  const anim::ChainSolveResult& result(anim::Limb limb) const {
    return results_[static_cast<int>(limb)];
  }
  const anim::Pose& rest_pose() const { return rest_; }
  const anim::Pose& base_pose() const { return base_; }  // clip only, before IK
  const anim::Pose& pose() const { return pose_; }       // after IK

  ClipPlayback playback;
  Ladder ladder;
  bool ladder_enabled = false;

  // Moves every target onto its current hand or foot (of the base pose): nothing moves until
  // the user drags.
  void ResetTargets();
  // Advances a playing clip by `seconds` of wall time (times the speed).
  void Advance(float seconds);
  // Base pose from the clip, then IK for every enabled limb.
  void Evaluate();

  // Hands onto the nearest rung's axis, feet onto the nearest rung's top (ladder_enabled).
  void SnapToRungs();
  // Moves every snapped limb `delta` rungs up (positive) or down; false if one would leave it.
  bool StepRungs(int delta);

 private:
  const anim::Model* model_;
  anim::ChainSet chains_;
  std::array<LimbTarget, 4> targets_;
  std::array<anim::ChainSolveResult, 4> results_;
  anim::Pose rest_;
  anim::Pose base_;
  anim::Pose pose_;
};

// True for the legs (their targets rest on rung tops; hands grip the axis).
bool IsLeg(anim::Limb limb);

}  // namespace ikpose::scene
