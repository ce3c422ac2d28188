// A glTF 2.0 file as written: the JSON, its buffers, and accessors read with bounds checks.
//
// What: `GltfDocument::Parse` takes the bytes of a .gltf (JSON) or .glb (binary container)
// file, checks the container (header, chunk lengths within the file, JSON nesting depth) and
// parses the JSON. `Buffer` gives a buffer's bytes: the GLB's BIN chunk, a base64 data URI, or
// a regular file beside the model (see read_file.h). `Floats`/`Integers` read an accessor after
// checking it against its buffer view and buffer. `PackedBytes` writes the document back in
// its own container (after a caller changed the JSON).
// Why: the glTF clip reader, the structure check that runs before assimp, and the tests read
// the same files; one reader keeps one set of rules about what a file may claim.
// Limits: sparse accessors are not read (`Floats` refuses them). Errors are GltfError with
// "<field>: <what>" (no file name: the caller adds it).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "asset/glb_builder.h"

namespace ikpose::asset {

class GltfError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline constexpr int kGltfMaxJsonDepth = 256;  // deeper JSON is refused before parsing

// Whether the bytes start like a binary glTF file ("glTF" magic).
bool IsGlb(const std::vector<std::uint8_t>& bytes);

// Whether the bytes are a glTF file: a GLB, or JSON whose top object has "asset".
bool LooksLikeGltf(const std::vector<std::uint8_t>& bytes);

struct GltfAccessorLayout {
  std::size_t offset = 0;  // first element's byte in the buffer
  std::size_t stride = 0;
  std::size_t count = 0;
  int width = 0;  // components per element
  int component_type = 0;
  int component_size = 0;
  int buffer = -1;  // -1: no buffer view (all zeros)
};

class GltfDocument {
 public:
  // `path` is where URIs are resolved from; the bytes are the file's.
  static GltfDocument Parse(const std::vector<std::uint8_t>& bytes,
                            const std::filesystem::path& path, bool allow_outside_uris = false);
  // Reads `path` (a regular file) and parses it.
  static GltfDocument Read(const std::filesystem::path& path, bool allow_outside_uris = false);

  GltfJson json;
  std::vector<std::uint8_t> bin;  // the GLB's BIN chunk (empty for .gltf)
  bool binary = false;
  std::filesystem::path path;
  bool allow_outside_uris = false;

  // buffers[index]'s bytes (at least its byteLength; checked).
  const std::vector<std::uint8_t>& Buffer(int index);

  // The accessor's layout, checked against its view and buffer: throws GltfError naming
  // "accessors[i]" or "bufferViews[j]" when it reads outside them.
  GltfAccessorLayout Layout(int accessor);

  // Every component of every element as float (normalized integers mapped as glTF says).
  std::vector<float> Floats(int accessor);
  // Every component of every element (unsigned/signed byte, short, int accessors).
  std::vector<std::int64_t> Integers(int accessor);

  // `json["<array>"][index]`, or GltfError "<array>[index] does not exist".
  const GltfJson& At(const char* array, int index) const;

  // The document in its own container: .glb bytes (JSON chunk + `bin`) or JSON text.
  std::vector<std::uint8_t> PackedBytes() const;

 private:
  std::map<int, std::vector<std::uint8_t>> buffers_;
};

int GltfTypeWidth(const std::string& type);                       // "VEC3" -> 3; 0 when unknown
int GltfComponentSize(int component_type);                        // 5126 -> 4; 0 when unknown
std::vector<std::uint8_t> DecodeBase64(const std::string& text);  // data URIs
std::string EncodeBase64(const std::vector<std::uint8_t>& bytes);

}  // namespace ikpose::asset
