#include "render/palette_buffer.h"

#include <glad/gl.h>

namespace ikpose::render {

PaletteBuffer::~PaletteBuffer() {
  if (texture_ != 0) glDeleteTextures(1, &texture_);
  if (buffer_ != 0) glDeleteBuffers(1, &buffer_);
}

void PaletteBuffer::Upload(std::span<const glm::mat4> palette) {
  if (buffer_ == 0) {
    glGenBuffers(1, &buffer_);
    glGenTextures(1, &texture_);
  }
  glBindBuffer(GL_TEXTURE_BUFFER, buffer_);
  const std::size_t count = palette.empty() ? 1 : palette.size();
  if (count > capacity_) {
    capacity_ = count;
    glBufferData(GL_TEXTURE_BUFFER, static_cast<GLsizeiptr>(capacity_ * sizeof(glm::mat4)), nullptr,
                 GL_DYNAMIC_DRAW);
    glBindTexture(GL_TEXTURE_BUFFER, texture_);
    glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, buffer_);
  }
  if (!palette.empty()) {
    glBufferSubData(GL_TEXTURE_BUFFER, 0,
                    static_cast<GLsizeiptr>(palette.size() * sizeof(glm::mat4)), palette.data());
  }
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
}

void PaletteBuffer::Bind(int unit) const {
  glActiveTexture(GL_TEXTURE0 + static_cast<GLenum>(unit));
  glBindTexture(GL_TEXTURE_BUFFER, texture_);
}

}  // namespace ikpose::render
