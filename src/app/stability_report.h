// `ikpose pose --stability CHAIN`: the options, the view the slice faces, and the report.
//
// What: `StabilityOptions` are the command line's words (--stability CHAIN, --stability-view
// YAW,PITCH, --stability-cells N, --stability-spacing S); `CheckStabilityOptions` parses them
// before the model loads; `StabilityFor` measures the grid (scene/trace/stability.h) on a session
// built by the one road; `StabilityJson` and `PrintStabilityMap` are its JSON (docs/DESIGN.md,
// "pose --stability") and text forms.
// Why: the view yaw is relative to the character's front as `render --camera`'s is, so the
// slice the command prints is the one the window draws facing the same camera; the default view
// is the window's opening one (in front of the character, 10 degrees above).
// Limits: CHAIN is one of the four limbs (or its end bone's name).
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "asset/report.h"
#include "scene/session/posing_session.h"
#include "scene/trace/stability.h"

namespace ikpose::app {

inline constexpr float kDefaultStabilityYawDeg = 0.f;
inline constexpr float kDefaultStabilityPitchDeg = 10.f;  // OrbitCamera's opening pitch

struct StabilityOptions {
  std::optional<std::string> chain;  // --stability CHAIN
  std::optional<std::string> view;   // --stability-view YAW,PITCH (degrees)
  std::optional<int> cells;          // --stability-cells N
  std::optional<double> spacing;     // --stability-spacing S, model units
};

// The checked options: the view's angles and whether they were given.
struct StabilityPlan {
  std::string chain;
  float yaw_deg = kDefaultStabilityYawDeg;
  float pitch_deg = kDefaultStabilityPitchDeg;
  bool view_given = false;
  int cells = scene::kDefaultStabilityCells;
  float spacing = 0.f;  // 0: the default
};

// False with one line in *error (a command line that cannot be used: exit status 2).
bool CheckStabilityOptions(const StabilityOptions& options, StabilityPlan* plan,
                           std::string* error);

// The unit direction from the model toward a camera at `yaw_deg` (from the character's front)
// and `pitch_deg` (above), as the viewer's and render's cameras place it.
glm::vec3 TowardViewerMs(const anim::ChainSet& chains, float yaw_deg, float pitch_deg);

// The limb named by `name` (a limb's name or its end bone's); false with one line.
bool FindStabilityLimb(const scene::PosingSession& session, const std::string& name,
                       anim::Limb* limb, std::string* error);

asset::Json StabilityJson(const scene::StabilityGrid& grid, const StabilityPlan& plan);
void PrintStabilityMap(const scene::StabilityGrid& grid, const StabilityPlan& plan,
                       std::ostream& out);

}  // namespace ikpose::app
