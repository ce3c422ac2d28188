// Loading a model file into anim::Model.
//
// What: imports any file assimp reads (glTF/GLB first; FBX, COLLADA, .X... where assimp does) into
// plain anim structs: the whole node hierarchy as the skeleton (unweighted bones kept), skins from
// every mesh's bones, meshes in bind space with 4 normalised weights per vertex, rigid meshes
// following their node, every UV set, vertex colours and tangents, materials with their factors and
// base-colour, metallic-roughness, normal, occlusion and emissive maps (textures as embedded bytes
// or a resolved path), morph targets as offsets, and clips. Then detects the limb chains and runs
// the rig checks. For glTF files the clips are read again from the file itself, because assimp 5.2
// turns STEP and CUBICSPLINE samplers into linear keys; the file's interpolation and tangents are
// kept.
// Why: everything downstream (solver, renderer, command line) sees one format-free model.
// Untrusted files: only regular files are read; a glTF 2.0 file (recognised by content: a .vrm is a
// GLB) is checked before assimp sees it (gltf_check.h), and its URIs must stay in its folder unless
// LoadOptions allows more.
// Limits: cameras and lights are ignored. A broken file throws LoadError with one line: "<file>:
// <reason>". A file without a skin loads as a static model with a warning; a file with neither
// meshes nor a skeleton is an error.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

#include "anim/model.h"

namespace ikpose::asset {

class LoadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct LoadOptions {
  // glTF buffer and image URIs may name files outside the model's folder (absolute paths,
  // "..", links leading out). Off: a model file cannot make ikpose read other files.
  bool allow_outside_uris = false;
};

// Throws LoadError("<path>: <reason>") when the file cannot be used.
anim::Model LoadModel(const std::filesystem::path& path, const LoadOptions& options = {});

// Same, without exceptions: false and the one-line reason in *error.
bool TryLoadModel(const std::filesystem::path& path, anim::Model* model, std::string* error,
                  const LoadOptions& options = {});

}  // namespace ikpose::asset
