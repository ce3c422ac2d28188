// The Props section of the main panel (ui/panel.h calls it): the props the character stands
// among, placed and moved by hand.
//
// What: each prop by file name with its position (model space), turn about +Y and scale, and
// "remove"; a file field and "add" (any model file assimp reads; a file dropped on the window
// with Shift does the same) and one button per bundled prop (stairs, ramp, box, chair, ladder).
// An edit rebuilds the World (a World never changes once built) and re-solves; the app commits
// it as one undo step when the widget is let go (props are in the undo snapshot). A click on a
// prop in the view selects it here, dragging it moves it over the floor, and dragging its turn
// ring (app/prop_turn.h) turns it.
// Why: a prop placed by a scenario or --prop lands where the file says; posing a foot on a
// step needs the step moved, turned or scaled to fit the character, on screen.
#pragma once

#include <filesystem>
#include <string>

#include "scene/session/posing_session.h"
#include "ui/command.h"

namespace ikpose::ui {

struct PropsPanel {
  std::string add_path;                  // the file "add" opens (cmd::AddProp carries it)
  std::filesystem::path bundled_folder;  // where the bundled props are (set by the app)
  int selected = -1;                     // the prop picked in the view or the list; -1 none
  std::string note;                      // why the last edit was refused, "" for none
};

struct PanelState;
// Edits placements in place (a new World each change); "add" and "remove" append commands
// (cmd::AddProp, cmd::RemoveProp), applied by the app as one undo step each.
void DrawPropsSection(scene::PosingSession& session, PanelState& state);

// `props` with prop `index` placed at `placement` (or removed, with nullopt-like `remove`), as a
// new World on `session` (the next Evaluate solves it). False with *error (the session keeps its
// props).
bool ReplaceProp(scene::PosingSession& session, int index, const scene::PropPlacement* placement,
                 std::string* error);

}  // namespace ikpose::ui
