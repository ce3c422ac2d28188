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
// GLB) is checked before assimp sees it (gltf_check.h), other formats are pre-scanned
// (format_precheck.h), and a glTF's URIs must stay in its folder unless LoadOptions allows more.
// Then assimp runs in a separate program, ikpose_import, under limits and allowed only to read
// the model's folder (import_child.h), and hands the model back in
// the bounded form of model_wire.h, read as carefully as a file: an importer that crashes, runs
// out of memory or time is one error line naming the file, never a crash of ikpose.
// Limits: cameras and lights are ignored. A broken file throws LoadError with one line: "<file>:
// <reason>". A file without a skin loads as a static model with a warning; a file with neither
// meshes nor a skeleton is an error.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

#include "anim/model.h"
#include "asset/import_child.h"

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

// LoadModel with explicit limits on the importer program (tests lower them).
anim::Model LoadModelIsolated(const std::filesystem::path& path, const LoadOptions& options,
                              const ImportLimits& limits);

// The same import in this process, with no importer program: for comparing the two, and for
// the fuzzers' and tests' trusted bundled character. Not for untrusted files.
anim::Model LoadModelInProcess(const std::filesystem::path& path, const LoadOptions& options = {});

// What the importer program (import_child.h) runs on a prepared file: the import, encoded as
// its answer (model_wire.h): the model, or the one-line reason it cannot be loaded. Throws
// std::bad_alloc only.
struct PreparedImport;
std::string ImportToWire(const PreparedImport& prepared);

// Same, without exceptions: false and the one-line reason in *error.
bool TryLoadModel(const std::filesystem::path& path, anim::Model* model, std::string* error,
                  const LoadOptions& options = {});

}  // namespace ikpose::asset
