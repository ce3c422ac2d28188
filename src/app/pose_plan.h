// From a command line to a posing request: what view, render, pose and export share.
//
// What: `PoseRequest` is the command line's words (--scene, --target, --pole, --policy, --clip,
// --time, --mirror, --prop, --ground);
// `PlanPose` parses them, reads the scenario file and checks what can be checked before the
// (slow) model load, giving a scene::PosingRequest that scene::BuildSession turns into a pose.
// Why: one command line and one set of errors for every command that poses a model, and one
// road from there to the pose (scene/road/posing_request.h).
// Limits: names of chains and clips are checked against the model later, by BuildSession.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "scene/road/posing_request.h"

namespace ikpose::app {

struct PoseRequest {
  std::filesystem::path scene;           // --scene FILE; empty for none
  std::vector<std::string> targets;      // "CHAIN=x,y,z", one per --target
  std::vector<std::string> poles;        // "CHAIN=x,y,z", one per --pole
  std::vector<std::string> policies;     // "CHAIN=seed|natural|pole" or one policy for every limb
  std::optional<std::string> clip;       // --clip NAME
  std::optional<double> time;            // --time T, seconds (needs a clip)
  std::optional<std::string> mirror;     // --mirror left-to-right|right-to-left|flip
  std::optional<std::string> ready;      // --ready stand|sit-on-a-box|...
  std::vector<std::string> props;        // "FILE@x,y,z[,yaw_deg]", one per --prop
  std::optional<std::string> ground;     // --ground on|off
  std::optional<std::string> body_help;  // --body-help on|off
  std::optional<std::string> limits;     // --limits on|off
};

struct PosePlan {
  scene::PosingRequest request;
  std::filesystem::path scene_model;  // the scenario's model, resolved; empty for none
};

// How a plan failed: exit status 2 for a command line that cannot be used, 1 for a file.
struct PlanError {
  int exit_code = 0;
  std::string what;
};

// False with one line in error->what.
bool PlanPose(const PoseRequest& request, PosePlan* plan, PlanError* error);

// The model a command opens: the one named on the command line, else the saved file's (a pose
// or scenario file), else the bundled character.
std::filesystem::path ChooseModel(const std::filesystem::path& named,
                                  const std::filesystem::path& from_file);

// A file a command reads, and how the error names it ("the model", "the scenario file").
struct NamedInput {
  std::string what;
  std::filesystem::path path;
};

// Empty when `out` (given with `option`, "--out" say) is none of `inputs`; else the one line
// that refuses it. An output that names an input would replace what it is made from, so every
// command checks this before it reads anything. Files are compared as the system sees them
// (links and other spellings of one file are caught); a file that does not exist yet is not
// an input.
std::string OutputNamesAnInput(const std::string& option, const std::filesystem::path& out,
                               const std::vector<NamedInput>& inputs);

}  // namespace ikpose::app
