// Writing clips as glTF 2.0 animations: what a bake (and an export that keeps the model's clips)
// puts in the file.
//
// What: each anim::Clip becomes one glTF animation named after it; each bone track's
// translation, rotation and scale become a channel on the bone's node with a sampler in the
// track's own interpolation (STEP, LINEAR, CUBICSPLINE with its tangents). Tracks sharing the same
// key times share one input accessor. Translations (and their tangents) are scaled by
// `metres_per_unit`, as the exporter scales node translations.
// Why: a clip baked with IK must open in Blender or a game engine as an ordinary animation, and
// the model's other clips must come back out as they went in.
// Limits: a clip that fails anim::ValidateClip, a track on a bone without a node, and a clip left
// with no channel are left out, each with a warning. Morph-target weights are not animated.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "anim/clip.h"
#include "asset/glb_builder.h"

namespace ikpose::asset {

// The glTF "animations" array for `clips`; `node_of_bone` maps skeleton indices to glTF nodes
// (-1: not written). Empty array when nothing could be written.
GltfJson GltfAnimations(std::span<const anim::Clip> clips, std::span<const int> node_of_bone,
                        float metres_per_unit, GlbBuilder& bin, std::vector<std::string>* warnings);

}  // namespace ikpose::asset
