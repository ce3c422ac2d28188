// Applying the two-bone solver to a pose: the seed's second half on a real skeleton.
//
// What: `SolveChainOnPose` solves one limb chain toward a model-space target with
// ik::TwoBoneJob and writes the result into the pose: the hip (upper) bone's local rotation,
// its model matrices recomputed, then the knee (lower) bone's; children follow their parents.
// Afterwards the knee and end joints sit on the solver's b' and c'. Options (pole, hinge
// limits, soften, weight) and the end rotation (follow, keep its model rotation, or a given
// one) pass through to the job.
// Why: `ikpose pose`, the viewer's target handles and the scenario runner all pose this way.
// Limits: only the chain's bones and their descendants move, plus, for a rig whose foot is
// not a child of the shin, that foot bone (and its children): it is placed on c' and turns
// with the shin (or keeps/sets its model rotation as the end rotation says). Non-uniform
// scale above the chain is handled by the job (it solves in the hip's parent space).
#pragma once

#include <string>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "anim/chains.h"
#include "anim/knee_policy.h"
#include "anim/skeleton.h"
#include "ik/two_bone_job.h"

namespace ikpose::anim {

struct ChainSolveOptions {
  // Where the knee goes (anim/knee_policy.h). A pole in `solver` (use_pole) overrides it; the
  // natural policy on a chain without a natural bend (a custom chain) is the seed's rule.
  KneePolicy policy = KneePolicy::kSeed;
  float swivel_range_deg = 0.f;  // natural: either side of the natural bend; <= 0: the limb's
  ik::TwoBoneOptions solver;     // pole, limits, soften, weight (defaults: the seed)
  ik::EndRotation end_rotation = ik::EndRotation::kFollow;
  glm::quat target_rotation_ms{1.f, 0.f, 0.f, 0.f};  // for EndRotation::kTarget
  // With kFollow: the end keeps its pitch and roll in model space from the pose it is solved
  // on and takes only the limb's turn about the vertical, so a lifted foot lands flat (the
  // posing session's default for legs). False: the seed's follow.
  bool level_end = false;
  // Natural: a plane the knee turns out to stay behind (a ladder's rungs), within the range.
  KneeClearance knee_clearance;

  bool operator==(const ChainSolveOptions&) const = default;
};

// The options of a detected limb unless someone says otherwise: the natural knee policy.
inline ChainSolveOptions NaturalOptions() {
  ChainSolveOptions options;
  options.policy = KneePolicy::kNatural;
  return options;
}

struct ChainSolveResult {
  bool ok = false;
  std::string error;             // why not, when !ok (the pose is then unchanged)
  ik::TwoBoneOutput output;      // new local rotations, reach, FK knee and foot
  ik::TwoBoneReport report;      // the solver's explanation (positions step, the local
                                 // deltas undescribed: ik::ReportDetail::kGeometry);
                                 // empty when SolveChainOnPose was asked for none
  glm::vec3 target_ms{0.f};      // the limb's target (a grip point on a rung, say)
  glm::vec3 end_target_ms{0.f};  // where the end joint was sent (the target unless gripping)
  glm::vec3 hip_ms{0.f};         // joint positions in the pose after the solve
  glm::vec3 knee_ms{0.f};
  glm::vec3 end_ms{0.f};
  float error_ms = 0.f;                   // |end_ms - end_target_ms|
  KneePolicy policy = KneePolicy::kSeed;  // the policy that placed the knee
  float grip_weight = 1.0f;  // a limb following a clip onto a rung: how far it is blended in
  SwivelChoice swivel;       // natural: the natural direction and the swivel
};

// `pose.models_ms` must be up to date (UpdateModels); they are kept up to date. Without
// `report`, ChainSolveResult::report is left empty and the job takes its shortest path (the
// same pose: TwoBoneJobFastPath.* in tests/ik).
ChainSolveResult SolveChainOnPose(const Skeleton& skeleton, const LimbChain& chain,
                                  const glm::vec3& target_ms, const ChainSolveOptions& options,
                                  Pose& pose, bool report = true);

}  // namespace ikpose::anim
