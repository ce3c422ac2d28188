#include "ik/two_bone_positions.h"

namespace ikpose::ik {

std::string_view ReachName(Reach reach) {
  switch (reach) {
    case Reach::kReachable:
      return "reachable";
    case Reach::kTooFar:
      return "too_far";
    case Reach::kTooClose:
      return "too_close";
  }
  return "reachable";
}

InputError ValidatePositions(const PositionsInput&) {
  return InputError::kNonFinite;
}

InputError SolvePositions(const PositionsInput& input, PositionsResult*, PositionsReport*) {
  return ValidatePositions(input);
}

}  // namespace ikpose::ik
