// The viewer's commands (ui::Command), from panel buttons and keys alike, applied in one place.
// Each command that edits the session is one undo step; saving, loading and exporting report
// in the panel's status line.
#include <imgui.h>

#include <filesystem>

#include "anim/file_paths.h"
#include "app/paths.h"
#include "app/prop_option.h"
#include "app/viewer_state.h"
#include "asset/export_gltf.h"
#include "scene/files/scenario.h"

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

// The camera side a view command names, and the mirror mode a mirror command names (by name,
// not by the commands' order in the enum).
OrbitCamera::Side ViewSide(ui::Command command) {
  using Side = OrbitCamera::Side;
  switch (command) {
    case ui::Command::kViewBack:
      return Side::kBack;
    case ui::Command::kViewRight:
      return Side::kRight;
    case ui::Command::kViewLeft:
      return Side::kLeft;
    case ui::Command::kViewTop:
      return Side::kTop;
    case ui::Command::kViewBottom:
      return Side::kBottom;
    default:
      return Side::kFront;
  }
}

anim::MirrorMode MirrorModeOf(ui::Command command) {
  using anim::MirrorMode;
  switch (command) {
    case ui::Command::kMirrorLeftToRight:
      return MirrorMode::kLeftToRight;
    case ui::Command::kMirrorRightToLeft:
      return MirrorMode::kRightToLeft;
    case ui::Command::kToggleFlip:
      return MirrorMode::kFlip;
    default:
      return MirrorMode::kOff;
  }
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
    state.drag.End();
    state.loaded.session = std::move(session);
    state.history.Commit(*state.loaded.session, "load scene");
  }
  SayDone(state, "loaded " + path);
  return true;
}

void ApplyCommands(ViewerState& state) {
  using ui::Command;
  // Undo and redo wait while a drag or a widget is held: the edit is not over yet.
  const bool editing = state.drag.active() || state.ring_drag.active() ||
                       state.mouse == MouseMode::kProp || state.transform.active() ||
                       ImGui::IsAnyItemActive();
  state.retired_thumbnails.clear();  // no longer in any frame's draw list
  for (const Command command : state.panel.commands) {
    scene::PosingSession& session = *state.loaded.session;
    switch (command) {
      case Command::kUndo:
        if (!editing) state.history.Undo(session);
        break;
      case Command::kRedo:
        if (!editing) state.history.Redo(session);
        break;
      case Command::kResetTargets:
        Step(state, "targets to hands and feet", [](scene::PosingSession& s) { s.ResetTargets(); });
        break;
      case Command::kSnapToRungs:
        Step(state, "snap to rungs", [](scene::PosingSession& s) {
          s.edits.ladder_enabled = true;
          s.SnapToRungs();
        });
        break;
      case Command::kStepUp:
        StepRungs(state, +1);
        break;
      case Command::kStepDown:
        StepRungs(state, -1);
        break;
      case Command::kFitBodyToLadder:
        Step(state, "fit body to ladder", [](scene::PosingSession& s) { s.FitBodyToLadder(); });
        break;
      case Command::kResetBoneTurn: {
        // Named as the change it makes ("turn bone"), as when the button acted on the spot.
        const int bone = state.panel.selected_bone;
        Step(state, "", [bone](scene::PosingSession& s) {
          if (bone >= 0 && static_cast<std::size_t>(bone) < s.edits.bone_turns_ls.size())
            s.edits.bone_turns_ls[static_cast<std::size_t>(bone)] = glm::quat(1, 0, 0, 0);
        });
        break;
      }
      case Command::kResetBoneTurns:
        Step(state, "", [](scene::PosingSession& s) { s.ResetBoneTurns(); });
        break;
      case Command::kResetBody:
        Step(state, "reset body",
             [](scene::PosingSession& s) { s.edits.body = scene::BodyMove{}; });
        break;
      case Command::kFrameModel:
        state.camera.Frame(state.loaded.center_ms, state.loaded.radius);
        break;
      case Command::kResetView:
        FaceCharacter(state);
        break;
      case Command::kSaveScene:
        SaveScene(state);
        break;
      case Command::kLoadScene:
        if (LoadSceneFrom(state, ScenePath(state))) MarkSaved(state);
        break;
      case Command::kExportPose:
        ExportPose(state);
        break;
      case Command::kQuit:
        RequestQuit(state);
        break;
      case Command::kSaveAndQuit:
      case Command::kQuitWithoutSaving:
      case Command::kStayOpen:
        AnswerQuit(state, command);
        break;
      case Command::kRestoreAutosave:
      case Command::kDiscardAutosave:
        ApplyAutosaveCommand(state, command);
        break;
      case Command::kScreenshot:
        TakeScreenshot(state);
        break;
      case Command::kLoadReference:
        LoadReference(state, state.panel.picture.reference_path);
        break;
      case Command::kApplyReadyPose:
        ApplyReadyPoseCommand(state);
        break;
      case Command::kAddProp: {
        std::string error;
        const std::string path = state.panel.props.add_path;
        if (AddProp(state, path, &error)) {
          SayDone(state, "added prop " + path);
          state.panel.props.selected = static_cast<int>(session.edits.world->props().size()) - 1;
        } else {
          state.panel.status = "could not add " + error;
        }
        break;
      }
      case Command::kClearReference:
        state.reference.Clear();
        state.panel.picture.reference_shown = false;
        break;
      case Command::kViewFront:
      case Command::kViewBack:
      case Command::kViewRight:
      case Command::kViewLeft:
      case Command::kViewTop:
      case Command::kViewBottom: {
        state.camera.LookFrom(ViewSide(command), FacingYawDeg(state));
        break;
      }
      case Command::kToggleOrthographic:
        state.camera.orthographic = !state.camera.orthographic;
        break;
      case Command::kLibrarySave:
      case Command::kLibraryApply:
      case Command::kLibraryRename:
      case Command::kLibraryDelete:
      case Command::kLibraryRefresh:
      case Command::kPoseHand:
        ApplyLibraryCommand(state, command, editing);
        break;
      case Command::kBakeClip:
        StartBake(state);
        break;
      case Command::kCancelBake:
        CancelBake(state);
        break;
      case Command::kMirrorOff:
      case Command::kMirrorLeftToRight:
      case Command::kMirrorRightToLeft:
      case Command::kToggleFlip: {
        using anim::MirrorMode;
        MirrorMode mode = MirrorModeOf(command);
        if (mode == MirrorMode::kFlip && session.edits.mirror == MirrorMode::kFlip)
          mode = MirrorMode::kOff;
        state.drag.End();  // a handle held on the side that becomes mirrored would fight it
        const std::string label = "mirror " + std::string(anim::MirrorModeName(mode));
        Step(state, label.c_str(), [mode](scene::PosingSession& s) { s.edits.mirror = mode; });
        break;
      }
    }
  }
  state.panel.commands.clear();
  // Any other panel edit is a step once no widget is held (a slider is one step on release).
  if (!editing) state.history.Commit(*state.loaded.session);
}

}  // namespace ikpose::app
