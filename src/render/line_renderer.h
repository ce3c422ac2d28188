// Draws a DebugDraw's line list (the skeleton, targets, solution circles, reach shells, grid)
// over its filled quads (the stability slice).
// One dynamic vertex buffer, re-filled each frame.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "anim/debug_draw.h"
#include "render/shader_program.h"

namespace ikpose::render {

class LineRenderer {
 public:
  LineRenderer() = default;
  ~LineRenderer();
  LineRenderer(const LineRenderer&) = delete;
  LineRenderer& operator=(const LineRenderer&) = delete;

  bool Init(const std::filesystem::path& shader_dir, std::string* error);
  // `on_top`: drawn over the mesh (depth test off), for overlays that must stay visible.
  void Draw(const anim::DebugDraw& lines, const glm::mat4& view_proj, bool on_top);

 private:
  void Upload(const std::vector<anim::DebugVertex>& vertices);

  ShaderProgram program_;
  unsigned vao_ = 0;
  unsigned vbo_ = 0;
  std::size_t capacity_ = 0;
};

}  // namespace ikpose::render
