#include "glb_writer.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include "asset/glb_builder.h"

namespace ikpose::character {

namespace {

using Json = asset::GltfJson;
using asset::kGltfArrayBuffer;
using asset::kGltfElementArrayBuffer;
using asset::kGltfUnsignedByte;
using asset::kGltfUnsignedInt;
using asset::kGltfUnsignedShort;

float Grid(double v, double steps) {
  return static_cast<float>(std::round(v * steps) / steps);
}
float Q(double v) {
  return Grid(v, 1048576.0);
}  // 2^-20

// Up to four influences, largest first, as byte joints and float weights summing to exactly 1.
void PackWeights(const Weights& in, std::array<std::uint8_t, 4>& joints,
                 std::array<float, 4>& weights) {
  Weights merged;
  for (const Influence& i : in) {
    if (!(i.weight > 0.0)) continue;
    auto it = std::find_if(merged.begin(), merged.end(),
                           [&i](const Influence& m) { return m.joint == i.joint; });
    if (it == merged.end()) {
      merged.push_back(i);
    } else {
      it->weight += i.weight;
    }
  }
  std::sort(merged.begin(), merged.end(), [](const Influence& a, const Influence& b) {
    return a.weight != b.weight ? a.weight > b.weight : a.joint < b.joint;
  });
  if (merged.size() > 4) merged.resize(4);
  double total = 0.0;
  for (const Influence& i : merged) total += i.weight;
  if (merged.empty() || !(total > 0.0)) throw std::logic_error("vertex without weights");
  joints.fill(0);
  weights.fill(0.0f);
  double rest = 1.0;
  std::size_t slot = 1;
  for (std::size_t k = 1; k < merged.size(); ++k) {
    const double w = std::round(merged[k].weight / total * 65536.0) / 65536.0;
    if (w <= 0.0) continue;
    joints[slot] = static_cast<std::uint8_t>(merged[k].joint);
    weights[slot] = static_cast<float>(w);
    rest -= w;
    ++slot;
  }
  joints[0] = static_cast<std::uint8_t>(merged[0].joint);
  weights[0] = static_cast<float>(rest);  // a multiple of 2^-16: exact
}

Json Numbers(std::initializer_list<double> values) {
  Json out = Json::array();
  for (double v : values) out.push_back(v);
  return out;
}

}  // namespace

std::vector<std::uint8_t> WriteGlb(const Rig& rig, const std::vector<Part>& parts,
                                   const std::vector<MaterialSpec>& materials,
                                   const std::vector<Clip>& clips) {
  if (rig.size() > 255) throw std::logic_error("too many joints for byte joint indices");
  asset::GlbBuilder bin;
  Json gltf;
  gltf["asset"] = {{"version", "2.0"}, {"generator", "ikpose_make_character"}};
  gltf["scene"] = 0;
  const int mesh_node = rig.size();
  gltf["scenes"] = Json::array({{{"name", "default character"}, {"nodes", {0, mesh_node}}}});

  // Nodes: the joints (in rig order), then the mesh node beside the skeleton root.
  Json nodes = Json::array();
  for (int i = 0; i < rig.size(); ++i) {
    const Joint& joint = rig.joints[static_cast<std::size_t>(i)];
    Json node{{"name", joint.name}};
    Json children = Json::array();
    for (int c = 0; c < rig.size(); ++c) {
      if (rig.joints[static_cast<std::size_t>(c)].parent == i) children.push_back(c);
    }
    if (!children.empty()) node["children"] = children;
    const dvec3 t = joint.local.translation;
    if (t != dvec3(0.0)) node["translation"] = Numbers({t.x, t.y, t.z});
    const dquat r = joint.local.rotation;
    if (r != dquat(1.0, 0.0, 0.0, 0.0)) node["rotation"] = Numbers({r.x, r.y, r.z, r.w});
    nodes.push_back(node);
  }
  nodes.push_back({{"name", "body"}, {"mesh", 0}, {"skin", 0}});
  gltf["nodes"] = nodes;

  // One primitive per material, gathering the triangles of every part that use it.
  Json primitives = Json::array();
  for (int m = 0; m < static_cast<int>(materials.size()); ++m) {
    std::vector<float> positions, normals, weights;
    std::vector<std::uint8_t> joints;
    std::vector<std::uint32_t> indices;
    for (const Part& part : parts) {
      std::vector<std::int64_t> remap(part.positions.size(), -1);
      for (std::size_t t = 0; t < part.triangles.size(); ++t) {
        if (part.triangle_material[t] != m) continue;
        for (std::uint32_t v : part.triangles[t]) {
          if (remap[v] < 0) {
            remap[v] = static_cast<std::int64_t>(positions.size() / 3);
            for (int c = 0; c < 3; ++c) positions.push_back(Q(part.positions[v][c]));
            for (int c = 0; c < 3; ++c) normals.push_back(Q(part.normals[v][c]));
            std::array<std::uint8_t, 4> j{};
            std::array<float, 4> w{};
            PackWeights(part.weights[v], j, w);
            joints.insert(joints.end(), j.begin(), j.end());
            weights.insert(weights.end(), w.begin(), w.end());
          }
          indices.push_back(static_cast<std::uint32_t>(remap[v]));
        }
      }
    }
    if (indices.empty()) continue;
    const std::size_t count = positions.size() / 3;
    Json attributes;
    attributes["POSITION"] = bin.Floats(positions, 3, "VEC3", kGltfArrayBuffer, true);
    attributes["NORMAL"] = bin.Floats(normals, 3, "VEC3", kGltfArrayBuffer, false);
    attributes["JOINTS_0"] =
        bin.Accessor(bin.View(joints, kGltfArrayBuffer), kGltfUnsignedByte, count, "VEC4");
    attributes["WEIGHTS_0"] = bin.Floats(weights, 4, "VEC4", kGltfArrayBuffer, false);
    int index_accessor = 0;
    if (count <= 65535) {
      std::vector<std::uint16_t> shorts(indices.begin(), indices.end());
      index_accessor = bin.Accessor(bin.View(shorts, kGltfElementArrayBuffer), kGltfUnsignedShort,
                                    shorts.size(), "SCALAR");
    } else {
      index_accessor = bin.Accessor(bin.View(indices, kGltfElementArrayBuffer), kGltfUnsignedInt,
                                    indices.size(), "SCALAR");
    }
    primitives.push_back(
        {{"attributes", attributes}, {"indices", index_accessor}, {"material", m}, {"mode", 4}});
  }
  gltf["meshes"] = Json::array({{{"name", "body"}, {"primitives", primitives}}});

  Json material_list = Json::array();
  for (const MaterialSpec& spec : materials) {
    const glm::dvec4 c = spec.base_color;
    material_list.push_back({{"name", spec.name},
                             {"pbrMetallicRoughness",
                              {{"baseColorFactor", Numbers({c.r, c.g, c.b, c.a})},
                               {"metallicFactor", 0.0},
                               {"roughnessFactor", spec.roughness}}}});
  }
  gltf["materials"] = material_list;

  // Skin: every joint, inverse bind matrices = inverse of each joint's bind model matrix.
  std::vector<float> ibm;
  Json joint_list = Json::array();
  for (int i = 0; i < rig.size(); ++i) {
    joint_list.push_back(i);
    const Rigid inv = Inverse(rig.bind_ms[static_cast<std::size_t>(i)]);
    const glm::dmat3 r = glm::mat3_cast(inv.rotation);
    for (int col = 0; col < 3; ++col) {
      for (int row = 0; row < 3; ++row) ibm.push_back(Q(r[col][row]));
      ibm.push_back(0.0f);
    }
    for (int row = 0; row < 3; ++row) ibm.push_back(Q(inv.translation[row]));
    ibm.push_back(1.0f);
  }
  const int ibm_accessor = bin.Floats(ibm, 16, "MAT4", 0, false);
  gltf["skins"] = Json::array({{{"name", "skeleton"},
                                {"inverseBindMatrices", ibm_accessor},
                                {"joints", joint_list},
                                {"skeleton", 0}}});

  // Animations: a rotation channel for every joint but the root, the pelvis translation.
  Json animations = Json::array();
  const int pelvis = rig.Index("pelvis");
  for (const Clip& clip : clips) {
    std::vector<float> times;
    for (double t : clip.times) times.push_back(static_cast<float>(t));
    const int input = bin.Floats(times, 1, "SCALAR", 0, true);
    Json samplers = Json::array(), channels = Json::array();
    auto add_channel = [&](int joint, const char* path, const std::vector<float>& values, int width,
                           const char* type) {
      const int output = bin.Floats(values, width, type, 0, false);
      samplers.push_back({{"input", input}, {"interpolation", "LINEAR"}, {"output", output}});
      channels.push_back({{"sampler", static_cast<int>(samplers.size() - 1)},
                          {"target", {{"node", joint}, {"path", path}}}});
    };
    for (int j = 1; j < rig.size(); ++j) {
      std::vector<float> values;
      dquat previous(1.0, 0.0, 0.0, 0.0);
      for (std::size_t k = 0; k < clip.poses.size(); ++k) {
        dquat q = glm::normalize(clip.poses[k][static_cast<std::size_t>(j)].rotation);
        // Neighbouring keys on the same hemisphere, so interpolation takes the short way.
        if (k == 0 ? q.w < 0.0 : glm::dot(q, previous) < 0.0) q = -q;
        previous = q;
        values.insert(values.end(), {Q(q.x), Q(q.y), Q(q.z), Q(q.w)});
      }
      add_channel(j, "rotation", values, 4, "VEC4");
      if (j == pelvis) {
        std::vector<float> offsets;
        for (const auto& pose : clip.poses) {
          const dvec3 t = pose[static_cast<std::size_t>(j)].translation;
          offsets.insert(offsets.end(), {Q(t.x), Q(t.y), Q(t.z)});
        }
        add_channel(j, "translation", offsets, 3, "VEC3");
      }
    }
    animations.push_back({{"name", clip.name}, {"samplers", samplers}, {"channels", channels}});
  }
  gltf["animations"] = animations;

  bin.WriteInto(gltf);
  return asset::PackGlb(gltf, bin.bytes());
}

}  // namespace ikpose::character
