#include "asset/import_scene.h"

#include <assimp/DefaultIOSystem.h>
#include <assimp/MemoryIOWrapper.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/DefaultLogger.hpp>
#include <assimp/Importer.hpp>
#include <assimp/LogStream.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <string_view>

#include "anim/bounded_input.h"
#include "asset/format_precheck.h"
#include "asset/gltf_check.h"
#include "asset/read_file.h"

namespace ikpose::asset {

namespace fs = std::filesystem;

PreparedImport::PreparedImport() = default;
PreparedImport::PreparedImport(PreparedImport&&) noexcept = default;
PreparedImport::~PreparedImport() = default;
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

// The model file itself must be a regular file (a FIFO would block, /dev/zero never ends).
void CheckReadable(const fs::path& path) {
  const std::string not_regular = NotRegularFileReason(path);
  if (not_regular.empty()) return;
  if (not_regular == "is a directory, not a regular file") {
    throw LoadError(path.string() + ": is a directory, not a model file");
  }
  throw LoadError(path.string() + ": " + not_regular);
}

// The first bytes say whether the file may be glTF (binary, or JSON); only then is it read
// whole here.
bool MayBeGltf(const fs::path& path) {
  std::vector<std::uint8_t> head;
  std::ifstream in(path, std::ios::binary);
  char bytes[64] = {};
  in.read(bytes, sizeof bytes);
  head.assign(bytes, bytes + in.gcount());
  if (IsGlb(head)) return true;
  for (std::uint8_t c : head) {
    if (!std::isspace(c)) return c == '{';
  }
  return false;
}

// glTF 1.0 (a version-1 GLB header, or "asset": {"version": "1.x"}) goes to assimp as it is.
template <typename Json>
bool IsGltf1(const Json& json) {
  const Json asset = json.value("asset", Json::object());
  const Json version = asset.is_object() ? asset.value("version", Json()) : Json();
  if (version.is_number()) return version.template get<double>() < 2.0;
  if (version.is_string()) return version.template get<std::string>().rfind('1', 0) == 0;
  // Without a version: glTF 1.0 keeps its objects in dictionaries, 2.0 in arrays.
  return json.contains("nodes") && json["nodes"].is_object();
}

bool IsGltf1(const std::vector<std::uint8_t>& bytes) {
  if (IsGlb(bytes)) return bytes.size() >= 8 && bytes[4] == 1 && bytes[5] == 0;
  // A .gltf: told apart with a sorted-map parse before GltfDocument's order-keeping one, whose
  // lookups are linear (100,000 node ids in a 1.0 dictionary would take minutes).
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  if (!anim::JsonNestingWithin(text)) return false;  // GltfDocument says what is wrong
  const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
  return !json.is_discarded() && json.is_object() && IsGltf1(json);
}

// assimp's file access for a glTF: the model's (possibly amended) bytes from memory under a
// name in the model's folder, other files only when they are regular files, and in that
// folder unless allowed. `bytes` must outlive the import.
class GltfIo : public Assimp::DefaultIOSystem {
 public:
  GltfIo(std::string name, const std::vector<std::uint8_t>& bytes, fs::path folder,
         bool allow_outside)
      : name_(std::move(name)),
        bytes_(bytes),
        folder_(std::move(folder)),
        allow_outside_(allow_outside) {}

  bool Exists(const char* file) const override {
    return file == name_ || (Allowed(file) && DefaultIOSystem::Exists(file));
  }

  Assimp::IOStream* Open(const char* file, const char* mode) override {
    if (file == name_) {
      return new Assimp::MemoryIOStream(const_cast<std::uint8_t*>(bytes_.data()), bytes_.size());
    }
    if (!Allowed(file)) return nullptr;
    return DefaultIOSystem::Open(file, mode);
  }

 private:
  bool Allowed(const char* file) const {
    fs::path resolved;
    std::string problem;
    const fs::path name(file);
    const std::string relative =
        name.is_absolute() ? name.lexically_relative(folder_).string() : name.string();
    return NotRegularFileReason(name).empty() &&
           ResolveBeside(folder_, relative.empty() ? file : relative, allow_outside_, &resolved,
                         &problem);
  }

  std::string name_;
  const std::vector<std::uint8_t>& bytes_;
  fs::path folder_;
  bool allow_outside_;
};

// Reads without post-processing, validates (only when there are meshes: a skeleton-only file
// such as BVH has none, which validation would reject), then post-processes. Deliberately no
// LimitBoneWeights (it drops unweighted bones; weights are limited later) and no
// PreTransformVertices/OptimizeGraph (they flatten the hierarchy the skeleton comes from).
const aiScene* ReadAndProcess(Assimp::Importer& importer, const std::string& path) {
  importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, false);
  // A skeleton-only file (BVH) stays a skeleton: no made-up mesh of bone boxes.
  importer.SetPropertyBool(AI_CONFIG_IMPORT_NO_SKELETON_MESHES, true);
  const aiScene* scene = importer.ReadFile(path, 0);
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

// A glTF 2.0 file checked and amended where glTF implies something, kept in out.bytes to be
// read from memory under out.read_as. The glTF version (1.0 files are left to assimp as they
// are), 0 for anything else.
int PrepareGltf(const fs::path& path, const LoadOptions& options, PreparedImport& out) {
  std::vector<std::uint8_t>& bytes = out.bytes;
  if (!LooksLikeGltf(bytes)) return 0;
  if (IsGltf1(bytes)) return 1;
  out.gltf =
      std::make_unique<GltfDocument>(GltfDocument::Parse(bytes, path, options.allow_outside_uris));
  GltfDocument& doc = *out.gltf;
  if (IsGltf1(doc.json)) {
    out.gltf.reset();
    return 1;
  }
  if (CheckGltf(doc).changed) bytes = doc.PackedBytes();
  // Recognised by content: assimp picks its reader by this name's extension.
  const fs::path folder = fs::absolute(path).parent_path();
  out.read_as =
      (folder / (path.stem().string() + ".in-memory" + (doc.binary ? ".glb" : ".gltf"))).string();
  return 2;
}

}  // namespace

PreparedImport PrepareImport(const fs::path& path, const LoadOptions& options) {
  CheckReadable(path);
  PreparedImport out;
  out.path = path;
  out.options = options;
  out.read_as = path.string();
  if (MayBeGltf(path)) {
    std::string problem;
    if (!ReadRegularFile(path, std::uintmax_t{4} << 30, &out.bytes, &problem)) {
      throw LoadError(path.string() + ": " + problem);
    }
    try {
      out.gltf_version = PrepareGltf(path, options, out);
    } catch (const GltfError& e) {
      throw LoadError(path.string() + ": " + e.what());
    }
    if (out.gltf_version == 1) {
      if (const std::string problem1 = PrecheckGltf1(out.bytes); !problem1.empty()) {
        throw LoadError(path.string() + ": " + problem1);
      }
    }
    if (out.gltf_version != 2) out.bytes.clear();  // assimp reads the file itself
  }
  if (out.gltf_version == 0 && LowerExtension(path) == ".off") CheckOffHeader(path);
  if (out.gltf_version == 0) {
    if (const std::string problem = PrecheckModelFile(path); !problem.empty()) {
      throw LoadError(path.string() + ": " + problem);
    }
  }
  return out;
}

ImportedScene ImportScene(const PreparedImport& prepared) {
  const fs::path& path = prepared.path;
  ImportedScene out;
  out.importer = std::make_unique<Assimp::Importer>();
  if (prepared.gltf_version == 2) {
    out.importer->SetIOHandler(new GltfIo(prepared.read_as, prepared.bytes,
                                          fs::absolute(path).parent_path(),
                                          prepared.options.allow_outside_uris));
  }
  std::vector<std::string> log;
  {
    std::lock_guard<std::mutex> lock(g_import_mutex);
    EnsureLogger();
    g_log_sink = &log;
    out.scene = ReadAndProcess(*out.importer, prepared.read_as);
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
