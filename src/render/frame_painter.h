// One frame of the viewport, as GL calls: where it is drawn (the multisampled target, or
// straight to the window for the very first frame), the clear, the floor and overlay lines, the
// skinned model, and a GPU timer around it all.
//
// What: Begin() binds and clears; draw the model (ModelRenderer) and lines between Begin and
// End; anything else GL (the ImGui backend) may draw before End(), which resolves the target
// and copies it to the window. `gpu_ms` is the previous frame's GPU time.
// Why: the app host stays free of raw GL; window and `ikpose render` draw the same pixels.
// Limits: one GL context; Init after it is current.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "anim/debug_draw.h"
#include "render/line_renderer.h"
#include "render/render_target.h"

namespace ikpose::render {

class FramePainter {
 public:
  FramePainter() = default;
  ~FramePainter();
  FramePainter(const FramePainter&) = delete;
  FramePainter& operator=(const FramePainter&) = delete;

  bool Init(const std::filesystem::path& shader_dir, std::string* error);
  // `direct`: into the window's framebuffer without multisampling (the first frame on a
  // software rasteriser, where allocating the multisampled target costs ~200 ms).
  // `transparent`: cleared to alpha 0, so what is not drawn stays see-through (a picture).
  void Begin(int width, int height, bool direct, bool transparent = false);
  void DrawLines(const anim::DebugDraw& lines, const glm::mat4& view_proj, bool on_top);
  // A small view inside the frame (pixels from the bottom-left corner), on a darker background
  // with its own depth: draw into it between BeginInset and EndInset, which returns to the
  // whole frame.
  void BeginInset(int x, int y, int width, int height);
  void EndInset();
  void End();

  float gpu_ms() const { return gpu_ms_; }
  // The last frame drawn into the target, RGBA8 top row first.
  std::vector<std::uint8_t> ReadRgba() const { return target_.ReadRgba(); }
  int width() const { return target_.width(); }
  int height() const { return target_.height(); }

 private:
  RenderTarget target_;
  LineRenderer lines_;
  unsigned timer_ = 0;
  bool timer_pending_ = false;
  bool direct_ = false;
  int width_ = 0;
  int height_ = 0;
  float gpu_ms_ = 0.0f;
};

}  // namespace ikpose::render
