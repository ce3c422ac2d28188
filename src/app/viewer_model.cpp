// Opening a model in the viewer: parse (no GL), then session, GPU buffers and framing.
#include <cmath>
#include <filesystem>

#include "app/paths.h"
#include "app/viewer_state.h"
#include "asset/load_model.h"

namespace ikpose::app {

ParsedModel ParseModel(const std::string& path) {
  ParsedModel parsed;
  parsed.model = std::make_unique<anim::Model>();
  if (!asset::TryLoadModel(path, parsed.model.get(), &parsed.error)) parsed.model.reset();
  return parsed;
}

bool OpenModel(ViewerState& state, const std::string& path, ParsedModel parsed,
               const scene::PosingRequest& request, std::string* error) {
  if (!parsed.model) {
    *error = parsed.error;
    return false;
  }
  LoadedModel next;
  next.model = std::move(parsed.model);
  next.path = path;
  next.session = scene::BuildSession(*next.model, request, error);
  if (!next.session) return false;
  std::unique_ptr<scene::PosingSession> session = std::move(next.session);
  next.renderer = std::make_unique<render::ModelRenderer>();
  if (!next.renderer->Init(DataDir() / "shaders", error)) return false;
  std::vector<std::string> warnings;
  next.renderer->Load(*next.model, &warnings);
  const anim::Bounds bounds = anim::ComputeBounds(*next.model, session->rest_pose());
  if (!bounds.empty()) {
    next.center_ms = 0.5f * (bounds.min + bounds.max);
    next.radius = 0.5f * glm::length(bounds.max - bounds.min);
    next.height = bounds.max.y - bounds.min.y;
    next.floor_y = session->floor_y();  // the floor the feet stand on
  }
  CancelBake(state);  // it poses the model being replaced
  // So does a stability grid being measured (its copy of the session points at the model).
  state.stability.job = scene::StabilityJob();
  state.stability.grid.reset();
  state.loaded = std::move(next);
  SwapSession(state, std::move(session), SessionHistory::kRestart);
  state.panel.model_label = std::filesystem::path(path).filename().string();
  state.panel.model_height = state.loaded.height;
  state.panel.selected_bone = -1;
  state.panel.status = warnings.empty() ? "" : warnings.front();
  FaceCharacter(state);
  MarkSaved(state);                // a model just opened has nothing to lose
  state.panel.ready.stale = true;  // the ready poses' pictures are of the previous model
  return true;
}

bool OpenModelFile(ViewerState& state, const std::string& path, const scene::PosingRequest& request,
                   std::string* status) {
  std::string error;
  if (OpenModel(state, path, ParseModel(path), request, &error)) return true;
  *status = "could not open " + path + ": " + error;
  return false;
}

void SwapSession(ViewerState& state, std::unique_ptr<scene::PosingSession> session,
                 SessionHistory history, const char* label) {
  // Whatever the mouse held (a target, a ring, a prop) belonged to the old session.
  state.drag.End();
  state.ring_drag.End();
  state.prop_turn.End();
  state.mouse = MouseMode::kNone;
  state.loaded.session = std::move(session);
  switch (history) {
    case SessionHistory::kKeep:
      break;
    case SessionHistory::kStep:
      state.history.Commit(*state.loaded.session, label);
      break;
    case SessionHistory::kRestart:
      state.history.Reset(*state.loaded.session);
      break;
  }
}

float FacingYawDeg(const ViewerState& state) {
  const glm::vec3 forward = state.loaded.model->chains.forward_ms;
  return glm::degrees(std::atan2(forward.x, forward.z));
}

void FaceCharacter(ViewerState& state) {
  const bool orthographic = state.camera.orthographic;
  state.camera = OrbitCamera{};
  state.camera.orthographic = orthographic;
  state.camera.yaw_deg = FacingYawDeg(state);
  state.camera.Frame(state.loaded.center_ms, state.loaded.radius);
}

}  // namespace ikpose::app
