// Baking: every frame of a situation solved through the one road and kept as a clip.
//
// What: a `Baker` poses the frames from..to at `fps`, each exactly as `ikpose pose --scene S
// --time t` would (scene::FrameRequest over the base request: the frame's clip time and the
// targets file's targets at that time, then scene::BuildSession: clip, scenario limbs, ladder
// follow, policies, mirror), and keeps every bone's local transform. With a foot lock asked for
// a leg, the legs' paths are then read for plants (scene/session/foot_lock.h) and the frames near a
// plant solved again with that foot's target on its plant (its model rotation kept, so the sole
// does not turn). `Finish` gives the baked clip: linear keys at every frame for each channel that
// leaves the rest pose, optionally reduced within a stated error (anim/key_reduction.h). Why: a fix
// made in ikpose goes back to the game as an ordinary animation; the same engine serves `ikpose
// export --bake` and the viewer's bake button, which steps it a few frames per drawn frame to show
// progress. Limits: at most kMaxTraceFrames frames. Key times are the frames' own times (the clip's
// clock), so a bake from 2 s to 3 s keys 2..3 and holds its first key before that. Frames are
// solved statelessly, as `trace` does.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "anim/key_reduction.h"
#include "anim/model.h"
#include "scene/files/trace_file.h"
#include "scene/road/posing_request.h"
#include "scene/session/foot_lock.h"
#include "scene/session/rig_facts.h"

namespace ikpose::scene {

struct BakeSettings {
  double from = 0.0;                // seconds, >= 0
  double to = 0.0;                  // seconds, >= from
  double fps = 30.0;                // 1..1000
  std::vector<TargetKey> targets;   // a targets file's lines (trace's format), may be empty
  std::array<bool, 4> lock_feet{};  // by anim::Limb; only legs are locked
  float max_error_ms = 0.f;         // > 0: reduce keys within this (model units)
  PlantRules plant_rules;
};

// How many frames from..to at fps holds (a hundredth of a frame of slack keeps the last one; an
// end between two frames gets a frame of its own),
// or -1 when the numbers are not usable or the count is over kMaxTraceFrames.
int BakeFrameCount(double from, double to, double fps);

struct FootLockReport {
  bool asked = false;
  int plants = 0;
  int locked_frames = 0;        // frames whose foot was moved toward a plant
  float slide_before_ms = 0.f;  // largest distance a planted foot moved, the clip's path
  float slide_after_ms = 0.f;   // the same, baked
};

struct BakeResult {
  anim::Clip clip;  // named after the source clip, or "ik"
  int frames = 0;
  anim::KeyCount keys;
  float reduction_error_ms = 0.f;      // measured against the unreduced bake (0 when not reduced)
  anim::Clip unreduced;                // the clip before reduction (empty when not reduced)
  std::array<FootLockReport, 4> feet;  // by anim::Limb
};

// The model's clips with the source clip replaced by `baked` (or `baked` added): what a baked
// file holds.
std::vector<anim::Clip> ClipsWithBake(const anim::Model& model, anim::Clip baked);

class Baker {
 public:
  // `model` must outlive the baker. Check the settings with BakeFrameCount first.
  Baker(const anim::Model& model, PosingRequest base, BakeSettings settings);

  // Solves the next frame; false with one line in *error (naming the frame) when it cannot.
  bool Step(std::string* error);
  bool done() const { return phase_ == Phase::kDone; }
  float progress() const;
  int frames() const { return frame_count_; }
  // The baked clip; call once done.
  BakeResult Finish();

 private:
  enum class Phase { kSolve, kLock, kDone };
  float FrameTime(int frame) const;
  PosingRequest RequestAt(int frame) const;
  void FindLocks();

  const anim::Model* model_;
  std::shared_ptr<const RigFacts> facts_;  // measured once, shared by every frame's session
  PosingRequest base_;
  BakeSettings settings_;
  std::string clip_name_;
  int frame_count_ = 0;
  Phase phase_ = Phase::kSolve;
  int next_ = 0;
  std::vector<std::vector<anim::Transform>> locals_ls_;  // per frame, per bone
  std::array<std::vector<glm::vec3>, 4> feet_ms_;        // per leg, per frame (first pass)
  std::array<std::vector<glm::vec3>, 4> hips_ms_;        // per leg, per frame (first pass)
  std::array<std::vector<bool>, 4> free_;                // the clip's foot, nothing else placed it
  std::array<std::vector<Plant>, 4> plants_;
  std::array<std::vector<LockWeight>, 4> weights_;
  std::vector<int> relock_;                          // frames solved again for a foot lock
  std::array<std::vector<glm::vec3>, 4> locked_ms_;  // per leg, per frame (after the lock)
};

}  // namespace ikpose::scene
