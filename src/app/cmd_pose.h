// `ikpose pose MODEL --target CHAIN=x,y,z ... [--pole CHAIN=x,y,z] [--clip NAME --time T]
// [--json] [--out pose.json]`: solve chains on a model headlessly and report.
//
// What: loads the model, samples the clip at the time if given (else the rest pose), then
// solves each targeted chain in the order given (CHAIN: left_arm, right_arm, left_leg,
// right_leg, or any end bone's name) and prints per chain the solver's report (reach, b', c',
// error, knee circle, bend, rotations) and per bone its local rotation (quaternion x,y,z,w and
// Euler degrees) and model-space position after IK. Positions are model space, in the model's
// units. `--out` writes the JSON report (with every bone's full local transform, enough to
// rebuild the pose: `ikpose export` reads it) through a temporary file renamed into place; its
// "model" is relative to the report's folder.
// Why: headless regression tests and bug reports that reproduce a pose exactly.
// `--stability CHAIN` adds where that limb's solve turns unstable around its target
// (app/stability_report.h): under "stability" in the JSON, as a map after the text.
// Limits: chains are solved one after the other; a later chain sees the earlier ones' result.
#pragma once

#include <filesystem>
#include <ostream>

#include "app/pose_plan.h"
#include "app/stability_report.h"

namespace ikpose::app {

struct PoseOptions {
  std::filesystem::path model;  // empty: the scene's model, else the bundled character
  PoseRequest request;          // --scene, --target, --pole, --clip, --time
  bool json = false;            // JSON on stdout instead of text
  std::filesystem::path out;    // --out FILE; empty for none
  StabilityOptions stability;   // --stability CHAIN ...: the grid, printed after the report
};

// Returns the process exit code; errors are one line "ikpose: error: <what>" on `err`.
int RunPose(const PoseOptions& options, std::ostream& out, std::ostream& err);

}  // namespace ikpose::app
