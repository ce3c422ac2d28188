#include "render/line_renderer.h"

#include <glad/gl.h>

#include <cstddef>

namespace ikpose::render {

LineRenderer::~LineRenderer() {
  if (vbo_ != 0) glDeleteBuffers(1, &vbo_);
  if (vao_ != 0) glDeleteVertexArrays(1, &vao_);
}

bool LineRenderer::Init(const std::filesystem::path& shader_dir, std::string* error) {
  if (!program_.Load(shader_dir / "lines.vert", shader_dir / "lines.frag", error)) return false;
  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &vbo_);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(anim::DebugVertex),
                        reinterpret_cast<void*>(offsetof(anim::DebugVertex, position_ms)));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(anim::DebugVertex),
                        reinterpret_cast<void*>(offsetof(anim::DebugVertex, color)));
  glBindVertexArray(0);
  return true;
}

void LineRenderer::Upload(const std::vector<anim::DebugVertex>& vertices) {
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  const std::size_t bytes = vertices.size() * sizeof(anim::DebugVertex);
  if (bytes > capacity_) {
    capacity_ = bytes * 2;
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(capacity_), nullptr, GL_STREAM_DRAW);
  }
  glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(bytes), vertices.data());
}

void LineRenderer::Draw(const anim::DebugDraw& lines, const glm::mat4& view_proj, bool on_top) {
  const auto& vertices = lines.vertices();
  const auto& triangles = lines.triangles();
  if (vertices.empty() && triangles.empty()) return;
  program_.Use();
  program_.Set("u_view_proj", view_proj);
  if (on_top) glDisable(GL_DEPTH_TEST);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glBindVertexArray(vao_);
  if (!triangles.empty()) {
    // Translucent fills seen from either side, under the lines.
    Upload(triangles);
    glDepthMask(GL_FALSE);
    glDrawArrays(GL_TRIANGLES, 0, static_cast<GLsizei>(triangles.size()));
    glDepthMask(GL_TRUE);
  }
  if (!vertices.empty()) {
    Upload(vertices);
    glDrawArrays(GL_LINES, 0, static_cast<GLsizei>(vertices.size()));
  }
  glBindVertexArray(0);
  glDisable(GL_BLEND);
  if (on_top) glEnable(GL_DEPTH_TEST);
}

}  // namespace ikpose::render
