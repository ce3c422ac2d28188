// TwoBoneJob: pose a hip-knee-foot (or shoulder-elbow-hand) chain of a skeleton so the foot
// joint reaches a target.
//
// What: a job struct in the style of ozz-animation's IKTwoBoneJob. Fill the inputs, call
// Validate() if you want the reason for a failure, then Run(&output). Run returns new LOCAL
// rotations for the hip and knee (and the foot, when its model-space rotation is kept or set),
// which replace the pose's rotations; translations and scales are untouched.
// Why: the seed (the blog post) solves positions in model space, then turns each bone by the
// minimal rotation from its old to its new child direction in the bone's own frame: hip first,
// then the knee in the hip's updated frame. A rotation of the hip is rigid only in the hip's
// PARENT frame, so this job does the positions step there: a, b, c, t and the pole are mapped
// by the inverse of `hip_parent_ms` (an affine inverse, no 4x4 inverse), solved, and mapped
// back. Bone lengths are kept in that space, and the foot lands on the target whatever the
// parent's scale: uniform, non-uniform or negative.
// Limits: the hip's own scale must have equal magnitudes on its three axes (e.g. (2,2,2) or
// (1,1,-1)) for the foot to land exactly; with a non-uniform hip scale the lower bone sweeps
// an ellipsoid, not a sphere, in the hip's parent space: the job still turns the bones toward
// b' and c' and `report.exact` is false (the residual says by how much the foot missed).
// Keeping or setting the foot's model rotation (EndRotation) is exact when the knee's scale
// is uniform in magnitude too; a non-uniform knee scale shears the foot's frame as the knee
// turns, and the nearest rotation is used. Under non-uniform parent scale the model-space
// knee circle is an ellipse; the report gives its center, axis and the center-to-knee
// distance as the radius. A target within about 1e-3 limb lengths of the hip has an
// ill-conditioned direction (float rounding turns it).
//
// Calling it on a skeleton (parents before children, per-bone local TRS, model matrices):
//   ik::TwoBoneJob job;
//   job.hip_parent_ms = model[parent[hip]];        // identity if the hip is the root
//   job.hip_ls = local[hip]; job.knee_ls = local[knee]; job.foot_ls = local[foot];
//   job.target_ms = target;
//   ik::TwoBoneOutput out;
//   if (job.Run(&out)) {
//     local[hip].rotation = out.hip_rotation_ls;
//     local[knee].rotation = out.knee_rotation_ls;
//     local[foot].rotation = out.foot_rotation_ls;   // unchanged unless end_rotation says so
//     // then recompute model matrices from the hip down
//   }
#pragma once

#include <cstdint>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "ik/rotation.h"
#include "ik/transform.h"
#include "ik/two_bone_positions.h"

namespace ikpose::ik {

// What happens to the end effector's (foot's, hand's) rotation.
enum class EndRotation : std::uint8_t {
  kFollow,     // the foot's local rotation is unchanged: it turns with the knee (the seed)
  kKeepModel,  // the foot keeps its model-space rotation (stays level, keeps its grip)
  kTarget,     // the foot's model-space rotation becomes `target_rotation_ms`
};

// Results of Run(). Written only when Run() returns true.
struct TwoBoneOutput {
  glm::quat hip_rotation_ls{1.f, 0.f, 0.f, 0.f};   // new local rotation of the hip
  glm::quat knee_rotation_ls{1.f, 0.f, 0.f, 0.f};  // new local rotation of the knee
  glm::quat foot_rotation_ls{1.f, 0.f, 0.f, 0.f};  // new local rotation of the foot
  Reach reach = Reach::kReachable;
  // The knee and foot joints of the new pose, model space: b' and c' (which the new rotations
  // reach to float rounding), or forward kinematics when the weight is below 1 or the hip's
  // scale is not uniform.
  glm::vec3 knee_ms{0.f};
  glm::vec3 foot_ms{0.f};
  float residual_ms = 0.f;  // |foot_ms - target_ms|
  bool limit_clamped = false;
  bool softened = false;
};

// The explanation of a solve: what the UI panel and `ikpose pose` show.
struct TwoBoneReport {
  // The positions step, mapped to model space (solved in the hip's parent space).
  PositionsReport positions;
  // The local deltas applied: new_local = old_local * delta. Swing/twist about the bone's
  // local direction to its child (the knee's translation for the hip, the foot's for the knee).
  RotationReport hip_delta_ls;
  RotationReport knee_delta_ls;
  // False when the hip's own scale is non-uniform, or the knee's is and the foot's model
  // rotation is kept or set (see Limits above).
  bool exact = true;
};

// How much of a report Run fills.
enum class ReportDetail : std::uint8_t {
  kFull,  // everything, every rotation described (axis-angle, swing/twist: trigonometry)
  // The positions step, `exact`, and the two local deltas' `rotation` and `bone_axis`; the
  // deltas' descriptions and the positions step's model-space rotations stay default.
  // DescribeRotation(delta.rotation, delta.bone_axis) gives a delta's description where it is
  // shown or written. About half the cost of kFull.
  kGeometry,
};

struct TwoBoneJob {
  // --- Inputs ---
  // Model matrix of the hip's parent bone (affine: last row 0 0 0 1). Identity for a root hip.
  glm::mat4 hip_parent_ms{1.f};
  // Local transforms: hip relative to its parent, knee relative to the hip, foot relative
  // to the knee. Only the foot's translation (and, for kKeepModel/kTarget, its rotation)
  // matter.
  LocalTransform hip_ls;
  LocalTransform knee_ls;
  LocalTransform foot_ls;
  // Where the foot joint should go, model space.
  glm::vec3 target_ms{0.f};
  // Pole (options.pole_ms) is in model space too. Defaults: the seed.
  TwoBoneOptions options;
  EndRotation end_rotation = EndRotation::kFollow;
  glm::quat target_rotation_ms{1.f, 0.f, 0.f, 0.f};  // used by EndRotation::kTarget

  // --- Methods ---
  // kNone when Run() can succeed; otherwise the first problem found.
  InputError Validate() const;
  // Solves. Returns false (and touches neither *output nor *report) on invalid input.
  // `report` may be null: the fast path computes no angles.
  bool Run(TwoBoneOutput* output, TwoBoneReport* report = nullptr,
           ReportDetail level = ReportDetail::kFull) const;
};

}  // namespace ikpose::ik
