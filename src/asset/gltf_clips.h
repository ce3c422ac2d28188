// glTF animations read from the file itself, with their real interpolation.
//
// What: reads a .gltf/.glb file's JSON and buffers (through gltf_document.h), and turns its
// animations into anim::Clip with STEP, LINEAR and CUBICSPLINE samplers as written (cubic tangents
// included). glTF node indices are mapped to skeleton bones by walking the scene the way the
// importer does (one root node becomes the root; several get a common root), and the names are
// checked. Why: assimp 5.2 keeps only the key values and treats every sampler as linear, so a
// stepped or cubic clip would play wrong. Limits: sparse accessors and morph-target weights are not
// read; any surprise makes it give up (returns false with the reason) and the importer's linear
// keys are used instead.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "anim/clip.h"
#include "anim/skeleton.h"
#include "asset/gltf_document.h"

namespace ikpose::asset {

// True with *clips filled (possibly empty) on success; false with *problem on failure.
// `allow_outside_uris` as in LoadOptions.
bool ReadGltfClips(const std::filesystem::path& path, const anim::Skeleton& skeleton,
                   std::vector<anim::Clip>* clips, std::string* problem,
                   bool allow_outside_uris = false);

// Same, from a document already read (the loader's, after its structure check).
bool ReadGltfClips(GltfDocument& doc, const anim::Skeleton& skeleton,
                   std::vector<anim::Clip>* clips, std::string* problem);

}  // namespace ikpose::asset
