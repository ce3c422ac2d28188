// The skinning palette on the GPU: a texture buffer of RGBA32F texels, four per matrix, so the
// vertex shader can fetch any joint's matrix with no fixed bone limit (GL 3.3 guarantees at
// least 65,536 texels: 16,384 joints). All skins of a model share one buffer, each at an offset.
#pragma once

#include <span>

#include <glm/glm.hpp>

namespace ikpose::render {

class PaletteBuffer {
 public:
  PaletteBuffer() = default;
  ~PaletteBuffer();
  PaletteBuffer(const PaletteBuffer&) = delete;
  PaletteBuffer& operator=(const PaletteBuffer&) = delete;

  // Uploads the matrices (grows the buffer when needed).
  void Upload(std::span<const glm::mat4> palette);
  // Binds the buffer's texture to `unit` for the shader's samplerBuffer.
  void Bind(int unit) const;

 private:
  unsigned buffer_ = 0;
  unsigned texture_ = 0;
  std::size_t capacity_ = 0;  // matrices
};

}  // namespace ikpose::render
