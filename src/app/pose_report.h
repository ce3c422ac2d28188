// The pose report of a posing session: what `ikpose pose --json` prints, `pose --out` saves and
// `render --report` / `view --report` write for the pose they drew.
//
// What: per solved chain (the given, enabled targets, in solve order) the solver's report, per
// bone the local transform and model-space position (asset::PoseReport); with a mirror on,
// "mirror": the mode, the plane, the rest symmetry check and, per mirrored limb, where its end
// landed next to the mirror image of its source limb's target.
// Why: every command builds its pose through scene::BuildSession, so one report of the session
// makes the command line and the window comparable field by field.
// Limits: chains not solved (a target nobody placed, resting on its hand) are not listed.
#pragma once

#include <string>
#include <vector>

#include "asset/report.h"
#include "scene/session/posing_session.h"
#include "scene/session/trace.h"

namespace ikpose::app {

// The chains the session solved, in its solve order, named as the report names them.
std::vector<asset::SolvedChain> SolvedChains(const scene::PosingSession& session);

asset::Json SessionReport(const scene::PosingSession& session);

// A ladder as a game sent it or a trace frame holds it: the base and each size it gives, as
// the window's reports write them (the timeline's frame, the link's newest frame).
asset::Json LadderInputReport(const scene::LadderInput& ladder);

// With a mirror on and an asymmetric rest: one line saying so (mirrored anyway); on a rig
// without left/right pairs, one line saying nothing was mirrored; else "".
std::string MirrorWarning(const scene::PosingSession& session);

}  // namespace ikpose::app
