// Binary glTF files as the asset tests see them: asset::GltfDocument (the program's own reader,
// which checks the container and every accessor it reads) plus the JSON as nlohmann::json and
// node transforms (rest pose or one key of a clip) in model space. Checks the container, not
// the glTF rules (the Khronos validator does that).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>
#include <nlohmann/json.hpp>

#include "asset/gltf_document.h"

namespace ikpose::test {

struct GlbFile {
  std::shared_ptr<asset::GltfDocument> document;  // reads accessors (caches buffers)
  nlohmann::json json;
  std::vector<std::uint8_t> bin;
  std::uint32_t version = 0;
  std::uint32_t declared_length = 0;
  std::size_t file_length = 0;

  // Throws std::runtime_error saying what is wrong.
  static GlbFile Load(const std::string& path);

  // Components per element of an accessor (3 for VEC3, 16 for MAT4...).
  int Width(int accessor) const;
  std::size_t Count(int accessor) const;
  // Every component of every element, in order (float accessors).
  std::vector<float> Floats(int accessor) const;
  // Every component of every element (unsigned byte, short or int accessors).
  std::vector<std::uint32_t> Integers(int accessor) const;

  int NodeIndex(const std::string& name) const;  // -1 when absent
  std::vector<int> Parents() const;              // -1 for roots
  // Local TRS of every node at rest; `Pose` then overrides from a clip's key `key`.
  struct Trs {
    glm::vec3 t{0.0f};
    glm::quat r{1.0f, 0.0f, 0.0f, 0.0f};
    glm::vec3 s{1.0f};
  };
  std::vector<Trs> RestTrs() const;
  std::vector<Trs> PoseAtKey(int animation, std::size_t key) const;
  std::vector<glm::mat4> ModelMatrices(const std::vector<Trs>& local) const;
};

std::vector<std::uint8_t> ReadBytes(const std::string& path);

}  // namespace ikpose::test
