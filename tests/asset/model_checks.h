// Checks shared by the loader tests: where the test files are, and what must hold for any
// loaded model and any solved chain.
#pragma once

#include <filesystem>
#include <string>

#include "anim/model.h"

namespace ikpose::asset::test {

// ../shared/models beside the checkout (empty path when absent).
std::filesystem::path SharedModelsDir();
// Debian's assimp-testmodels folder (empty path when absent).
std::filesystem::path AssimpTestModelsDir();
// The bundled default character (empty path when it does not exist yet).
std::filesystem::path DefaultCharacter();

// Structural invariants of a loaded model: parents before children, every mesh with a skin,
// joint indices inside it, weights summing to 1, finite data. Adds gtest failures.
void ExpectWellFormed(const anim::Model& model);

// Solves `chain` toward a reachable target derived from `pose` and checks the contract: end
// on the target, the knee on its side of the hip-target line (the current knee's, or with a
// pole the pole's), bone lengths unchanged, bones outside the chain untouched, children follow.
// `what` names the case in failure messages.
void ExpectSolveKeepsTheContract(const anim::Model& model, const anim::LimbChain& chain,
                                 const anim::Pose& pose, const std::string& what);

}  // namespace ikpose::asset::test
