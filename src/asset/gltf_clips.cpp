#include "asset/gltf_clips.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>

namespace ikpose::asset {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct Failure {
  std::string what;
};

[[noreturn]] void Fail(const std::string& what) {
  throw Failure{what};
}

std::vector<std::uint8_t> ReadBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) Fail("cannot read " + path.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::uint32_t U32(const std::vector<std::uint8_t>& bytes, std::size_t at) {
  if (at + 4 > bytes.size()) Fail("truncated GLB header");
  return static_cast<std::uint32_t>(bytes[at]) | static_cast<std::uint32_t>(bytes[at + 1]) << 8 |
         static_cast<std::uint32_t>(bytes[at + 2]) << 16 |
         static_cast<std::uint32_t>(bytes[at + 3]) << 24;
}

std::vector<std::uint8_t> DecodeBase64(const std::string& text) {
  std::vector<std::uint8_t> out;
  std::uint32_t buffer = 0;
  int bits = 0;
  for (char ch : text) {
    int value;
    if (ch >= 'A' && ch <= 'Z') {
      value = ch - 'A';
    } else if (ch >= 'a' && ch <= 'z') {
      value = ch - 'a' + 26;
    } else if (ch >= '0' && ch <= '9') {
      value = ch - '0' + 52;
    } else if (ch == '+' || ch == '-') {
      value = 62;
    } else if (ch == '/' || ch == '_') {
      value = 63;
    } else if (ch == '=') {
      break;
    } else {
      continue;
    }
    buffer = (buffer << 6) | static_cast<std::uint32_t>(value);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<std::uint8_t>((buffer >> bits) & 0xff));
    }
  }
  return out;
}

std::string PercentDecode(const std::string& uri) {
  std::string out;
  for (std::size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size() &&
        std::isxdigit(static_cast<unsigned char>(uri[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(uri[i + 2]))) {
      out.push_back(static_cast<char>(std::stoi(uri.substr(i + 1, 2), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(uri[i]);
    }
  }
  return out;
}

class Document {
 public:
  Document(const fs::path& path) : path_(path) {
    const std::vector<std::uint8_t> bytes = ReadBytes(path);
    if (bytes.size() >= 12 && std::memcmp(bytes.data(), "glTF", 4) == 0) {
      if (U32(bytes, 4) != 2) Fail("not a glTF 2.0 binary");
      std::size_t at = 12;
      bool first = true;
      while (at + 8 <= bytes.size()) {
        const std::uint32_t length = U32(bytes, at);
        const std::uint32_t type = U32(bytes, at + 4);
        if (at + 8 + length > bytes.size()) Fail("truncated GLB chunk");
        const auto begin = bytes.begin() + static_cast<std::ptrdiff_t>(at + 8);
        if (first && type == 0x4E4F534Au) {
          json_ = json::parse(begin, begin + length, nullptr, false);
        } else if (type == 0x004E4942u && bin_.empty()) {
          bin_.assign(begin, begin + length);
        }
        first = false;
        at += 8 + length;
      }
    } else {
      json_ = json::parse(bytes.begin(), bytes.end(), nullptr, false);
    }
    if (json_.is_discarded() || !json_.is_object()) Fail("the glTF JSON cannot be parsed");
  }

  const json& root() const { return json_; }

  // An accessor's elements as floats, `components` per element (normalized integers mapped
  // to [0,1] or [-1,1] as the glTF spec says).
  std::vector<float> ReadFloats(int accessor_index, int components) {
    const json& accessor = At("accessors", accessor_index);
    if (accessor.contains("sparse")) Fail("sparse accessors are not read");
    const int component_type = accessor.value("componentType", 0);
    const std::size_t count = accessor.value("count", 0u);
    const std::string type = accessor.value("type", "");
    const int expected = type == "SCALAR" ? 1 : type == "VEC3" ? 3 : type == "VEC4" ? 4 : -1;
    if (expected != components)
      Fail("accessor " + std::to_string(accessor_index) + " has type " + type);
    std::size_t size = 0;
    switch (component_type) {
      case 5126:
        size = 4;
        break;
      case 5120:
      case 5121:
        size = 1;
        break;
      case 5122:
      case 5123:
        size = 2;
        break;
      default:
        Fail("accessor " + std::to_string(accessor_index) + " has an unsupported component type");
    }
    std::vector<float> out(count * static_cast<std::size_t>(components), 0.f);
    if (!accessor.contains("bufferView")) return out;  // all zeros, as the spec says
    const json& view = At("bufferViews", accessor["bufferView"].get<int>());
    const std::vector<std::uint8_t>& buffer = Buffer(view.value("buffer", 0));
    const std::size_t element = size * static_cast<std::size_t>(components);
    const std::size_t stride =
        view.value("byteStride", 0u) != 0 ? view.value("byteStride", 0u) : element;
    const std::size_t start = view.value("byteOffset", 0u) + accessor.value("byteOffset", 0u);
    const std::size_t view_end = view.value("byteOffset", 0u) + view.value("byteLength", 0u);
    if (count > 0 &&
        (start + stride * (count - 1) + element > view_end || view_end > buffer.size())) {
      Fail("accessor " + std::to_string(accessor_index) + " reads past its buffer");
    }
    for (std::size_t i = 0; i < count; ++i) {
      const std::uint8_t* p = buffer.data() + start + i * stride;
      for (int c = 0; c < components; ++c) {
        const std::uint8_t* q = p + static_cast<std::size_t>(c) * size;
        float v = 0.f;
        switch (component_type) {
          case 5126:
            std::memcpy(&v, q, 4);
            break;
          case 5120:
            v = std::max(static_cast<float>(static_cast<std::int8_t>(*q)) / 127.f, -1.f);
            break;
          case 5121:
            v = static_cast<float>(*q) / 255.f;
            break;
          case 5122: {
            std::int16_t s;
            std::memcpy(&s, q, 2);
            v = std::max(static_cast<float>(s) / 32767.f, -1.f);
            break;
          }
          case 5123: {
            std::uint16_t s;
            std::memcpy(&s, q, 2);
            v = static_cast<float>(s) / 65535.f;
            break;
          }
          default:
            break;
        }
        out[i * static_cast<std::size_t>(components) + static_cast<std::size_t>(c)] = v;
      }
    }
    return out;
  }

  const json& At(const char* array, int index) const {
    if (!json_.contains(array) || !json_[array].is_array() || index < 0 ||
        static_cast<std::size_t>(index) >= json_[array].size()) {
      Fail(std::string(array) + "[" + std::to_string(index) + "] does not exist");
    }
    return json_[array][static_cast<std::size_t>(index)];
  }

 private:
  const std::vector<std::uint8_t>& Buffer(int index) {
    const auto found = buffers_.find(index);
    if (found != buffers_.end()) return found->second;
    const json& buffer = At("buffers", index);
    std::vector<std::uint8_t> data;
    if (!buffer.contains("uri")) {
      if (index != 0 || bin_.empty()) Fail("buffer " + std::to_string(index) + " has no data");
      data = bin_;
    } else {
      const std::string uri = buffer["uri"].get<std::string>();
      if (uri.rfind("data:", 0) == 0) {
        const std::size_t comma = uri.find(',');
        if (comma == std::string::npos) Fail("a data URI has no data");
        data = DecodeBase64(uri.substr(comma + 1));
      } else {
        data = ReadBytes(path_.parent_path() / PercentDecode(uri));
      }
    }
    return buffers_.emplace(index, std::move(data)).first->second;
  }

  fs::path path_;
  json json_;
  std::vector<std::uint8_t> bin_;
  std::map<int, std::vector<std::uint8_t>> buffers_;
};

// glTF node index -> skeleton index, walking the scene as the importer does.
std::vector<int> MapNodes(const json& root, const anim::Skeleton& skeleton) {
  const json& nodes = root.value("nodes", json::array());
  std::vector<int> map(nodes.size(), -1);
  const int scene_index = root.value("scene", 0);
  if (!root.contains("scenes") || !root["scenes"].is_array() ||
      static_cast<std::size_t>(scene_index) >= root["scenes"].size()) {
    Fail("no scene");
  }
  const json roots =
      root["scenes"][static_cast<std::size_t>(scene_index)].value("nodes", json::array());
  int next = 0;
  if (roots.size() != 1) next = 1;  // the importer's common root
  std::vector<int> stack;
  for (auto it = roots.rbegin(); it != roots.rend(); ++it) stack.push_back(it->get<int>());
  while (!stack.empty()) {
    const int node = stack.back();
    stack.pop_back();
    if (node < 0 || static_cast<std::size_t>(node) >= nodes.size() ||
        map[static_cast<std::size_t>(node)] >= 0) {
      Fail("the node hierarchy is not a tree");
    }
    if (next >= skeleton.size()) Fail("the node hierarchy does not match the importer's");
    const json& n = nodes[static_cast<std::size_t>(node)];
    const std::string name = n.value("name", "");
    if (!name.empty() && skeleton.names[static_cast<std::size_t>(next)] != name) {
      Fail("node '" + name + "' is not where the importer put it");
    }
    map[static_cast<std::size_t>(node)] = next++;
    const json children = n.value("children", json::array());
    for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back(it->get<int>());
  }
  if (next != skeleton.size()) Fail("the node hierarchy does not match the importer's");
  return map;
}

}  // namespace

bool ReadGltfClips(const fs::path& path, const anim::Skeleton& skeleton,
                   std::vector<anim::Clip>* clips, std::string* problem) {
  try {
    Document doc(path);
    const json& root = doc.root();
    clips->clear();
    if (!root.contains("animations")) return true;
    const std::vector<int> node_map = MapNodes(root, skeleton);
    for (const json& animation : root["animations"]) {
      anim::Clip clip;
      clip.name = animation.value("name", "");
      std::map<int, std::size_t> track_of_bone;
      const json& samplers = animation.at("samplers");
      for (const json& channel : animation.at("channels")) {
        const json& target = channel.at("target");
        const std::string what = target.value("path", "");
        if (!target.contains("node")) continue;
        if (what != "translation" && what != "rotation" && what != "scale") continue;
        const int node = target["node"].get<int>();
        if (node < 0 || static_cast<std::size_t>(node) >= node_map.size() ||
            node_map[static_cast<std::size_t>(node)] < 0) {
          Fail("a channel targets a node outside the scene");
        }
        const json& sampler = samplers.at(channel.at("sampler").get<std::size_t>());
        const std::string interpolation = sampler.value("interpolation", "LINEAR");
        anim::Interpolation mode = anim::Interpolation::kLinear;
        if (interpolation == "STEP") {
          mode = anim::Interpolation::kStep;
        } else if (interpolation == "CUBICSPLINE") {
          mode = anim::Interpolation::kCubicSpline;
        } else if (interpolation != "LINEAR") {
          Fail("unknown interpolation " + interpolation);
        }
        const std::vector<float> times = doc.ReadFloats(sampler.at("input").get<int>(), 1);
        const int components = what == "rotation" ? 4 : 3;
        const std::vector<float> values =
            doc.ReadFloats(sampler.at("output").get<int>(), components);
        const std::size_t per_key = mode == anim::Interpolation::kCubicSpline ? 3 : 1;
        if (values.size() != times.size() * per_key * static_cast<std::size_t>(components)) {
          Fail("a sampler's output count does not match its input count");
        }
        const int bone = node_map[static_cast<std::size_t>(node)];
        auto [it, inserted] = track_of_bone.emplace(bone, clip.tracks.size());
        if (inserted) {
          clip.tracks.emplace_back();
          clip.tracks.back().bone = bone;
        }
        anim::BoneTrack& track = clip.tracks[it->second];
        const std::size_t n = values.size() / static_cast<std::size_t>(components);
        if (what == "rotation") {
          track.rotation.interpolation = mode;
          track.rotation.times = times;
          track.rotation.values.clear();
          for (std::size_t i = 0; i < n; ++i) {
            const float* v = &values[i * 4];
            track.rotation.values.emplace_back(v[3], v[0], v[1], v[2]);
          }
        } else {
          anim::Vec3Track& vec = what == "translation" ? track.translation : track.scale;
          vec.interpolation = mode;
          vec.times = times;
          vec.values.clear();
          for (std::size_t i = 0; i < n; ++i) {
            vec.values.emplace_back(values[i * 3], values[i * 3 + 1], values[i * 3 + 2]);
          }
        }
        if (!times.empty()) clip.duration = std::max(clip.duration, times.back());
      }
      const std::string invalid = anim::ValidateClip(clip, skeleton.size());
      if (!invalid.empty()) Fail(invalid);
      clips->push_back(std::move(clip));
    }
    return true;
  } catch (const Failure& failure) {
    *problem = failure.what;
  } catch (const std::exception& e) {
    *problem = std::string("unexpected glTF content (") + e.what() + ")";
  }
  clips->clear();
  return false;
}

}  // namespace ikpose::asset
