// `ikpose export [MODEL] --pose pose.json --out posed.glb [--scene FILE] [--target CHAIN=x,y,z]...
// [--pole CHAIN=x,y,z]... [--clip NAME --time T]`: write a posed model as binary glTF.
//
// What: starts from the pose file's bones (matched to the model by name), else from the clip
// (--clip, or the scenario's), else the rest pose; solves the targets (--target, and the
// scenario's limbs) on top, exactly as `ikpose pose` does; writes the model with that pose as
// its node pose (asset/export_gltf.h), with the situation's props as nodes beside it (unless
// --no-props), through a temporary file renamed into place. MODEL
// defaults to the pose file's "model" (relative to the pose file), else the scenario's, else
// the bundled character. Prints where it wrote, and what was left out of the file.
// Why: artists take a pose made here into Blender or a game engine; one command goes from
// targets to a posed .glb.
// With --bake (app/cmd_bake.h) it writes an animation instead of one posed frame.
// Limits: --pose and a clip both give the starting pose, so they cannot be combined; --out
// must end in .glb and may not be the model itself.
#pragma once

#include <filesystem>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "app/pose_plan.h"

namespace ikpose::app {

struct BakeOptions {
  bool bake = false;                // --bake: every frame from..to as a glTF animation
  double fps = 30.0;                // --fps
  std::optional<double> from;       // --from, seconds (default: the first target's, else 0)
  std::optional<double> to;         // --to, seconds (default: last target's, else the clip's end)
  std::filesystem::path targets;    // --targets PATH.jsonl (trace's targets format)
  std::optional<double> max_error;  // --max-error, model units: reduce keys within it
  bool lock_feet = false;           // --lock-feet: hold planted feet still
};

struct ExportOptions {
  std::filesystem::path model;  // MODEL; empty: the pose file's, the scene's, the bundled one
  std::filesystem::path pose;   // --pose FILE; empty for none
  std::filesystem::path out;    // --out FILE.glb
  PoseRequest request;          // --scene, --target, --pole, --clip, --time
  bool no_props = false;        // --no-props: the character alone, without what it stands on
  BakeOptions bake;
};

// Why `out` cannot be written (a missing folder, one of the command's `inputs`); "" when fine.
std::string OutputProblem(const std::filesystem::path& out, const std::vector<NamedInput>& inputs);

// Returns the process exit code; errors are one line "ikpose: error: <what>" on `err`, and
// then no output file is left.
int RunExport(const ExportOptions& options, std::ostream& out, std::ostream& err);

}  // namespace ikpose::app
