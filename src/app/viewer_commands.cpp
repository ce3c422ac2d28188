// The viewer's commands (ui::Command), from panel buttons and keys alike, applied in one place.
// Each command that edits the session is one undo step; saving, loading and exporting report
// in the panel's status line.
#include <imgui.h>

#include <filesystem>
#include <utility>
#include <variant>

#include "anim/file_paths.h"
#include "app/paths.h"
#include "app/prop_option.h"
#include "app/viewer_state.h"
#include "asset/export_gltf.h"
#include "scene/files/scenario.h"
#include "ui/props_panel.h"

namespace ikpose::app {

namespace {

// Writes the pose on screen (clip and IK), with the props beside it, as `<model stem>-posed.glb`
// beside the scenario file or in the working directory; the status line says where, or why not.
void ExportPose(ViewerState& state) {
  const std::filesystem::path path = PosedExportPath(state.scene_path, state.loaded.path);
  std::vector<std::string> warnings;
  std::string error;
  const std::vector<asset::PlacedModel> props =
      PropsToExport(state.loaded.session->edits.world.get());
  if (asset::WritePosedGlb(*state.loaded.model, state.loaded.session->pose().locals_ls, path,
                           &warnings, &error, {}, {}, props)) {
    SayDone(state, "exported the pose to " + path.string() +
                       (warnings.empty() ? "" : " (" + warnings.front() + ")"));
  } else {
    state.panel.status = error;
  }
}

// The camera side a view command names (by name, not by the order of either enum).
OrbitCamera::Side CameraSide(ui::ViewSide side) {
  using Side = OrbitCamera::Side;
  switch (side) {
    case ui::ViewSide::kBack:
      return Side::kBack;
    case ui::ViewSide::kRight:
      return Side::kRight;
    case ui::ViewSide::kLeft:
      return Side::kLeft;
    case ui::ViewSide::kTop:
      return Side::kTop;
    case ui::ViewSide::kBottom:
      return Side::kBottom;
    case ui::ViewSide::kFront:
      break;
  }
  return Side::kFront;
}

// A session edit as one undo step (an edit not recorded yet, such as a typed value left by
// clicking a button, is its own step first).
template <typename Edit>
void Step(ViewerState& state, const char* label, Edit&& edit) {
  state.history.Commit(*state.loaded.session);
  edit(*state.loaded.session);
  state.history.Commit(*state.loaded.session, label);
}

void StepRungs(ViewerState& state, int delta) {
  Step(state, delta > 0 ? "step up" : "step down", [&](scene::PosingSession& s) {
    if (!s.StepRungs(delta)) state.panel.status = "a hand or foot would leave the ladder";
  });
}

}  // namespace

// The scenario file "save scene" writes and "load scene" reads.
std::string ScenePath(const ViewerState& state) {
  return state.scene_path.empty() ? "ikpose-scene.json" : state.scene_path;
}

// Writes the session to --scene FILE (or ikpose-scene.json here), the model relative to it.
bool SaveScene(ViewerState& state) {
  const std::string path = ScenePath(state);
  const std::filesystem::path model = anim::RelativeToFolderOf(state.loaded.path, path);
  std::string error;
  scene::Scenario scenario = scene::CaptureScenario(*state.loaded.session, model.string());
  for (scene::PropPlacement& prop : scenario.props) {
    prop.file = anim::RelativeToFolderOf(prop.file, path).string();
  }
  if (!scene::SaveScenario(path, scenario, &error)) {
    state.panel.status = error;
    return false;
  }
  SayDone(state, "saved " + path);
  MarkSaved(state);
  return true;
}

// Reads a scene file through the same road as `--scene` (one undo step on the same model). A
// scenario naming another model opens that model (which starts a new history).
bool LoadSceneFrom(ViewerState& state, const std::string& path) {
  scene::PosingRequest request;
  request.scenario.emplace();
  std::string error;
  if (!scene::LoadScenario(path, &*request.scenario, &error) ||
      !LoadWorld(&*request.scenario, {}, &request.world, &error)) {
    state.panel.status = error;
    return false;
  }
  const std::string model = request.scenario->ModelPath();
  std::error_code ec;
  if (!model.empty() && !std::filesystem::equivalent(model, state.loaded.path, ec)) {
    if (!OpenModelFile(state, model, request, &state.panel.status)) return false;
  } else {
    std::unique_ptr<scene::PosingSession> session =
        scene::BuildSession(*state.loaded.model, request, &error);
    if (!session) {
      state.panel.status = error;
      return false;
    }
    SwapSession(state, std::move(session), SessionHistory::kStep, "load scene");
  }
  SayDone(state, "loaded " + path);
  return true;
}

namespace {

// Applies one command; `editing`: a drag or a widget is held, so undo, redo and a hand slider's
// step wait for it to be let go.
struct Apply {
  ViewerState& state;
  bool editing;

  scene::PosingSession& session() const { return *state.loaded.session; }

  void operator()(const ui::cmd::Undo&) const {
    if (!editing) state.history.Undo(session());
  }
  void operator()(const ui::cmd::Redo&) const {
    if (!editing) state.history.Redo(session());
  }
  void operator()(const ui::cmd::ResetTargets&) const {
    Step(state, "targets to hands and feet", [](scene::PosingSession& s) { s.ResetTargets(); });
  }
  void operator()(const ui::cmd::SnapToRungs&) const {
    Step(state, "snap to rungs", [](scene::PosingSession& s) {
      s.edits.ladder_enabled = true;
      s.SnapToRungs();
    });
  }
  void operator()(const ui::cmd::StepRungs& c) const { StepRungs(state, c.delta); }
  void operator()(const ui::cmd::FitBodyToLadder&) const {
    Step(state, "fit body to ladder", [](scene::PosingSession& s) { s.FitBodyToLadder(); });
  }
  void operator()(const ui::cmd::ResetBoneTurn& c) const {
    // Named as the change it makes ("turn bone"), as when the button acted on the spot.
    Step(state, "", [bone = c.bone](scene::PosingSession& s) {
      if (bone >= 0 && static_cast<std::size_t>(bone) < s.edits.bone_turns_ls.size())
        s.edits.bone_turns_ls[static_cast<std::size_t>(bone)] = glm::quat(1, 0, 0, 0);
    });
  }
  void operator()(const ui::cmd::ResetBoneTurns&) const {
    Step(state, "", [](scene::PosingSession& s) { s.ResetBoneTurns(); });
  }
  void operator()(const ui::cmd::ResetBody&) const {
    Step(state, "reset body", [](scene::PosingSession& s) { s.edits.body = scene::BodyMove{}; });
  }
  void operator()(const ui::cmd::FrameModel&) const {
    state.camera.Frame(state.loaded.center_ms, state.loaded.radius);
  }
  void operator()(const ui::cmd::ResetView&) const { FaceCharacter(state); }
  void operator()(const ui::cmd::LookFrom& c) const {
    state.camera.LookFrom(CameraSide(c.side), FacingYawDeg(state));
  }
  void operator()(const ui::cmd::ToggleOrthographic&) const {
    state.camera.orthographic = !state.camera.orthographic;
  }
  void operator()(const ui::cmd::SaveScene&) const { SaveScene(state); }
  void operator()(const ui::cmd::LoadScene&) const {
    if (LoadSceneFrom(state, ScenePath(state))) MarkSaved(state);
  }
  void operator()(const ui::cmd::ExportPose&) const { ExportPose(state); }
  void operator()(const ui::cmd::Quit&) const { RequestQuit(state); }
  void operator()(const ui::cmd::AnswerQuit& c) const { AnswerQuit(state, c.answer); }
  void operator()(const ui::cmd::AnswerAutosave& c) const { AnswerAutosave(state, c.restore); }
  void operator()(const ui::cmd::Screenshot& c) const { TakeScreenshot(state, c); }
  void operator()(const ui::cmd::LoadReference& c) const { LoadReference(state, c.path); }
  void operator()(const ui::cmd::ClearReference&) const {
    state.reference.Clear();
    state.panel.picture.reference_shown = false;
  }
  void operator()(const ui::cmd::ApplyReadyPose& c) const { ApplyReadyPose(state, c.pose); }
  void operator()(const ui::cmd::AddProp& c) const {
    std::string error;
    if (AddProp(state, c.path, &error)) {
      SayDone(state, "added prop " + c.path);
      state.panel.props.selected = static_cast<int>(session().edits.world->props().size()) - 1;
    } else {
      state.panel.status = "could not add " + error;
    }
  }
  void operator()(const ui::cmd::RemoveProp& c) const {
    // Named as the change it makes, as when the button acted on the spot.
    Step(state, "", [&](scene::PosingSession& s) {
      std::string error;
      if (ui::ReplaceProp(s, c.index, nullptr, &error)) {
        state.panel.props.selected = -1;
      } else {
        state.panel.props.note = error;
      }
    });
  }
  void operator()(const ui::cmd::LibrarySave& c) const { LibrarySave(state, c.name); }
  void operator()(const ui::cmd::LibraryApply& c) const { LibraryApply(state, c.name, c.options); }
  void operator()(const ui::cmd::LibraryRename& c) const { LibraryRename(state, c.from, c.to); }
  void operator()(const ui::cmd::LibraryDelete& c) const { LibraryDelete(state, c.name); }
  void operator()(const ui::cmd::LibraryRefresh&) const { LibraryRefresh(state); }
  void operator()(const ui::cmd::PoseHand& c) const { PoseHand(state, c.arm, c.pose, editing); }
  void operator()(const ui::cmd::SetMirror& c) const { SetMirror(c.mode); }
  void operator()(const ui::cmd::ToggleFlip&) const {
    const bool flipped = session().edits.mirror == anim::MirrorMode::kFlip;
    SetMirror(flipped ? anim::MirrorMode::kOff : anim::MirrorMode::kFlip);
  }
  void operator()(const ui::cmd::BakeClip& c) const { StartBake(state, c); }
  void operator()(const ui::cmd::CancelBake&) const { CancelBake(state); }

  void SetMirror(anim::MirrorMode mode) const {
    state.drag.End();  // a handle held on the side that becomes mirrored would fight it
    const std::string label = "mirror " + std::string(anim::MirrorModeName(mode));
    Step(state, label.c_str(), [mode](scene::PosingSession& s) { s.edits.mirror = mode; });
  }
};

}  // namespace

void ApplyCommands(ViewerState& state) {
  // Undo and redo wait while a drag or a widget is held: the edit is not over yet.
  const bool editing = state.drag.active() || state.ring_drag.active() ||
                       state.mouse == MouseMode::kProp || state.mouse == MouseMode::kPropTurn ||
                       state.transform.active() || ImGui::IsAnyItemActive();
  state.retired_thumbnails.clear();  // no longer in any frame's draw list
  // Taken out first: a command may append none, but must not see itself again.
  const std::vector<ui::Command> commands = std::move(state.panel.commands);
  state.panel.commands.clear();
  for (const ui::Command& command : commands) std::visit(Apply{state, editing}, command);
  // Any other panel edit is a step once no widget is held (a slider is one step on release).
  if (!editing) state.history.Commit(*state.loaded.session);
}

}  // namespace ikpose::app
