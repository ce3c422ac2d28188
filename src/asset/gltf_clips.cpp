#include "asset/gltf_clips.h"

#include <map>

#include "asset/gltf_document.h"

namespace ikpose::asset {

namespace fs = std::filesystem;

namespace {

struct Failure {
  std::string what;
};

[[noreturn]] void Fail(const std::string& what) {
  throw Failure{what};
}

// An accessor of `components` floats per element (normalized integers allowed).
std::vector<float> ReadFloats(GltfDocument& doc, int accessor, int components) {
  const std::string type = doc.At("accessors", accessor).value("type", "");
  if (GltfTypeWidth(type) != components || type.rfind("MAT", 0) == 0) {
    Fail("accessor " + std::to_string(accessor) + " has type " + type);
  }
  return doc.Floats(accessor);
}

// glTF node index -> skeleton index, walking the scene as the importer does.
std::vector<int> MapNodes(const GltfJson& root, const anim::Skeleton& skeleton) {
  const GltfJson nodes = root.value("nodes", GltfJson::array());
  std::vector<int> map(nodes.size(), -1);
  const int scene_index = root.value("scene", 0);
  if (!root.contains("scenes") || !root["scenes"].is_array() ||
      static_cast<std::size_t>(scene_index) >= root["scenes"].size()) {
    Fail("no scene");
  }
  const GltfJson roots =
      root["scenes"][static_cast<std::size_t>(scene_index)].value("nodes", GltfJson::array());
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
    const GltfJson& n = nodes[static_cast<std::size_t>(node)];
    const std::string name = n.value("name", "");
    if (!name.empty() && skeleton.names[static_cast<std::size_t>(next)] != name) {
      Fail("node '" + name + "' is not where the importer put it");
    }
    map[static_cast<std::size_t>(node)] = next++;
    const GltfJson children = n.value("children", GltfJson::array());
    for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back(it->get<int>());
  }
  if (next != skeleton.size()) Fail("the node hierarchy does not match the importer's");
  return map;
}

}  // namespace

bool ReadGltfClips(const fs::path& path, const anim::Skeleton& skeleton,
                   std::vector<anim::Clip>* clips, std::string* problem, bool allow_outside_uris) {
  try {
    GltfDocument doc = GltfDocument::Read(path, allow_outside_uris);
    return ReadGltfClips(doc, skeleton, clips, problem);
  } catch (const GltfError& e) {
    *problem = e.what();
  }
  clips->clear();
  return false;
}

bool ReadGltfClips(GltfDocument& doc, const anim::Skeleton& skeleton,
                   std::vector<anim::Clip>* clips, std::string* problem) {
  try {
    const GltfJson& root = doc.json;
    clips->clear();
    if (!root.contains("animations")) return true;
    const std::vector<int> node_map = MapNodes(root, skeleton);
    for (const GltfJson& animation : root["animations"]) {
      anim::Clip clip;
      clip.name = animation.value("name", "");
      std::map<int, std::size_t> track_of_bone;
      const GltfJson& samplers = animation.at("samplers");
      for (const GltfJson& channel : animation.at("channels")) {
        const GltfJson& target = channel.at("target");
        const std::string what = target.value("path", "");
        if (!target.contains("node")) continue;
        if (what != "translation" && what != "rotation" && what != "scale") continue;
        const int node = target["node"].get<int>();
        if (node < 0 || static_cast<std::size_t>(node) >= node_map.size() ||
            node_map[static_cast<std::size_t>(node)] < 0) {
          Fail("a channel targets a node outside the scene");
        }
        const GltfJson& sampler = samplers.at(channel.at("sampler").get<std::size_t>());
        const std::string interpolation = sampler.value("interpolation", "LINEAR");
        anim::Interpolation mode = anim::Interpolation::kLinear;
        if (interpolation == "STEP") {
          mode = anim::Interpolation::kStep;
        } else if (interpolation == "CUBICSPLINE") {
          mode = anim::Interpolation::kCubicSpline;
        } else if (interpolation != "LINEAR") {
          Fail("unknown interpolation " + interpolation);
        }
        const std::vector<float> times = ReadFloats(doc, sampler.at("input").get<int>(), 1);
        const int components = what == "rotation" ? 4 : 3;
        const std::vector<float> values =
            ReadFloats(doc, sampler.at("output").get<int>(), components);
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
  } catch (const GltfError& e) {
    *problem = e.what();
  } catch (const std::exception& e) {
    *problem = std::string("unexpected glTF content (") + e.what() + ")";
  }
  clips->clear();
  return false;
}

}  // namespace ikpose::asset
