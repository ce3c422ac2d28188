#include "anim/apply_ik.h"

#include <cmath>

#include <glm/gtc/quaternion.hpp>

#include "anim/finite.h"

namespace ikpose::anim {

namespace {

std::string ChainText(const Skeleton& skeleton, const LimbChain& chain) {
  return skeleton.names[chain.upper] + " -> " + skeleton.names[chain.lower] + " -> " +
         skeleton.names[chain.end];
}

}  // namespace

ChainSolveResult SolveChainOnPose(const Skeleton& skeleton, const LimbChain& chain,
                                  const glm::vec3& target_ms, const ChainSolveOptions& options,
                                  Pose& pose, bool report) {
  ChainSolveResult result;
  result.target_ms = target_ms;
  result.end_target_ms = target_ms;
  const int n = skeleton.size();
  if (!chain.valid() || chain.upper >= n || chain.lower >= n || chain.end >= n ||
      skeleton.parents[chain.lower] != chain.upper) {
    result.error = "chain '" + chain.name + "' is not an upper -> lower -> end chain";
    return result;
  }
  if (!Finite(target_ms)) {
    result.error = "the target of chain '" + chain.name + "' is not a finite point";
    return result;
  }

  ik::TwoBoneJob job;
  const int hip_parent = skeleton.parents[chain.upper];
  job.hip_parent_ms = hip_parent >= 0 ? pose.models_ms[hip_parent] : glm::mat4(1.f);
  job.hip_ls = pose.locals_ls[chain.upper];
  job.knee_ls = pose.locals_ls[chain.lower];
  if (chain.end_is_child) {
    job.foot_ls = pose.locals_ls[chain.end];
  } else {
    // The end hangs elsewhere: present it to the job as a child of the knee at its rest offset,
    // with its current model rotation expressed in the knee's frame.
    job.foot_ls.translation = chain.end_offset_ls;
    job.foot_ls.rotation =
        glm::normalize(glm::inverse(RotationMs(pose, chain.lower)) * RotationMs(pose, chain.end));
  }
  job.target_ms = target_ms;
  job.options = options.solver;
  result.policy = options.solver.use_pole ? KneePolicy::kPole : KneePolicy::kSeed;
  if (!options.solver.use_pole && options.policy == KneePolicy::kNatural && chain.natural.valid) {
    // The natural policy is a pole in the chosen knee direction, off the hip-target axis.
    const glm::mat3 parent_rotation = glm::mat3_cast(RotationMs(pose, hip_parent));
    const glm::vec3 hip_ms = PositionMs(pose, chain.upper);
    const float limb = chain.upper_length + chain.lower_length;
    const glm::vec3 end_now_ms = EndPositionMs(chain, pose);
    result.swivel =
        ChooseSwivel(chain.natural, parent_rotation, hip_ms, PositionMs(pose, chain.lower),
                     target_ms, limb, options.swivel_range_deg, &end_now_ms);
    KeepKneeBehind(options.knee_clearance, hip_ms, target_ms, chain.upper_length,
                   chain.lower_length, &result.swivel);
    if (result.swivel.valid) {
      job.options.use_pole = true;
      job.options.pole_ms = NaturalPoleMs(result.swivel, hip_ms, target_ms, limb);
      result.policy = KneePolicy::kNatural;
    }
  }
  job.end_rotation = options.end_rotation;
  job.target_rotation_ms = options.target_rotation_ms;
  if (options.level_end && options.end_rotation == ik::EndRotation::kFollow) {
    // Where follow would turn the end, then only that turn's part about the vertical.
    ik::TwoBoneOutput follow;
    if (job.Run(&follow, nullptr)) {
      const glm::quat end_before_ms = RotationMs(pose, chain.end);
      const glm::quat end_follow_ms = RotationMs(pose, hip_parent) * follow.hip_rotation_ls *
                                      follow.knee_rotation_ls * job.foot_ls.rotation;
      const ik::SwingTwist yaw = ik::DecomposeSwingTwist(
          end_follow_ms * glm::conjugate(end_before_ms), glm::vec3(0.f, 1.f, 0.f));
      job.end_rotation = ik::EndRotation::kTarget;
      job.target_rotation_ms = glm::normalize(yaw.twist * end_before_ms);
    }
  }

  // The deltas' descriptions are left to where they are written (asset/report.cpp).
  if (!job.Run(&result.output, report ? &result.report : nullptr, ik::ReportDetail::kGeometry)) {
    result.error = "chain '" + chain.name + "' (" + ChainText(skeleton, chain) +
                   ") cannot be solved: " + std::string(ik::InputErrorMessage(job.Validate()));
    return result;
  }

  const glm::mat4 knee_before = pose.models_ms[chain.lower];
  const glm::mat4 end_before = pose.models_ms[chain.end];
  pose.locals_ls[chain.upper].rotation = result.output.hip_rotation_ls;
  pose.locals_ls[chain.lower].rotation = result.output.knee_rotation_ls;
  if (chain.end_is_child) pose.locals_ls[chain.end].rotation = result.output.foot_rotation_ls;
  UpdateSubtree(skeleton, chain.upper, pose);

  if (!chain.end_is_child && !skeleton.IsAncestorOrSelf(chain.upper, chain.end)) {
    // Place the detached end bone on c' and turn it as the end rotation says.
    const glm::mat4& knee_after = pose.models_ms[chain.lower];
    glm::mat4 end_after = end_before;
    if (job.end_rotation == ik::EndRotation::kFollow) {
      end_after = knee_after * glm::inverse(knee_before) * end_before;
    } else if (job.end_rotation == ik::EndRotation::kTarget) {
      const Transform old_end = Decompose(end_before);
      Transform t = old_end;
      t.rotation = glm::normalize(job.target_rotation_ms);
      end_after = ToMatrix(t);
    }
    end_after[3] = knee_after * glm::vec4(chain.end_offset_ls, 1.f);
    const int end_parent = skeleton.parents[chain.end];
    const glm::mat4 parent_ms = end_parent >= 0 ? pose.models_ms[end_parent] : glm::mat4(1.f);
    const ik::Affine local =
        ik::Compose(ik::Inverse(ik::AffineFromMat4(parent_ms)), ik::AffineFromMat4(end_after));
    const Transform end_local = Decompose(ik::ToMat4(local));
    pose.locals_ls[chain.end].rotation = end_local.rotation;
    pose.locals_ls[chain.end].translation = end_local.translation;
    UpdateSubtree(skeleton, chain.end, pose);
  }

  result.ok = true;
  result.hip_ms = PositionMs(pose, chain.upper);
  result.knee_ms = PositionMs(pose, chain.lower);
  result.end_ms = EndPositionMs(chain, pose);
  result.error_ms = glm::length(result.end_ms - target_ms);
  return result;
}

}  // namespace ikpose::anim
