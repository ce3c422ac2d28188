// The viewer's state and the parts of its host, each in its own file: opening a model
// (viewer_model.cpp), the user's commands (viewer_commands.cpp), mouse and keys
// (viewer_input.cpp) and the report written on exit (viewer_report.cpp). viewer.cpp holds the
// loop: init / event / frame / cleanup.
#pragma once

#include <SDL.h>

#include <chrono>
#include <map>
#include <memory>
#include <string>

#include "anim/debug_draw.h"
#include "anim/model.h"
#include "app/gl_window.h"
#include "app/orbit_camera.h"
#include "app/ring_drag.h"
#include "app/target_drag.h"
#include "app/viewer.h"
#include "app/viewer_link.h"
#include "app/viewer_props.h"
#include "app/viewer_trace.h"
#include "render/frame_painter.h"
#include "render/model_renderer.h"
#include "render/thumbnail.h"
#include "scene/bake.h"
#include "scene/pose_library.h"
#include "scene/posing_request.h"
#include "scene/posing_session.h"
#include "scene/surface_pick.h"
#include "scene/undo_history.h"
#include "ui/panel.h"

namespace ikpose::app {

// What a held mouse button does: move a handle or the grabbed body (TargetDrag), turn the
// selected bone by a ring (RingDrag), orbit or pan the camera.
enum class MouseMode { kNone, kHandle, kRing, kOrbit, kPan };

// Everything a loaded model needs; replaced whole when another file loads.
struct LoadedModel {
  std::unique_ptr<anim::Model> model;
  std::unique_ptr<scene::PosingSession> session;
  std::unique_ptr<render::ModelRenderer> renderer;
  std::string path;
  glm::vec3 center_ms{0.0f};  // of the rest pose's bounds
  float radius = 1.0f;
  float height = 1.0f;
  float floor_y = 0.0f;
};

// A bake running a few frames per drawn frame (viewer_bake.cpp), and what the last one wrote.
struct ViewerBake {
  std::unique_ptr<scene::Baker> baker;  // null when none runs
  std::filesystem::path out;
  std::string last_file;  // the last file written, "" for none
  int last_frames = 0;
};

// Members are destroyed in reverse order, so every GL object below `window` goes before the
// context does.
struct ViewerState {
  ViewerOptions options;
  scene::PosingRequest request;  // what the command line asked for, parsed
  std::string scene_path;        // where "save scene" writes and "load scene" reads
  std::unique_ptr<GlWindow> window;
  render::FramePainter painter;
  // The pose library (viewer_library.cpp) and its thumbnails as textures, by entry name.
  std::unique_ptr<scene::PoseLibrary> library;
  render::ThumbnailPainter thumbnail_painter;
  std::map<std::string, std::unique_ptr<render::ImageTexture>> thumbnails;
  std::vector<std::unique_ptr<render::ImageTexture>> retired_thumbnails;  // freed next frame
  anim::DebugDraw grid_lines;  // recorded each frame, kept to reuse their storage
  anim::DebugDraw overlay_lines;
  LoadedModel loaded;
  PropRenderers prop_renderers;  // viewer_props.cpp: the props and solid ladder on screen
  scene::UndoHistory history;    // of the loaded model's session; a new model starts a new one
  OrbitCamera camera;
  ui::PanelState panel;
  ViewerTimeline timeline;  // viewer_trace.cpp
  ViewerBake bake;
  ViewerLink link;  // viewer_link.cpp
  MouseMode mouse = MouseMode::kNone;
  TargetDrag drag;
  RingDrag ring_drag;
  scene::SurfacePicker picker;  // the skinned surface, re-skinned when the pose changed
  int hover_bone = -1;          // the bone a click on the body would take, -1 for none
  glm::vec2 hover_px{0.0f};     // where the cursor was then, in window pixels
  float first_frame_ms = 0.0f;  // program start to the first frame swapped on screen
  bool running = true;
  bool minimized = false;
  bool imgui_ready = false;
  std::chrono::steady_clock::time_point last_frame = std::chrono::steady_clock::now();
};

// viewer_model.cpp. Reading a file needs no GL, so it can run while the window opens.
struct ParsedModel {
  std::unique_ptr<anim::Model> model;
  std::string error;
};
ParsedModel ParseModel(const std::string& path);
// Makes `parsed` the current model, posed by `request` through scene::BuildSession: session,
// GPU buffers, framing, a new undo history. False (the current model stays) with *error.
bool OpenModel(ViewerState& state, const std::string& path, ParsedModel parsed,
               const scene::PosingRequest& request, std::string* error);
// The camera in front of the character, framing it.
void FaceCharacter(ViewerState& state);
// The camera yaw that looks at the character's face.
float FacingYawDeg(const ViewerState& state);

// viewer_commands.cpp: applies the panel's and the keys' commands in order, each edit as one
// undo step, and clears them.
void ApplyCommands(ViewerState& state);

// viewer_bake.cpp: starts a bake of what is on screen over its clip (a scenario captured from
// the session, so it is the one road's bake, as `ikpose export --scene S --bake`), steps it for
// a few milliseconds each frame, writes the file when done; cancelling writes nothing.
void StartBake(ViewerState& state);
void StepBake(ViewerState& state);
void CancelBake(ViewerState& state);

// viewer_library.cpp: opens the library folder (--library, else the per-user default) and
// uploads its thumbnails; applies a library or hand command (`editing`: a widget is held, so a
// hand slider is not a step yet).
void OpenLibrary(ViewerState& state);
void SyncThumbnails(ViewerState& state);
void ApplyLibraryCommand(ViewerState& state, ui::Command command, bool editing);

// viewer_input.cpp: mouse and keys (after ImGui has seen the event).
void HandleInput(ViewerState& state, const SDL_Event& event);
// The selected bone's rings: their size, and the view ring's axis (from the eye to the joint).
float RingRadius(const ViewerState& state);
glm::vec3 RingViewDir(const ViewerState& state);

// viewer_report.cpp: the pose report of what was drawn (what `ikpose pose --json` prints for
// the same request); a window adds its own state under "viewer".
bool WriteViewerReport(const ViewerState& state, std::string* error);

}  // namespace ikpose::app
