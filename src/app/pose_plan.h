// What `ikpose pose` and `ikpose export` solve: the targets, poles and clip of the command line
// and of a scenario file, checked before the (slow) model load, then solved on a model.
//
// What: `PlanPose` parses --target/--pole, reads --scene (its enabled limbs with their options
// and its clip, unless the command line names them) and checks --clip/--time; `SampleClip`
// starts a pose from the clip and `SolveTargets` solves each target in order on a pose.
// Why: one command line and one set of errors for every command that poses a model.
// Limits: chains are solved one after the other; a later chain sees the earlier ones' result.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "anim/apply_ik.h"
#include "anim/model.h"
#include "app/chain_point.h"
#include "asset/report.h"

namespace ikpose::app {

struct PoseRequest {
  std::filesystem::path scene;       // --scene FILE; empty for none
  std::vector<std::string> targets;  // "CHAIN=x,y,z", one per --target
  std::vector<std::string> poles;    // "CHAIN=x,y,z", one per --pole
  std::optional<std::string> clip;   // --clip NAME
  std::optional<double> time;        // --time T, seconds (needs --clip)
};

struct PosePlan {
  std::vector<ChainPoint> targets;  // command line first, then the scenario's other limbs
  std::map<std::string, glm::vec3> poles;
  std::map<std::string, anim::ChainSolveOptions> scene_options;  // per chain, from --scene
  std::optional<std::string> clip;                               // --clip, else the scenario's
  double time = 0.0;
  std::filesystem::path scene_model;  // the scenario's model, resolved; empty for none
};

// False with one line in *error for a bad --target/--pole/--time or an unreadable scenario.
bool PlanPose(const PoseRequest& request, PosePlan* plan, std::string* error);

// Samples the plan's clip (if any) into `pose`, a pose of `model`, and updates its model
// matrices. False with one line "<model file>: no clip named ..." for an unknown clip.
bool SampleClip(const PosePlan& plan, const anim::Model& model, anim::Pose* pose,
                std::string* error);

// Solves the plan's targets in order on `pose` (model matrices up to date). False with one line
// "<model file>: <what>" for an unknown chain or a target that cannot be solved.
bool SolveTargets(const PosePlan& plan, const anim::Model& model, anim::Pose* pose,
                  std::vector<asset::SolvedChain>* solved, std::string* error);

}  // namespace ikpose::app
