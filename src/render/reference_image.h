// A reference image (a drawing or photo of the pose to match) shown as a quad in model space
// behind the character: drawn first, without writing depth, so the character always covers it
// while it keeps its place and size as the camera orbits.
// Limits: one image at a time; one GL context; Init after it is current.
#pragma once

#include <array>
#include <filesystem>
#include <memory>
#include <string>

#include <glm/glm.hpp>

#include "render/png_file.h"
#include "render/shader_program.h"
#include "render/thumbnail.h"

namespace ikpose::render {

class ReferenceImage {
 public:
  ReferenceImage() = default;
  ~ReferenceImage();
  ReferenceImage(const ReferenceImage&) = delete;
  ReferenceImage& operator=(const ReferenceImage&) = delete;

  bool Init(const std::filesystem::path& shader_dir, std::string* error);
  bool ready() const { return vao_ != 0; }
  void SetImage(const RgbaImage& image);
  void Clear() { texture_.reset(); }
  bool has_image() const { return texture_ != nullptr; }
  float aspect() const { return aspect_; }  // width / height of the image
  // Corners in model space: bottom-left, bottom-right, top-right, top-left of the image.
  void Draw(const std::array<glm::vec3, 4>& corners_ms, const glm::mat4& view_proj, float opacity);

 private:
  ShaderProgram program_;
  std::unique_ptr<ImageTexture> texture_;
  float aspect_ = 1.0f;
  unsigned vao_ = 0;
  unsigned vbo_ = 0;
};

}  // namespace ikpose::render
