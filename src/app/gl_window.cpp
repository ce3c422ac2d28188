#include "app/gl_window.h"

#include <SDL.h>

#include "render/gl_loader.h"

namespace ikpose::app {

std::unique_ptr<GlWindow> GlWindow::Open(const WindowOptions& options, std::string* error) {
  if (options.offscreen) SDL_SetHint(SDL_HINT_VIDEODRIVER, "offscreen");
  if (SDL_InitSubSystem(SDL_INIT_VIDEO | SDL_INIT_EVENTS) != 0) {
    *error = std::string("cannot start SDL video: ") + SDL_GetError();
    return nullptr;
  }
  std::unique_ptr<GlWindow> self(new GlWindow());
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 3);
  SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
  SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
  SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
  Uint32 flags = SDL_WINDOW_OPENGL | SDL_WINDOW_ALLOW_HIGHDPI;
  if (!options.offscreen) flags |= SDL_WINDOW_RESIZABLE;
  self->window_ = SDL_CreateWindow(options.title.c_str(), SDL_WINDOWPOS_CENTERED,
                                   SDL_WINDOWPOS_CENTERED, options.width, options.height, flags);
  if (self->window_ == nullptr) {
    *error = std::string("cannot open a window: ") + SDL_GetError();
    return nullptr;
  }
  self->context_ = SDL_GL_CreateContext(self->window_);
  if (self->context_ == nullptr) {
    *error = std::string("cannot create an OpenGL 3.3 core context: ") + SDL_GetError();
    return nullptr;
  }
  SDL_GL_MakeCurrent(self->window_, self->context_);
  SDL_GL_SetSwapInterval(options.offscreen ? 0 : 1);
  render::GlInfo info;
  if (!render::LoadGl(reinterpret_cast<render::GlProcLoader>(&SDL_GL_GetProcAddress), &info,
                      error)) {
    return nullptr;
  }
  self->renderer_ = info.renderer + " (GL " + info.version + ")";
  return self;
}

GlWindow::~GlWindow() {
  if (context_ != nullptr) SDL_GL_DeleteContext(context_);
  if (window_ != nullptr) SDL_DestroyWindow(window_);
  SDL_QuitSubSystem(SDL_INIT_VIDEO | SDL_INIT_EVENTS);
}

void GlWindow::DrawableSize(int* width, int* height) const {
  SDL_GL_GetDrawableSize(window_, width, height);
}

void GlWindow::Swap() const {
  SDL_GL_SwapWindow(window_);
}

}  // namespace ikpose::app
