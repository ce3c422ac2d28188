// The "open" step of loading a model: the file handed to assimp and read into an aiScene.
//
// What: `ImportScene` checks the file is a regular file; a glTF 2.0 file (recognised by its
// content, so a .vrm is one) goes through the structure check of gltf_check.h first and is
// handed to assimp from memory (amended where glTF implies something), with assimp's access to
// other files limited as read_file.h says. Then assimp reads it (no post-processing
// that flattens the hierarchy), validates and post-processes it (triangles, joined vertices,
// smooth normals where missing, bone nodes), and returns the scene with the importer's
// warnings, filtered.
// Why: assimp's logger is process-wide and its importer owns the scene; keeping both here
// leaves the rest of the loader working on a plain, finished scene.
// Limits: one import at a time (a mutex guards assimp's logger). Throws LoadError.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "asset/gltf_document.h"
#include "asset/load_model.h"

struct aiScene;
namespace Assimp {
class Importer;
}

namespace ikpose::asset {

struct ImportedScene {
  ImportedScene();
  ImportedScene(ImportedScene&&) noexcept;
  ~ImportedScene();

  std::unique_ptr<Assimp::Importer> importer;  // owns *scene
  const aiScene* scene = nullptr;
  std::vector<std::string> warnings;  // "importer: ..." lines, at most 11
  int gltf_version = 0;               // 2: glTF 2.0 by content, whatever the extension; 1: glTF 1.0
  std::unique_ptr<GltfDocument> gltf;  // a glTF 2.0 file as read and checked
};

ImportedScene ImportScene(const std::filesystem::path& path, const LoadOptions& options);

}  // namespace ikpose::asset
