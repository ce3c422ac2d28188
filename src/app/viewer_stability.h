// The viewer's stability slice (issue 22, "where it will pop"): around the chosen limb's target,
// the grid of scene/trace/stability.h on the plane facing the camera, drawn as coloured quads with
// the flip line and the reach-out line; the panel's "Where it will pop" section has its switch (U),
// limb and legend.
//
// What: each frame while shown, the inputs (limb, target, camera direction, policy, the limb's
// hip and knee) are compared with those of the grid shown; when they changed, a new grid is
// measured a few cells a frame (about 6 ms of each frame) on a copy of the live session and
// replaces the shown one when complete; offscreen (`render`) it is measured whole before the
// frame is drawn. The limb follows the last target dragged.
// Why: the same grid `pose --stability` prints, where the user looks (`render --stability
// CHAIN --report` writes what `pose --stability CHAIN --stability-view YAW,PITCH --json`
// prints for the render's camera).
// Limits: while the target moves the slice shows the last complete grid (a 25x25 grid takes
// about 0.1-0.2 s of frames on the bundled character).
#pragma once

#include <optional>
#include <string>

#include <glm/glm.hpp>

#include "anim/debug_draw.h"
#include "app/stability_report.h"
#include "asset/report.h"
#include "scene/trace/stability.h"

namespace ikpose::app {

struct ViewerState;

// What a grid was measured for; a change starts a new one.
struct StabilityInputs {
  anim::Limb limb = anim::Limb::kLeftLeg;
  glm::vec3 target_ms{0.0f};
  glm::vec3 toward_viewer_ms{0.0f};
  anim::KneePolicy policy = anim::KneePolicy::kSeed;
  glm::vec3 hip_ms{0.0f};
  glm::vec3 knee_ms{0.0f};
  bool operator==(const StabilityInputs&) const = default;
};

struct ViewerStability {
  StabilityPlan plan;  // --stability's cells and spacing (the view is the camera's)
  scene::StabilityJob job;
  StabilityInputs job_for;
  std::optional<scene::StabilityGrid> grid;  // the last complete grid
  StabilityInputs grid_for;
};

// Before the model opens: --stability's options checked (exit 2). False with one line.
bool CheckViewerStability(ViewerState& state, std::string* error, int* exit_code);
// Once the model is open: the named limb shown (exit 1 for a name that is not a limb).
bool ShowViewerStability(ViewerState& state, std::string* error);
// Once a frame, after Evaluate: measures on, and records the slice into `draw` when shown.
void StepStability(ViewerState& state, anim::DebugDraw& draw);
// At quit, before `--report` is written: a grid still being measured is measured whole (a slow
// machine may quit mid-measure), so the report says what the slice was about to show.
void FinishStability(ViewerState& state);
// For `--report`: what `pose --stability --json` prints for the camera's view; null when no
// grid is shown.
asset::Json StabilityReport(const ViewerState& state);

}  // namespace ikpose::app
