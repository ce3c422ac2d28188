// Internal: TwoBoneJob::Run's speed path for the seed's case.
//
// What: `RunFast` gives the pose Run's general path gives (TwoBoneJobFastPath.* in
// tests/ik/job_fast_path_test.cpp are its contract), for a job without a report, with default
// options or a pole, at full weight, the foot following the knee and a hip scale uniform in
// magnitude, when the chain is well scaled. It returns false for anything else, valid or not, and
// the general path then takes the job. Why: one chain at a time is a chain of dependent arithmetic;
// written for that case alone it has fewer steps that wait on each other (README, "The solver").
// Limits: not part of the API; call TwoBoneJob::Run.
#pragma once

#include "ik/two_bone_core.h"
#include "ik/two_bone_job.h"

namespace ikpose::ik::detail {

// The solve itself, for a job RunFast's first test admits (in two_bone_fast.cpp).
bool SolveSeedCase(const TwoBoneJob& job, TwoBoneOutput* output);

// The hip scale's magnitudes must agree to a few roundings (a scale decomposed from a matrix
// differs in its last digits): the solve counts them all as |s_x|, which UniformMagnitude's
// default 1e-5 apart would turn into a foot as far as 1e-5 of the limb from the general path's.
inline constexpr float kFastScaleTolerance = 2.5e-7f;

// Solves `job` into *output and returns true, or returns false and leaves *output alone.
// Inline, so that Run calls the solve directly.
inline bool RunFast(const TwoBoneJob& job, TwoBoneOutput* output) {
  const TwoBoneOptions& o = job.options;
  return job.end_rotation == EndRotation::kFollow && !o.use_limits && o.soften == 1.f &&
         o.weight == 1.f && UniformMagnitude(job.hip_ls.scale, kFastScaleTolerance) &&
         SolveSeedCase(job, output);
}

}  // namespace ikpose::ik::detail
