// What a posed export keeps of a glTF 2.0 source beyond the model itself: texture sampler
// modes, KHR_texture_transform on a material's five standard maps, cameras (and the nodes that
// hold them), and extras on the file, the asset, the default scene, nodes and materials.
//
// What: `KeepFromSource` copies those fields from the source's JSON into the export's JSON
// (`out`, nodes, materials and textures already written) and returns the fields it kept, in
// the form export_drops.h names them ("textures[2]", "nodes[4].extras", "cameras"), so that
// only what is really left out is listed. Nodes are matched by name (only names that occur
// once in both files), materials by index (and name, when the source names it), textures
// through the material maps that use them.
// Why: an export that replaces the source in a pipeline should look and behave like it: a
// pixel-art texture stays unfiltered, a tiled texture stays tiled, a camera stays where it was.
// Limits: a sampler is kept when every map that samples the texture's image asks for the same
// one (the export writes one texture per image); values that glTF does not allow (an unknown
// filter, a non-finite offset, a camera without its projection) are not copied, and the field
// stays listed as left out.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "anim/model.h"
#include "asset/gltf_document.h"

namespace ikpose::asset {

// `material_of`: the model's material index -> the export's (-1 when not written).
std::set<std::string> KeepFromSource(const GltfJson& source, const anim::Model& model,
                                     const std::vector<int>& material_of, GltfJson& out);

}  // namespace ikpose::asset
