// Loading a prop: a static mesh (stairs, a box, a chair, a ladder) the character stands on or
// touches, read like any model (glTF/GLB, OBJ, FBX...: load_model.h, with its pre-checks) and
// then checked as a prop must be.
// Why: a hostile prop must give one error line like a hostile model, and the ground's BVH
// must not be asked to hold what it cannot.
// Limits: at most kMaxPropTriangles triangles (scene::SurfaceBvh's limit) (checked once loaded: the
// file's size already bounds what the importer allocates); every vertex finite; at least one
// triangle. Clips are ignored: a rigged prop stands in its rest pose, as the window draws it
// (its skinned vertices are moved into that pose when it is loaded).
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>

#include "anim/model.h"

namespace ikpose::asset {

inline constexpr std::size_t kMaxPropTriangles = 5'000'000;

// False with one line "<path>: <reason>" in *error.
bool TryLoadProp(const std::filesystem::path& path, std::shared_ptr<const anim::Model>* prop,
                 std::string* error);

}  // namespace ikpose::asset
