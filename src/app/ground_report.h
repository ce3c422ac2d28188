// The world in the pose report: the props, each foot's ground contact, the bones inside props,
// and whether the ladder's rungs are within the character's reach (docs/DESIGN.md, `pose
// --json`'s `props`, `ground`, `penetrations`).
// Why: `pose --json`, `render --report` and `view --report` say the same thing, so it is made
// once here from the session.
#pragma once

#include <string>
#include <vector>

#include "asset/report.h"
#include "scene/session/posing_session.h"

namespace ikpose::app {

// Adds `props`, `ground` and `penetrations` to `report` when the session has props, ground
// contact or a bone inside something.
void AddWorldReport(const scene::PosingSession& session, asset::Json& report);

// One line each: bones inside a prop or the ladder, and props or a ladder far off the
// character's size (scene/session/world_scale.h); empty when fine.
std::vector<std::string> WorldWarnings(const scene::PosingSession& session);

}  // namespace ikpose::app
