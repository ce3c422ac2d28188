#include "asset/gltf_check.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <utility>

#include "asset/read_file.h"

namespace ikpose::asset {

namespace {

[[noreturn]] void Fail(const std::string& what) {
  throw GltfError(what);
}

std::string Name(const std::string& array, std::size_t index) {
  return array + "[" + std::to_string(index) + "]";
}

// The elements of a top-level array ("nodes"...), each required to be an object.
const GltfJson& Array(const GltfJson& root, const char* key) {
  static const GltfJson kEmpty = GltfJson::array();
  if (!root.contains(key)) return kEmpty;
  const GltfJson& array = root[key];
  if (!array.is_array()) Fail(std::string(key) + ": not an array");
  for (std::size_t i = 0; i < array.size(); ++i) {
    if (!array[i].is_object()) Fail(Name(key, i) + ": not an object");
  }
  return array;
}

class Checker {
 public:
  explicit Checker(GltfDocument& doc) : doc_(doc), root_(doc.json) {}

  GltfCheckResult Run() {
    for (const char* key :
         {"buffers", "bufferViews", "accessors", "nodes", "meshes", "skins", "scenes", "materials",
          "textures", "images", "samplers", "animations", "cameras"}) {
      Array(root_, key);
    }
    // Indices first (cheap), then what the bytes back, then skins (they may add an accessor).
    CheckNodes();
    CheckMeshes();
    CheckAnimations();
    CheckImages();
    CheckBuffers();
    CheckAccessors();
    CheckSamplerValues();
    CheckSkins();
    GltfCheckResult result;
    result.changed = changed_;
    return result;
  }

 private:
  std::size_t Count(const char* array) const {
    return root_.contains(array) ? root_[array].size() : 0;
  }

  // object[key] as an index into `array`; -1 when absent and optional.
  int Ref(const GltfJson& object, const char* key, const char* array, const std::string& field,
          bool required = false) const {
    if (!object.contains(key)) {
      if (required) Fail(field + "." + key + ": missing");
      return -1;
    }
    return RefValue(object[key], array, field + "." + key);
  }

  int RefValue(const GltfJson& value, const char* array, const std::string& field) const {
    const std::size_t size = Count(array);
    if (!value.is_number_integer()) {
      Fail(field + ": \"" + field.substr(field.rfind('.') + 1) + "\" was not of type \"uint\"");
    }
    if (value.get<std::int64_t>() < 0 ||
        static_cast<std::uint64_t>(value.get<std::int64_t>()) >= size) {
      Fail(field + ": " + value.dump() + " is not an index into " + array + " (" +
           std::to_string(size) + " of them)");
    }
    return value.get<int>();
  }

  void CheckBuffers() {
    for (std::size_t i = 0; i < Count("buffers"); ++i) doc_.Buffer(static_cast<int>(i));
    const GltfJson& views = Array(root_, "bufferViews");
    for (std::size_t i = 0; i < views.size(); ++i) {
      const std::string field = Name("bufferViews", i);
      const int buffer = Ref(views[i], "buffer", "buffers", field, true);
      const std::size_t size = doc_.Buffer(buffer).size();
      const std::uint64_t offset = views[i].value("byteOffset", std::uint64_t{0});
      const std::uint64_t length = views[i].value("byteLength", std::uint64_t{0});
      if (offset > size || length > size - offset) {
        Fail(field + ": bytes " + std::to_string(offset) + " + " + std::to_string(length) +
             " run past the end of buffers[" + std::to_string(buffer) + "] (" +
             std::to_string(size) + " bytes)");
      }
      if (views[i].contains("byteStride")) {
        const std::uint64_t stride = views[i].value("byteStride", std::uint64_t{0});
        if (stride < 4 || stride > 252) {
          Fail(field + ".byteStride: " + std::to_string(stride) + " is outside 4..252");
        }
      }
    }
  }

  void CheckAccessors() {
    const GltfJson& accessors = Array(root_, "accessors");
    for (std::size_t i = 0; i < accessors.size(); ++i) {
      const GltfAccessorLayout layout = doc_.Layout(static_cast<int>(i));
      if (accessors[i].contains("sparse")) CheckSparse(accessors[i]["sparse"], i, layout);
    }
  }

  // Sparse indices and values within their views, and no more of them than the accessor has.
  void CheckSparse(const GltfJson& sparse, std::size_t accessor, const GltfAccessorLayout& l) {
    const std::string field = Name("accessors", accessor) + ".sparse";
    const std::uint64_t count = sparse.value("count", std::uint64_t{0});
    if (count == 0 || count > l.count) {
      Fail(field + ".count: " + std::to_string(count) + " is not within 1.." +
           std::to_string(l.count));
    }
    const std::pair<const char*, std::uint64_t> parts[] = {
        {"indices", 0}, {"values", static_cast<std::uint64_t>(l.width * l.component_size)}};
    for (const auto& [part, element_size] : parts) {
      if (!sparse.contains(part) || !sparse[part].is_object())
        Fail(field + "." + part + ": missing");
      const GltfJson& p = sparse[part];
      const int view = Ref(p, "bufferView", "bufferViews", field + "." + part, true);
      std::uint64_t size = element_size;
      if (size == 0)
        size = static_cast<std::uint64_t>(GltfComponentSize(p.value("componentType", 0)));
      if (size == 0) Fail(field + ".indices.componentType: not an unsigned integer type");
      const std::uint64_t offset = p.value("byteOffset", std::uint64_t{0});
      const std::uint64_t length = root_["bufferViews"][static_cast<std::size_t>(view)].value(
          "byteLength", std::uint64_t{0});
      if (offset > length || count > (length - offset) / size) {
        Fail(field + "." + part + ": " + std::to_string(count) + " entries run past the end of " +
             Name("bufferViews", static_cast<std::size_t>(view)));
      }
    }
  }

  void CheckNodes() {
    const GltfJson& nodes = Array(root_, "nodes");
    std::vector<int> parent(nodes.size(), -1);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const std::string field = Name("nodes", i);
      Ref(nodes[i], "mesh", "meshes", field);
      Ref(nodes[i], "skin", "skins", field);
      Ref(nodes[i], "camera", "cameras", field);
      if (!nodes[i].contains("children")) continue;
      const GltfJson& children = nodes[i]["children"];
      if (!children.is_array()) Fail(field + ".children: not an array");
      for (std::size_t c = 0; c < children.size(); ++c) {
        const int child =
            RefValue(children[c], "nodes", field + ".children[" + std::to_string(c) + "]");
        int& p = parent[static_cast<std::size_t>(child)];
        if (p >= 0) {
          Fail(Name("nodes", static_cast<std::size_t>(child)) + ": a child of both nodes[" +
               std::to_string(p) + "] and nodes[" + std::to_string(i) + "]");
        }
        p = static_cast<int>(i);
      }
    }
    // Depth from the parentless nodes, without recursion; a node never reached is on a cycle.
    std::vector<int> depth(nodes.size(), -1);
    std::vector<std::size_t> stack;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      if (parent[i] < 0) {
        depth[i] = 1;
        stack.push_back(i);
      }
    }
    while (!stack.empty()) {
      const std::size_t node = stack.back();
      stack.pop_back();
      if (depth[node] > kGltfMaxNodeDepth) {
        Fail(Name("nodes", node) + ": " + std::to_string(depth[node]) + " levels deep; at most " +
             std::to_string(kGltfMaxNodeDepth) + " are read");
      }
      for (const GltfJson& child : nodes[node].value("children", GltfJson::array())) {
        const std::size_t c = child.get<std::size_t>();
        depth[c] = depth[node] + 1;
        stack.push_back(c);
      }
    }
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      if (depth[i] < 0)
        Fail(Name("nodes", i) +
             ".children: a recursive reference (a cycle runs through this node)");
    }
    const GltfJson& scenes = Array(root_, "scenes");
    for (std::size_t s = 0; s < scenes.size(); ++s) {
      const GltfJson& roots = scenes[s].value("nodes", GltfJson::array());
      for (std::size_t r = 0; r < roots.size(); ++r) {
        const std::string field = Name("scenes", s) + ".nodes[" + std::to_string(r) + "]";
        const int node = RefValue(roots[r], "nodes", field);
        if (parent[static_cast<std::size_t>(node)] >= 0)
          Fail(field + ": a scene root with a parent");
      }
    }
    if (root_.contains("scene")) {
      if (Count("scenes") == 0) Fail("scene: No scenes in the file, yet \"scene\" names one");
      RefValue(root_["scene"], "scenes", "scene");
    }
  }

  void CheckMeshes() {
    const GltfJson& meshes = Array(root_, "meshes");
    for (std::size_t m = 0; m < meshes.size(); ++m) {
      const std::string mesh = Name("meshes", m);
      if (!meshes[m].contains("primitives") || !meshes[m]["primitives"].is_array()) {
        Fail(mesh + ": \"primitives\" was not of type \"array\"");
      }
      const GltfJson& primitives = meshes[m]["primitives"];
      for (std::size_t p = 0; p < primitives.size(); ++p) {
        const std::string field = mesh + ".primitives[" + std::to_string(p) + "]";
        const GltfJson& primitive = primitives[p];
        if (!primitive.is_object() || !primitive.contains("attributes") ||
            !primitive["attributes"].is_object()) {
          Fail(field + ".attributes: missing");
        }
        for (const auto& [name, accessor] : primitive["attributes"].items()) {
          RefValue(accessor, "accessors", field + ".attributes." + name);
        }
        Ref(primitive, "indices", "accessors", field);
        Ref(primitive, "material", "materials", field);
        for (const GltfJson& target : primitive.value("targets", GltfJson::array())) {
          if (!target.is_object()) Fail(field + ".targets: not an object");
          for (const auto& [name, accessor] : target.items()) {
            RefValue(accessor, "accessors", field + ".targets." + name);
          }
        }
      }
    }
  }

  void CheckAnimations() {
    const GltfJson& animations = Array(root_, "animations");
    for (std::size_t a = 0; a < animations.size(); ++a) {
      const std::string field = Name("animations", a);
      const GltfJson& samplers = animations[a].value("samplers", GltfJson::array());
      for (std::size_t s = 0; s < samplers.size(); ++s) {
        const std::string sampler = field + ".samplers[" + std::to_string(s) + "]";
        Ref(samplers[s], "input", "accessors", sampler, true);
        Ref(samplers[s], "output", "accessors", sampler, true);
      }
      const GltfJson& channels = animations[a].value("channels", GltfJson::array());
      for (std::size_t c = 0; c < channels.size(); ++c) {
        const std::string channel = field + ".channels[" + std::to_string(c) + "]";
        const GltfJson& sampler = channels[c].value("sampler", GltfJson());
        if (!sampler.is_number_integer() || sampler.get<std::int64_t>() < 0 ||
            static_cast<std::uint64_t>(sampler.get<std::int64_t>()) >= samplers.size()) {
          Fail(channel + ".sampler: not an index into the animation's samplers");
        }
        const GltfJson& target = channels[c].value("target", GltfJson::object());
        Ref(target, "node", "nodes", channel + ".target");
      }
    }
  }

  // The importer reads keys x values-per-key from a sampler's output without looking at its
  // count: a CUBICSPLINE key is three values (in-tangent, value, out-tangent), others one.
  void CheckSamplerValues() {
    const GltfJson& animations = Array(root_, "animations");
    for (std::size_t a = 0; a < animations.size(); ++a) {
      const GltfJson& samplers = animations[a].value("samplers", GltfJson::array());
      for (std::size_t s = 0; s < samplers.size(); ++s) {
        const std::string sampler = Name("animations", a) + ".samplers[" + std::to_string(s) + "]";
        const GltfJson& how = samplers[s].value("interpolation", GltfJson("LINEAR"));
        const bool cubic = how.is_string() && how.get<std::string>() == "CUBICSPLINE";
        const std::uint64_t keys = doc_.Layout(samplers[s]["input"].get<int>()).count;
        const std::uint64_t values = doc_.Layout(samplers[s]["output"].get<int>()).count;
        if (values < keys * (cubic ? 3 : 1)) {
          Fail(sampler + ".output: " + std::to_string(values) + " values for " +
               std::to_string(keys) + " keys; " +
               (cubic ? "CUBICSPLINE needs three a key (in-tangent, value, out-tangent)"
                      : "at least one a key"));
        }
      }
    }
  }

  void CheckImages() {
    const GltfJson& textures = Array(root_, "textures");
    for (std::size_t t = 0; t < textures.size(); ++t) {
      Ref(textures[t], "source", "images", Name("textures", t));
      Ref(textures[t], "sampler", "samplers", Name("textures", t));
    }
    const GltfJson& images = Array(root_, "images");
    for (std::size_t i = 0; i < images.size(); ++i) {
      const std::string field = Name("images", i);
      Ref(images[i], "bufferView", "bufferViews", field);
      if (!images[i].contains("uri")) continue;
      if (!images[i]["uri"].is_string()) Fail(field + ".uri: not a string");
      const std::string uri = images[i]["uri"].get<std::string>();
      if (uri.rfind("data:", 0) == 0) continue;
      std::filesystem::path file;
      std::string problem;
      if (!ResolveBeside(doc_.path.parent_path(), PercentDecode(uri), doc_.allow_outside_uris,
                         &file, &problem)) {
        Fail(field + ".uri: " + problem);
      }
      // A missing image is the loader's warning; something that is there must be a file.
      const std::string not_regular = NotRegularFileReason(file);
      if (!not_regular.empty() && not_regular != "file not found") {
        Fail(field + ".uri: " + file.string() + " " + not_regular);
      }
    }
  }

  void CheckSkins() {
    const GltfJson& skins = Array(root_, "skins");
    std::map<int, std::size_t> joints_of_skin;
    std::vector<std::size_t> without_matrices;
    for (std::size_t s = 0; s < skins.size(); ++s) {
      const std::string field = Name("skins", s);
      const GltfJson& joints = skins[s].value("joints", GltfJson());
      if (!joints.is_array() || joints.empty())
        Fail(field + ".joints: must list at least one node");
      std::set<int> seen;
      for (std::size_t j = 0; j < joints.size(); ++j) {
        const int node = RefValue(joints[j], "nodes", field + ".joints[" + std::to_string(j) + "]");
        if (!seen.insert(node).second) {
          Fail(field + ".joints[" + std::to_string(j) + "]: nodes[" + std::to_string(node) +
               "] is listed twice");
        }
      }
      Ref(skins[s], "skeleton", "nodes", field);
      joints_of_skin[static_cast<int>(s)] = joints.size();
      const int ibm = Ref(skins[s], "inverseBindMatrices", "accessors", field);
      if (ibm < 0) {
        without_matrices.push_back(s);
        continue;
      }
      const GltfAccessorLayout layout = doc_.Layout(ibm);
      if (layout.width != 16 || layout.component_type != 5126) {
        Fail(field + ".inverseBindMatrices: accessor " + std::to_string(ibm) +
             " is not MAT4 of floats");
      }
      if (layout.count < joints.size()) {
        Fail(field + ".inverseBindMatrices: accessor " + std::to_string(ibm) + " holds " +
             std::to_string(layout.count) + " matrices, the skin has " +
             std::to_string(joints.size()) + " joints");
      }
    }
    CheckJointIndices(joints_of_skin);
    if (!without_matrices.empty()) SupplyIdentity(without_matrices);
  }

  // JOINTS_n of every skinned mesh: unsigned byte or short, each value below the joint count.
  void CheckJointIndices(const std::map<int, std::size_t>& joints_of_skin) {
    const GltfJson& nodes = Array(root_, "nodes");
    std::set<std::pair<int, std::size_t>> checked;  // (accessor, joint count)
    for (std::size_t n = 0; n < nodes.size(); ++n) {
      if (!nodes[n].contains("mesh") || !nodes[n].contains("skin")) continue;
      const std::size_t joint_count = joints_of_skin.at(nodes[n]["skin"].get<int>());
      const std::size_t m = nodes[n]["mesh"].get<std::size_t>();
      const GltfJson& primitives = root_["meshes"][m]["primitives"];
      for (std::size_t p = 0; p < primitives.size(); ++p) {
        for (const auto& [name, value] : primitives[p]["attributes"].items()) {
          if (name.rfind("JOINTS_", 0) != 0) continue;
          const int accessor = value.get<int>();
          if (!checked.emplace(accessor, joint_count).second) continue;
          const std::string field =
              Name("meshes", m) + ".primitives[" + std::to_string(p) + "].attributes." + name;
          const int type =
              root_["accessors"][static_cast<std::size_t>(accessor)].value("componentType", 0);
          if (type != 5121 && type != 5123) {
            Fail(field + ": accessor " + std::to_string(accessor) + " has component type " +
                 std::to_string(type) + "; joints are unsigned bytes (5121) or shorts (5123)");
          }
          const std::vector<std::int64_t> values = doc_.Integers(accessor);
          for (std::size_t k = 0; k < values.size(); ++k) {
            if (values[k] < 0 || static_cast<std::uint64_t>(values[k]) >= joint_count) {
              Fail(field + ": vertex " + std::to_string(k / 4) + " names joint " +
                   std::to_string(values[k]) + ", the skin of nodes[" + std::to_string(n) +
                   "] has " + std::to_string(joint_count) + " joints");
            }
          }
        }
      }
    }
  }

  // Identity matrices in one data-URI buffer, one accessor per skin that had none.
  void SupplyIdentity(const std::vector<std::size_t>& skins) {
    std::size_t most = 0;
    for (std::size_t s : skins) most = std::max(most, root_["skins"][s]["joints"].size());
    std::vector<std::uint8_t> bytes(most * 64, 0);
    const float one = 1.f;
    for (std::size_t j = 0; j < most; ++j) {
      for (int d = 0; d < 4; ++d)
        std::memcpy(&bytes[j * 64 + static_cast<std::size_t>(d) * 20], &one, 4);
    }
    const std::string base64 = EncodeBase64(bytes);
    GltfJson& root = doc_.json;
    if (!root.contains("buffers")) root["buffers"] = GltfJson::array();
    if (!root.contains("bufferViews")) root["bufferViews"] = GltfJson::array();
    if (!root.contains("accessors")) root["accessors"] = GltfJson::array();
    root["buffers"].push_back(
        {{"byteLength", bytes.size()}, {"uri", "data:application/octet-stream;base64," + base64}});
    root["bufferViews"].push_back(
        {{"buffer", root["buffers"].size() - 1}, {"byteLength", bytes.size()}});
    for (std::size_t s : skins) {
      root["accessors"].push_back({{"bufferView", root["bufferViews"].size() - 1},
                                   {"componentType", 5126},
                                   {"count", root["skins"][s]["joints"].size()},
                                   {"type", "MAT4"}});
      root["skins"][s]["inverseBindMatrices"] = root["accessors"].size() - 1;
    }
    changed_ = true;
  }

  GltfDocument& doc_;
  const GltfJson& root_;
  bool changed_ = false;
};

}  // namespace

GltfCheckResult CheckGltf(GltfDocument& doc) {
  return Checker(doc).Run();
}

}  // namespace ikpose::asset
