#include "asset/export_keep.h"

#include "asset/export_drops.h"

#include <cmath>
#include <map>
#include <utility>

namespace ikpose::asset {
namespace {

// glTF 2.0's sampler values.
constexpr int kMagFilters[] = {9728, 9729};
constexpr int kMinFilters[] = {9728, 9729, 9984, 9985, 9986, 9987};
constexpr int kWraps[] = {33071, 33648, 10497};

// A material's five standard maps, as paths from the material.
constexpr std::pair<const char*, const char*> kMaps[] = {
    {"pbrMetallicRoughness", "baseColorTexture"},
    {"pbrMetallicRoughness", "metallicRoughnessTexture"},
    {"", "normalTexture"},
    {"", "occlusionTexture"},
    {"", "emissiveTexture"}};

// The map's textureInfo in `material`, or null.
GltfJson* MapIn(GltfJson& material, const std::pair<const char*, const char*>& map) {
  GltfJson* holder = &material;
  if (*map.first != '\0') {
    const auto it = material.find(map.first);
    if (it == material.end() || !it->is_object()) return nullptr;
    holder = &*it;
  }
  const auto it = holder->find(map.second);
  return it != holder->end() && it->is_object() ? &*it : nullptr;
}

const GltfJson* MapIn(const GltfJson& material, const std::pair<const char*, const char*>& map) {
  return MapIn(const_cast<GltfJson&>(material), map);
}

bool FiniteNumbers(const GltfJson& value, std::size_t count) {
  if (!value.is_array() || value.size() != count) return false;
  for (const GltfJson& v : value) {
    if (!v.is_number() || !std::isfinite(v.get<double>())) return false;
  }
  return true;
}

template <std::size_t N>
bool OneOf(const GltfJson& value, const int (&allowed)[N]) {
  if (!value.is_number_integer()) return false;
  for (int a : allowed) {
    if (value.get<long long>() == a) return true;
  }
  return false;
}

// The source sampler as glTF allows it, or null when a field holds something else.
GltfJson ValidSampler(const GltfJson& sampler) {
  if (!sampler.is_object()) return GltfJson();
  GltfJson out = GltfJson::object();
  for (const auto& [field, check] : {std::pair<const char*, int>{"magFilter", 0},
                                     {"minFilter", 1},
                                     {"wrapS", 2},
                                     {"wrapT", 2}}) {
    const auto it = sampler.find(field);
    if (it == sampler.end()) continue;
    const bool ok = check == 0   ? OneOf(*it, kMagFilters)
                    : check == 1 ? OneOf(*it, kMinFilters)
                                 : OneOf(*it, kWraps);
    if (!ok) return GltfJson();
    out[field] = *it;
  }
  return out;
}

GltfJson ValidTransform(const GltfJson& transform) {
  if (!transform.is_object()) return GltfJson();
  for (const auto& [key, value] : transform.items()) {
    const bool ok = key == "offset" || key == "scale" ? FiniteNumbers(value, 2)
                    : key == "rotation" ? value.is_number() && std::isfinite(value.get<double>())
                    : key == "texCoord" ? value.is_number_unsigned() && value.get<long long>() < 8
                                        : false;
    if (!ok) return GltfJson();
  }
  return transform;
}

bool ValidCamera(const GltfJson& camera) {
  if (!camera.is_object() || !camera.contains("type") || !camera["type"].is_string()) return false;
  const std::string type = camera["type"].get<std::string>();
  if (type != "perspective" && type != "orthographic") return false;
  const auto projection = camera.find(type);
  if (projection == camera.end() || !projection->is_object()) return false;
  for (const auto& [key, value] : projection->items()) {
    if (key == "extras" || key == "extensions") continue;
    if (!value.is_number() || !std::isfinite(value.get<double>())) return false;
  }
  const auto positive = [&](const char* key) {
    const auto it = projection->find(key);
    return it != projection->end() && it->is_number() && it->get<double>() > 0.0;
  };
  return type == "perspective" ? positive("yfov") && positive("znear")
                               : positive("znear") && projection->contains("xmag") &&
                                     projection->contains("ymag") && positive("zfar");
}

class Keeper {
 public:
  Keeper(const GltfJson& source, const anim::Model& model, const std::vector<int>& material_of,
         GltfJson& out)
      : source_(source), model_(model), material_of_(material_of), out_(out) {}

  std::set<std::string> Run() {
    if (!source_.is_object() || !out_.is_object()) return {};
    KeepMaterials();
    KeepNodes();
    KeepTopLevel();
    return kept_;
  }

 private:
  // Sampler modes and texture transforms of each mapped material, and its extras.
  void KeepMaterials() {
    const GltfJson& materials = GltfArray(source_, "materials");
    if (!out_.contains("materials")) return;
    std::map<int, GltfJson> sampler_of;  // exported texture -> the sampler asked for it
    std::set<int> sampler_clash;         // exported textures asked for two samplers
    std::map<int, std::set<std::size_t>> sources_of;  // exported texture -> source textures
    for (std::size_t m = 0; m < materials.size() && m < model_.materials.size(); ++m) {
      const GltfJson& in = materials[m];
      if (!in.is_object() || m >= material_of_.size() || material_of_[m] < 0) continue;
      const auto name = in.find("name");
      if (name != in.end() &&
          (!name->is_string() || name->get<std::string>() != model_.materials[m].name)) {
        continue;  // not the material it seems to be
      }
      GltfJson& out = out_["materials"][static_cast<std::size_t>(material_of_[m])];
      if (in.contains("extras")) {
        out["extras"] = in["extras"];
        kept_.insert(GltfElementName("materials", m) + ".extras");
      }
      for (const auto& map : kMaps) {
        const GltfJson* in_map = MapIn(in, map);
        GltfJson* out_map = MapIn(out, map);
        if (in_map == nullptr || out_map == nullptr) continue;
        const std::string path = GltfElementName("materials", m) + (*map.first ? "." : "") +
                                 map.first + "." + map.second;
        const auto transform = in_map->find("extensions");
        if (transform != in_map->end() && transform->is_object() &&
            transform->contains("KHR_texture_transform")) {
          const GltfJson valid = ValidTransform((*transform)["KHR_texture_transform"]);
          if (!valid.is_null()) {
            (*out_map)["extensions"]["KHR_texture_transform"] = valid;
            uses_transform_ = true;
            kept_.insert(path);
          }
        }
        const auto index = in_map->find("index");
        const auto out_index = out_map->find("index");
        if (index == in_map->end() || !index->is_number_unsigned() || out_index == out_map->end()) {
          continue;
        }
        const std::size_t texture = index->get<std::size_t>();
        const int out_texture = out_index->get<int>();
        sources_of[out_texture].insert(texture);
        const GltfJson& textures = GltfArray(source_, "textures");
        GltfJson sampler;  // null: the source names no sampler, or a bad one
        if (texture < textures.size() && textures[texture].is_object()) {
          const auto s = textures[texture].find("sampler");
          const GltfJson& samplers = GltfArray(source_, "samplers");
          if (s != textures[texture].end() && s->is_number_unsigned() &&
              s->get<std::size_t>() < samplers.size()) {
            sampler = ValidSampler(samplers[s->get<std::size_t>()]);
            if (sampler.is_null()) sampler_clash.insert(out_texture);
          }
        }
        if (sampler.is_null()) continue;
        const auto [it, fresh] = sampler_of.emplace(out_texture, sampler);
        if (!fresh && it->second != sampler) sampler_clash.insert(out_texture);
      }
    }
    for (const auto& [out_texture, sampler] : sampler_of) {
      if (sampler_clash.count(out_texture) != 0) continue;
      GltfJson& samplers = out_["samplers"];
      std::size_t index = 0;
      while (index < samplers.size() && samplers[index] != sampler) ++index;
      if (index == samplers.size()) samplers.push_back(sampler);
      out_["textures"][static_cast<std::size_t>(out_texture)]["sampler"] = index;
      for (std::size_t texture : sources_of[out_texture])
        kept_.insert(GltfElementName("textures", texture));
    }
  }

  // Extras and cameras of nodes whose name occurs once in both files.
  void KeepNodes() {
    const GltfJson& nodes = GltfArray(source_, "nodes");
    if (!out_.contains("nodes")) return;
    GltfJson& out_nodes = out_["nodes"];
    std::map<std::string, int> out_count;
    std::map<std::string, std::size_t> out_index;
    for (std::size_t i = 0; i < out_nodes.size(); ++i) {
      const auto name = out_nodes[i].find("name");
      if (name == out_nodes[i].end() || !name->is_string()) continue;
      ++out_count[name->get<std::string>()];
      out_index[name->get<std::string>()] = i;
    }
    std::map<std::string, int> in_count;
    for (const GltfJson& node : nodes) {
      if (node.is_object() && node.contains("name") && node["name"].is_string())
        ++in_count[node["name"].get<std::string>()];
    }
    const auto match = [&](const GltfJson& node) -> GltfJson* {
      if (!node.is_object() || !node.contains("name") || !node["name"].is_string()) return nullptr;
      const std::string name = node["name"].get<std::string>();
      if (in_count[name] != 1 || out_count[name] != 1) return nullptr;
      return &out_nodes[out_index[name]];
    };

    const GltfJson& cameras = GltfArray(source_, "cameras");
    bool cameras_ok = !cameras.empty();
    for (const GltfJson& camera : cameras) cameras_ok = cameras_ok && ValidCamera(camera);
    bool every_camera_node = true;
    for (std::size_t n = 0; n < nodes.size(); ++n) {
      GltfJson* out = match(nodes[n]);
      const auto camera = nodes[n].is_object() ? nodes[n].find("camera") : nodes[n].end();
      const bool has_camera = nodes[n].is_object() && camera != nodes[n].end();
      if (has_camera) {
        const bool in_range =
            camera->is_number_unsigned() && camera->get<std::size_t>() < cameras.size();
        if (out != nullptr && cameras_ok && in_range) {
          (*out)["camera"] = *camera;
        } else {
          every_camera_node = false;
        }
      }
      if (out != nullptr && nodes[n].is_object() && nodes[n].contains("extras")) {
        (*out)["extras"] = nodes[n]["extras"];
        kept_.insert(GltfElementName("nodes", n) + ".extras");
      }
    }
    if (cameras_ok) {
      out_["cameras"] = cameras;
      if (every_camera_node) kept_.insert("cameras");
    }
  }

  void KeepTopLevel() {
    if (source_.contains("extras")) {
      out_["extras"] = source_["extras"];
      kept_.insert("(file).extras");
    }
    const auto asset = source_.find("asset");
    if (asset != source_.end() && asset->is_object() && asset->contains("extras")) {
      out_["asset"]["extras"] = (*asset)["extras"];
      kept_.insert("asset.extras");
    }
    const GltfJson& scenes = GltfArray(source_, "scenes");
    std::size_t scene = 0;
    const auto chosen = source_.find("scene");
    if (chosen != source_.end() && chosen->is_number_unsigned()) scene = chosen->get<std::size_t>();
    if (scene < scenes.size() && scenes[scene].is_object() && scenes[scene].contains("extras") &&
        out_.contains("scenes") && !out_["scenes"].empty()) {
      out_["scenes"][0]["extras"] = scenes[scene]["extras"];
      kept_.insert(GltfElementName("scenes", scene) + ".extras");
    }
    if (uses_transform_) {
      GltfJson& used = out_["extensionsUsed"];
      if (!used.is_array()) used = GltfJson::array();
      used.push_back("KHR_texture_transform");
    }
  }

  const GltfJson& source_;
  const anim::Model& model_;
  const std::vector<int>& material_of_;
  GltfJson& out_;
  std::set<std::string> kept_;
  bool uses_transform_ = false;
};

}  // namespace

std::set<std::string> KeepFromSource(const GltfJson& source, const anim::Model& model,
                                     const std::vector<int>& material_of, GltfJson& out) {
  return Keeper(source, model, material_of, out).Run();
}

}  // namespace ikpose::asset
