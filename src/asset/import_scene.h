// The "open" step of loading a model: the file handed to assimp and read into an aiScene.
//
// What: `ImportScene` checks the file can be read, reads it with assimp (no post-processing
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
};

ImportedScene ImportScene(const std::filesystem::path& path);

}  // namespace ikpose::asset
