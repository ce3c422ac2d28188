// The one road from a situation to a pose: what every command (view, render, pose, export)
// asks for, and the one function that builds the posing session from it.
//
// What: a `PosingRequest` holds a scenario file's contents, the command line's targets and
// poles, a clip and time, and a start pose (a saved pose file's); `BuildSession` applies them
// to a new session over a model in one documented order:
//   0. a ladder sized to the character, in front of it; the props, the floor and whether the
//      feet stand on them (ground contact, done in every Evaluate before the limbs solve);
//   1. the start pose, then the clip (the command line's --clip over the scenario's; --time
//      alone moves the scenario's clip);
//   2. every limb target back on its hand or foot, then the ready pose (--ready over the
//      scenario's "ready"; scene/session/ready_poses.h) when one is asked for;
//   3. the scenario's limbs (enabled, options, solve from rest, target) and its ladder, snapped
//      to the rungs if the file asks;
//   4. the command line's targets (a target replaces a snapped one), poles, then policies
//      (seed or natural drop a pole; pole needs one), then the mirror (over the scenario's);
//   5. Evaluate: the given targets solved in the session's order (arms, legs, extra chains),
//      then the mirror.
// Why: a repro file handed over by a game developer must pose the same on the command line as
// in the window; one function means one behaviour (docs/DESIGN.md, "The one road").
// Limits: names are resolved against the model, so errors about chains and clips come only
// once the model is loaded; `CheckRequest` says what can be said before.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "scene/files/scenario.h"
#include "scene/session/posing_session.h"
#include "scene/session/ready_poses.h"
#include "scene/session/trace.h"

namespace ikpose::scene {

// A chain name (limb, end bone) and a model-space point: one --target or --pole.
struct ChainPoint {
  std::string chain;
  glm::vec3 point_ms{0.f};
};

struct PosingRequest {
  std::optional<Scenario> scenario;
  std::vector<ChainPoint> targets;  // solved as given; each chain at most once
  std::vector<ChainPoint> poles;    // each needs a target (here or in the scenario)
  // --policy CHAIN=P (chain named) or --policy P (chain empty: every limb), in order.
  std::vector<std::pair<std::string, anim::KneePolicy>> policies;
  std::optional<std::string> clip;             // overrides the scenario's clip
  std::optional<float> time;                   // seconds; needs a clip (here or in the scenario)
  std::vector<anim::Transform> start_pose_ls;  // a saved pose; empty for the rest pose
  std::optional<anim::MirrorMode> mirror;      // overrides the scenario's
  std::optional<ReadyPose> ready;              // --ready, over the scenario's "ready"
  // The props, loaded (the scenario's and --prop's, placed; app::PlanPose loads them), and
  // --ground on|off over the scenario's "ground".
  std::shared_ptr<const World> world;
  std::optional<bool> ground;
  std::optional<bool> body_help;  // --body-help on|off, over the scenario's
  // A live game's ladder (a targets line's "ladder"), over the scenario's, shown.
  std::optional<LadderInput> ladder;
  std::optional<bool> limits;  // --limits on|off, over the scenario's

  // The clip to play, the command line's first ("" for none).
  std::string ClipName() const;
};

// What can be checked without the model: duplicate chains, a pole without a target, --time
// without a clip or not finite (a non-finite target fails its solve, with the reason). False
// with one line in *error.
bool CheckRequest(const PosingRequest& request, std::string* error);

// Builds the session over `model` (which must outlive it). Null with one line in *error for a
// clip, limb or chain the model lacks or a target that cannot be solved. `facts` (MeasureRig of
// `model`) spare measuring the model again: replays and bakes build one session per frame.
std::unique_ptr<PosingSession> BuildSession(const anim::Model& model, const PosingRequest& request,
                                            std::string* error,
                                            std::shared_ptr<const RigFacts> facts = nullptr);

// BuildSession in its two halves, for one situation solved under several knee policies
// (`ikpose trace` solves each frame as given and under each policy): `BuildSituation` takes
// steps 0 to 4 but the policies, and solves nothing new; `SolveSituation` solves a copy of it
// with `policies` applied (the end of step 4, then step 5). BuildSession(model, request) is
// SolveSituation(*BuildSituation(model, request), request.policies): the same road.
std::unique_ptr<PosingSession> BuildSituation(const anim::Model& model,
                                              const PosingRequest& request, std::string* error,
                                              std::shared_ptr<const RigFacts> facts = nullptr);
std::unique_ptr<PosingSession> SolveSituation(
    const PosingSession& situation,
    const std::vector<std::pair<std::string, anim::KneePolicy>>& policies, std::string* error);

}  // namespace ikpose::scene
