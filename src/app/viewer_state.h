// The viewer's state and the parts of its host, each in its own file: opening a model
// (viewer_model.cpp), the user's commands (viewer_commands.cpp), mouse and keys
// (viewer_input.cpp) and the report written on exit (viewer_report.cpp). viewer.cpp holds the
// loop: init / event / frame / cleanup.
#pragma once

#include <SDL.h>

#include <chrono>
#include <future>
#include <map>
#include <memory>
#include <string>

#include "anim/debug_draw.h"
#include "anim/model.h"
#include "app/autosave_files.h"
#include "app/gl_window.h"
#include "app/orbit_camera.h"
#include "app/prop_turn.h"
#include "app/ring_drag.h"
#include "app/target_drag.h"
#include "app/viewer.h"
#include "app/viewer_link.h"
#include "app/viewer_props.h"
#include "app/viewer_stability.h"
#include "app/viewer_trace.h"
#include "render/frame_painter.h"
#include "render/model_renderer.h"
#include "render/reference_image.h"
#include "render/thumbnail.h"
#include "scene/files/pose_library.h"
#include "scene/road/posing_request.h"
#include "scene/session/posing_session.h"
#include "scene/session/undo_history.h"
#include "scene/trace/bake.h"
#include "scene/world/surface_pick.h"
#include "ui/panel.h"

namespace ikpose::app {

// What a held mouse button does: move a handle or the grabbed body (TargetDrag), turn the
// selected bone by a ring (RingDrag), orbit or pan the camera, slide a prop (PropDrag) or turn
// it by its ring (PropTurn).
enum class MouseMode { kNone, kHandle, kRing, kOrbit, kPan, kProp, kPropTurn };

// A prop dragged over the floor (viewer_input.cpp): it slides in the horizontal plane through
// the point grabbed, which stays under the cursor.
struct PropDrag {
  int prop = -1;
  float plane_y_ms = 0.0f;
  glm::vec3 grab_to_origin_ms{0.0f};  // the prop's position minus the point grabbed
};

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

// Quitting safely (viewer_quit.cpp): what was last saved, the quit question, the autosave.
struct ViewerSafety {
  scene::PosingSnapshot saved;      // the session as last saved or opened: quitting asks nothing
  scene::PosingSnapshot autosaved;  // as the autosave file holds it
  float since_autosave_s = 0.0f;
  bool quit_asked = false;              // the "save before quitting?" question is open
  std::filesystem::path restore_offer;  // an autosave left by a window that did not close
  std::string restore_when;             // its time, as the offer says it
  std::unique_ptr<OwnAutosave> own;     // this window's autosave file and its lock; null: none
};

// Blender's G / R / S on the selected bone, driven by the mouse with no button held
// (viewer_transform.cpp): X, Y, Z pick an axis, digits type the amount, Enter or a left click
// applies, Esc or a right click puts everything back.
struct KeyTransform {
  enum class Kind { kNone, kGrab, kRotate, kScale };
  Kind kind = Kind::kNone;
  int axis = -1;             // 0, 1, 2: along or about model x, y, z; -1: free (the view's)
  bool trackball = false;    // R twice: turn freely as a ball under the mouse
  std::string typed;         // the amount typed, as typed ("-0.25")
  glm::vec2 start_px{0.0f};  // the mouse when the transform began, window pixels
  glm::vec2 mouse_px{0.0f};
  glm::vec2 pivot_px{0.0f};  // the selected joint on screen
  glm::vec3 pivot_ms{0.0f};
  scene::TurnStart turn;                   // kRotate
  anim::Limb limb = anim::Limb::kLeftArm;  // kScale: whose target
  glm::vec3 root_ms{0.0f};                 // kScale: the limb's root joint
  glm::vec3 target_start_ms{0.0f};
  bool active() const { return kind != Kind::kNone; }
};

// Members are destroyed in reverse order, so every GL object below `window` goes before the
// context does.
struct ViewerState {
  ViewerOptions options;
  scene::PosingRequest request;  // what the command line asked for, parsed
  std::string scene_path;        // where "save scene" writes and "load scene" reads
  std::unique_ptr<GlWindow> window;
  render::FramePainter painter;
  render::ReferenceImage reference;  // viewer_picture.cpp
  // The pose library (viewer_library.cpp) and its thumbnails as textures, by entry name.
  std::unique_ptr<scene::PoseLibrary> library;  // null until read (StartLibrary)
  std::future<std::unique_ptr<scene::PoseLibrary>> library_reading;
  render::ThumbnailPainter thumbnail_painter;
  std::map<std::string, std::unique_ptr<render::ImageTexture>> thumbnails;
  std::vector<std::unique_ptr<render::ImageTexture>> retired_thumbnails;  // freed next frame
  std::array<std::unique_ptr<render::ImageTexture>, scene::kReadyPoses.size()>
      ready_thumbnails;        // scene::kReadyPoses
  anim::DebugDraw grid_lines;  // recorded each frame, kept to reuse their storage
  anim::DebugDraw overlay_lines;
  LoadedModel loaded;
  PropRenderers prop_renderers;  // viewer_props.cpp: the props and solid ladder on screen
  scene::UndoHistory history;    // of the loaded model's session; a new model starts a new one
  OrbitCamera camera;
  ui::PanelState panel;
  ViewerTimeline timeline;  // viewer_trace.cpp
  ViewerBake bake;
  ViewerLink link;            // viewer_link.cpp
  ViewerStability stability;  // viewer_stability.cpp
  MouseMode mouse = MouseMode::kNone;
  PropDrag prop_drag;
  PropTurn prop_turn;
  bool hover_prop_ring = false;         // the selected prop's turn ring is under the cursor
  scene::PosingSnapshot gesture_start;  // before the drag or key transform now held (Esc)
  ViewerSafety safety;
  KeyTransform transform;
  std::string done_status;    // the status line shown green: the last success said
  bool panel_hidden = false;  // N
  TargetDrag drag;
  RingDrag ring_drag;
  scene::SurfacePicker picker;  // the skinned surface, re-skinned when the pose changed
  int hover_bone = -1;          // the bone a click on the body would take, -1 for none
  int hover_ring = -1;          // the selected bone's ring under the cursor (scene::RingAxis)
  int drag_axis = -1;           // the axis X/Y/Z hold on the dragged handle, -1 for none
  glm::vec2 hover_px{0.0f};     // where the cursor was then, in window pixels
  float first_frame_ms = 0.0f;  // program start to the first frame swapped on screen
  // Program start to the end of each start-up step, in order ("window", "model open", ...).
  std::vector<std::pair<std::string, float>> startup_ms;
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
// Reads and opens the model file at `path` while the viewer runs (a dropped file, a scene or
// trace naming another model). When it cannot be (a broken file, an importer that crashed or
// ran out of memory) the current model stays and *status gets one line: "could not open
// <path>: <why>".
bool OpenModelFile(ViewerState& state, const std::string& path, const scene::PosingRequest& request,
                   std::string* status);
// What the undo history does when the session on screen is replaced.
enum class SessionHistory {
  kKeep,     // not an edit: a timeline frame put back on screen
  kStep,     // one undo step (a scene loaded onto the same model)
  kRestart,  // a new history (another model)
};
// The one way the session on screen is replaced (a scene loaded, a trace's frame shown, a model
// opened): whatever the mouse held on the old session (a target, a ring, a prop) lets go, and
// the history does as `history` says (`label` names the step).
void SwapSession(ViewerState& state, std::unique_ptr<scene::PosingSession> session,
                 SessionHistory history, const char* label = "");
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
void StartBake(ViewerState& state, const ui::cmd::BakeClip& how);
void StepBake(ViewerState& state);
void CancelBake(ViewerState& state);

// viewer_library.cpp: opens the library folder (--library, else the per-user default) and
// uploads its thumbnails; applies the library's and the hands' commands, each edit one undo step
// (`editing`: a widget is held, so a hand slider is not a step yet).
// The library's files are read on their own thread once the first frame is on screen (a library
// of hundreds of poses and pictures takes most of a second, which the first frame need not
// wait for): the window polls for it each frame and shows its section once it is read; a
// headless frame waits for it, so that a picture is always the same.
void StartLibrary(ViewerState& state);
void PollLibrary(ViewerState& state, bool wait);
void SyncThumbnails(ViewerState& state);
void LibrarySave(ViewerState& state, const std::string& name);
void LibraryApply(ViewerState& state, const std::string& name, const scene::ApplyOptions& options);
void LibraryRename(ViewerState& state, const std::string& from, const std::string& to);
void LibraryDelete(ViewerState& state, const std::string& name);
void LibraryRefresh(ViewerState& state);
void PoseHand(ViewerState& state, anim::Limb arm, const scene::HandPose& pose, bool editing);
// The ready poses' thumbnails for the loaded model (each pose applied, drawn, taken back), and
// applying one as an undo step.
void SyncReadyThumbnails(ViewerState& state);
void ApplyReadyPose(ViewerState& state, scene::ReadyPose pose);

// viewer_quit.cpp. A quit (the window's close button, Ctrl+Q) asks first when the session has
// unsaved edits; the answer: save and quit, quit without saving, or stay. The session is
// autosaved as a scenario into the window's own file in the per-user state folder
// (autosave_files.h) while it has edits; a clean exit removes it, so one found at start-up that
// no running window holds was left by a crash and is offered back.
bool UnsavedEdits(const ViewerState& state);
void MarkSaved(ViewerState& state);
void RequestQuit(ViewerState& state);
void AnswerQuit(ViewerState& state, ui::QuitAnswer answer);
void StepAutosave(ViewerState& state, float seconds);
void FindAutosave(ViewerState& state);
// The crash's autosave back on screen (`restore`), or discarded; the offer goes either way.
void AnswerAutosave(ViewerState& state, bool restore);
void RemoveAutosave(ViewerState& state);
// Sets the status line as a success (shown green); any other status is an error (red).
void SayDone(ViewerState& state, std::string text);
std::string ScenePath(const ViewerState& state);
// Saves the session to the scene file; false with the status line saying why.
bool SaveScene(ViewerState& state);
bool LoadSceneFrom(ViewerState& state, const std::string& path);

// viewer.cpp: the key light comes from above, over the camera's right shoulder.
render::Lighting KeyLight(const OrbitCamera& camera);

// viewer_picture.cpp: F12 or the panel's button writes a PNG of the view (without the panel)
// at the window's size or the panel's chosen size, optionally with a transparent background.
void TakeScreenshot(ViewerState& state, const ui::cmd::Screenshot& how);
// Shows a PNG or JPEG file as the reference image; false (the status line says why, the previous
// image stays) for a file that cannot be read or decoded.
bool LoadReference(ViewerState& state, const std::string& path);
// Draws the reference image, if any, behind the character: call first in a frame.
void DrawReference(ViewerState& state, const glm::mat4& view_proj);
// A dropped file is an image (by its name) to show as the reference.
bool IsImageFile(const std::string& path);

// viewer_transform.cpp: G / R / S (see KeyTransform). Begin returns false, saying why in the
// status line, when the selection cannot be moved that way.
bool BeginKeyTransform(ViewerState& state, KeyTransform::Kind kind);
void TransformKey(ViewerState& state, const SDL_Keysym& key);
void TransformMouse(ViewerState& state, glm::vec2 mouse_px);
void EndKeyTransform(ViewerState& state, bool apply);
std::string TransformHint(const ViewerState& state);
// Puts back the session as it was before the held drag or transform (Esc, right click).
void CancelGesture(ViewerState& state);

// viewer_input.cpp: mouse and keys (after ImGui has seen the event).
void HandleInput(ViewerState& state, const SDL_Event& event);
// The selected bone's rings: their size, and the view ring's axis (from the eye to the joint).
float RingRadius(const ViewerState& state);
glm::vec3 RingViewDir(const ViewerState& state);

// viewer_report.cpp: the pose report of what was drawn (what `ikpose pose --json` prints for
// the same request); a window adds its own state under "viewer".
bool WriteViewerReport(const ViewerState& state, std::string* error);

}  // namespace ikpose::app
