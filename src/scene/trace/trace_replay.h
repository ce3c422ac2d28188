// Replaying a recorded frame: the request that poses it, and the same frame under another policy.
//
// What: `FrameRequest` is the base request of a trace (scenario, clip, policies: what the
// command line gave) with one frame's input laid over it: the clip's time and the limbs'
// targets and poles. `SolveFrame` builds the session from it through the one road
// (scene::BuildSession) and records it; with a policy it first re-chooses every limb's knee
// policy, which is how the viewer draws the other policies' ghosts and how `ikpose trace`
// counts pops per policy.
// Why: each frame is solved from that frame's input pose alone, as a game's IK pass would
// (stateless across frames), so a trace frame poses exactly like `ikpose pose --scene F
// --time t --target ...` with the same input.
// Limits: the pole policy applies only to limbs with a pole in the frame's input; the other
// limbs take their default (the scenario's, else natural), not the base request's --policy.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "anim/knee_policy.h"
#include "anim/model.h"
#include "scene/road/posing_request.h"
#include "scene/session/trace.h"

namespace ikpose::scene {

// `base` with the frame's clip time (when it has one) and its limbs' targets and poles (a target
// of the input replaces the base's for that limb).
PosingRequest FrameRequest(const PosingRequest& base, const TraceFrame& frame);

// `request` with every limb's knee policy replaced by `policy` (pole: only the limbs that have a
// pole in `frame`'s input).
PosingRequest WithPolicy(const PosingRequest& request, const TraceFrame& frame,
                         anim::KneePolicy policy);

// The knee policies `policy` means for `frame` (what WithPolicy puts in the request).
std::vector<std::pair<std::string, anim::KneePolicy>> PoliciesUnder(const TraceFrame& frame,
                                                                    anim::KneePolicy policy);

// The frame's situation (BuildSituation of its FrameRequest): built once, solved as given and
// under each policy by the SolveFrame below, its clip sampled once. Null with one line in *error.
// The frame's props are the caller's to place in `base.world` (MoveProps; `ikpose trace` keeps
// the moved world while they stay).
std::unique_ptr<PosingSession> FrameSituation(const anim::Model& model, const PosingRequest& base,
                                              const TraceFrame& input, std::string* error,
                                              std::shared_ptr<const RigFacts> facts = nullptr);
// The frame's situation solved (under `policy` when given) and recorded: the same session as
// the SolveFrame below gives.
std::unique_ptr<PosingSession> SolveFrame(const PosingSession& situation, const PosingRequest& base,
                                          const TraceFrame& input,
                                          std::optional<anim::KneePolicy> policy,
                                          TraceFrame* recorded, std::string* error);

// The frame's input solved (under `policy` when given) and recorded, its props placed. Null
// session and one line in *error when it cannot be built. `facts`: the model's, measured once for
// every frame.
std::unique_ptr<PosingSession> SolveFrame(const anim::Model& model, const PosingRequest& base,
                                          const TraceFrame& input,
                                          std::optional<anim::KneePolicy> policy,
                                          TraceFrame* recorded, std::string* error,
                                          std::shared_ptr<const RigFacts> facts = nullptr);

// Every frame's input solved again under `policy`; false with the first frame's error.
bool ReplayUnder(const anim::Model& model, const PosingRequest& base,
                 const std::vector<TraceFrame>& inputs, anim::KneePolicy policy,
                 std::vector<TraceFrame>* replayed, std::string* error);

}  // namespace ikpose::scene
