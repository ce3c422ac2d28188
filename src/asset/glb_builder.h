// Building a binary glTF 2.0 file (.glb): the binary chunk with the bufferViews and accessors
// that describe it, and the container (header, JSON chunk, BIN chunk).
//
// What: `GlbBuilder` appends arrays to one buffer (each view 4-byte aligned) and records the
// matching bufferView and accessor objects; `WriteInto` puts "buffers", "bufferViews" and
// "accessors" into the document; `PackGlb` lays out the file. The caller writes every other
// part of the glTF JSON (nodes, meshes, skins, materials...).
// Why: the bundled character's generator and the posed-model exporter write the same container;
// one implementation keeps both valid (the Khronos validator checks both).
// Limits: one buffer, embedded in the BIN chunk (no external .bin, no data URIs); no sparse
// accessors. Output is deterministic: JSON keys keep insertion order and no arithmetic is done
// on the data, so the same input gives the same bytes.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

namespace ikpose::asset {

using GltfJson = nlohmann::ordered_json;

// glTF enums.
inline constexpr int kGltfFloat = 5126;
inline constexpr int kGltfUnsignedByte = 5121;
inline constexpr int kGltfUnsignedShort = 5123;
inline constexpr int kGltfUnsignedInt = 5125;
inline constexpr int kGltfArrayBuffer = 34962;
inline constexpr int kGltfElementArrayBuffer = 34963;

class GlbBuilder {
 public:
  // Appends `data` as a new bufferView (4-byte aligned); `target` 0 leaves it unset.
  template <typename T>
  int View(const std::vector<T>& data, int target) {
    static_assert(std::is_trivially_copyable_v<T>);
    return ViewOfBytes(data.data(), data.size() * sizeof(T), target);
  }
  int ViewOfBytes(const void* data, std::size_t length, int target);

  // An accessor over a whole view; min/max written when given.
  int Accessor(int view, int component, std::size_t count, const char* type,
               const std::vector<float>& min = {}, const std::vector<float>& max = {});

  // Float data with `width` components per element as view + accessor; min/max when `bounds`
  // (glTF requires them on POSITION and on animation inputs).
  int Floats(const std::vector<float>& data, int width, const char* type, int target, bool bounds);

  // Pads the binary chunk and sets gltf["buffers"], ["bufferViews"], ["accessors"].
  void WriteInto(GltfJson& gltf);

  const std::vector<std::uint8_t>& bytes() const { return bytes_; }

 private:
  std::vector<std::uint8_t> bytes_;
  GltfJson views_ = GltfJson::array();
  GltfJson accessors_ = GltfJson::array();
};

// The .glb file: 12-byte header, the JSON chunk (padded with spaces), the BIN chunk.
std::vector<std::uint8_t> PackGlb(const GltfJson& gltf, const std::vector<std::uint8_t>& bin);

}  // namespace ikpose::asset
