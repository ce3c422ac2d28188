// The main ImGui panel: per limb its reach state in colour, the solver's report (lengths, reach
// margin in model units and centimetres, θ, the knee circle, knee displacement, residual, flip
// risk) and its options; the bone tree with the selected bone's rotations; clip playback; the
// ladder; frame times; undo and redo. It edits the scene's state and never calls GL or SDL.
#pragma once

#include <string>

#include "scene/overlays.h"
#include "scene/posing_session.h"
#include "scene/undo_history.h"

namespace ikpose::ui {

struct PanelState {
  std::string model_label;  // file name, shown at the top
  std::string renderer;     // GL renderer string, so users know what draws the frame
  std::string status;       // the last load error or note, shown in colour
  float frame_ms_cpu = 0.0f;
  float frame_ms_gpu = 0.0f;
  float model_height = 1.0f;
  float meters_per_unit = 1.0f;  // for reach margins in centimetres
  int selected_bone = -1;
  scene::OverlayOptions overlays;
  const scene::UndoHistory* history = nullptr;  // for the undo/redo row; none hides it
  // Set by the panel, handled by the app after the frame. Buttons that edit the session are
  // requests too, so the app can record each as one undo step.
  bool request_reset_targets = false;
  bool request_frame_model = false;
  bool request_save_scene = false;
  bool request_load_scene = false;
  bool request_snap_to_rungs = false;
  int request_step_rungs = 0;  // +1 step up, -1 step down
  bool request_undo = false;
  bool request_redo = false;
  bool request_export_pose = false;  // write the pose shown as a .glb
};

// Draws the panel; edits to targets and options go straight into `session`.
void DrawMainPanel(scene::PosingSession* session, PanelState& state);

// Reach state as a word users read: "reachable", "too far", "too close".
const char* ReachLabel(ik::Reach reach);

}  // namespace ikpose::ui
