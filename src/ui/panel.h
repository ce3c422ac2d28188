// The main ImGui panel: per limb its reach state in colour, the solver's report (lengths, reach
// margin in model units and centimetres (from the model's units), θ, the knee circle, knee
// displacement, residual, flip risk) and its options; the bone tree with the selected bone's
// rotations; clip playback; the ladder; the mirror (rest symmetry, mirror while editing, flip);
// frame times; undo and redo. It edits the scene's state and
// never calls GL or SDL.
#pragma once

#include <string>
#include <vector>

#include "scene/overlays.h"
#include "scene/posing_session.h"
#include "scene/undo_history.h"
#include "ui/command.h"

namespace ikpose::ui {

struct PanelState {
  std::string model_label;  // file name, shown at the top
  std::string renderer;     // GL renderer string, so users know what draws the frame
  std::string status;       // the last load error or note, shown in colour
  float frame_ms_cpu = 0.0f;
  float frame_ms_gpu = 0.0f;
  float model_height = 1.0f;
  float width = 0.0f;  // the docked panel's width in pixels, once drawn
  int selected_bone = -1;
  scene::OverlayOptions overlays;
  const scene::UndoHistory* history = nullptr;  // for the undo/redo row; none hides it
  // What the buttons asked for this frame, in order; the app applies and clears them.
  std::vector<Command> commands;
};

// Draws the panel; edits to targets and options go straight into `session`.
void DrawMainPanel(scene::PosingSession* session, PanelState& state);

// Reach state as a word users read: "reachable", "too far", "too close".
const char* ReachLabel(ik::Reach reach);

}  // namespace ikpose::ui
