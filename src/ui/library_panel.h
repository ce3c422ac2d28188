// The pose library and hands sections of the main panel (ui/panel.h calls them).
//
// What: the library's thumbnails in a grid (textures the app uploaded; ui never calls GL) with
// their names; the selected pose's problems (one line per broken file), apply (whole or chosen
// limbs, blended; "flipped" is offered disabled until the rig's mirror map exists), rename and
// delete; a name field and "save current pose". Per hand: curl and spread sliders and the
// presets (relaxed, fist, point, grip a cylinder of the radius given); a hand without finger
// bones says so. Every action is a Command the app applies as one undo step.
#pragma once

#include "ui/panel.h"

namespace ikpose::ui {

void DrawLibrarySection(const scene::PosingSession& session, PanelState& state);
void DrawHandsSection(const scene::PosingSession& session, PanelState& state);

}  // namespace ikpose::ui
