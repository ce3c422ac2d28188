// Reports on a model and on a solved pose, as JSON: the data behind `ikpose inspect` and
// `ikpose pose` (docs/DESIGN.md fixes the field names; these add more, rename none).
//
// What: `InspectReport` (file, units, height, bounds, bones, meshes, skins, materials, clips,
// chains, warnings) and `PoseReport` (per chain the solver's report, per bone the local
// transform, Euler angles and model-space position).
// Why: the command line prints them, `--out` saves them, tests and tools read them back.
// Limits: "bones" lists the skeleton minus nodes that only carry a mesh
// (Skeleton::ReportedBones);
// "parent" and a chain's "bone_indices" index that list (-1: not listed). Euler angles are degrees,
// x then y then z applied in that order (R = Rz * Ry * Rx), as glm::eulerAngles gives them.
#pragma once

#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <nlohmann/json.hpp>

#include "anim/apply_ik.h"
#include "anim/model.h"

namespace ikpose::asset {

using Json = nlohmann::ordered_json;

// Height along +Y of the skinned rest pose (meshes, else joints).
float ModelHeight(const anim::Model& model, const anim::Pose& rest);

Json InspectReport(const anim::Model& model);

struct SolvedChain {
  anim::LimbChain chain;
  anim::ChainSolveResult result;
  bool has_pole = false;
  glm::vec3 pole_ms{0.f};
};

// `before` is the pose the chains were solved from (rest or clip), `after` the result.
Json PoseReport(const anim::Model& model, const anim::Pose& before, const anim::Pose& after,
                const std::vector<SolvedChain>& chains);

// The positions step's knee geometry, shared by pose reports and `ikpose solve`: the knee
// circle, |at|, the reach margin, the knee bend, how far the knee moved and the flip margin,
// each number written by `number` (pose reports round to 7 digits, solve keeps the shortest
// float). `J` is either JSON type (ordered for reports).
template <typename J>
void AddKneeGeometry(const ik::PositionsReport& p, double (*number)(float), J& out) {
  const auto vec = [number](const glm::vec3& v) {
    return J::array({number(v.x), number(v.y), number(v.z)});
  };
  out["circle"] = {{"center", vec(p.circle.center_ms)},
                   {"radius", number(p.circle.radius)},
                   {"normal", vec(p.circle.normal_ms)}};
  out["length_at"] = number(p.length_at);
  out["reach_margin"] = number(p.reach_margin);
  out["knee_bend_deg"] = number(p.knee_bend_deg);
  out["knee_displacement"] = number(p.knee_displacement);
  out["flip_margin"] = number(p.flip_margin);
}

// A float rounded to 7 significant digits (0 for non-finite): how reports write numbers.
double Clean(float value);

Json ToJson(const glm::vec3& v);
Json ToJson(const glm::quat& q);  // [x, y, z, w]

}  // namespace ikpose::asset
