// Rig checks: things about a skeleton that make IK results surprising, as one-line warnings.
//
// What: for each detected chain: straight in the rest pose (no natural bend plane: the knee
// side is arbitrary without a pole), non-uniform or negative scale on the chain or above it
// (the solver then cannot keep model-space lengths exactly), left/right limbs of different
// lengths, and limbs that were expected but have fewer than 2 bones (from detection notes).
// Why: `ikpose inspect` and the viewer show these so users know before they pose.
// Limits: the influences-per-vertex check happens in the importer (it sees the raw weights).
#pragma once

#include <string>
#include <vector>

#include "anim/chains.h"
#include "anim/skeleton.h"

namespace ikpose::anim {

std::vector<std::string> CheckRig(const Skeleton& skeleton, const Pose& rest,
                                  const ChainSet& chains);

}  // namespace ikpose::anim
