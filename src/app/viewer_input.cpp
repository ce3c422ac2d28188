// Mouse and keys in the viewer, after ImGui has had the event: a left drag on a target or pole
// moves it (X/Y/Z hold an axis, Shift is fine); on a ring of the selected bone turns the bone
// (Ctrl snaps to 5 degrees); on the selected prop's turn ring turns the prop about the vertical
// (Ctrl snaps too); on the body selects the bone under the cursor and drags it (a
// hand, forearm, foot or shin moves its limb's target, the pelvis the body, any other bone
// turns); a left click on a joint selects it, other left drags orbit, right or middle drags
// pan, the wheel zooms; hovering names the bone a click would take; keys give the same
// commands as the panel's buttons. Esc and a right click cancel what is held (a drag, a ring
// turn, G/R/S) and never quit; Ctrl+Q quits (asking first when there are unsaved edits).
#include <cmath>
#include <limits>
#include <optional>

#include <imgui.h>
#include <imgui_internal.h>  // the windows drawn last frame: ImGuiTakesMouse

#include "app/viewer_state.h"
#include "scene/view/overlays.h"
#include "ui/props_panel.h"

namespace ikpose::app {

namespace {

// Whether ImGui takes a mouse event at window pixel (x, y): an item held (a slider dragged), a
// popup open, or the point over one of its windows as drawn last frame. io.WantCaptureMouse
// says that for where the mouse was at the last frame: on a slow frame, a click that arrives in
// the same batch of events as the move that brought the mouse off the panel would go to the
// panel, and the click on the body would be lost.
bool ImGuiTakesMouse(int x, int y) {
  if (ImGui::IsAnyItemActive() || ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId)) return true;
  const ImVec2 p(static_cast<float>(x), static_cast<float>(y));
  for (const ImGuiWindow* window : ImGui::GetCurrentContext()->Windows) {
    if (!window->Active || window->Hidden || (window->Flags & ImGuiWindowFlags_NoMouseInputs))
      continue;
    if (window->Rect().Contains(p)) return true;
  }
  return false;
}

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

// The body under the cursor, skinned in the current pose.
scene::SurfaceHit PickSurface(ViewerState& state, const Ray& ray) {
  state.picker.Update(*state.loaded.model, state.loaded.session->pose());
  return state.picker.Pick(*state.loaded.model, ray.origin_ms, ray.direction_ms);
}

// Whether the ray's first prop is the one selected in the Props section.
bool OnSelectedProp(const ViewerState& state, const Ray& ray) {
  const std::shared_ptr<const scene::World>& world = state.loaded.session->edits.world;
  if (!world) return false;
  const std::optional<scene::RayHit> hit =
      world->bvh().Cast(ray.origin_ms, ray.direction_ms, 1e30f);
  return hit && world->PropOfTriangle(hit->triangle) == state.panel.props.selected;
}

// What a click would take: a handle wins over the body (-1), else the body's bone.
int HoveredBone(ViewerState& state, const Ray& ray) {
  TargetDrag probe;
  const float handle = scene::PickRadius(state.loaded.height);
  if (probe.Begin(ray, *state.loaded.session, handle)) return -1;
  RingDrag ring;
  if (state.panel.selected_bone >= 0 &&
      ring.Begin(ray, *state.loaded.session, state.panel.selected_bone, state.panel.ring_local_axes,
                 RingViewDir(state), RingRadius(state), 0.5f * handle)) {
    state.hover_ring = static_cast<int>(ring.axis());
    return -1;
  }
  if (const PropRing* prop_ring = SelectedPropRing(state);
      prop_ring && !OnSelectedProp(state, ray)) {
    if (RayNearRing(ray, *prop_ring, 0.5f * handle)) {
      state.hover_prop_ring = true;
      return -1;
    }
  }
  return PickSurface(state, ray).bone;
}

// A press on the selected prop's turn ring starts turning it (one on the prop itself, where the
// ring passes in front of it or behind it on screen, moves the prop instead).
bool BeginPropTurn(ViewerState& state, const Ray& ray, float tolerance) {
  const PropRing* ring = SelectedPropRing(state);
  if (ring == nullptr || OnSelectedProp(state, ray)) return false;
  const int prop = state.panel.props.selected;
  const float yaw_deg =
      state.loaded.session->edits.world->props()[static_cast<std::size_t>(prop)].placement.yaw_deg;
  if (!state.prop_turn.Begin(ray, prop, *ring, yaw_deg, tolerance)) return false;
  state.mouse = MouseMode::kPropTurn;
  return true;
}

// The turned prop at the yaw the cursor's sweep round its ring gives.
void TurnProp(ViewerState& state, const Ray& ray) {
  scene::PosingSession& session = *state.loaded.session;
  const int prop = state.prop_turn.prop();
  const bool snap = (SDL_GetModState() & KMOD_CTRL) != 0;
  const std::optional<float> yaw_deg = state.prop_turn.Update(ray, snap);
  if (!yaw_deg || !session.edits.world || prop < 0 ||
      prop >= static_cast<int>(session.edits.world->props().size())) {
    return;
  }
  scene::PropPlacement placed =
      session.edits.world->props()[static_cast<std::size_t>(prop)].placement;
  if (placed.yaw_deg == *yaw_deg) return;
  placed.yaw_deg = *yaw_deg;
  std::string error;
  if (!ui::ReplaceProp(session, prop, &placed, &error)) state.panel.status = error;
}

// A click on a prop nearer than `nearer_than` (the body's surface under the cursor) selects it
// in the Props section and starts sliding it over the floor.
bool BeginPropDrag(ViewerState& state, const Ray& ray, float nearer_than) {
  const scene::PosingSession& session = *state.loaded.session;
  if (!session.edits.world) return false;
  const std::optional<scene::RayHit> hit =
      session.edits.world->bvh().Cast(ray.origin_ms, ray.direction_ms, 1e30f);
  if (!hit || glm::length(hit->point_ms - ray.origin_ms) >= nearer_than) return false;
  const int prop = session.edits.world->PropOfTriangle(hit->triangle);
  if (prop < 0) return false;
  state.panel.props.selected = prop;
  state.prop_drag.prop = prop;
  state.prop_drag.plane_y_ms = hit->point_ms.y;
  state.prop_drag.grab_to_origin_ms =
      session.edits.world->props()[static_cast<std::size_t>(prop)].placement.position_ms -
      hit->point_ms;
  state.mouse = MouseMode::kProp;
  return true;
}

// The dragged prop under the cursor: where the ray meets the grabbed point's level.
void DragProp(ViewerState& state, const Ray& ray) {
  scene::PosingSession& session = *state.loaded.session;
  const PropDrag& drag = state.prop_drag;
  if (!session.edits.world || drag.prop < 0 ||
      drag.prop >= static_cast<int>(session.edits.world->props().size()) ||
      std::abs(ray.direction_ms.y) < 1e-6f) {
    return;
  }
  const float t = (drag.plane_y_ms - ray.origin_ms.y) / ray.direction_ms.y;
  if (!(t > 0.0f)) return;  // the plane is behind the eye
  const glm::vec3 point = ray.origin_ms + t * ray.direction_ms;
  scene::PropPlacement placed =
      session.edits.world->props()[static_cast<std::size_t>(drag.prop)].placement;
  placed.position_ms.x = point.x + drag.grab_to_origin_ms.x;
  placed.position_ms.z = point.z + drag.grab_to_origin_ms.z;
  std::string error;
  if (!ui::ReplaceProp(session, drag.prop, &placed, &error)) state.panel.status = error;
}

// Left button down: a target or pole handle, else a ring of the selected bone, else the body
// (selects the bone and drags it), else a joint (selects it) and orbit.
void BeginLeftDrag(ViewerState& state, int x, int y) {
  const Ray ray = MouseRay(state, x, y);
  const float handle = scene::PickRadius(state.loaded.height);
  scene::PosingSession& session = *state.loaded.session;
  state.gesture_start = scene::CaptureSnapshot(session);
  if (state.drag.Begin(ray, session, handle, state.camera.Forward())) {
    state.mouse = MouseMode::kHandle;
    return;
  }
  if (state.panel.selected_bone >= 0 &&
      state.ring_drag.Begin(ray, session, state.panel.selected_bone, state.panel.ring_local_axes,
                            RingViewDir(state), RingRadius(state), 0.5f * handle)) {
    state.mouse = MouseMode::kRing;
    return;
  }
  if (BeginPropTurn(state, ray, 0.5f * handle)) return;
  const scene::SurfaceHit hit = PickSurface(state, ray);
  const float body_distance =
      hit.hit ? glm::length(hit.point_ms - ray.origin_ms) : std::numeric_limits<float>::max();
  if (BeginPropDrag(state, ray, body_distance)) return;
  if (hit.bone >= 0) {
    state.panel.selected_bone = hit.bone;
    if (state.drag.BeginOnSurface(ray, session, hit, state.camera.Forward())) {
      state.mouse = MouseMode::kHandle;
      return;
    }
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
  if (state.transform.active()) {
    TransformMouse(state, glm::vec2(static_cast<float>(motion.x), static_cast<float>(motion.y)));
    return;
  }
  if (state.mouse == MouseMode::kNone) {
    state.hover_ring = -1;
    state.hover_prop_ring = false;
    state.hover_bone = HoveredBone(state, MouseRay(state, motion.x, motion.y));
    state.hover_px = glm::vec2(static_cast<float>(motion.x), static_cast<float>(motion.y));
    return;
  }
  if (state.mouse == MouseMode::kRing) {
    const bool snap = (SDL_GetModState() & KMOD_CTRL) != 0;
    state.ring_drag.Update(MouseRay(state, motion.x, motion.y), snap, *state.loaded.session);
    return;
  }
  if (state.mouse == MouseMode::kProp) {
    DragProp(state, MouseRay(state, motion.x, motion.y));
    return;
  }
  if (state.mouse == MouseMode::kPropTurn) {
    TurnProp(state, MouseRay(state, motion.x, motion.y));
    return;
  }
  if (state.mouse != MouseMode::kHandle) return;
  const Uint8* keys = SDL_GetKeyboardState(nullptr);
  DragModifiers modifiers;
  modifiers.axis = keys[SDL_SCANCODE_X]   ? 0
                   : keys[SDL_SCANCODE_Y] ? 1
                   : keys[SDL_SCANCODE_Z] ? 2
                                          : -1;
  modifiers.fine = (SDL_GetModState() & KMOD_SHIFT) != 0;
  state.drag_axis = modifiers.axis;
  state.drag.Update(MouseRay(state, motion.x, motion.y), modifiers, *state.loaded.session);
}

// Keys that are commands (the panel's buttons do the same), else camera keys.
void KeyDown(ViewerState& state, const SDL_Keysym& key) {
  const bool ctrl = (key.mod & KMOD_CTRL) != 0;
  const bool shift = (key.mod & KMOD_SHIFT) != 0;
  std::vector<ui::Command>& commands = state.panel.commands;
  OrbitCamera& camera = state.camera;
  using ui::ViewSide;
  namespace cmd = ui::cmd;
  if (ctrl && key.sym == SDLK_z) {
    if (shift) return commands.push_back(cmd::Redo{});
    return commands.push_back(cmd::Undo{});
  }
  if (ctrl && key.sym == SDLK_y) return commands.push_back(cmd::Redo{});
  if (ctrl && key.sym == SDLK_b) return commands.push_back(ui::BakeCommand(state.panel.bake));
  if (ctrl && key.sym == SDLK_q) return commands.push_back(cmd::Quit{});
  // The views as Blender's numpad; the digits above the letters do the same (laptops).
  switch (key.sym) {
    case SDLK_KP_1:
    case SDLK_1:
      return commands.push_back(cmd::LookFrom{ctrl ? ViewSide::kBack : ViewSide::kFront});
    case SDLK_KP_3:
    case SDLK_3:
      return commands.push_back(cmd::LookFrom{ctrl ? ViewSide::kLeft : ViewSide::kRight});
    case SDLK_KP_7:
    case SDLK_7:
      return commands.push_back(cmd::LookFrom{ctrl ? ViewSide::kBottom : ViewSide::kTop});
    case SDLK_KP_5:
    case SDLK_5:
      return commands.push_back(cmd::ToggleOrthographic{});
    case SDLK_KP_0:
    case SDLK_0:
      state.panel.corner_view = !state.panel.corner_view;
      return;
    default:
      break;
  }
  if (ctrl) return;  // Ctrl+letter is never the letter's command
  switch (key.sym) {
    case SDLK_f:
      return commands.push_back(cmd::FrameModel{});
    case SDLK_HOME:
      return commands.push_back(cmd::ResetView{});
    case SDLK_e:
      return commands.push_back(cmd::ExportPose{});
    case SDLK_g:
      BeginKeyTransform(state, KeyTransform::Kind::kGrab);
      return;
    case SDLK_r:
      BeginKeyTransform(state, KeyTransform::Kind::kRotate);
      return;
    case SDLK_s:
      BeginKeyTransform(state, KeyTransform::Kind::kScale);
      return;
    case SDLK_n:
      state.panel_hidden = !state.panel_hidden;
      return;
    case SDLK_u:  // where it will pop: the stability slice around the target
      state.panel.stability.shown = !state.panel.stability.shown;
      return;
    case SDLK_F12:
      return commands.push_back(ui::ScreenshotCommand(state.panel.picture));
    case SDLK_ESCAPE:
      // Cancels what is held (handled before this); with nothing held it does nothing: Esc
      // never quits, so a pose is never lost to it.
      return;
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

float RingRadius(const ViewerState& state) {
  return 2.5f * scene::PickRadius(state.loaded.height);
}

glm::vec3 RingViewDir(const ViewerState& state) {
  const int bone = state.panel.selected_bone;
  const anim::Pose& pose = state.loaded.session->pose();
  const glm::vec3 joint = bone >= 0 && bone < static_cast<int>(pose.models_ms.size())
                              ? anim::PositionMs(pose, bone)
                              : state.camera.focus_ms;
  const glm::vec3 eye_to_joint = state.camera.orthographic
                                     ? state.camera.focus_ms - state.camera.Eye()
                                     : joint - state.camera.Eye();
  return glm::normalize(eye_to_joint);
}

void HandleInput(ViewerState& state, const SDL_Event& event) {
  const ImGuiIO& io = ImGui::GetIO();
  // The quit question takes its own keys: S saves and quits, D quits without saving, Esc stays.
  if (state.safety.quit_asked) {
    if (event.type != SDL_KEYDOWN) return;
    const SDL_Keycode sym = event.key.keysym.sym;
    using ui::QuitAnswer;
    std::vector<ui::Command>& commands = state.panel.commands;
    if (sym == SDLK_s) commands.push_back(ui::cmd::AnswerQuit{QuitAnswer::kSaveAndQuit});
    if (sym == SDLK_d) commands.push_back(ui::cmd::AnswerQuit{QuitAnswer::kQuitWithoutSaving});
    if (sym == SDLK_ESCAPE) commands.push_back(ui::cmd::AnswerQuit{QuitAnswer::kStayOpen});
    return;
  }
  // G/R/S held: the mouse moves it, a left click applies, a right click cancels, keys shape it.
  if (state.transform.active()) {
    if (event.type == SDL_MOUSEBUTTONDOWN)
      EndKeyTransform(state, event.button.button == SDL_BUTTON_LEFT);
    if (event.type == SDL_KEYDOWN) TransformKey(state, event.key.keysym);
    if (event.type == SDL_MOUSEMOTION) MouseMoved(state, event.motion);
    return;
  }
  // Esc or a right click while a handle or ring is dragged puts everything back.
  const bool dragging = state.mouse == MouseMode::kHandle || state.mouse == MouseMode::kRing ||
                        state.mouse == MouseMode::kProp || state.mouse == MouseMode::kPropTurn;
  if (dragging &&
      ((event.type == SDL_KEYDOWN && event.key.keysym.sym == SDLK_ESCAPE) ||
       (event.type == SDL_MOUSEBUTTONDOWN && event.button.button == SDL_BUTTON_RIGHT))) {
    CancelGesture(state);  // the buttons' releases then end nothing
    return;
  }
  switch (event.type) {
    case SDL_MOUSEBUTTONDOWN:
      if (ImGuiTakesMouse(event.button.x, event.button.y)) break;
      state.hover_bone = -1;
      if (event.button.button == SDL_BUTTON_LEFT) {
        BeginLeftDrag(state, event.button.x, event.button.y);
      } else {
        state.mouse = MouseMode::kPan;
      }
      break;
    case SDL_MOUSEBUTTONUP:
      state.drag_axis = -1;
      if (state.drag.active() || state.ring_drag.active()) {
        state.drag.End();
        state.ring_drag.End();
        state.history.Commit(*state.loaded.session);  // the whole drag is one step
      }
      if (state.mouse == MouseMode::kProp || state.mouse == MouseMode::kPropTurn) {
        state.prop_turn.End();
        state.history.Commit(*state.loaded.session);  // the whole drag is one step
      }
      state.mouse = MouseMode::kNone;
      break;
    case SDL_MOUSEMOTION:
      if (state.mouse == MouseMode::kNone && ImGuiTakesMouse(event.motion.x, event.motion.y)) {
        state.hover_bone = -1;  // over the panel: a click would not take the body
        break;
      }
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
