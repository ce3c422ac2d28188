// Scenario files: a posing situation saved as JSON so it can be handed over and replayed, in
// the viewer (`ikpose view --scene FILE`) or headlessly (`ikpose render --scene FILE`). They hold
// the model (relative to the file), the clip and time, every limb's target, pole and options,
// and the ladder. Unknown limbs, non-finite numbers and out-of-range options are rejected with
// one line naming the file and the field; saving writes a temporary file and renames it.
//
//   {"model": "character.glb", "clip": "ladder_climb", "time": 0.5,
//    "limbs": {"left_leg": {"target": [0.1, 0.4, 0.3], "pole": [0.1, 0.5, 1.0],
//                           "limits": {"min_deg": 5, "max_deg": 150}, "soften": 0.9,
//                           "weight": 1, "end_rotation": "keep_model", "from_rest": false,
//                           "enabled": true, "policy": "pole", "swivel_deg": 45,
//                           "pull_body": 0.5}},
//    "body": {"offset": [0, -0.2, 0], "turn": [0, 0, 0, 1]}, "mirror": "left-to-right",
//    "bone_turns": {"Head": [0, 0.38, 0, 0.92]}, "body_help": true,
//    "limits": true,
//    "ladder": {"enabled": true, "base": [0, 0, 0.35], "rung_spacing": 0.3, "rung_count": 12,
//               "rail_width": 0.5, "rung_radius": 0.02, "first_rung_height": 0.25,
//               "yaw_deg": 0,
//               "snap": true, "fit_body": true, "follow_clip": false},
//    "props": [{"file": "stairs.glb", "position": [0, 0, 0.3], "yaw_deg": 0, "scale": 1}],
//    "floor": true, "ground": true}
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "scene/session/posing_session.h"
#include "scene/session/ready_poses.h"

namespace ikpose::scene {

struct LimbSetting {
  bool present = false;  // the file mentions this limb
  bool enabled = true;
  std::optional<glm::vec3> target_ms;
  anim::ChainSolveOptions options = anim::NaturalOptions();
  bool from_rest = false;
  std::optional<bool> pinned;  // absent: the limb's default (feet pinned)
  bool grip = true;            // on a rung: grip (hands) or stand (feet)
  float pull_body = 1.0f;      // LimbTarget::pull_body
};

struct Scenario {
  std::string model;  // as written in the file; resolve with ModelPath()
  std::string clip;   // "" for the rest pose
  float time = 0.0f;
  std::array<LimbSetting, 4> limbs;  // indexed by anim::Limb
  std::optional<BodyMove> body;
  // PosingSession::bone_turns_ls by bone name (x, y, z, w), turned bones only.
  std::vector<std::pair<std::string, glm::quat>> bone_turns;
  anim::MirrorMode mirror = anim::MirrorMode::kOff;  // applied after every target is solved
  std::optional<bool> body_help;                     // PosingSession::body_help; absent: on
  std::optional<bool> limits;                        // PosingSession::limits; absent: on
  std::optional<Ladder> ladder;
  bool ladder_enabled = false;
  bool ladder_snap = false;          // put hands and feet on the nearest rungs after loading
  bool ladder_fit_body = false;      // then the pelvis where a climber's is (FitBodyToLadder)
  bool ladder_follows_clip = false;  // PosingSession::ladder_follows_clip
  // Props (files relative to the scenario's folder, or absolute), the floor and ground contact
  // (absent: the floor is there and contact is on).
  std::vector<PropPlacement> props;
  std::optional<bool> floor;
  std::optional<bool> ground;
  // A ready pose placed first, before everything above ("ready": "kneel"); absent: none.
  std::optional<ReadyPose> ready;
  std::string file;  // where it was read from

  // The model path relative to the scenario file's folder; "" when none is named.
  std::string ModelPath() const;
  // A prop's file the same way (an absolute path stays as it is).
  std::string PropPath(const PropPlacement& prop) const;
};

// Reads a regular file of at most anim::kMaxJsonFileBytes, nested at most anim::kMaxJsonDepth.
bool LoadScenario(const std::string& path, Scenario* scenario, std::string* error);
// The same from text already read; `path` names it in errors and anchors "model".
bool ParseScenario(std::string_view text, const std::string& path, Scenario* scenario,
                   std::string* error);
bool SaveScenario(const std::string& path, const Scenario& scenario, std::string* error);

// The two halves of the scenario's name conversion (a new edit is named in both): the
// scenario's entries written over `edits` (what the file does not name stays), false with one
// line when it names a limb or bone the model lacks (`ladder_prop`: a prop's rungs are the
// ladder, so only the ladder's switches apply); and the edits as a scenario, the clip and
// bones by name, `model_path` stored as given. Props, floor and ground are placed by
// BuildSession (the props are files it loads).
bool ApplyScenarioEdits(const Scenario& scenario, const anim::Model& model, bool ladder_prop,
                        PosingEdits* edits, std::string* error);
Scenario ScenarioFromEdits(const PosingEdits& edits, const anim::Model& model,
                           const std::string& model_path);
// The session's current state as a scenario; `model` is stored as given.
Scenario CaptureScenario(const PosingSession& session, const std::string& model);

}  // namespace ikpose::scene
