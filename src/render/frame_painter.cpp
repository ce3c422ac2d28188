#include "render/frame_painter.h"

#include <glad/gl.h>

namespace ikpose::render {

namespace {

constexpr int kMsaaSamples = 4;

}  // namespace

FramePainter::~FramePainter() {
  if (timer_ != 0) glDeleteQueries(1, &timer_);
}

bool FramePainter::Init(const std::filesystem::path& shader_dir, std::string* error) {
  if (!lines_.Init(shader_dir, error)) return false;
  glGenQueries(1, &timer_);
  return true;
}

void FramePainter::Begin(int width, int height, bool direct, bool transparent) {
  direct_ = direct;
  width_ = width;
  height_ = height;
  if (timer_pending_) {  // the previous frame's query is done by now: no stall
    GLuint64 ns = 0;
    glGetQueryObjectui64v(timer_, GL_QUERY_RESULT, &ns);
    gpu_ms_ = static_cast<float>(ns) * 1e-6f;
  }
  glBeginQuery(GL_TIME_ELAPSED, timer_);
  if (direct) {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, width, height);
  } else {
    target_.Resize(width, height, kMsaaSamples);
    target_.Bind();
  }
  if (transparent) {
    glClearColor(0.0f, 0.0f, 0.0f, 0.0f);
  } else {
    glClearColor(0.18f, 0.20f, 0.23f, 1.0f);
  }
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
}

void FramePainter::DrawLines(const anim::DebugDraw& lines, const glm::mat4& view_proj,
                             bool on_top) {
  lines_.Draw(lines, view_proj, on_top);
}

void FramePainter::BeginInset(int x, int y, int width, int height) {
  glViewport(x, y, width, height);
  glEnable(GL_SCISSOR_TEST);  // the clears and anything drawn stay inside
  glScissor(x, y, width, height);
  glClearColor(0.11f, 0.12f, 0.14f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
}

void FramePainter::EndInset() {
  glDisable(GL_SCISSOR_TEST);
  glViewport(0, 0, width_, height_);
}

void FramePainter::End() {
  glEndQuery(GL_TIME_ELAPSED);
  timer_pending_ = true;
  if (!direct_) {
    target_.Resolve();
    target_.BlitToScreen(width_, height_);
  }
}

}  // namespace ikpose::render
