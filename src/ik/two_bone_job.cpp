#include "ik/two_bone_job.h"

namespace ikpose::ik {

InputError TwoBoneJob::Validate() const {
  return InputError::kNonFinite;
}

bool TwoBoneJob::Run(TwoBoneOutput*, TwoBoneReport*) const {
  return false;
}

}  // namespace ikpose::ik
