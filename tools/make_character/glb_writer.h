// Writes the character as binary glTF 2.0 (.glb): one buffer, one skinned mesh with a primitive
// per material, one skin, the clips as animations with LINEAR keys.
//
// Output is deterministic: every number written is first rounded to a fixed binary grid (2^-20
// for positions, normals, rotations and matrices, 2^-16 for weights), so that last-bit
// differences between maths libraries do not change the bytes, and JSON keys keep a fixed
// order. Each vertex keeps its four largest weights, which then sum to exactly 1 in float.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "clips.h"
#include "loft.h"
#include "rig.h"

namespace ikpose::character {

struct MaterialSpec {
  std::string name;
  glm::dvec4 base_color{1.0};
  double roughness = 0.8;
};

std::vector<std::uint8_t> WriteGlb(const Rig& rig, const std::vector<Part>& parts,
                                   const std::vector<MaterialSpec>& materials,
                                   const std::vector<Clip>& clips);

}  // namespace ikpose::character
