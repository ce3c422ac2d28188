#include "app/viewer.h"

#include <SDL.h>
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>
#include <glad/gl.h>
#include <imgui.h>

#include <chrono>
#include <iostream>
#include <memory>

#include "app/gl_window.h"
#include "render/png_file.h"
#include "render/render_target.h"
#include "ui/panel.h"

namespace ikpose::app {

namespace {

constexpr int kMsaaSamples = 4;

struct ViewerState {
  ViewerOptions options;
  std::unique_ptr<GlWindow> window;
  render::RenderTarget target;
  ui::PanelInfo panel;
  bool running = true;
  bool imgui_ready = false;
};

bool Init(ViewerState& state, std::string* error) {
  WindowOptions window_options;
  window_options.width = state.options.width;
  window_options.height = state.options.height;
  window_options.offscreen = state.options.offscreen;
  window_options.title = "ikpose";
  state.window = GlWindow::Open(window_options, error);
  if (!state.window) return false;
  state.panel.renderer = state.window->renderer();

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini dropped into the user's folder
  ImGui::StyleColorsDark();
  ImGui_ImplSDL2_InitForOpenGL(state.window->sdl_window(), state.window->gl_context());
  ImGui_ImplOpenGL3_Init("#version 330 core");
  state.imgui_ready = true;
  return true;
}

// Input goes to ImGui first; what it does not want goes to the viewer.
void HandleEvent(ViewerState& state, const SDL_Event& event) {
  ImGui_ImplSDL2_ProcessEvent(&event);
  switch (event.type) {
    case SDL_QUIT:
      state.running = false;
      break;
    case SDL_WINDOWEVENT:
      if (event.window.event == SDL_WINDOWEVENT_CLOSE &&
          event.window.windowID == SDL_GetWindowID(state.window->sdl_window())) {
        state.running = false;
      }
      break;
    default:
      break;
  }
}

void Frame(ViewerState& state) {
  const auto start = std::chrono::steady_clock::now();
  int width = 0;
  int height = 0;
  state.window->DrawableSize(&width, &height);
  state.target.Resize(width, height, kMsaaSamples);

  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplSDL2_NewFrame();
  ImGui::NewFrame();
  ui::DrawMainPanel(state.panel);
  ImGui::Render();

  state.target.Bind();
  glClearColor(0.18f, 0.20f, 0.23f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  state.target.Resolve();
  state.target.BlitToScreen(width, height);

  const auto end = std::chrono::steady_clock::now();
  state.panel.frame_ms_cpu = std::chrono::duration<float, std::milli>(end - start).count();
}

void Cleanup(ViewerState& state) {
  if (state.imgui_ready) {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
  }
  state.window.reset();
}

}  // namespace

int RunViewer(const ViewerOptions& options) {
  ViewerState state;
  state.options = options;
  std::string error;
  if (!Init(state, &error)) {
    std::cerr << "ikpose: error: " << error << "\n";
    Cleanup(state);
    return 1;
  }
  int exit_code = 0;
  if (options.offscreen) {
    // Two frames: ImGui sizes its windows from the first one.
    for (int i = 0; i < 2; ++i) Frame(state);
    if (!render::WritePngAtomically(options.screenshot_path, state.target.width(),
                                    state.target.height(), state.target.ReadRgba(), &error)) {
      std::cerr << "ikpose: error: " << error << "\n";
      exit_code = 1;
    }
  } else {
    while (state.running) {
      SDL_Event event;
      while (SDL_PollEvent(&event)) HandleEvent(state, event);
      if (!state.running) break;
      Frame(state);
      state.window->Swap();
    }
  }
  Cleanup(state);
  return exit_code;
}

}  // namespace ikpose::app
