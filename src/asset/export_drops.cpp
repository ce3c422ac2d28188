#include "asset/export_drops.h"

namespace ikpose::asset {
namespace {

// The export's one sampler.
constexpr int kMag = 9729, kMin = 9987, kRepeat = 10497;

// Every KHR_texture_transform under `value` (a material), by its path; bounded depth.
void FindTextureTransforms(const GltfJson& value, const std::string& path, int depth,
                           std::vector<std::string>* found) {
  if (depth > 8 || !value.is_object()) return;
  for (const auto& [key, child] : value.items()) {
    if (key == "extensions" && child.is_object() && child.contains("KHR_texture_transform")) {
      found->push_back(path + ": KHR_texture_transform");
    } else {
      FindTextureTransforms(child, path + "." + key, depth + 1, found);
    }
  }
}

}  // namespace

std::vector<std::string> ExportDrops(const GltfJson& source, const std::set<std::string>& kept) {
  std::vector<std::string> drops;
  if (!source.is_object()) return drops;
  const GltfJson& samplers = GltfArray(source, "samplers");
  const GltfJson& textures = GltfArray(source, "textures");
  for (std::size_t t = 0; t < textures.size(); ++t) {
    const auto s = textures[t].find("sampler");
    if (s == textures[t].end() || !s->is_number_unsigned() ||
        s->get<std::size_t>() >= samplers.size())
      continue;
    const GltfJson& sampler = samplers[s->get<std::size_t>()];
    std::string differs;
    for (const auto& [field, ours] : {std::pair{"magFilter", kMag},
                                      {"minFilter", kMin},
                                      {"wrapS", kRepeat},
                                      {"wrapT", kRepeat}}) {
      const auto it = sampler.find(field);
      if (it != sampler.end() && it->is_number_integer() && it->get<int>() != ours) {
        differs +=
            std::string(differs.empty() ? "" : ", ") + field + " " + std::to_string(it->get<int>());
      }
    }
    if (!differs.empty()) {
      drops.push_back(GltfElementName("textures", t) + ": sampler " + differs +
                      " (written linear, mipmapped, repeating)");
    }
  }
  const GltfJson& materials = GltfArray(source, "materials");
  for (std::size_t m = 0; m < materials.size(); ++m) {
    FindTextureTransforms(materials[m], GltfElementName("materials", m), 0, &drops);
  }
  if (!GltfArray(source, "cameras").empty()) {
    drops.push_back("cameras: " + std::to_string(GltfArray(source, "cameras").size()));
  }
  const auto extras = [&](const GltfJson& object, const std::string& path) {
    if (object.is_object() && object.contains("extras")) drops.push_back(path + ".extras");
  };
  extras(source, "(file)");
  if (source.contains("asset")) extras(source["asset"], "asset");
  for (const char* array : {"scenes", "nodes", "materials"}) {
    const GltfJson& items = GltfArray(source, array);
    for (std::size_t i = 0; i < items.size(); ++i) extras(items[i], GltfElementName(array, i));
  }
  const GltfJson& meshes = GltfArray(source, "meshes");
  for (std::size_t i = 0; i < meshes.size(); ++i) {
    const auto it = meshes[i].find("extras");
    if (it == meshes[i].end()) continue;
    // Morph target names are written again; anything else is not.
    if (!it->is_object() || it->size() != 1 || !it->contains("targetNames")) {
      drops.push_back(GltfElementName("meshes", i) + ".extras");
    }
  }
  // What the export kept (export_keep.h) is named by the line's field, the text before ": ".
  std::erase_if(drops, [&kept](const std::string& line) {
    return kept.count(line.substr(0, line.find(": "))) != 0;
  });
  if (drops.size() > kMaxDropLines) {
    const std::size_t more = drops.size() - (kMaxDropLines - 1);
    drops.resize(kMaxDropLines - 1);
    drops.push_back("and " + std::to_string(more) + " more");
  }
  return drops;
}

}  // namespace ikpose::asset
