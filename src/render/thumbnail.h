// Small pictures for the pose library: the model drawn into a square offscreen target and read
// back (the thumbnail saved beside a pose), and images uploaded as GL textures for the panel.
//
// Why here: the ui layer must not call GL; the app hands the panel the texture ids.
// Limits: one GL context; use after it is current. Paint leaves its own framebuffer bound (the
// next frame binds its own).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "render/png_file.h"
#include "render/render_target.h"

namespace ikpose::render {

class ThumbnailPainter {
 public:
  // Clears a `size` x `size` multisampled target to the viewport's colour, calls `draw` (which
  // draws with its own view-projection for a square image) and returns the image, RGBA8 top row
  // first.
  std::vector<std::uint8_t> Paint(int size, const std::function<void()>& draw);

 private:
  RenderTarget target_;
};

// An RGBA8 image as a GL texture (linear filtering, clamped).
class ImageTexture {
 public:
  explicit ImageTexture(const RgbaImage& image);
  ~ImageTexture();
  ImageTexture(const ImageTexture&) = delete;
  ImageTexture& operator=(const ImageTexture&) = delete;

  unsigned id() const { return id_; }

 private:
  unsigned id_ = 0;
};

}  // namespace ikpose::render
