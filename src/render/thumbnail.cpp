#include "render/thumbnail.h"

#include <glad/gl.h>

namespace ikpose::render {

std::vector<std::uint8_t> ThumbnailPainter::Paint(int size, const std::function<void()>& draw) {
  target_.Resize(size, size, 4);
  target_.Bind();
  glClearColor(0.18f, 0.20f, 0.23f, 1.0f);  // the viewport's background
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  draw();
  target_.Resolve();
  return target_.ReadRgba();
}

ImageTexture::ImageTexture(const RgbaImage& image) {
  glGenTextures(1, &id_);
  glBindTexture(GL_TEXTURE_2D, id_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, image.width, image.height, 0, GL_RGBA, GL_UNSIGNED_BYTE,
               image.rgba.data());
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glBindTexture(GL_TEXTURE_2D, 0);
}

ImageTexture::~ImageTexture() {
  if (id_ != 0) glDeleteTextures(1, &id_);
}

}  // namespace ikpose::render
