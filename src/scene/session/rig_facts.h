// Rig facts: what a posing session measures on its model, once per model.
//
// What: the rest pose, the skinned rest mesh's bounds, the mirror map and the hands' and feet's
// shapes: everything a session derives from the model alone, before any request applies.
// Why: skinning the rest mesh on the CPU for its bounds and matching mirror names cost about
// 2 ms per session on the bundled character, a thousand times the four solves; a replay or a
// bake that builds one session per frame measures them once and shares them (read-only) with
// every frame's session, so a frame still goes down the one road (BuildSession) at a fraction of
// the cost.
// Limits: facts belong to one model; a session built with another model's facts is a bug
// (PosingSession checks the bone count and measures afresh on a mismatch).
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "anim/mirror.h"
#include "anim/model.h"
#include "scene/session/grip.h"

namespace ikpose::scene {

struct RigFacts {
  int bone_count = 0;
  anim::Pose rest;
  anim::Bounds rest_bounds;  // the skinned rest mesh (the joints for a model with no mesh)
  float lowest_y = 0.f;      // its lowest point (0 when empty): the soles at rest
  // The floor it stands on: y = 0 when the rest soles are within kPlantedLift (scaled) of it,
  // else at the rest soles, with floor_note saying so (a rig made with its origin at the hips).
  float floor_y = 0.f;
  std::string floor_note;
  float height = 1.f;  // its height, at least 1e-6 (1 when empty)
  anim::MirrorMap mirror_map;
  std::array<HandShape, 4> hands;  // arms only, indexed by anim::Limb
  std::array<FootShape, 4> feet;   // legs only
  std::vector<float> limb_radius;  // each bone's thickness, by child joint (limb_radius.h)
};

std::shared_ptr<const RigFacts> MeasureRig(const anim::Model& model);

}  // namespace ikpose::scene
