// The structure of a glTF file checked before assimp reads it, and what glTF implies supplied.
//
// What: `CheckGltf` walks a parsed GltfDocument and refuses, with GltfError
// "<field>: <what>", what would make an importer read out of bounds, recurse without end or
// allocate what the file cannot back: buffers without the bytes they claim, buffer views
// outside their buffers, accessors outside their views (offset + stride*(count-1) + element),
// indices of nodes, meshes, skins, accessors, samplers, materials, textures and images out of
// range, a node with two parents, cycles, node chains deeper than kGltfMaxNodeDepth, skins
// with an empty or invalid joint list or fewer inverse bind matrices than joints, JOINTS_n
// values that are negative-capable or outside the skin's joints, image URIs that are not
// files in the model's folder. A skin without inverseBindMatrices gets identity matrices (as
// glTF says) through a new accessor over a data-URI buffer; the result says so.
// Why: assimp 5.2.5 trusts these numbers (it segfaults on a skin without inverse bind
// matrices, reads past a short one, recurses once per node level, allocates what a chunk
// length claims), and every one of those is a crash or a hang for a user opening a file.
// Limits: does not check the numbers themselves (NaN positions are the loader's business),
// nor triangle indices against vertex counts (assimp's validation does), nor extensions.
#pragma once

#include "asset/gltf_document.h"

namespace ikpose::asset {

inline constexpr int kGltfMaxNodeDepth = 1024;

struct GltfCheckResult {
  bool changed = false;  // the JSON gained what glTF implies: hand assimp PackedBytes()
};

GltfCheckResult CheckGltf(GltfDocument& doc);

}  // namespace ikpose::asset
