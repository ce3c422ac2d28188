// An SDL2 window with an OpenGL 3.3 core context, on screen or through SDL's `offscreen`
// video driver (EGL, no X server) for headless rendering. Owns SDL's video subsystem.
#pragma once

#include <memory>
#include <string>

struct SDL_Window;

namespace ikpose::app {

struct WindowOptions {
  std::string title = "ikpose";
  int width = 1280;
  int height = 720;
  bool offscreen = false;  // SDL's offscreen driver: nothing on screen, same GL path
};

class GlWindow {
 public:
  // nullptr and a one-line reason in *error when no window or GL 3.3 context can be made.
  static std::unique_ptr<GlWindow> Open(const WindowOptions& options, std::string* error);
  ~GlWindow();
  GlWindow(const GlWindow&) = delete;
  GlWindow& operator=(const GlWindow&) = delete;

  SDL_Window* sdl_window() const { return window_; }
  void* gl_context() const { return context_; }
  // Size of the drawable in pixels (differs from the window size on high-DPI screens).
  void DrawableSize(int* width, int* height) const;
  void Swap() const;
  const std::string& renderer() const { return renderer_; }

 private:
  GlWindow() = default;
  SDL_Window* window_ = nullptr;
  void* context_ = nullptr;
  std::string renderer_;
};

}  // namespace ikpose::app
