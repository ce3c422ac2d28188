// The main ImGui panel: per limb its reach state in colour and a plain sentence (where the knee
// or elbow points, how far from full stretch, whether it is at a limit), with the solver's
// mathematics (lengths, reach margin, θ, the knee circle, residual, flip risk) under a
// "details" fold, and its options; the bone tree with the selected bone's rotations; clip
// playback; the ladder; the mirror; pictures (screenshot, field of view); undo and redo; the
// renderer and frame times under "About". Text wraps to the panel's width, so a narrow window
// loses nothing. It edits the scene's state and never calls GL or SDL.
#pragma once

#include <array>
#include <map>
#include <string>
#include <vector>

#include "scene/files/pose_library.h"
#include "scene/session/hand_pose.h"
#include "scene/session/posing_session.h"
#include "scene/session/ready_poses.h"
#include "scene/session/undo_history.h"
#include "scene/trace/stability.h"
#include "scene/view/overlays.h"
#include "ui/command.h"
#include "ui/props_panel.h"  // IWYU pragma: export

namespace ikpose::ui {

// The pose library section: what the app shows (the library, each entry's thumbnail texture)
// and what the user chose (what the buttons' commands carry).
struct LibraryPanel {
  const scene::PoseLibrary* library = nullptr;          // none hides the section
  std::map<std::string, void*> thumbnails;              // ImTextureID per entry name, from the app
  std::map<std::string, std::string> thumbnail_errors;  // decoding failures, from the app
  std::string selected;
  std::string save_name;
  std::string rename_to;
  scene::ApplyOptions apply;
  std::vector<std::string> unmatched;  // of the last apply
  std::string note;                    // the last library action's outcome
  bool thumbnails_stale = false;       // set by the app: the thumbnails are not uploaded yet
  bool shown = false;                  // set by the panel: the section is open this frame
};

// The ready poses (scene/session/ready_poses.h): their thumbnails from the app, the one chosen.
struct ReadyPanel {
  std::array<void*, scene::kReadyPoses.size()>
      thumbnails{};    // ImTextureID per scene::kReadyPoses entry, null: none yet
  int chosen = -1;     // kReadyPoses[chosen] was the last one clicked
  bool shown = false;  // set by the panel: the section is open this frame
  bool stale = true;   // set by the app: thumbnails for this model not drawn yet
  std::string note;    // the last apply's problem, if any
};

// The hands section: per arm its sliders (an edit makes a cmd::PoseHand).
struct HandsPanel {
  std::array<scene::HandPose, 2> shown{};  // left, right
  float grip_radius = 0.02f;               // model units
  std::string note;
};

// The "where it will pop" section: the stability slice (scene/trace/stability.h) around a limb's
// target, facing the camera; the numbers of the last grid measured come from the app.
struct StabilityPanel {
  bool shown = false;                      // U
  anim::Limb limb = anim::Limb::kLeftLeg;  // follows the last limb dragged
  bool measuring = false;                  // a new grid is being measured
  bool measured = false;                   // the fields below describe a grid
  int cells = 0;                           // per side
  float spacing = 0.0f;                    // model units
  float max_sensitivity = 0.0f;
  int flip_edges = 0;
  int reach_edges = 0;
  std::string error;  // why the last grid could not be measured
};

// The bake section: how to bake, and the running bake's progress.
struct BakePanel {
  float fps = 30.0f;
  bool lock_left_foot = false;  // hold the foot where the clip plants it
  bool lock_right_foot = false;
  float progress = -1.0f;  // 0..1 while a bake runs, < 0 when none does
  int frames = 0;          // of the running bake
};

// The Picture section: the screenshot's size and background, and the view's field of view.
struct PicturePanel {
  bool window_size = true;  // else width x height
  int width = 1920;
  int height = 1080;
  bool transparent = false;  // the background left transparent (alpha 0) in the PNG
  float fov_y_deg = 40.0f;   // the camera's vertical field of view, shown and edited
  // A reference image (PNG or JPEG) behind the character, facing the front or the side view.
  std::string reference_path;
  bool reference_shown = false;  // set by the app once an image is loaded
  bool reference_side = false;   // false: faces the front view; true: the character's right side
  float reference_opacity = 0.6f;
};

struct PanelState {
  std::string model_label;  // file name, shown at the top
  std::string renderer;     // GL renderer string, so users know what draws the frame
  std::string status;       // the last outcome: green when `status_ok`, else red
  bool status_ok = false;
  bool unsaved = false;       // the session has edits not saved to a scene file
  std::string restore_offer;  // non-empty: a crash left an autosave; offered back at the top
  float frame_ms_cpu = 0.0f;
  float frame_ms_gpu = 0.0f;
  float model_height = 1.0f;
  float width = 0.0f;  // the docked panel's width in pixels, once drawn
  int selected_bone = -1;
  bool corner_view = false;     // a small side view of the character in the bottom-right corner
  bool ring_local_axes = true;  // the FK rings turn about the bone's axes (else the model's)
  scene::OverlayOptions overlays;
  const scene::UndoHistory* history = nullptr;  // for the undo/redo row; none hides it
  LibraryPanel library;
  HandsPanel hands;
  BakePanel bake;
  PicturePanel picture;
  ReadyPanel ready;
  StabilityPanel stability;
  PropsPanel props;
  // What the buttons asked for this frame, in order; the app applies and clears them.
  std::vector<Command> commands;
  // Where some controls were drawn in the last frame (window pixels: x0, y0, x1, y1), by their
  // label: section headers, the autosave offer's and the mirror's buttons. The viewer's report
  // carries them, so that a script (or a test) can click what a user clicks.
  std::map<std::string, std::array<float, 4>> shown_px;
};

// The commands the bake's and the picture's buttons make (their keys, Ctrl+B and F12, make the
// same), with the section's settings as their arguments.
cmd::BakeClip BakeCommand(const BakePanel& bake);
cmd::Screenshot ScreenshotCommand(const PicturePanel& picture);

// Draws the panel; edits to targets and options go straight into `session`.
void DrawMainPanel(scene::PosingSession* session, PanelState& state);
// Notes where the control just drawn is, under `label` (PanelState::shown_px).
void Shown(PanelState& state, const char* label);

// The quit question as a modal window: save and quit (to `scene_path`), quit without saving,
// or stay; the answer is a command.
void DrawQuitQuestion(PanelState& state, const std::string& scene_path);

// Where a knee or elbow points and how far the limb is from full stretch, as a sentence:
// "knee points forward, 12 deg out; 8.0 cm from full stretch". `forward_ms` is the character's
// facing, `up_ms` its up; `meters_per_unit` <= 0 when the model's units are unknown.
std::string PlainLimbSentence(anim::Limb limb, const anim::ChainSolveResult& result,
                              const glm::vec3& forward_ms, const glm::vec3& up_ms,
                              float meters_per_unit);

// Reach state as a word users read: "reachable", "too far", "too close".
const char* ReachLabel(ik::Reach reach);

}  // namespace ikpose::ui
