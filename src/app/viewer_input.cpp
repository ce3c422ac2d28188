// Mouse and keys in the viewer, after ImGui has had the event: a left drag on a target or pole
// moves it (X/Y/Z hold an axis, Shift is fine), a left click on a joint selects it, other left
// drags orbit, right or middle drags pan, the wheel zooms; keys give the same commands as the
// panel's buttons.
#include <cmath>

#include <imgui.h>

#include "app/viewer_state.h"
#include "scene/overlays.h"

namespace ikpose::app {

namespace {

Ray MouseRay(const ViewerState& state, int x, int y) {
  int window_w = 0, window_h = 0, drawable_w = 0, drawable_h = 0;
  SDL_GetWindowSize(state.window->sdl_window(), &window_w, &window_h);
  state.window->DrawableSize(&drawable_w, &drawable_h);
  const float w = static_cast<float>(std::max(drawable_w, 1));
  const float h = static_cast<float>(std::max(drawable_h, 1));
  return state.camera.PixelRay(
      static_cast<float>(x) * w / static_cast<float>(std::max(window_w, 1)),
      static_cast<float>(y) * h / static_cast<float>(std::max(window_h, 1)), w, h);
}

// Left button down: a target or pole handle, else a joint (selects it) and orbit.
void BeginLeftDrag(ViewerState& state, int x, int y) {
  const Ray ray = MouseRay(state, x, y);
  const float handle = scene::PickRadius(state.loaded.height);
  if (state.drag.Begin(ray, *state.loaded.session, handle)) {
    state.mouse = MouseMode::kHandle;
    return;
  }
  const int joint =
      PickJoint(ray, state.loaded.model->skeleton, state.loaded.session->pose(), handle * 0.5f);
  if (joint >= 0) state.panel.selected_bone = joint;
  state.mouse = MouseMode::kOrbit;
}

void MouseMoved(ViewerState& state, const SDL_MouseMotionEvent& motion) {
  int drawable_w = 0, drawable_h = 0;
  state.window->DrawableSize(&drawable_w, &drawable_h);
  const float height = static_cast<float>(std::max(drawable_h, 1));
  const float dx = static_cast<float>(motion.xrel), dy = static_cast<float>(motion.yrel);
  if (state.mouse == MouseMode::kOrbit) state.camera.Orbit(-0.4f * dx, 0.4f * dy);
  if (state.mouse == MouseMode::kPan) state.camera.Pan(dx / height, dy / height);
  if (state.mouse != MouseMode::kHandle) return;
  const Uint8* keys = SDL_GetKeyboardState(nullptr);
  DragModifiers modifiers;
  modifiers.axis = keys[SDL_SCANCODE_X]   ? 0
                   : keys[SDL_SCANCODE_Y] ? 1
                   : keys[SDL_SCANCODE_Z] ? 2
                                          : -1;
  modifiers.fine = (SDL_GetModState() & KMOD_SHIFT) != 0;
  state.drag.Update(MouseRay(state, motion.x, motion.y), modifiers, *state.loaded.session);
}

// Keys that are commands (the panel's buttons do the same), else camera keys.
void KeyDown(ViewerState& state, const SDL_Keysym& key) {
  const bool ctrl = (key.mod & KMOD_CTRL) != 0;
  const bool shift = (key.mod & KMOD_SHIFT) != 0;
  std::vector<ui::Command>& commands = state.panel.commands;
  OrbitCamera& camera = state.camera;
  if (ctrl && key.sym == SDLK_z)
    return commands.push_back(shift ? ui::Command::kRedo : ui::Command::kUndo);
  if (ctrl && key.sym == SDLK_y) return commands.push_back(ui::Command::kRedo);
  // The views as Blender's numpad; the digits above the letters do the same (laptops).
  switch (key.sym) {
    case SDLK_KP_1:
    case SDLK_1:
      return commands.push_back(ctrl ? ui::Command::kViewBack : ui::Command::kViewFront);
    case SDLK_KP_3:
    case SDLK_3:
      return commands.push_back(ctrl ? ui::Command::kViewLeft : ui::Command::kViewRight);
    case SDLK_KP_7:
    case SDLK_7:
      return commands.push_back(ctrl ? ui::Command::kViewBottom : ui::Command::kViewTop);
    case SDLK_KP_5:
    case SDLK_5:
      return commands.push_back(ui::Command::kToggleOrthographic);
    case SDLK_KP_0:
    case SDLK_0:
      state.panel.corner_view = !state.panel.corner_view;
      return;
    default:
      break;
  }
  switch (key.sym) {
    case SDLK_f:
      return commands.push_back(ui::Command::kFrameModel);
    case SDLK_r:
      return commands.push_back(ui::Command::kResetView);
    case SDLK_e:
      return commands.push_back(ui::Command::kExportPose);
    case SDLK_ESCAPE:
      return commands.push_back(ui::Command::kQuit);
    case SDLK_LEFT:
      return camera.Orbit(-5.0f, 0.0f);
    case SDLK_RIGHT:
      return camera.Orbit(5.0f, 0.0f);
    case SDLK_UP:
      return camera.Orbit(0.0f, 5.0f);
    case SDLK_DOWN:
      return camera.Orbit(0.0f, -5.0f);
    case SDLK_EQUALS:
    case SDLK_PLUS:
    case SDLK_KP_PLUS:
      return camera.Zoom(0.9f);
    case SDLK_MINUS:
    case SDLK_KP_MINUS:
      return camera.Zoom(1.0f / 0.9f);
    default:
      return;
  }
}

}  // namespace

void HandleInput(ViewerState& state, const SDL_Event& event) {
  const ImGuiIO& io = ImGui::GetIO();
  switch (event.type) {
    case SDL_MOUSEBUTTONDOWN:
      if (io.WantCaptureMouse) break;
      if (event.button.button == SDL_BUTTON_LEFT) {
        BeginLeftDrag(state, event.button.x, event.button.y);
      } else {
        state.mouse = MouseMode::kPan;
      }
      break;
    case SDL_MOUSEBUTTONUP:
      if (state.drag.active()) {
        state.drag.End();
        state.history.Commit(*state.loaded.session);  // the whole drag is one step
      }
      state.mouse = MouseMode::kNone;
      break;
    case SDL_MOUSEMOTION:
      MouseMoved(state, event.motion);
      break;
    case SDL_MOUSEWHEEL:
      if (!io.WantCaptureMouse)
        state.camera.Zoom(std::pow(0.9f, static_cast<float>(event.wheel.y)));
      break;
    case SDL_KEYDOWN:
      if (!io.WantCaptureKeyboard) KeyDown(state, event.key.keysym);
      break;
    default:
      break;
  }
}

}  // namespace ikpose::app
