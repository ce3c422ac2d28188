#include "asset/glb_builder.h"

#include <algorithm>
#include <limits>

namespace ikpose::asset {

int GlbBuilder::ViewOfBytes(const void* data, std::size_t length, int target) {
  while (bytes_.size() % 4 != 0) bytes_.push_back(0);
  const std::size_t offset = bytes_.size();
  bytes_.resize(offset + length);
  if (length > 0) std::memcpy(bytes_.data() + offset, data, length);
  GltfJson view{{"buffer", 0}, {"byteOffset", offset}, {"byteLength", length}};
  if (target != 0) view["target"] = target;
  views_.push_back(view);
  return static_cast<int>(views_.size() - 1);
}

int GlbBuilder::Accessor(int view, int component, std::size_t count, const char* type,
                         const std::vector<float>& min, const std::vector<float>& max) {
  GltfJson a{{"bufferView", view}, {"componentType", component}, {"count", count}, {"type", type}};
  if (!min.empty()) {
    a["min"] = GltfJson::array();
    a["max"] = GltfJson::array();
    for (float v : min) a["min"].push_back(static_cast<double>(v));
    for (float v : max) a["max"].push_back(static_cast<double>(v));
  }
  accessors_.push_back(a);
  return static_cast<int>(accessors_.size() - 1);
}

int GlbBuilder::Floats(const std::vector<float>& data, int width, const char* type, int target,
                       bool bounds) {
  const int view = View(data, target);
  const std::size_t count = data.size() / static_cast<std::size_t>(width);
  if (!bounds) return Accessor(view, kGltfFloat, count, type);
  std::vector<float> lo(static_cast<std::size_t>(width), std::numeric_limits<float>::max());
  std::vector<float> hi(static_cast<std::size_t>(width), std::numeric_limits<float>::lowest());
  for (std::size_t i = 0; i < data.size(); ++i) {
    const std::size_t c = i % static_cast<std::size_t>(width);
    lo[c] = std::min(lo[c], data[i]);
    hi[c] = std::max(hi[c], data[i]);
  }
  return Accessor(view, kGltfFloat, count, type, lo, hi);
}

void GlbBuilder::WriteInto(GltfJson& gltf) {
  while (bytes_.size() % 4 != 0) bytes_.push_back(0);
  gltf["buffers"] = GltfJson::array({{{"byteLength", bytes_.size()}}});
  gltf["bufferViews"] = views_;
  gltf["accessors"] = accessors_;
}

std::vector<std::uint8_t> PackGlb(const GltfJson& gltf, const std::vector<std::uint8_t>& bin) {
  // Names come from the source file: invalid UTF-8 is written as U+FFFD rather than thrown.
  std::string json = gltf.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  while (json.size() % 4 != 0) json.push_back(' ');
  std::vector<std::uint8_t> padded_bin = bin;
  while (padded_bin.size() % 4 != 0) padded_bin.push_back(0);

  std::vector<std::uint8_t> out;
  auto u32 = [&out](std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
  };
  const std::size_t total = 12 + 8 + json.size() + 8 + padded_bin.size();
  out.reserve(total);
  u32(0x46546C67u);  // "glTF"
  u32(2u);
  u32(static_cast<std::uint32_t>(total));
  u32(static_cast<std::uint32_t>(json.size()));
  u32(0x4E4F534Au);  // "JSON"
  out.insert(out.end(), json.begin(), json.end());
  u32(static_cast<std::uint32_t>(padded_bin.size()));
  u32(0x004E4942u);  // "BIN\0"
  out.insert(out.end(), padded_bin.begin(), padded_bin.end());
  return out;
}

}  // namespace ikpose::asset
