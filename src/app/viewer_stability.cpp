#include "app/viewer_stability.h"

#include <chrono>

#include "app/viewer_state.h"

namespace ikpose::app {

namespace {

// How long the window measures each frame, and how many cells between clock checks.
constexpr std::chrono::milliseconds kFrameBudget{6};
constexpr int kCellsPerCheck = 4;

StabilityInputs InputsNow(const ViewerState& state) {
  const scene::PosingSession& session = *state.loaded.session;
  StabilityInputs in;
  in.limb = state.panel.stability.limb;
  in.target_ms = session.target(in.limb).target_ms;
  in.toward_viewer_ms = -state.camera.Forward();
  in.policy = session.target(in.limb).options.policy;
  const anim::LimbChain& chain = session.chain(in.limb);
  if (chain.valid()) {
    in.hip_ms = anim::PositionMs(session.pose(), chain.upper);
    in.knee_ms = anim::PositionMs(session.pose(), chain.lower);
  }
  return in;
}

}  // namespace

bool CheckViewerStability(ViewerState& state, std::string* error, int* exit_code) {
  if (!CheckStabilityOptions(state.options.stability, &state.stability.plan, error)) {
    *exit_code = 2;
    return false;
  }
  return true;
}

bool ShowViewerStability(ViewerState& state, std::string* error) {
  if (state.stability.plan.chain.empty()) return true;
  anim::Limb limb{};
  if (!FindStabilityLimb(*state.loaded.session, state.stability.plan.chain, &limb, error)) {
    return false;
  }
  state.panel.stability.shown = true;
  state.panel.stability.limb = limb;
  return true;
}

void StepStability(ViewerState& state, anim::DebugDraw& draw) {
  ViewerStability& s = state.stability;
  ui::StabilityPanel& panel = state.panel.stability;
  // The slice follows the target being dragged.
  if (state.drag.active() && state.drag.handle() == TargetDrag::Handle::kTarget) {
    panel.limb = state.drag.limb();
  }
  if (!panel.shown || !state.loaded.session->target(panel.limb).available) {
    panel.measuring = false;
    return;
  }
  const StabilityInputs now = InputsNow(state);
  if (!s.job.running() && !(s.grid && s.grid_for == now) &&
      !(!panel.error.empty() && s.job_for == now)) {
    scene::StabilityRequest request;
    request.toward_viewer_ms = now.toward_viewer_ms;
    request.cells = s.plan.cells;
    request.spacing = s.plan.spacing;
    std::string error;
    s.job_for = now;
    panel.error.clear();
    if (!s.job.Start(*state.loaded.session, now.limb, request, &error)) panel.error = error;
  }
  if (s.job.running()) {
    std::string error;
    bool done = false;
    if (state.options.offscreen) {
      done = s.job.Step(scene::kMaxStabilityCells * scene::kMaxStabilityCells, &error);
    } else {
      const auto until = std::chrono::steady_clock::now() + kFrameBudget;
      while (!done && s.job.running() && std::chrono::steady_clock::now() < until) {
        done = s.job.Step(kCellsPerCheck, &error);
      }
    }
    if (!error.empty()) panel.error = error;
    if (done) {
      s.grid = s.job.grid();
      s.grid_for = s.job_for;
      s.job = scene::StabilityJob();
    }
  }
  panel.measuring = s.job.running();
  panel.measured = s.grid.has_value() && s.grid->limb == panel.limb;
  if (!panel.measured) return;
  const scene::StabilityGrid& grid = *s.grid;
  panel.cells = grid.cells;
  panel.spacing = grid.spacing;
  panel.max_sensitivity = grid.max_sensitivity;
  panel.flip_edges = static_cast<int>(grid.flip_line.size());
  panel.reach_edges = static_cast<int>(grid.reach_line.size());
  scene::DrawStability(grid, draw);
}

void FinishStability(ViewerState& state) {
  ViewerStability& s = state.stability;
  if (!state.panel.stability.shown || !s.job.running()) return;
  std::string error;
  if (s.job.Step(scene::kMaxStabilityCells * scene::kMaxStabilityCells, &error) && error.empty()) {
    s.grid = s.job.grid();
    s.grid_for = s.job_for;
  }
  s.job = scene::StabilityJob();
}

asset::Json StabilityReport(const ViewerState& state) {
  const ViewerStability& s = state.stability;
  if (!state.panel.stability.shown || !s.grid) return nullptr;
  StabilityPlan plan = s.plan;
  if (const std::optional<CameraSetting>& camera = state.options.camera) {
    plan.yaw_deg = camera->yaw_deg;
    plan.pitch_deg = camera->pitch_deg;
    plan.view_given = true;
  } else {
    plan.yaw_deg = state.camera.yaw_deg - FacingYawDeg(state);
    plan.pitch_deg = state.camera.pitch_deg;
    plan.view_given = false;
  }
  return StabilityJson(*s.grid, plan);
}

}  // namespace ikpose::app
