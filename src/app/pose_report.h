// The pose report of a posing session: what `ikpose pose --json` prints, `pose --out` saves and
// `render --report` / `view --report` write for the pose they drew.
//
// What: per solved chain (the given, enabled targets, in solve order) the solver's report, per
// bone the local transform and model-space position (asset::PoseReport).
// Why: every command builds its pose through scene::BuildSession, so one report of the session
// makes the command line and the window comparable field by field.
// Limits: chains not solved (a target nobody placed, resting on its hand) are not listed.
#pragma once

#include <vector>

#include "asset/report.h"
#include "scene/posing_session.h"

namespace ikpose::app {

// The chains the session solved, in its solve order, named as the report names them.
std::vector<asset::SolvedChain> SolvedChains(const scene::PosingSession& session);

asset::Json SessionReport(const scene::PosingSession& session);

}  // namespace ikpose::app
