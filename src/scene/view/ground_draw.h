// What ground contact looks like on screen: a ring on the surface where each foot stands (green,
// amber when the sole's tilt was held at the ankle's range) and, for each bone inside a prop or
// the ladder, the bone drawn red with a cross at its deepest point. Drawn in every frame, with
// or without the other overlays, so `ikpose render` shows them too.
#pragma once

#include "anim/debug_draw.h"
#include "scene/session/posing_session.h"

namespace ikpose::scene {

void DrawGroundContacts(const PosingSession& session, float model_height, anim::DebugDraw& draw);

}  // namespace ikpose::scene
