#include "asset/import_scene.h"

#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/DefaultLogger.hpp>
#include <assimp/Importer.hpp>
#include <assimp/LogStream.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <mutex>

#include "asset/load_model.h"

namespace ikpose::asset {

namespace fs = std::filesystem;

ImportedScene::ImportedScene() = default;
ImportedScene::ImportedScene(ImportedScene&&) noexcept = default;
ImportedScene::~ImportedScene() = default;

namespace {

std::mutex g_import_mutex;  // assimp's logger is a process-wide singleton
std::vector<std::string>* g_log_sink = nullptr;

class CaptureStream : public Assimp::LogStream {
 public:
  void write(const char* message) override {
    if (g_log_sink == nullptr) return;
    std::string text(message);
    // "Warn,  T0: text\n" -> "text"
    const std::size_t colon = text.find(": ");
    if (colon != std::string::npos && colon < 16) text = text.substr(colon + 2);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    g_log_sink->push_back(text);
  }
};

void EnsureLogger() {
  static bool created = false;
  if (created) return;
  created = true;
  Assimp::Logger* logger = Assimp::DefaultLogger::create("", Assimp::Logger::NORMAL, 0);
  logger->attachStream(new CaptureStream, Assimp::Logger::Warn);
}

// The importer's warnings, minus its noise about weights (they are renormalised later) and
// about the placeholder weight it gives unweighted glTF joints; repeats folded, at most 10.
std::vector<std::string> ImporterWarnings(const std::vector<std::string>& log) {
  std::vector<std::string> kept;
  for (const std::string& line : log) {
    if (line.find("bone weight sum") != std::string::npos) continue;
    if (line.find("mWeight has an invalid value") != std::string::npos) continue;
    if (std::find(kept.begin(), kept.end(), line) != kept.end()) continue;
    kept.push_back(line);
  }
  std::vector<std::string> out;
  const std::size_t shown = std::min<std::size_t>(kept.size(), 10);
  for (std::size_t i = 0; i < shown; ++i) out.push_back("importer: " + kept[i]);
  if (kept.size() > shown) {
    out.push_back("importer: " + std::to_string(kept.size() - shown) + " more warnings");
  }
  return out;
}

// Object File Format headers state their vertex and face counts; assimp believes them, so a
// header claiming billions (assimp-testmodels' invalid/OutOfMemory.off) costs minutes and
// gigabytes before failing. Reject counts the file is too small to hold.
void CheckOffHeader(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::string word;
  std::vector<std::string> words;
  while (words.size() < 4 && in >> word) {
    if (word[0] == '#') {
      std::string rest;
      std::getline(in, rest);
      continue;
    }
    words.push_back(word);
  }
  if (words.size() < 4 || words[0].find("OFF") == std::string::npos) return;
  std::error_code ec;
  const double size = static_cast<double>(fs::file_size(path, ec));
  if (ec) return;
  char* end = nullptr;
  const double vertices = std::strtod(words[1].c_str(), &end);
  const double faces = std::strtod(words[2].c_str(), &end);
  // A vertex line takes at least 6 bytes ("0 0 0\n"), a triangle at least 8 ("3 0 1 2\n").
  if (vertices * 6.0 > size || faces * 8.0 > size) {
    throw LoadError(path.string() + ": OFF header claims " + words[1] + " vertices and " +
                    words[2] + " faces, more than a " +
                    std::to_string(static_cast<long long>(size)) + "-byte file can hold");
  }
}

std::string LowerExtension(const fs::path& path) {
  std::string s = path.extension().string();
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

void CheckReadable(const fs::path& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw LoadError(path.string() + ": file not found");
  if (fs::is_directory(path, ec))
    throw LoadError(path.string() + ": is a directory, not a model file");
  std::ifstream probe(path, std::ios::binary);
  if (!probe) throw LoadError(path.string() + ": cannot be opened for reading");
}

// Reads without post-processing, validates (only when there are meshes: a skeleton-only file
// such as BVH has none, which validation would reject), then post-processes. Deliberately no
// LimitBoneWeights (it drops unweighted bones; weights are limited later) and no
// PreTransformVertices/OptimizeGraph (they flatten the hierarchy the skeleton comes from).
const aiScene* ReadAndProcess(Assimp::Importer& importer, const fs::path& path) {
  importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, false);
  // A skeleton-only file (BVH) stays a skeleton: no made-up mesh of bone boxes.
  importer.SetPropertyBool(AI_CONFIG_IMPORT_NO_SKELETON_MESHES, true);
  const aiScene* scene = importer.ReadFile(path.string(), 0);
  if (scene != nullptr && scene->mNumMeshes > 0) {
    scene = importer.ApplyPostProcessing(aiProcess_ValidateDataStructure);
  }
  if (scene != nullptr) {
    scene =
        importer.ApplyPostProcessing(aiProcess_Triangulate | aiProcess_JoinIdenticalVertices |
                                     aiProcess_GenSmoothNormals | aiProcess_PopulateArmatureData);
  }
  return scene;
}

}  // namespace

ImportedScene ImportScene(const fs::path& path) {
  CheckReadable(path);
  if (LowerExtension(path) == ".off") CheckOffHeader(path);

  ImportedScene out;
  out.importer = std::make_unique<Assimp::Importer>();
  std::vector<std::string> log;
  {
    std::lock_guard<std::mutex> lock(g_import_mutex);
    EnsureLogger();
    g_log_sink = &log;
    out.scene = ReadAndProcess(*out.importer, path);
    g_log_sink = nullptr;
  }
  if (out.scene == nullptr) {
    std::string reason = out.importer->GetErrorString();
    if (reason.empty()) reason = "the importer could not read it";
    throw LoadError(path.string() + ": " + reason);
  }
  for (const std::string& line : log) {
    if (line.find("out-of-range indices") != std::string::npos) {
      throw LoadError(path.string() +
                      ": broken mesh: some triangles index vertices that do not exist (" + line +
                      ")");
    }
  }
  if ((out.scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE) != 0 || out.scene->mRootNode == nullptr) {
    throw LoadError(path.string() + ": the file holds an incomplete scene" +
                    (out.scene->mNumMeshes == 0 ? " (no meshes)" : ""));
  }
  out.warnings = ImporterWarnings(log);
  return out;
}

}  // namespace ikpose::asset
