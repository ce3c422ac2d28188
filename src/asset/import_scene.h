// The "open" step of loading a model: the file handed to assimp and read into an aiScene.
//
// What: two steps. `PrepareImport` (in ikpose's own process, before any importer runs) checks
// the file is a regular file; a glTF 2.0 file (recognised by its content, so a .vrm is one)
// goes through the structure check of gltf_check.h and is kept in memory (amended where glTF
// implies something); other formats get the pre-scans of format_precheck.h. `ImportScene`
// (in the importer program, import_child.h) hands the prepared file to assimp, with
// assimp's access to other files limited as read_file.h says: assimp reads it (no
// post-processing that flattens the hierarchy), validates and post-processes it (triangles,
// joined vertices, smooth normals where missing, bone nodes), and returns the scene with the
// importer's warnings, filtered.
// Why: the checks give better messages than a crashed importer and cost little; assimp's
// logger is process-wide and its importer owns the scene; keeping both here leaves the rest
// of the loader working on a plain, finished scene.
// Limits: one import at a time per process (a mutex guards assimp's logger). Throws LoadError.
#pragma once

#include <cstdint>
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

// A file checked and ready for assimp.
struct PreparedImport {
  PreparedImport();
  PreparedImport(PreparedImport&&) noexcept;
  ~PreparedImport();

  std::filesystem::path path;
  LoadOptions options;
  int gltf_version = 0;  // 2: glTF 2.0 by content, whatever the extension; 1: glTF 1.0
  std::unique_ptr<GltfDocument> gltf;  // a glTF 2.0 file as read and checked
  std::vector<std::uint8_t> bytes;     // a glTF 2.0 file's bytes for assimp (amended)
  std::string read_as;                 // the name assimp reads (its extension picks the reader)
};

PreparedImport PrepareImport(const std::filesystem::path& path, const LoadOptions& options);

struct ImportedScene {
  ImportedScene();
  ImportedScene(ImportedScene&&) noexcept;
  ~ImportedScene();

  std::unique_ptr<Assimp::Importer> importer;  // owns *scene
  const aiScene* scene = nullptr;
  std::vector<std::string> warnings;  // "importer: ..." lines, at most 11
};

ImportedScene ImportScene(const PreparedImport& prepared);

}  // namespace ikpose::asset
