// What `ikpose export` leaves out of a glTF 2.0 source file, field by field, so that nothing is
// dropped without a word.
//
// What: from the source's JSON: texture sampler modes other than the export's default (linear,
// mipmapped and repeating), KHR_texture_transform on any material texture, cameras, and extras
// on the asset, scenes, nodes, meshes (other than morph target names) and materials, less what
// the export kept of them (export_keep.h). Each is one line naming the field
// ("nodes[3].extras").
// Why: an artist who exports a posed copy must know what the copy lacks before it replaces the
// original in a pipeline.
// Limits: only what the exporter is known to leave out; other extensions are not listed. At most
// kMaxDropLines lines, the last saying how many more.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "asset/gltf_document.h"

namespace ikpose::asset {

// "nodes[3]": how a glTF element is named in what export says it keeps or leaves out.
inline std::string GltfElementName(const char* array, std::size_t i) {
  return std::string(array) + "[" + std::to_string(i) + "]";
}

// The top-level array `key` of a glTF document, empty when absent or not an array.
inline const GltfJson& GltfArray(const GltfJson& root, const char* key) {
  static const GltfJson kEmpty = GltfJson::array();
  const auto it = root.find(key);
  return it != root.end() && it->is_array() ? *it : kEmpty;
}

inline constexpr std::size_t kMaxDropLines = 12;

// `kept`: the fields the export carried over (KeepFromSource), not listed.
std::vector<std::string> ExportDrops(const GltfJson& source,
                                     const std::set<std::string>& kept = {});

}  // namespace ikpose::asset
