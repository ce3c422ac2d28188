// Batch solve over structure-of-arrays: many independent chains, positions and rotations.
//
// What: `SolveChain` solves one chain (the seed's algorithm, default options) given a, b, c,
// t in a space where the chain is rigid (model space for an unscaled skeleton, or the hip's
// parent space) and returns b', c' and the two minimal rotations, in that space.
// `SolveChainBatch` does the same for `count` chains stored as separate x/y/z arrays; it is
// vectorised (the x86-64 baseline loop, or kernels of 8 AVX2 or 16 AVX-512 lanes picked at run
// time), and agrees with SolveChain to 1e-5 of the limb length.
// Why: crowds and tests of many poses; the benchmark's batch entry point.
// Limits: no options (pole, limits, soften, weight); invalid chains (NaN, zero-length bones,
// target on the hip) give NaN-free but meaningless output with reach kBatchInvalid. To turn the
// model-space rotations into local deltas, conjugate by the bone's model rotation.
#pragma once

#include <cstddef>
#include <cstdint>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "ik/two_bone_positions.h"

namespace ikpose::ik {

struct ChainSolution {
  Reach reach = Reach::kReachable;
  bool valid = true;    // false: invalid chain (see ValidatePositions); the rest is meaningless
  glm::vec3 knee{0.f};  // b'
  glm::vec3 foot{0.f};  // c'
  glm::quat hip_rotation{1.f, 0.f, 0.f, 0.f};   // turns b - a toward b' - a
  glm::quat knee_rotation{1.f, 0.f, 0.f, 0.f};  // turns hip_rotation * (c - b) toward c' - b'
};

ChainSolution SolveChain(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                         const glm::vec3& t);

// x, y, z arrays of one point set; each `count` long.
struct Points3 {
  float* x = nullptr;
  float* y = nullptr;
  float* z = nullptr;
};
struct ConstPoints3 {
  const float* x = nullptr;
  const float* y = nullptr;
  const float* z = nullptr;
};
// Quaternion components, x, y, z, w arrays.
struct Quats {
  float* x = nullptr;
  float* y = nullptr;
  float* z = nullptr;
  float* w = nullptr;
};

struct ChainBatchInput {
  ConstPoints3 hip, knee, foot, target;  // a, b, c, t
};
struct ChainBatchOutput {
  Points3 knee, foot;  // b', c'
  Quats hip_rotation, knee_rotation;
  std::uint8_t* reach = nullptr;  // Reach as a number, or kBatchInvalid; may be null
};
inline constexpr std::uint8_t kBatchInvalid = 255;

// Output arrays must not overlap the inputs.
void SolveChainBatch(const ChainBatchInput& input, const ChainBatchOutput& output,
                     std::size_t count);

}  // namespace ikpose::ik
