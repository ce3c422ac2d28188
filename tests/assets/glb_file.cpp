#include "glb_file.h"

#include <fstream>
#include <iterator>
#include <stdexcept>

#include <glm/gtc/matrix_transform.hpp>

namespace ikpose::test {

std::vector<std::uint8_t> ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

GlbFile GlbFile::Load(const std::string& path) {
  const std::vector<std::uint8_t> bytes = ReadBytes(path);
  if (!asset::IsGlb(bytes)) throw std::runtime_error("not a binary glTF file");
  GlbFile glb;
  glb.document = std::make_shared<asset::GltfDocument>(asset::GltfDocument::Parse(bytes, path));
  glb.json = nlohmann::json::parse(glb.document->json.dump());
  glb.bin = glb.document->bin;
  glb.file_length = bytes.size();
  const auto u32 = [&bytes](std::size_t at) {
    return static_cast<std::uint32_t>(bytes[at]) | static_cast<std::uint32_t>(bytes[at + 1]) << 8 |
           static_cast<std::uint32_t>(bytes[at + 2]) << 16 |
           static_cast<std::uint32_t>(bytes[at + 3]) << 24;
  };
  glb.version = u32(4);
  glb.declared_length = u32(8);
  return glb;
}

int GlbFile::Width(int accessor) const {
  return document->Layout(accessor).width;
}

std::size_t GlbFile::Count(int accessor) const {
  return document->Layout(accessor).count;
}

std::vector<float> GlbFile::Floats(int accessor) const {
  if (document->Layout(accessor).component_type != 5126) {
    throw std::runtime_error("not a float accessor");
  }
  return document->Floats(accessor);
}

std::vector<std::uint32_t> GlbFile::Integers(int accessor) const {
  const std::vector<std::int64_t> values = document->Integers(accessor);
  return {values.begin(), values.end()};
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
