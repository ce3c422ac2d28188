// G / R / S as in Blender's pose mode, on the selected bone: G moves a hand's or foot's target
// (or the body, for the pelvis) by the mouse's move in the view plane, R turns the bone about
// the view axis by the angle the mouse sweeps around the joint (R again: as a trackball), S
// stretches or shortens a limb (its target's distance from the shoulder or hip) by the mouse's
// distance from that joint. X, Y, Z lock the model axis; a typed number gives the amount exactly
// (model units, degrees, a factor).
#include <cmath>
#include <cstdlib>

#include "app/viewer_state.h"

namespace ikpose::app {

namespace {

using Kind = KeyTransform::Kind;

// Drawable pixels per window pixel (they differ on HiDPI screens).
glm::vec2 PixelScale(const ViewerState& state) {
  int window_w = 0, window_h = 0, drawable_w = 0, drawable_h = 0;
  SDL_GetWindowSize(state.window->sdl_window(), &window_w, &window_h);
  state.window->DrawableSize(&drawable_w, &drawable_h);
  return {static_cast<float>(std::max(drawable_w, 1)) / static_cast<float>(std::max(window_w, 1)),
          static_cast<float>(std::max(drawable_h, 1)) / static_cast<float>(std::max(window_h, 1))};
}

glm::vec2 ToWindowPx(const ViewerState& state, const glm::vec3& point_ms) {
  int drawable_w = 0, drawable_h = 0;
  state.window->DrawableSize(&drawable_w, &drawable_h);
  const glm::vec3 p = state.camera.Project(point_ms, static_cast<float>(std::max(drawable_w, 1)),
                                           static_cast<float>(std::max(drawable_h, 1)));
  return glm::vec2(p) / PixelScale(state);
}

Ray WindowRay(const ViewerState& state, glm::vec2 window_px) {
  int drawable_w = 0, drawable_h = 0;
  state.window->DrawableSize(&drawable_w, &drawable_h);
  const glm::vec2 px = window_px * PixelScale(state);
  return state.camera.PixelRay(px.x, px.y, static_cast<float>(std::max(drawable_w, 1)),
                               static_cast<float>(std::max(drawable_h, 1)));
}

// The typed amount, if any was typed and it reads as a number.
bool Typed(const KeyTransform& t, float* value) {
  if (t.typed.empty() || t.typed == "-" || t.typed == ".") return false;
  char* end = nullptr;
  const float v = std::strtof(t.typed.c_str(), &end);
  if (end == t.typed.c_str() || !std::isfinite(v)) return false;
  *value = v;
  return true;
}

glm::vec3 AxisMs(int axis) {
  glm::vec3 a(0.0f);
  a[axis] = 1.0f;
  return a;
}

// Poses the session for the transform's present mouse, axis and typed amount, always from
// where it began (so changing the axis or the number replaces the previous result).
void Apply(ViewerState& state) {
  KeyTransform& t = state.transform;
  scene::PosingSession& session = *state.loaded.session;
  float typed = 0.0f;
  const bool has_typed = Typed(t, &typed);
  if (t.kind == Kind::kGrab) {
    if (has_typed) {
      state.drag.MoveBy(typed * AxisMs(t.axis < 0 ? 0 : t.axis), session);
    } else {
      DragModifiers modifiers;
      modifiers.axis = t.axis;
      // The handle moves as far as the mouse has, not to the mouse.
      state.drag.Update(WindowRay(state, t.pivot_px + (t.mouse_px - t.start_px)), modifiers,
                        session);
    }
  } else if (t.kind == Kind::kRotate) {
    glm::quat turn(1.0f, 0.0f, 0.0f, 0.0f);
    const glm::vec3 toward_eye = -state.camera.Forward();
    if (has_typed) {
      turn = glm::angleAxis(glm::radians(typed), t.axis < 0 ? toward_eye : AxisMs(t.axis));
    } else if (t.trackball) {
      const glm::vec2 d = t.mouse_px - t.start_px;
      const glm::vec3 up = state.camera.Up();
      const glm::vec3 right = glm::cross(state.camera.Forward(), up);
      turn = glm::angleAxis(0.01f * d.x, up) * glm::angleAxis(0.01f * d.y, right);
    } else {
      // Counter-clockwise on screen (pixel y points down) turns counter-clockwise as seen.
      const glm::vec2 a = t.start_px - t.pivot_px, b = t.mouse_px - t.pivot_px;
      if (glm::length(a) < 1.0f || glm::length(b) < 1.0f) return;
      const float angle = -(std::atan2(b.y, b.x) - std::atan2(a.y, a.x));
      glm::vec3 axis = t.axis < 0 ? toward_eye : AxisMs(t.axis);
      if (glm::dot(axis, toward_eye) < 0.0f) axis = -axis;
      turn = glm::angleAxis(angle, axis);
    }
    scene::TurnBoneMs(session, t.turn, turn);
  } else if (t.kind == Kind::kScale) {
    float factor = 1.0f;
    if (has_typed) {
      factor = typed;
    } else {
      const glm::vec2 root_px = ToWindowPx(state, t.root_ms);
      const float from = glm::length(t.start_px - root_px);
      if (from < 1.0f) return;
      factor = glm::length(t.mouse_px - root_px) / from;
    }
    scene::LimbTarget& target = session.target(t.limb);
    target.target_ms = t.root_ms + factor * (t.target_start_ms - t.root_ms);
    target.given = true;
    target.rung = -1;
  }
}

const char* KindName(Kind kind) {
  switch (kind) {
    case Kind::kGrab:
      return "move";
    case Kind::kRotate:
      return "turn";
    case Kind::kScale:
      return "stretch";
    case Kind::kNone:
      break;
  }
  return "";
}

}  // namespace

bool BeginKeyTransform(ViewerState& state, Kind kind) {
  if (state.transform.active() || state.mouse != MouseMode::kNone) return false;
  scene::PosingSession& session = *state.loaded.session;
  const int bone = state.panel.selected_bone;
  if (bone < 0 || bone >= state.loaded.model->skeleton.size()) {
    state.panel.status = "select a bone first (click it), then G, R or S";
    return false;
  }
  KeyTransform t;
  t.kind = kind;
  t.pivot_ms = anim::PositionMs(session.pose(), bone);
  t.pivot_px = ToWindowPx(state, t.pivot_ms);
  int x = 0, y = 0;
  SDL_GetMouseState(&x, &y);
  t.start_px = t.mouse_px = glm::vec2(static_cast<float>(x), static_cast<float>(y));
  anim::Limb limb = anim::Limb::kLeftArm;
  const bool on_limb = LimbOfGrabbedBone(session, bone, &limb);
  if (kind == Kind::kGrab) {
    scene::SurfaceHit at;
    at.hit = true;
    at.bone = bone;
    at.point_ms = t.pivot_ms;
    if (!state.drag.BeginOnSurface(WindowRay(state, t.pivot_px), session, at,
                                   state.camera.Forward()) ||
        state.drag.handle() == TargetDrag::Handle::kBone) {
      state.drag.End();
      state.panel.status = "G moves a hand, a foot or the pelvis; R turns this bone";
      return false;
    }
  } else if (kind == Kind::kRotate) {
    t.turn = scene::StartTurn(session, bone);
  } else if (kind == Kind::kScale) {
    if (!on_limb) {
      state.panel.status = "S stretches a limb: select a hand, forearm, foot or shin";
      return false;
    }
    t.limb = limb;
    t.root_ms = anim::PositionMs(session.pose(), session.chain(limb).upper);
    t.target_start_ms = session.target(limb).target_ms;
  }
  state.gesture_start = scene::CaptureSnapshot(session);
  state.transform = t;
  return true;
}

void TransformMouse(ViewerState& state, glm::vec2 mouse_px) {
  if (!state.transform.active()) return;
  state.transform.mouse_px = mouse_px;
  Apply(state);
}

void TransformKey(ViewerState& state, const SDL_Keysym& key) {
  KeyTransform& t = state.transform;
  std::string& typed = t.typed;
  switch (key.sym) {
    case SDLK_RETURN:
    case SDLK_KP_ENTER:
      return EndKeyTransform(state, true);
    case SDLK_ESCAPE:
      return EndKeyTransform(state, false);
    case SDLK_x:
    case SDLK_y:
    case SDLK_z: {
      const int axis = key.sym == SDLK_x ? 0 : key.sym == SDLK_y ? 1 : 2;
      t.axis = t.axis == axis ? -1 : axis;  // pressed again: free
      t.trackball = false;
      break;
    }
    case SDLK_r:
      if (t.kind == Kind::kRotate) t.trackball = !t.trackball;
      break;
    case SDLK_BACKSPACE:
      if (!typed.empty()) typed.pop_back();
      break;
    case SDLK_MINUS:
    case SDLK_KP_MINUS:
      typed = !typed.empty() && typed[0] == '-' ? typed.substr(1) : "-" + typed;
      break;
    case SDLK_PERIOD:
    case SDLK_KP_PERIOD:
      if (typed.find('.') == std::string::npos) typed += '.';
      break;
    default:
      if (key.sym >= SDLK_0 && key.sym <= SDLK_9) {
        typed += static_cast<char>('0' + (key.sym - SDLK_0));
      } else if (key.sym >= SDLK_KP_1 && key.sym <= SDLK_KP_0) {
        typed += key.sym == SDLK_KP_0 ? '0' : static_cast<char>('1' + (key.sym - SDLK_KP_1));
      } else {
        return;
      }
      break;
  }
  Apply(state);
}

void EndKeyTransform(ViewerState& state, bool apply) {
  if (!state.transform.active()) return;
  if (apply) {
    state.drag.End();
    state.transform = KeyTransform{};
    state.history.Commit(*state.loaded.session);  // the whole transform is one step
  } else {
    state.transform = KeyTransform{};
    CancelGesture(state);
  }
}

void CancelGesture(ViewerState& state) {
  state.drag.End();
  state.ring_drag.End();
  state.prop_turn.End();
  state.mouse = MouseMode::kNone;
  state.transform = KeyTransform{};
  scene::RestoreSnapshot(state.gesture_start, *state.loaded.session);
}

std::string TransformHint(const ViewerState& state) {
  const KeyTransform& t = state.transform;
  if (!t.active()) return {};
  std::string hint = KindName(t.kind);
  const int bone = state.panel.selected_bone;
  if (bone >= 0 && bone < state.loaded.model->skeleton.size())
    hint += " " + state.loaded.model->skeleton.names[static_cast<std::size_t>(bone)];
  if (t.trackball) hint += " freely (trackball)";
  if (t.axis >= 0)
    hint += std::string(t.kind == Kind::kRotate ? " about " : " along ") +
            static_cast<char>('X' + t.axis);
  const char* unit = t.kind == Kind::kGrab ? " units" : t.kind == Kind::kRotate ? " deg" : "x";
  hint += t.typed.empty() ? std::string("  (type a number)") : "  " + t.typed + unit;
  hint += "   Enter/click: apply   Esc/right click: cancel   X Y Z: axis";
  if (t.kind == Kind::kRotate) hint += "   R: trackball";
  return hint;
}

}  // namespace ikpose::app
