// The framebuffer every frame is drawn into, on screen and headless alike: a multisampled
// colour + depth target resolved into a single-sample texture. The window shows the resolved
// image and `ikpose render` reads it back, so both paths draw exactly the same pixels.
#pragma once

#include <cstdint>
#include <vector>

namespace ikpose::render {

class RenderTarget {
 public:
  RenderTarget() = default;
  ~RenderTarget();
  RenderTarget(const RenderTarget&) = delete;
  RenderTarget& operator=(const RenderTarget&) = delete;

  // (Re)creates the buffers when the size or sample count changes. Samples are clamped to what
  // the driver allows.
  void Resize(int width, int height, int samples);
  // Binds the multisampled framebuffer and sets the viewport.
  void Bind() const;
  // Resolves the multisampled image into the single-sample texture.
  void Resolve() const;
  // Copies the resolved image to the window's default framebuffer.
  void BlitToScreen(int screen_width, int screen_height) const;
  // The resolved image as RGBA8, rows from top to bottom (as PNG files store them).
  std::vector<std::uint8_t> ReadRgba() const;

  int width() const { return width_; }
  int height() const { return height_; }
  int samples() const { return samples_; }

 private:
  void Release();

  int width_ = 0;
  int height_ = 0;
  int samples_ = 0;
  unsigned msaa_fbo_ = 0;
  unsigned msaa_color_ = 0;
  unsigned msaa_depth_ = 0;
  unsigned resolve_fbo_ = 0;
  unsigned resolve_color_ = 0;
};

}  // namespace ikpose::render
