#include "asset/gltf_animation_out.h"

#include <map>

namespace ikpose::asset {

namespace {

const char* InterpolationName(anim::Interpolation interpolation) {
  switch (interpolation) {
    case anim::Interpolation::kStep:
      return "STEP";
    case anim::Interpolation::kCubicSpline:
      return "CUBICSPLINE";
    case anim::Interpolation::kLinear:
      break;
  }
  return "LINEAR";
}

// glTF wants key times at or after 0 and strictly increasing.
bool GltfTimes(const std::vector<float>& times) {
  if (!times.empty() && !(times.front() >= 0.f)) return false;
  for (std::size_t i = 1; i < times.size(); ++i) {
    if (!(times[i] > times[i - 1])) return false;
  }
  return true;
}

std::string GltfTimesProblem(const anim::Clip& clip) {
  for (const anim::BoneTrack& t : clip.tracks) {
    if (!GltfTimes(t.translation.times) || !GltfTimes(t.rotation.times) ||
        !GltfTimes(t.scale.times)) {
      return "key times before 0 or repeated (glTF needs them increasing from 0)";
    }
  }
  return "";
}

class AnimationWriter {
 public:
  AnimationWriter(std::span<const int> node_of_bone, float metres_per_unit, GlbBuilder& bin)
      : node_of_bone_(node_of_bone), metres_per_unit_(metres_per_unit), bin_(bin) {}

  // One animation; false when it has no channel.
  bool Write(const anim::Clip& clip, GltfJson* animation, std::vector<std::string>* warnings) {
    inputs_.clear();
    GltfJson samplers = GltfJson::array();
    GltfJson channels = GltfJson::array();
    int skipped = 0;
    for (const anim::BoneTrack& track : clip.tracks) {
      const bool has_node = track.bone >= 0 &&
                            static_cast<std::size_t>(track.bone) < node_of_bone_.size() &&
                            node_of_bone_[static_cast<std::size_t>(track.bone)] >= 0;
      if (!has_node) {
        ++skipped;
        continue;
      }
      const int node = node_of_bone_[static_cast<std::size_t>(track.bone)];
      auto add = [&](const char* path, int input, int output, anim::Interpolation interpolation) {
        samplers.push_back({{"input", input},
                            {"output", output},
                            {"interpolation", InterpolationName(interpolation)}});
        channels.push_back({{"sampler", static_cast<int>(samplers.size()) - 1},
                            {"target", {{"node", node}, {"path", path}}}});
      };
      if (!track.translation.empty()) {
        add("translation", Input(track.translation.times),
            Vec3Output(track.translation.values, metres_per_unit_),
            track.translation.interpolation);
      }
      if (!track.rotation.empty()) {
        add("rotation", Input(track.rotation.times), QuatOutput(track.rotation),
            track.rotation.interpolation);
      }
      if (!track.scale.empty()) {
        add("scale", Input(track.scale.times), Vec3Output(track.scale.values, 1.f),
            track.scale.interpolation);
      }
    }
    if (skipped > 0 && warnings != nullptr) {
      warnings->push_back("clip '" + clip.name + "': " + std::to_string(skipped) +
                          " tracks on bones not written as nodes left out");
    }
    if (channels.empty()) return false;
    *animation = {{"name", clip.name}, {"channels", channels}, {"samplers", samplers}};
    return true;
  }

 private:
  // Key times as an input accessor (with the min/max glTF requires), shared by equal tracks.
  int Input(const std::vector<float>& times) {
    const auto found = inputs_.find(times);
    if (found != inputs_.end()) return found->second;
    const int accessor = bin_.Floats(times, 1, "SCALAR", 0, true);
    inputs_.emplace(times, accessor);
    return accessor;
  }

  int Vec3Output(const std::vector<glm::vec3>& values, float factor) {
    std::vector<float> data;
    data.reserve(values.size() * 3);
    for (const glm::vec3& v : values)
      data.insert(data.end(), {v.x * factor, v.y * factor, v.z * factor});
    return bin_.Floats(data, 3, "VEC3", 0, false);
  }

  // glTF stores x, y, z, w; values (not tangents) must be unit quaternions.
  int QuatOutput(const anim::QuatTrack& track) {
    std::vector<float> data;
    data.reserve(track.values.size() * 4);
    const bool cubic = track.interpolation == anim::Interpolation::kCubicSpline;
    for (std::size_t i = 0; i < track.values.size(); ++i) {
      glm::quat q = track.values[i];
      if (!cubic || i % 3 == 1) q = glm::normalize(q);
      data.insert(data.end(), {q.x, q.y, q.z, q.w});
    }
    return bin_.Floats(data, 4, "VEC4", 0, false);
  }

  std::span<const int> node_of_bone_;
  float metres_per_unit_;
  GlbBuilder& bin_;
  std::map<std::vector<float>, int> inputs_;
};

}  // namespace

GltfJson GltfAnimations(std::span<const anim::Clip> clips, std::span<const int> node_of_bone,
                        float metres_per_unit, GlbBuilder& bin,
                        std::vector<std::string>* warnings) {
  GltfJson animations = GltfJson::array();
  AnimationWriter writer(node_of_bone, metres_per_unit, bin);
  const int bones = static_cast<int>(node_of_bone.size());
  for (const anim::Clip& clip : clips) {
    std::string problem = anim::ValidateClip(clip, bones);
    if (problem.empty()) problem = GltfTimesProblem(clip);
    if (!problem.empty()) {
      if (warnings != nullptr) warnings->push_back("clip '" + clip.name + "' left out: " + problem);
      continue;
    }
    GltfJson animation;
    if (writer.Write(clip, &animation, warnings)) {
      animations.push_back(std::move(animation));
    } else if (warnings != nullptr) {
      warnings->push_back("clip '" + clip.name + "' left out: it animates no written node");
    }
  }
  return animations;
}

}  // namespace ikpose::asset
