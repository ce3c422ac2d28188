#include "asset/export_gltf.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <map>
#include <string_view>
#include <tuple>

#include <glm/gtc/quaternion.hpp>

#include "anim/atomic_file.h"
#include "anim/finite.h"
#include "asset/export_drops.h"
#include "asset/export_keep.h"
#include "asset/glb_builder.h"
#include "asset/gltf_animation_out.h"
#include "asset/read_file.h"

namespace ikpose::asset {

namespace fs = std::filesystem;
using anim::Finite;

namespace {

// The shortest decimal that reads back as the same float, as a JSON number: exact for float
// readers and short in the file.
double Short(float value) {
  char text[32];
  const auto result = std::to_chars(text, text + sizeof(text), value);
  *result.ptr = '\0';
  return std::strtod(text, nullptr);
}

GltfJson Numbers(std::initializer_list<float> values) {
  GltfJson out = GltfJson::array();
  for (float v : values) out.push_back(Short(v));
  return out;
}

// "image/png" or "image/jpeg" from the first bytes, "" for anything else.
std::string ImageMimeType(const std::vector<std::uint8_t>& bytes) {
  static constexpr std::uint8_t kPng[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (bytes.size() >= sizeof(kPng) && std::equal(std::begin(kPng), std::end(kPng), bytes.begin()))
    return "image/png";
  if (bytes.size() >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF)
    return "image/jpeg";
  return "";
}

// An image file's bytes; empty when it is not a regular file or is over 1 GiB.
std::vector<std::uint8_t> ReadFileBytes(const std::string& path) {
  std::vector<std::uint8_t> bytes;
  std::string problem;
  if (!ReadRegularFile(path, std::uintmax_t{1} << 30, &bytes, &problem)) bytes.clear();
  return bytes;
}

// Up to four (joint, weight) pairs with repeated joints merged, zero-weight slots on joint 0
// (the validator warns about a non-zero joint with zero weight), and the largest weight set to
// 1 minus the others so the four sum to 1 within float rounding.
void CleanInfluences(glm::uvec4& joints, glm::vec4& weights) {
  for (int i = 0; i < 4; ++i) {
    if (!(weights[i] > 0.f)) continue;
    for (int k = i + 1; k < 4; ++k) {
      if (weights[k] > 0.f && joints[k] == joints[i]) {
        weights[i] += weights[k];
        weights[k] = 0.f;
      }
    }
  }
  int largest = 0;
  for (int i = 0; i < 4; ++i) {
    if (!(weights[i] > 0.f)) {
      weights[i] = 0.f;
      joints[i] = 0;
    }
    if (weights[i] > weights[largest]) largest = i;
  }
  double others = 0.0;
  for (int i = 0; i < 4; ++i) {
    if (i != largest) others += static_cast<double>(weights[i]);
  }
  weights[largest] = static_cast<float>(1.0 - others);
}

// glTF's default material (white, metallic 1, roughness 1, opaque, one-sided) with no name:
// what assimp gives primitives that name no material. Writing it would add a material the
// source did not have.
bool IsGltfDefault(const anim::Material& m) {
  return m.name.empty() && m.base_color == glm::vec4(1.f) && m.base_color_texture < 0 &&
         m.metallic == 1.f && m.roughness == 1.f && m.alpha_mode == "OPAQUE" && !m.double_sided &&
         m.metallic_roughness_map.texture < 0 && m.normal_map.texture < 0 &&
         m.occlusion_map.texture < 0 && m.emissive_map.texture < 0 && m.emissive == glm::vec3(0.f);
}

// glTF lengths are metres: the factor from the model's units ("m", "cm", "2.54 cm"); 1 when
// they are unknown (written as they are).
float MetresPerUnit(const std::string& units) {
  if (units == "m") return 1.f;
  const std::size_t cm = units.find("cm");
  if (cm == std::string::npos || cm + 2 != units.size()) return 1.f;
  const float centimetres = cm == 0 ? 1.f : std::strtof(units.c_str(), nullptr);
  return std::isfinite(centimetres) && centimetres > 0.f ? centimetres / 100.f : 1.f;
}

// Meshes that share a node and a skin (or are rigid on the same node) become one glTF mesh.
struct MeshGroup {
  int node = -1;
  bool skinned = false;
  int skin = -1;  // anim skin index, skinned groups only
  std::vector<int> meshes;
};

class Writer {
 public:
  Writer(const anim::Model& model, std::span<const anim::Transform> locals_ls,
         std::span<const anim::Clip> clips, std::vector<std::string>* warnings,
         const SourceKeep& keep, std::span<const PlacedModel> props)
      : model_(model),
        locals_ls_(locals_ls),
        clips_(clips),
        props_(props),
        warnings_(warnings),
        keep_(keep),
        metres_per_unit_(MetresPerUnit(model.units)) {}

  std::vector<std::uint8_t> Run() {
    const anim::Skeleton& s = model_.skeleton;
    if (locals_ls_.size() != static_cast<std::size_t>(s.size())) {
      Fail("the pose has " + std::to_string(locals_ls_.size()) + " bones, the model " +
           std::to_string(s.size()));
    }
    if (s.size() == 0) Fail("the model has no nodes");
    if (metres_per_unit_ != 1.f) {
      // Every length scaled (node translations, vertices, inverse bind translations): the same
      // model, conjugated by a uniform scale, so rotations, scales and weights are unchanged.
      Warn("the model is in " + model_.units + ": lengths written in metres (times " +
           std::to_string(metres_per_unit_) + "), as glTF wants");
    }
    gltf_["asset"] = {{"version", "2.0"}, {"generator", "ikpose export"}};
    gltf_["scene"] = 0;
    WriteNodes();
    WriteTexturesAndMaterials();
    WriteMeshesAndSkins();
    std::vector<int> prop_roots;
    for (const PlacedModel& prop : props_) prop_roots.push_back(WriteProp(prop));
    if (!clips_.empty()) {
      GltfJson animations = GltfAnimations(clips_, node_of_, metres_per_unit_, bin_, warnings_);
      if (!animations.empty()) gltf_["animations"] = std::move(animations);
    }
    GltfJson roots = GltfJson::array();
    for (int i = 0; i < s.size(); ++i) {
      const int parent = s.parents[static_cast<std::size_t>(i)];
      const bool root = parent < 0 || node_of_[static_cast<std::size_t>(parent)] < 0;
      if (root && node_of_[static_cast<std::size_t>(i)] >= 0)
        roots.push_back(node_of_[static_cast<std::size_t>(i)]);
    }
    for (int root : prop_roots) roots.push_back(root);
    gltf_["scenes"] = GltfJson::array({{{"nodes", roots}}});
    gltf_["nodes"] = nodes_;
    if (keep_.source != nullptr) {
      const std::set<std::string> kept =
          KeepFromSource(*keep_.source, model_, material_index_, gltf_);
      if (keep_.left_out != nullptr) *keep_.left_out = ExportDrops(*keep_.source, kept);
    }
    bin_.WriteInto(gltf_);
    std::vector<std::uint8_t> bytes = PackGlb(gltf_, bin_.bytes());
    if (bytes.size() > 0xFFFFFFF0u) Fail("the file would exceed the 4 GiB a .glb can hold");
    return bytes;
  }

 private:
  [[noreturn]] void Fail(const std::string& what) const {
    throw ExportError(model_.source + ": " + what);
  }

  void Warn(const std::string& what) {
    if (warnings_ != nullptr) warnings_->push_back(what);
  }

  // assimp gathers the several root nodes of a glTF scene under a node it calls "ROOT"; that
  // node is left out again (its children become the scene's roots, and loading the file makes
  // it again), unless it is posed, a joint or carries a mesh.
  bool IsImportersRoot() const {
    const anim::Skeleton& s = model_.skeleton;
    if ((model_.format != "glb" && model_.format != "gltf") || s.names[0] != "ROOT" ||
        s.flags[0] != 0 || s.Children(0).size() < 2) {
      return false;
    }
    const anim::Transform& t = locals_ls_[0];
    return t.translation == glm::vec3(0.f) && t.rotation == glm::quat(1.f, 0.f, 0.f, 0.f) &&
           t.scale == glm::vec3(1.f);
  }

  void WriteNodes() {
    const anim::Skeleton& s = model_.skeleton;
    const int dropped = IsImportersRoot() ? 1 : 0;
    for (int i = 0; i < s.size(); ++i) node_of_.push_back(i < dropped ? -1 : i - dropped);
    std::vector<GltfJson> children(static_cast<std::size_t>(s.size()), GltfJson::array());
    for (int i = 0; i < s.size(); ++i) {
      const int parent = s.parents[static_cast<std::size_t>(i)];
      if (parent >= 0) children[static_cast<std::size_t>(parent)].push_back(node_of_[i]);
    }
    for (int i = dropped; i < s.size(); ++i) {
      const std::size_t b = static_cast<std::size_t>(i);
      const anim::Transform& local = locals_ls_[b];
      if (!Finite(local.translation) || !Finite(local.rotation) || !Finite(local.scale)) {
        Fail("bone '" + s.names[b] + "' has a non-finite transform in the pose");
      }
      const float length = glm::length(local.rotation);
      if (!(length > 1e-6f)) Fail("bone '" + s.names[b] + "' has a zero rotation in the pose");
      GltfJson node{{"name", s.names[b]}};
      if (!children[b].empty()) node["children"] = children[b];
      const glm::vec3 t = local.translation * metres_per_unit_;
      if (t != glm::vec3(0.f)) node["translation"] = Numbers({t.x, t.y, t.z});
      const glm::quat r = local.rotation / length;
      if (r != glm::quat(1.f, 0.f, 0.f, 0.f)) node["rotation"] = Numbers({r.x, r.y, r.z, r.w});
      const glm::vec3 scale = local.scale;
      if (scale != glm::vec3(1.f)) node["scale"] = Numbers({scale.x, scale.y, scale.z});
      nodes_.push_back(node);
    }
  }

  // A material's textureInfo ({"index", "texCoord"}) through `texture_of` (the model's texture
  // -> the glTF texture); null when it has none or it was left out.
  static GltfJson TextureInfo(const anim::TextureUse& use, const std::vector<int>& texture_of) {
    if (use.texture < 0 || static_cast<std::size_t>(use.texture) >= texture_of.size() ||
        texture_of[static_cast<std::size_t>(use.texture)] < 0) {
      return GltfJson();
    }
    GltfJson info{{"index", texture_of[static_cast<std::size_t>(use.texture)]}};
    if (use.uv_set > 0) info["texCoord"] = use.uv_set;
    return info;
  }

  // Embeds the textures of `textures` that `wanted` says are used (all when null) as glTF
  // images and textures; returns the glTF texture of each, -1 for one not written. A texture
  // that is not PNG or JPEG is left out with a warning (`owner` names a prop: "prop box: ").
  std::vector<int> WriteTextures(const std::vector<anim::Texture>& textures,
                                 const std::vector<bool>* wanted, const std::string& owner) {
    std::vector<int> texture_of(textures.size(), -1);
    for (std::size_t i = 0; i < textures.size(); ++i) {
      if (wanted != nullptr && !(*wanted)[i]) continue;
      const anim::Texture& texture = textures[i];
      std::vector<std::uint8_t> bytes = texture.encoded;
      if (bytes.empty() && !texture.path.empty()) bytes = ReadFileBytes(texture.path);
      const std::string mime = ImageMimeType(bytes);
      if (mime.empty()) {
        const std::string what = !texture.rgba8.empty() ? "is an uncompressed embedded image"
                                 : !texture.path.empty() && bytes.empty()
                                     ? "could not be read from " + texture.path
                                     : "is neither PNG nor JPEG";
        Warn(owner + "texture '" + texture.name + "' " + what + "; left out");
        continue;
      }
      GltfJson image{{"bufferView", bin_.View(bytes, 0)}, {"mimeType", mime}};
      // assimp calls unnamed embedded images "*0", "*1"...: those stay unnamed.
      if (!texture.name.empty() && texture.name[0] != '*')
        image["name"] = fs::path(texture.name).filename().string();
      if (!gltf_.contains("textures")) {
        gltf_["images"] = GltfJson::array();
        gltf_["textures"] = GltfJson::array();
        // Linear filtering with mipmaps, repeating: what the viewer draws with.
        gltf_["samplers"] = GltfJson::array(
            {{{"magFilter", 9729}, {"minFilter", 9987}, {"wrapS", 10497}, {"wrapT", 10497}}});
      }
      gltf_["images"].push_back(image);
      texture_of[i] = static_cast<int>(gltf_["textures"].size());
      gltf_["textures"].push_back(
          {{"sampler", 0}, {"source", static_cast<int>(gltf_["images"].size()) - 1}});
    }
    return texture_of;
  }

  // A material with its factors and the maps `texture_of` has textures for.
  static GltfJson MaterialJson(const anim::Material& m, const std::vector<int>& texture_of) {
    GltfJson material;
    if (!m.name.empty()) material["name"] = m.name;
    GltfJson pbr = GltfJson::object();
    glm::vec4 color = glm::clamp(m.base_color, glm::vec4(0.f), glm::vec4(1.f));
    if (!std::isfinite(color.r + color.g + color.b + color.a)) color = glm::vec4(1.f);
    if (color != glm::vec4(1.f))
      pbr["baseColorFactor"] = Numbers({color.r, color.g, color.b, color.a});
    const GltfJson base = TextureInfo({m.base_color_texture, m.base_color_uv_set}, texture_of);
    if (!base.is_null()) pbr["baseColorTexture"] = base;
    pbr["metallicFactor"] = Short(std::clamp(m.metallic, 0.f, 1.f));
    pbr["roughnessFactor"] = Short(std::clamp(m.roughness, 0.f, 1.f));
    const GltfJson metallic_roughness = TextureInfo(m.metallic_roughness_map, texture_of);
    if (!metallic_roughness.is_null()) pbr["metallicRoughnessTexture"] = metallic_roughness;
    material["pbrMetallicRoughness"] = pbr;
    GltfJson normal = TextureInfo(m.normal_map, texture_of);
    if (!normal.is_null()) {
      if (m.normal_scale != 1.f && std::isfinite(m.normal_scale))
        normal["scale"] = Short(m.normal_scale);
      material["normalTexture"] = normal;
    }
    GltfJson occlusion = TextureInfo(m.occlusion_map, texture_of);
    if (!occlusion.is_null()) {
      if (m.occlusion_strength != 1.f)
        occlusion["strength"] = Short(std::clamp(m.occlusion_strength, 0.f, 1.f));
      material["occlusionTexture"] = occlusion;
    }
    const GltfJson emissive = TextureInfo(m.emissive_map, texture_of);
    if (!emissive.is_null()) material["emissiveTexture"] = emissive;
    const glm::vec3 e = glm::clamp(m.emissive, glm::vec3(0.f), glm::vec3(1.f));
    if (e != glm::vec3(0.f) && Finite(e)) material["emissiveFactor"] = Numbers({e.x, e.y, e.z});
    if (m.alpha_mode == "MASK" || m.alpha_mode == "BLEND") material["alphaMode"] = m.alpha_mode;
    if (m.alpha_mode == "MASK" && m.alpha_cutoff != 0.5f && m.alpha_cutoff >= 0.f)
      material["alphaCutoff"] = Short(m.alpha_cutoff);
    if (m.double_sided) material["doubleSided"] = true;
    return material;
  }

  void WriteTexturesAndMaterials() {
    const std::vector<int> texture_of = WriteTextures(model_.textures, nullptr, "");
    GltfJson materials = GltfJson::array();
    material_index_.assign(model_.materials.size(), -1);
    for (std::size_t i = 0; i < model_.materials.size(); ++i) {
      const anim::Material& m = model_.materials[i];
      if (IsGltfDefault(m)) continue;  // the importer's stand-in: primitives then name none
      material_index_[i] = static_cast<int>(materials.size());
      materials.push_back(MaterialJson(m, texture_of));
    }
    if (!materials.empty()) gltf_["materials"] = materials;
  }

  // The mesh's UV sets as TEXCOORD_0, TEXCOORD_1...
  void WriteUvs(const anim::Mesh& mesh, GltfJson& attributes) {
    const std::size_t n = mesh.positions_bs.size();
    if (mesh.uvs.size() != n) return;
    std::vector<float> uvs;
    uvs.reserve(n * 2);
    for (const glm::vec2& uv : mesh.uvs) uvs.insert(uvs.end(), {uv.x, uv.y});
    attributes["TEXCOORD_0"] = bin_.Floats(uvs, 2, "VEC2", kGltfArrayBuffer, false);
    for (std::size_t k = 0; k < mesh.extra_uvs.size() && mesh.extra_uvs[k].size() == n; ++k) {
      std::vector<float> more;
      more.reserve(n * 2);
      for (const glm::vec2& uv : mesh.extra_uvs[k]) more.insert(more.end(), {uv.x, uv.y});
      attributes["TEXCOORD_" + std::to_string(k + 1)] =
          bin_.Floats(more, 2, "VEC2", kGltfArrayBuffer, false);
    }
  }

  std::vector<MeshGroup> GroupMeshes() const {
    std::vector<MeshGroup> groups;
    std::map<std::tuple<int, bool, int>, std::size_t> by_key;
    for (std::size_t m = 0; m < model_.meshes.size(); ++m) {
      const anim::Mesh& mesh = model_.meshes[m];
      const auto key = std::make_tuple(mesh.node, mesh.skinned, mesh.skinned ? mesh.skin : -1);
      const auto found = by_key.find(key);
      if (found != by_key.end()) {
        groups[found->second].meshes.push_back(static_cast<int>(m));
        continue;
      }
      by_key[key] = groups.size();
      groups.push_back(
          {mesh.node, mesh.skinned, mesh.skinned ? mesh.skin : -1, {static_cast<int>(m)}});
    }
    return groups;
  }

  int WriteSkin(int skin_index) {
    const auto found = skin_of_.find(skin_index);
    if (found != skin_of_.end()) return found->second;
    if (skin_index < 0 || static_cast<std::size_t>(skin_index) >= model_.skins.size())
      Fail("a mesh refers to a skin that does not exist");
    const anim::Skin& skin = model_.skins[static_cast<std::size_t>(skin_index)];
    if (skin.joints.empty() || skin.joints.size() != skin.inverse_bind.size())
      Fail("skin '" + skin.name + "' has no joints or a missing inverse bind matrix");
    std::vector<float> matrices;
    GltfJson joints = GltfJson::array();
    for (std::size_t k = 0; k < skin.joints.size(); ++k) {
      const int joint = skin.joints[k];
      if (joint < 0 || joint >= model_.skeleton.size() ||
          node_of_[static_cast<std::size_t>(joint)] < 0) {
        Fail("skin '" + skin.name + "' has a joint that is not a node");
      }
      joints.push_back(node_of_[static_cast<std::size_t>(joint)]);
      glm::mat4 inverse_bind = skin.inverse_bind[k];
      inverse_bind[3] = glm::vec4(glm::vec3(inverse_bind[3]) * metres_per_unit_, inverse_bind[3].w);
      for (int c = 0; c < 4; ++c) {
        for (int r = 0; r < 4; ++r) matrices.push_back(inverse_bind[c][r]);
      }
    }
    GltfJson out;
    if (!skin.name.empty()) out["name"] = skin.name;
    out["inverseBindMatrices"] = bin_.Floats(matrices, 16, "MAT4", 0, false);
    out["joints"] = joints;
    skins_.push_back(out);
    const int index = static_cast<int>(skins_.size()) - 1;
    skin_of_[skin_index] = index;
    return index;
  }

  // The mesh's morph targets as glTF targets (POSITION and NORMAL offsets, in the space the
  // primitive's vertices are written in, in metres).
  GltfJson MorphTargets(const anim::Mesh& mesh) {
    GltfJson targets = GltfJson::array();
    const std::size_t n = mesh.positions_bs.size();
    // Rigid meshes are written in their node's space: offsets follow the linear part back.
    const glm::dmat3 to_node =
        mesh.skinned ? glm::dmat3(1.0) : glm::inverse(glm::dmat3(mesh.bind_ms));
    const glm::dmat3 normal_to_node =
        mesh.skinned ? glm::dmat3(1.0) : glm::transpose(glm::dmat3(mesh.bind_ms));
    for (const anim::MorphTarget& target : mesh.morph_targets) {
      if (target.position_offsets_bs.size() != n) continue;
      std::vector<float> positions;
      positions.reserve(n * 3);
      for (const glm::vec3& offset : target.position_offsets_bs) {
        const glm::dvec3 d = to_node * glm::dvec3(offset) * static_cast<double>(metres_per_unit_);
        positions.insert(positions.end(), {static_cast<float>(d.x), static_cast<float>(d.y),
                                           static_cast<float>(d.z)});
      }
      GltfJson out{{"POSITION", bin_.Floats(positions, 3, "VEC3", kGltfArrayBuffer, true)}};
      if (target.normal_offsets_bs.size() == n && !mesh.normals_bs.empty()) {
        std::vector<float> normals;
        normals.reserve(n * 3);
        for (const glm::vec3& offset : target.normal_offsets_bs) {
          const glm::dvec3 d = normal_to_node * glm::dvec3(offset);
          normals.insert(normals.end(), {static_cast<float>(d.x), static_cast<float>(d.y),
                                         static_cast<float>(d.z)});
        }
        out["NORMAL"] = bin_.Floats(normals, 3, "VEC3", kGltfArrayBuffer, false);
      }
      targets.push_back(out);
    }
    return targets;
  }

  // glTF wants every primitive of a mesh to have the same targets: the group's targets (the
  // first mesh's names and weights) when they agree, else none and a warning.
  void AddMorphWeights(const MeshGroup& group, GltfJson& mesh) {
    std::size_t count = 0;
    bool agree = true;
    bool first = true;
    const anim::Mesh* named = nullptr;
    for (const GltfJson& primitive : mesh["primitives"]) {
      const std::size_t here = primitive.contains("targets") ? primitive["targets"].size() : 0;
      agree = agree && (first || here == count);
      count = first ? here : count;
      first = false;
    }
    for (int m : group.meshes) {
      const anim::Mesh& candidate = model_.meshes[static_cast<std::size_t>(m)];
      if (!candidate.indices.empty() && named == nullptr) named = &candidate;
    }
    if (!agree) {
      for (GltfJson& primitive : mesh["primitives"]) primitive.erase("targets");
      Warn("mesh '" + mesh["name"].get<std::string>() +
           "': its parts have different morph targets; none written");
      return;
    }
    if (count == 0 || named == nullptr || named->morph_targets.size() != count) return;
    GltfJson weights = GltfJson::array();
    GltfJson names = GltfJson::array();
    for (const anim::MorphTarget& target : named->morph_targets) {
      weights.push_back(Short(target.weight));
      names.push_back(target.name);
    }
    mesh["weights"] = weights;
    mesh["extras"] = {{"targetNames", names}};
  }

  GltfJson Primitive(const anim::Mesh& mesh) {
    const std::size_t n = mesh.positions_bs.size();
    std::vector<float> positions;
    positions.reserve(n * 3);
    std::vector<float> normals;
    std::vector<float> tangents;
    if (mesh.skinned) {
      for (const glm::vec3& p : mesh.positions_bs)
        positions.insert(positions.end(), {p.x, p.y, p.z});
      for (const glm::vec4& t : mesh.tangents_bs)
        tangents.insert(tangents.end(), {t.x, t.y, t.z, t.w});
      for (const glm::vec3& v : mesh.normals_bs) {
        const float length = glm::length(v);
        const glm::vec3 unit =
            length > 0.f && std::isfinite(length) ? v / length : glm::vec3(0, 1, 0);
        normals.insert(normals.end(), {unit.x, unit.y, unit.z});
      }
    } else {
      // Bind space is model space at rest (bind_ms * node-space vertices): back to the node.
      const glm::dmat4 bind(mesh.bind_ms);
      const double det = glm::determinant(bind);
      if (!std::isfinite(det) || std::abs(det) < 1e-30)
        Fail("rigid mesh '" + mesh.name + "' hangs under a node with a singular transform");
      const glm::dmat4 to_node = glm::inverse(bind);
      const glm::dmat3 normal_to_node = glm::transpose(glm::dmat3(bind));
      for (const glm::vec3& p : mesh.positions_bs) {
        const glm::dvec4 q = to_node * glm::dvec4(glm::dvec3(p), 1.0);
        positions.insert(positions.end(), {static_cast<float>(q.x), static_cast<float>(q.y),
                                           static_cast<float>(q.z)});
      }
      for (const glm::vec3& v : mesh.normals_bs) {
        const glm::dvec3 t = normal_to_node * glm::dvec3(v);
        const double length = glm::length(t);
        const glm::dvec3 unit =
            length > 0.0 && std::isfinite(length) ? t / length : glm::dvec3(0, 1, 0);
        normals.insert(normals.end(), {static_cast<float>(unit.x), static_cast<float>(unit.y),
                                       static_cast<float>(unit.z)});
      }
      // Tangents follow the node's linear part back (handedness flips with a mirror).
      const double mirror = glm::determinant(glm::dmat3(to_node)) < 0.0 ? -1.0 : 1.0;
      for (const glm::vec4& v : mesh.tangents_bs) {
        const glm::dvec3 t = glm::dmat3(to_node) * glm::dvec3(v);
        const double length = glm::length(t);
        const glm::dvec3 unit =
            length > 0.0 && std::isfinite(length) ? t / length : glm::dvec3(1, 0, 0);
        tangents.insert(tangents.end(),
                        {static_cast<float>(unit.x), static_cast<float>(unit.y),
                         static_cast<float>(unit.z), static_cast<float>(v.w * mirror)});
      }
    }
    for (float& v : positions) {
      v *= metres_per_unit_;
      if (!std::isfinite(v)) Fail("mesh '" + mesh.name + "' has a non-finite vertex position");
    }

    GltfJson attributes;
    attributes["POSITION"] = bin_.Floats(positions, 3, "VEC3", kGltfArrayBuffer, true);
    if (normals.size() == positions.size()) {
      attributes["NORMAL"] = bin_.Floats(normals, 3, "VEC3", kGltfArrayBuffer, false);
    }
    WriteUvs(mesh, attributes);
    if (mesh.colors.size() == n) attributes["COLOR_0"] = ColorAccessor(mesh.colors);
    if (tangents.size() == n * 4 && attributes.contains("NORMAL")) {
      attributes["TANGENT"] = bin_.Floats(tangents, 4, "VEC4", kGltfArrayBuffer, false);
    }
    if (mesh.skinned) {
      if (mesh.joints.size() != n || mesh.weights.size() != n)
        Fail("skinned mesh '" + mesh.name + "' lacks joints or weights for some vertices");
      const std::size_t joint_count =
          model_.skins[static_cast<std::size_t>(mesh.skin)].joints.size();
      std::vector<float> weights;
      weights.reserve(n * 4);
      std::vector<std::uint8_t> joints8;
      std::vector<std::uint16_t> joints16;
      const bool bytes = joint_count <= 256;
      if (joint_count > 65536) Fail("skin of mesh '" + mesh.name + "' has over 65536 joints");
      for (std::size_t v = 0; v < n; ++v) {
        glm::uvec4 j = mesh.joints[v];
        glm::vec4 w = mesh.weights[v];
        CleanInfluences(j, w);
        for (int k = 0; k < 4; ++k) {
          if (j[k] >= joint_count) Fail("mesh '" + mesh.name + "' has a joint index out of range");
          weights.push_back(w[k]);
          if (bytes) {
            joints8.push_back(static_cast<std::uint8_t>(j[k]));
          } else {
            joints16.push_back(static_cast<std::uint16_t>(j[k]));
          }
        }
      }
      attributes["JOINTS_0"] =
          bytes
              ? bin_.Accessor(bin_.View(joints8, kGltfArrayBuffer), kGltfUnsignedByte, n, "VEC4")
              : bin_.Accessor(bin_.View(joints16, kGltfArrayBuffer), kGltfUnsignedShort, n, "VEC4");
      attributes["WEIGHTS_0"] = bin_.Floats(weights, 4, "VEC4", kGltfArrayBuffer, false);
    }

    GltfJson targets = MorphTargets(mesh);

    for (std::uint32_t index : mesh.indices) {
      if (index >= n) Fail("mesh '" + mesh.name + "' has an index out of range");
    }
    int indices = 0;
    if (n <= 65535) {  // 65535 itself is the primitive-restart value, never an index
      const std::vector<std::uint16_t> shorts(mesh.indices.begin(), mesh.indices.end());
      indices = bin_.Accessor(bin_.View(shorts, kGltfElementArrayBuffer), kGltfUnsignedShort,
                              shorts.size(), "SCALAR");
    } else {
      indices = bin_.Accessor(bin_.View(mesh.indices, kGltfElementArrayBuffer), kGltfUnsignedInt,
                              mesh.indices.size(), "SCALAR");
    }
    GltfJson primitive{{"attributes", attributes}, {"indices", indices}};
    if (!targets.empty()) primitive["targets"] = targets;
    if (mesh.material >= 0 && static_cast<std::size_t>(mesh.material) < material_index_.size() &&
        material_index_[static_cast<std::size_t>(mesh.material)] >= 0) {
      primitive["material"] = material_index_[static_cast<std::size_t>(mesh.material)];
    }
    primitive["mode"] = 4;  // triangles
    return primitive;
  }

  void WriteMeshesAndSkins() {
    const anim::Skeleton& s = model_.skeleton;
    std::vector<int> groups_on_node(static_cast<std::size_t>(s.size()), 0);
    GltfJson meshes = GltfJson::array();
    for (const MeshGroup& group : GroupMeshes()) {
      if (group.node < 0 || group.node >= s.size()) Fail("a mesh hangs on no node");
      GltfJson primitives = GltfJson::array();
      for (int m : group.meshes) {
        const anim::Mesh& mesh = model_.meshes[static_cast<std::size_t>(m)];
        if (mesh.indices.empty()) continue;
        primitives.push_back(Primitive(mesh));
      }
      if (primitives.empty()) continue;
      const anim::Mesh& first = model_.meshes[static_cast<std::size_t>(group.meshes.front())];
      GltfJson mesh{{"name", first.name}, {"primitives", primitives}};
      AddMorphWeights(group, mesh);
      meshes.push_back(mesh);
      const int mesh_index = static_cast<int>(meshes.size()) - 1;

      // The node's first group goes on the node; more go on children that add no transform.
      const std::size_t bone = static_cast<std::size_t>(group.node);
      const int node = node_of_[bone];
      if (node < 0) Fail("a mesh hangs on no node");
      int target = node;
      if (groups_on_node[bone]++ > 0) {
        target = static_cast<int>(nodes_.size());
        nodes_.push_back(
            {{"name", s.names[bone] + "_mesh" + std::to_string(groups_on_node[bone] - 1)}});
        GltfJson& parent = nodes_[static_cast<std::size_t>(node)];
        if (!parent.contains("children")) parent["children"] = GltfJson::array();
        parent["children"].push_back(target);
      }
      nodes_[static_cast<std::size_t>(target)]["mesh"] = mesh_index;
      if (group.skinned) nodes_[static_cast<std::size_t>(target)]["skin"] = WriteSkin(group.skin);
    }
    if (!meshes.empty()) gltf_["meshes"] = meshes;
    if (!skins_.empty()) gltf_["skins"] = skins_;
  }

  // A prop's material, its maps through `texture_of` (the prop's textures as written).
  int PropMaterial(const anim::Material& m, const std::vector<int>& texture_of) {
    if (!gltf_.contains("materials")) gltf_["materials"] = GltfJson::array();
    gltf_["materials"].push_back(MaterialJson(m, texture_of));
    return static_cast<int>(gltf_["materials"].size()) - 1;
  }

  // One mesh of a prop as it stands at rest (bind space is the prop's model space at rest),
  // scaled to metres with the posed model.
  GltfJson PropPrimitive(const PlacedModel& prop, const anim::Mesh& mesh,
                         const std::vector<int>& texture_of, std::map<int, int>& materials) {
    const std::size_t n = mesh.positions_bs.size();
    std::vector<float> positions;
    positions.reserve(n * 3);
    for (const glm::vec3& p : mesh.positions_bs) {
      const glm::vec3 q = p * metres_per_unit_;
      if (!Finite(q)) throw ExportError("prop " + prop.name + ": a vertex is not finite");
      positions.insert(positions.end(), {q.x, q.y, q.z});
    }
    for (std::uint32_t index : mesh.indices) {
      if (index >= n) throw ExportError("prop " + prop.name + ": an index is out of range");
    }
    GltfJson attributes;
    attributes["POSITION"] = bin_.Floats(positions, 3, "VEC3", kGltfArrayBuffer, true);
    if (mesh.normals_bs.size() == n) {
      std::vector<float> normals;
      normals.reserve(n * 3);
      for (const glm::vec3& v : mesh.normals_bs) {
        const float length = glm::length(v);
        const glm::vec3 unit =
            length > 0.f && std::isfinite(length) ? v / length : glm::vec3(0, 1, 0);
        normals.insert(normals.end(), {unit.x, unit.y, unit.z});
      }
      attributes["NORMAL"] = bin_.Floats(normals, 3, "VEC3", kGltfArrayBuffer, false);
    }
    WriteUvs(mesh, attributes);
    if (mesh.colors.size() == n) attributes["COLOR_0"] = ColorAccessor(mesh.colors);
    const int indices = bin_.Accessor(bin_.View(mesh.indices, kGltfElementArrayBuffer),
                                      kGltfUnsignedInt, mesh.indices.size(), "SCALAR");
    GltfJson primitive{{"attributes", attributes}, {"indices", indices}};
    const std::vector<anim::Material>& source = prop.model->materials;
    if (mesh.material >= 0 && static_cast<std::size_t>(mesh.material) < source.size() &&
        !IsGltfDefault(source[static_cast<std::size_t>(mesh.material)])) {
      auto found = materials.find(mesh.material);
      if (found == materials.end()) {
        found =
            materials
                .emplace(mesh.material,
                         PropMaterial(source[static_cast<std::size_t>(mesh.material)], texture_of))
                .first;
      }
      primitive["material"] = found->second;
    }
    primitive["mode"] = 4;  // triangles
    return primitive;
  }

  // A prop as a root node at its placement holding one mesh (a primitive per mesh of the
  // prop); the node's index. What is not written is one warning.
  int WriteProp(const PlacedModel& prop) {
    if (prop.model == nullptr) throw ExportError("prop " + prop.name + ": not loaded");
    if (!Finite(prop.position_ms) || !std::isfinite(prop.yaw_deg) || !(prop.scale > 0.f) ||
        !std::isfinite(prop.scale)) {
      throw ExportError("prop " + prop.name + ": its placement is not finite");
    }
    // The textures its drawn meshes' materials use, embedded (what cannot be is one warning
    // each, naming the prop).
    const anim::Model& model = *prop.model;
    std::vector<bool> used(model.textures.size(), false);
    for (const anim::Mesh& mesh : model.meshes) {
      if (mesh.indices.empty() || mesh.material < 0 ||
          static_cast<std::size_t>(mesh.material) >= model.materials.size()) {
        continue;
      }
      const anim::Material& m = model.materials[static_cast<std::size_t>(mesh.material)];
      for (int texture : {m.base_color_texture, m.metallic_roughness_map.texture,
                          m.normal_map.texture, m.occlusion_map.texture, m.emissive_map.texture}) {
        if (texture >= 0 && static_cast<std::size_t>(texture) < used.size())
          used[static_cast<std::size_t>(texture)] = true;
      }
    }
    const std::vector<int> texture_of =
        WriteTextures(model.textures, &used, "prop " + prop.name + ": ");
    GltfJson primitives = GltfJson::array();
    std::map<int, int> materials;  // the prop's material -> glTF material
    bool bones = false, morphs = false;
    for (const anim::Mesh& mesh : prop.model->meshes) {
      if (mesh.indices.empty()) continue;
      primitives.push_back(PropPrimitive(prop, mesh, texture_of, materials));
      // A skin of one joint is how a static mesh is often stored; more joints are a rig.
      bones = bones || (mesh.skinned && mesh.skin >= 0 &&
                        static_cast<std::size_t>(mesh.skin) < prop.model->skins.size() &&
                        prop.model->skins[static_cast<std::size_t>(mesh.skin)].joints.size() > 1);
      morphs = morphs || !mesh.morph_targets.empty();
    }
    GltfJson node{{"name", prop.name}};
    const glm::vec3 t = prop.position_ms * metres_per_unit_;
    if (t != glm::vec3(0.f)) node["translation"] = Numbers({t.x, t.y, t.z});
    const glm::quat r = glm::angleAxis(glm::radians(prop.yaw_deg), glm::vec3(0.f, 1.f, 0.f));
    if (prop.yaw_deg != 0.f) node["rotation"] = Numbers({r.x, r.y, r.z, r.w});
    if (prop.scale != 1.f) node["scale"] = Numbers({prop.scale, prop.scale, prop.scale});
    if (!primitives.empty()) {
      if (!gltf_.contains("meshes")) gltf_["meshes"] = GltfJson::array();
      gltf_["meshes"].push_back({{"name", prop.name}, {"primitives", primitives}});
      node["mesh"] = static_cast<int>(gltf_["meshes"].size()) - 1;
    }
    nodes_.push_back(node);
    std::vector<std::string> lost;
    if (bones) lost.push_back("bones (it stands in its rest pose)");
    if (morphs) lost.push_back("morph targets");
    if (primitives.empty()) lost.push_back("meshes (none has triangles)");
    if (!lost.empty()) {
      std::string list;
      for (std::size_t i = 0; i < lost.size(); ++i)
        list += (i == 0 ? "" : i + 1 == lost.size() ? " and " : ", ") + lost[i];
      Warn("prop " + prop.name + ": its " + list + " not written");
    }
    return static_cast<int>(nodes_.size()) - 1;
  }

  const anim::Model& model_;
  std::span<const anim::Transform> locals_ls_;
  std::span<const anim::Clip> clips_;
  std::span<const PlacedModel> props_;
  std::vector<std::string>* warnings_;
  SourceKeep keep_;
  float metres_per_unit_;  // glTF lengths are metres
  // Vertex colours as COLOR_0, clamped to glTF's 0..1 (the character's meshes and the props').
  int ColorAccessor(const std::vector<glm::vec4>& colors_in) {
    std::vector<float> colors;
    colors.reserve(colors_in.size() * 4);
    for (const glm::vec4& c : colors_in) {
      const glm::vec4 clamped = glm::clamp(c, glm::vec4(0.f), glm::vec4(1.f));
      colors.insert(colors.end(), {clamped.r, clamped.g, clamped.b, clamped.a});
    }
    return bin_.Floats(colors, 4, "VEC4", kGltfArrayBuffer, false);
  }

  GlbBuilder bin_;
  GltfJson gltf_;
  std::vector<int> node_of_;  // skeleton index -> glTF node, -1 when left out
  GltfJson nodes_ = GltfJson::array();
  GltfJson skins_ = GltfJson::array();
  std::map<int, int> skin_of_;       // anim skin -> glTF skin
  std::vector<int> material_index_;  // anim material -> glTF material, -1 for none
};

}  // namespace

std::vector<std::uint8_t> PosedGlb(const anim::Model& model,
                                   std::span<const anim::Transform> locals_ls,
                                   std::vector<std::string>* warnings,
                                   std::span<const anim::Clip> clips, const SourceKeep& keep,
                                   std::span<const PlacedModel> props) {
  return Writer(model, locals_ls, clips, warnings, keep, props).Run();
}

bool WritePosedGlb(const anim::Model& model, std::span<const anim::Transform> locals_ls,
                   const fs::path& path, std::vector<std::string>* warnings, std::string* error,
                   std::span<const anim::Clip> clips, const SourceKeep& keep,
                   std::span<const PlacedModel> props) {
  std::vector<std::uint8_t> bytes;
  try {
    bytes = PosedGlb(model, locals_ls, warnings, clips, keep, props);
  } catch (const ExportError& e) {
    *error = e.what();
    return false;
  }
  return anim::WriteFileAtomically(
      path, std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), error);
}

}  // namespace ikpose::asset
