#include "render/skinned_mesh.h"

#include <glad/gl.h>

#include <cstddef>

#include <glm/gtc/type_ptr.hpp>

namespace ikpose::render {

SkinnedMesh::~SkinnedMesh() {
  if (texture_ != 0) glDeleteTextures(1, &texture_);
  if (ebo_ != 0) glDeleteBuffers(1, &ebo_);
  if (vbo_ != 0) glDeleteBuffers(1, &vbo_);
  if (vao_ != 0) glDeleteVertexArrays(1, &vao_);
}

void SkinnedMesh::Upload(const MeshUpload& mesh) {
  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &vbo_);
  glGenBuffers(1, &ebo_);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  glBufferData(GL_ARRAY_BUFFER,
               static_cast<GLsizeiptr>(mesh.vertices.size() * sizeof(SkinnedVertex)),
               mesh.vertices.data(), GL_STATIC_DRAW);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ebo_);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER,
               static_cast<GLsizeiptr>(mesh.indices.size() * sizeof(std::uint32_t)),
               mesh.indices.data(), GL_STATIC_DRAW);
  const auto stride = static_cast<GLsizei>(sizeof(SkinnedVertex));
  const auto at = [](std::size_t offset) { return reinterpret_cast<void*>(offset); };
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride,
                        at(offsetof(SkinnedVertex, position_bind)));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride, at(offsetof(SkinnedVertex, normal_bind)));
  glEnableVertexAttribArray(2);
  glVertexAttribPointer(2, 2, GL_FLOAT, GL_FALSE, stride, at(offsetof(SkinnedVertex, uv)));
  glEnableVertexAttribArray(3);
  glVertexAttribIPointer(3, 4, GL_UNSIGNED_SHORT, stride, at(offsetof(SkinnedVertex, joints)));
  glEnableVertexAttribArray(4);
  glVertexAttribPointer(4, 4, GL_FLOAT, GL_FALSE, stride, at(offsetof(SkinnedVertex, weights)));
  glBindVertexArray(0);

  if (!mesh.texture_rgba.empty()) {
    glGenTextures(1, &texture_);
    glBindTexture(GL_TEXTURE_2D, texture_);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, mesh.texture_width, mesh.texture_height, 0, GL_RGBA,
                 GL_UNSIGNED_BYTE, mesh.texture_rgba.data());
    glGenerateMipmap(GL_TEXTURE_2D);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  }
  vertex_count_ = mesh.vertices.size();
  index_count_ = mesh.indices.size();
  base_color_ = mesh.base_color;
  palette_offset_ = mesh.palette_offset;
}

void SkinnedMesh::Draw(unsigned program) const {
  BindMaterial(program);
  glBindVertexArray(vao_);
  glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(index_count_), GL_UNSIGNED_INT, nullptr);
  glBindVertexArray(0);
}

void SkinnedMesh::BindMaterial(unsigned program) const {
  glUniform4fv(glGetUniformLocation(program, "u_base_color"), 1, glm::value_ptr(base_color_));
  glUniform1i(glGetUniformLocation(program, "u_palette_offset"), palette_offset_);
  glUniform1i(glGetUniformLocation(program, "u_has_texture"), texture_ != 0 ? 1 : 0);
  glActiveTexture(GL_TEXTURE1);
  glBindTexture(GL_TEXTURE_2D, texture_);
}

void SkinnedMesh::DrawPoints() const {
  glBindVertexArray(vao_);
  glDrawArrays(GL_POINTS, 0, static_cast<GLsizei>(vertex_count_));
  glBindVertexArray(0);
}

}  // namespace ikpose::render
