// The viewer: one state struct driven by init / event / frame / cleanup, a thin host over the
// scene, render and ui layers. `ikpose view` runs it in a window; `ikpose render` runs the very
// same frame through SDL's offscreen driver and saves the image.
#pragma once

#include <optional>
#include <string>

#include "app/pose_plan.h"
#include "app/stability_report.h"

namespace ikpose::app {

struct CameraSetting {
  float yaw_deg = 0.0f;
  float pitch_deg = 10.0f;
  float distance = 0.0f;  // 0: frame the model
};

struct ViewerOptions {
  std::string model_path;  // empty: the scenario's model, else the bundled character
  PoseRequest request;     // --scene, --target, --pole, --clip, --time: as pose and export
  int width = 1280;
  int height = 720;
  bool offscreen = false;
  std::string screenshot_path;  // offscreen: where the PNG goes
  std::string report_path;      // written on exit: the pose report of what was drawn
  std::optional<CameraSetting> camera;
  bool overlay = true;         // offscreen: draw skeleton, targets and circles
  bool panel = true;           // offscreen: draw the ImGui panel
  bool grid = true;            // the floor grid
  bool corner_view = false;    // a small side view of the character in a corner
  std::string library_dir;     // the pose library's folder; empty: scene::DefaultLibraryFolder()
  int quit_after_frames = 0;   // window: close after this many frames (startup timing), 0 never
  std::string trace_path;      // --trace: a trace file opened on the timeline
  int trace_frame = 0;         // --frame: the trace's frame shown first (its pop selected)
  std::string listen;          // --listen [HOST:]PORT: a running game's targets, live
  std::string reference_path;  // --reference: an image behind the character
  float autosave_seconds = 30.0f;  // window: autosave an edited session this often; 0 never
  StabilityOptions stability;      // --stability CHAIN: the slice shown from the start
};

// Returns the process exit code; errors are printed as one line on stderr.
int RunViewer(const ViewerOptions& options);

}  // namespace ikpose::app
