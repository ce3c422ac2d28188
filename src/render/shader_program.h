// A GL program built from GLSL files in shaders/ (one file per stage). Compile and link errors
// come back as one line naming the file and the driver's first message.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <glm/glm.hpp>

namespace ikpose::render {

class ShaderProgram {
 public:
  ShaderProgram() = default;
  ~ShaderProgram();
  ShaderProgram(const ShaderProgram&) = delete;
  ShaderProgram& operator=(const ShaderProgram&) = delete;

  // `feedback_varyings`: outputs captured by transform feedback (interleaved), if any.
  bool Load(const std::filesystem::path& vertex_file, const std::filesystem::path& fragment_file,
            std::string* error, const std::vector<const char*>& feedback_varyings = {});

  void Use() const;
  unsigned id() const { return program_; }
  int Uniform(const char* name) const;
  void Set(const char* name, const glm::mat4& value) const;
  void Set(const char* name, const glm::vec3& value) const;
  void Set(const char* name, const glm::vec4& value) const;
  void Set(const char* name, int value) const;

 private:
  unsigned program_ = 0;
};

}  // namespace ikpose::render
