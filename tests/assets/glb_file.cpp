#include "glb_file.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include <glm/gtc/matrix_transform.hpp>

namespace ikpose::test {

namespace {

std::uint32_t U32(const std::vector<std::uint8_t>& b, std::size_t at) {
  if (at + 4 > b.size()) throw std::runtime_error("truncated file");
  return static_cast<std::uint32_t>(b[at]) | static_cast<std::uint32_t>(b[at + 1]) << 8 |
         static_cast<std::uint32_t>(b[at + 2]) << 16 | static_cast<std::uint32_t>(b[at + 3]) << 24;
}

int WidthOf(const std::string& type) {
  if (type == "SCALAR") return 1;
  if (type == "VEC2") return 2;
  if (type == "VEC3") return 3;
  if (type == "VEC4") return 4;
  if (type == "MAT4") return 16;
  throw std::runtime_error("unexpected accessor type " + type);
}

int ComponentSize(int component_type) {
  switch (component_type) {
    case 5121:
      return 1;
    case 5123:
      return 2;
    case 5125:
    case 5126:
      return 4;
    default:
      throw std::runtime_error("unexpected component type");
  }
}

}  // namespace

std::vector<std::uint8_t> ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

GlbFile GlbFile::Load(const std::string& path) {
  const std::vector<std::uint8_t> bytes = ReadBytes(path);
  GlbFile glb;
  glb.file_length = bytes.size();
  if (U32(bytes, 0) != 0x46546C67u) throw std::runtime_error("not a binary glTF file");
  glb.version = U32(bytes, 4);
  glb.declared_length = U32(bytes, 8);
  const std::uint32_t json_length = U32(bytes, 12);
  if (U32(bytes, 16) != 0x4E4F534Au) throw std::runtime_error("first chunk is not JSON");
  if (20 + static_cast<std::size_t>(json_length) > bytes.size()) {
    throw std::runtime_error("JSON chunk runs past the end");
  }
  glb.json = nlohmann::json::parse(bytes.begin() + 20, bytes.begin() + 20 + json_length);
  const std::size_t bin_at = 20 + json_length;
  if (bin_at < bytes.size()) {
    const std::uint32_t bin_length = U32(bytes, bin_at);
    if (U32(bytes, bin_at + 4) != 0x004E4942u) throw std::runtime_error("second chunk not BIN");
    if (bin_at + 8 + bin_length > bytes.size()) throw std::runtime_error("BIN runs past the end");
    glb.bin.assign(bytes.begin() + static_cast<std::ptrdiff_t>(bin_at + 8),
                   bytes.begin() + static_cast<std::ptrdiff_t>(bin_at + 8 + bin_length));
  }
  return glb;
}

int GlbFile::Width(int accessor) const {
  return WidthOf(json["accessors"][accessor]["type"].get<std::string>());
}

std::size_t GlbFile::Count(int accessor) const {
  return json["accessors"][accessor]["count"].get<std::size_t>();
}

namespace {

// Byte offset, stride and element layout of an accessor's data, bounds-checked.
struct Layout {
  std::size_t offset, stride, count;
  int width, component_type, component_size;
};

Layout LayoutOf(const GlbFile& glb, int accessor) {
  const nlohmann::json& a = glb.json["accessors"][accessor];
  const nlohmann::json& v = glb.json["bufferViews"][a["bufferView"].get<int>()];
  Layout l{};
  l.width = WidthOf(a["type"].get<std::string>());
  l.component_type = a["componentType"].get<int>();
  l.component_size = ComponentSize(l.component_type);
  l.count = a["count"].get<std::size_t>();
  l.offset = v.value("byteOffset", std::size_t{0}) + a.value("byteOffset", std::size_t{0});
  l.stride = v.value("byteStride", static_cast<std::size_t>(l.width * l.component_size));
  const std::size_t element = static_cast<std::size_t>(l.width * l.component_size);
  if (l.count > 0 && l.offset + (l.count - 1) * l.stride + element > glb.bin.size()) {
    throw std::runtime_error("accessor runs past the binary chunk");
  }
  return l;
}

}  // namespace

std::vector<float> GlbFile::Floats(int accessor) const {
  const Layout l = LayoutOf(*this, accessor);
  if (l.component_type != 5126) throw std::runtime_error("not a float accessor");
  std::vector<float> out(l.count * static_cast<std::size_t>(l.width));
  for (std::size_t i = 0; i < l.count; ++i) {
    std::memcpy(&out[i * static_cast<std::size_t>(l.width)], &bin[l.offset + i * l.stride],
                static_cast<std::size_t>(l.width) * 4);
  }
  return out;
}

std::vector<std::uint32_t> GlbFile::Integers(int accessor) const {
  const Layout l = LayoutOf(*this, accessor);
  if (l.component_type == 5126) throw std::runtime_error("not an integer accessor");
  std::vector<std::uint32_t> out;
  out.reserve(l.count * static_cast<std::size_t>(l.width));
  for (std::size_t i = 0; i < l.count; ++i) {
    for (int c = 0; c < l.width; ++c) {
      const std::size_t at =
          l.offset + i * l.stride + static_cast<std::size_t>(c * l.component_size);
      std::uint32_t value = 0;
      for (int k = l.component_size - 1; k >= 0; --k) {
        value = value << 8 | bin[at + static_cast<std::size_t>(k)];
      }
      out.push_back(value);
    }
  }
  return out;
}

int GlbFile::NodeIndex(const std::string& name) const {
  const nlohmann::json& nodes = json["nodes"];
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].value("name", std::string()) == name) return static_cast<int>(i);
  }
  return -1;
}

std::vector<int> GlbFile::Parents() const {
  const nlohmann::json& nodes = json["nodes"];
  std::vector<int> parents(nodes.size(), -1);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    for (const auto& c : nodes[i].value("children", nlohmann::json::array())) {
      parents[c.get<std::size_t>()] = static_cast<int>(i);
    }
  }
  return parents;
}

std::vector<GlbFile::Trs> GlbFile::RestTrs() const {
  std::vector<Trs> out;
  for (const auto& n : json["nodes"]) {
    Trs trs;
    if (n.contains("translation")) {
      const auto& t = n["translation"];
      trs.t = {t[0].get<float>(), t[1].get<float>(), t[2].get<float>()};
    }
    if (n.contains("rotation")) {
      const auto& r = n["rotation"];
      trs.r = glm::quat(r[3].get<float>(), r[0].get<float>(), r[1].get<float>(), r[2].get<float>());
    }
    if (n.contains("scale")) {
      const auto& s = n["scale"];
      trs.s = {s[0].get<float>(), s[1].get<float>(), s[2].get<float>()};
    }
    out.push_back(trs);
  }
  return out;
}

std::vector<GlbFile::Trs> GlbFile::PoseAtKey(int animation, std::size_t key) const {
  std::vector<Trs> pose = RestTrs();
  const nlohmann::json& anim = json["animations"][animation];
  for (const auto& channel : anim["channels"]) {
    const auto& sampler = anim["samplers"][channel["sampler"].get<int>()];
    const std::vector<float> v = Floats(sampler["output"].get<int>());
    const int node = channel["target"]["node"].get<int>();
    const std::string path = channel["target"]["path"].get<std::string>();
    if (path == "rotation") {
      const float* q = &v[key * 4];
      pose[static_cast<std::size_t>(node)].r = glm::normalize(glm::quat(q[3], q[0], q[1], q[2]));
    } else if (path == "translation") {
      const float* t = &v[key * 3];
      pose[static_cast<std::size_t>(node)].t = {t[0], t[1], t[2]};
    }
  }
  return pose;
}

std::vector<glm::mat4> GlbFile::ModelMatrices(const std::vector<Trs>& local) const {
  const std::vector<int> parents = Parents();
  std::vector<glm::mat4> model(local.size());
  std::vector<bool> done(local.size(), false);
  // Parents may come after children in a general file: resolve recursively.
  auto resolve = [&](auto&& self, std::size_t i) -> glm::mat4 {
    if (done[i]) return model[i];
    const Trs& l = local[i];
    glm::mat4 m = glm::translate(glm::mat4(1.0f), l.t) * glm::mat4_cast(l.r) *
                  glm::scale(glm::mat4(1.0f), l.s);
    if (parents[i] >= 0) m = self(self, static_cast<std::size_t>(parents[i])) * m;
    model[i] = m;
    done[i] = true;
    return m;
  };
  for (std::size_t i = 0; i < local.size(); ++i) resolve(resolve, i);
  return model;
}

}  // namespace ikpose::test
