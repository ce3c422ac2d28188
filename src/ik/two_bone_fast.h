// Internal: TwoBoneJob::Run's speed path for the seed's case.
//
// What: `RunFast` gives the pose Run's general path gives (TwoBoneJobFastPath.* in
// tests/ik/job_fast_path_test.cpp are its contract), for a job without a report, with default
// options or a pole, at full weight, the foot following the knee and a hip scale uniform in
// magnitude, when the chain is well scaled. It returns false for anything else, valid or not.
// Run itself calls `RunFastOrGeneral`, the same solve handing the rest to the general path. Why:
// one chain at a time is a chain of dependent arithmetic; written for that case alone it has fewer
// steps that wait on each other (README, "The solver"). Limits: not part of the API; call
// TwoBoneJob::Run.
#pragma once

#include "ik/two_bone_core.h"
#include "ik/two_bone_job.h"

namespace ikpose::ik::detail {

// The hip scale's magnitudes must agree to a few roundings (a scale decomposed from a matrix
// differs in its last digits): the solve counts them all as |s_x|, which UniformMagnitude's
// default 1e-5 apart would turn into a foot as far as 1e-5 of the limb from the general path's.
inline constexpr float kFastScaleTolerance = 2.5e-7f;

// The solve (two_bone_fast.cpp): the seed's options (soften and weight 1, the foot following,
// no limits) and a hip scale uniform in magnitude are tested with the rest of its inputs.
// Solves `job` into *output and returns true, or returns false and leaves *output alone.
bool RunFast(const TwoBoneJob& job, TwoBoneOutput* output);
// Run's entry without a report: RunFast, handing what it does not cover to RunGeneralNoReport
// itself, so that Run is one jump to it and nothing waits on its answer.
bool RunFastOrGeneral(const TwoBoneJob& job, TwoBoneOutput* output);
// The general path without a report (two_bone_job.cpp).
bool RunGeneralNoReport(const TwoBoneJob& job, TwoBoneOutput* output);

}  // namespace ikpose::ik::detail
