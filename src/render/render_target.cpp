#include "render/render_target.h"

#include <glad/gl.h>

#include <algorithm>
#include <cstring>

namespace ikpose::render {

RenderTarget::~RenderTarget() {
  Release();
}

void RenderTarget::Release() {
  if (msaa_fbo_ != 0) glDeleteFramebuffers(1, &msaa_fbo_);
  if (resolve_fbo_ != 0) glDeleteFramebuffers(1, &resolve_fbo_);
  if (msaa_color_ != 0) glDeleteRenderbuffers(1, &msaa_color_);
  if (msaa_depth_ != 0) glDeleteRenderbuffers(1, &msaa_depth_);
  if (resolve_color_ != 0) glDeleteTextures(1, &resolve_color_);
  msaa_fbo_ = resolve_fbo_ = msaa_color_ = msaa_depth_ = resolve_color_ = 0;
}

void RenderTarget::Resize(int width, int height, int samples) {
  width = std::max(width, 1);
  height = std::max(height, 1);
  GLint max_samples = 0;
  glGetIntegerv(GL_MAX_SAMPLES, &max_samples);
  samples = std::clamp(samples, 1, std::max(1, static_cast<int>(max_samples)));
  if (width == width_ && height == height_ && samples == samples_ && msaa_fbo_ != 0) return;
  Release();
  width_ = width;
  height_ = height;
  samples_ = samples;

  glGenRenderbuffers(1, &msaa_color_);
  glBindRenderbuffer(GL_RENDERBUFFER, msaa_color_);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples_, GL_RGBA8, width_, height_);
  glGenRenderbuffers(1, &msaa_depth_);
  glBindRenderbuffer(GL_RENDERBUFFER, msaa_depth_);
  glRenderbufferStorageMultisample(GL_RENDERBUFFER, samples_, GL_DEPTH24_STENCIL8, width_, height_);
  glGenFramebuffers(1, &msaa_fbo_);
  glBindFramebuffer(GL_FRAMEBUFFER, msaa_fbo_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, msaa_color_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER,
                            msaa_depth_);

  glGenTextures(1, &resolve_color_);
  glBindTexture(GL_TEXTURE_2D, resolve_color_);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width_, height_, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glGenFramebuffers(1, &resolve_fbo_);
  glBindFramebuffer(GL_FRAMEBUFFER, resolve_fbo_);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, resolve_color_, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

void RenderTarget::Bind() const {
  glBindFramebuffer(GL_FRAMEBUFFER, msaa_fbo_);
  glViewport(0, 0, width_, height_);
}

void RenderTarget::Resolve() const {
  glBindFramebuffer(GL_READ_FRAMEBUFFER, msaa_fbo_);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, resolve_fbo_);
  glBlitFramebuffer(0, 0, width_, height_, 0, 0, width_, height_, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

void RenderTarget::BlitToScreen(int screen_width, int screen_height) const {
  glBindFramebuffer(GL_READ_FRAMEBUFFER, resolve_fbo_);
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
  glBlitFramebuffer(0, 0, width_, height_, 0, 0, screen_width, screen_height, GL_COLOR_BUFFER_BIT,
                    GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

std::vector<std::uint8_t> RenderTarget::ReadRgba() const {
  const std::size_t row = static_cast<std::size_t>(width_) * 4;
  std::vector<std::uint8_t> bottom_up(row * static_cast<std::size_t>(height_));
  glBindFramebuffer(GL_READ_FRAMEBUFFER, resolve_fbo_);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, bottom_up.data());
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  // GL's first row is the bottom one; images on disk start at the top.
  std::vector<std::uint8_t> top_down(bottom_up.size());
  for (int y = 0; y < height_; ++y) {
    std::memcpy(&top_down[static_cast<std::size_t>(y) * row],
                &bottom_up[static_cast<std::size_t>(height_ - 1 - y) * row], row);
  }
  return top_down;
}

}  // namespace ikpose::render
