#include "app/viewer.h"

#include <SDL.h>
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>
#include <glad/gl.h>
#include <imgui.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "anim/atomic_file.h"
#include "anim/file_paths.h"
#include "anim/model.h"
#include "app/error_line.h"
#include "app/gl_window.h"
#include "app/orbit_camera.h"
#include "app/paths.h"
#include "app/target_drag.h"
#include "asset/export_gltf.h"
#include "asset/load_model.h"
#include "render/line_renderer.h"
#include "render/model_renderer.h"
#include "render/png_file.h"
#include "render/render_target.h"
#include "scene/overlays.h"
#include "scene/posing_session.h"
#include "scene/scenario.h"
#include "scene/undo_history.h"
#include "ui/panel.h"

namespace ikpose::app {

namespace {

constexpr int kMsaaSamples = 4;

// Taken during static initialisation, before main(): the start of the start-up time.
const auto kProgramStart = std::chrono::steady_clock::now();

// What a held mouse button does: move a handle (TargetDrag), orbit or pan the camera.
enum class MouseMode { kNone, kHandle, kOrbit, kPan };

// Everything a loaded model needs; replaced whole when another file loads.
struct LoadedModel {
  std::unique_ptr<anim::Model> model;
  std::unique_ptr<scene::PosingSession> session;
  std::unique_ptr<render::ModelRenderer> renderer;
  glm::vec3 center_ms{0.0f};
  float radius = 1.0f;
  float height = 1.0f;
  float floor_y = 0.0f;
};

// Members are destroyed in reverse order, so every GL object below `window` goes before the
// context does.
struct ViewerState {
  ViewerOptions options;
  std::unique_ptr<GlWindow> window;
  render::RenderTarget target;
  render::LineRenderer lines;
  anim::DebugDraw debug;
  LoadedModel loaded;
  scene::UndoHistory history;  // of the loaded model's session; a new model starts a new one
  OrbitCamera camera;
  ui::PanelState panel;
  MouseMode mouse = MouseMode::kNone;
  TargetDrag drag;
  float first_frame_ms = 0.0f;  // program start to the first frame swapped on screen
  unsigned gpu_timer = 0;
  bool gpu_timer_pending = false;
  bool running = true;
  bool imgui_ready = false;
  std::chrono::steady_clock::time_point last_frame = std::chrono::steady_clock::now();
};

// Reading a file needs no GL, so it can run while the window opens.
struct ParsedModel {
  std::unique_ptr<anim::Model> model;
  std::string error;
};

ParsedModel ParseModel(const std::string& path) {
  ParsedModel parsed;
  parsed.model = std::make_unique<anim::Model>();
  if (!asset::TryLoadModel(path, parsed.model.get(), &parsed.error)) parsed.model.reset();
  return parsed;
}

// Makes `parsed` the current model: session, GPU buffers, framing.
bool LoadInto(ViewerState& state, const std::string& path, ParsedModel parsed, std::string* error) {
  if (!parsed.model) {
    *error = parsed.error;
    return false;
  }
  LoadedModel next;
  next.model = std::move(parsed.model);
  next.session = std::make_unique<scene::PosingSession>(*next.model);
  next.renderer = std::make_unique<render::ModelRenderer>();
  if (!next.renderer->Init(DataDir() / "shaders", error)) return false;
  std::vector<std::string> warnings;
  next.renderer->Load(*next.model, &warnings);
  const anim::Bounds bounds = anim::ComputeBounds(*next.model, next.session->pose());
  if (!bounds.empty()) {
    next.center_ms = 0.5f * (bounds.min + bounds.max);
    next.radius = 0.5f * glm::length(bounds.max - bounds.min);
    next.height = bounds.max.y - bounds.min.y;
    next.floor_y = bounds.min.y;
  }
  // Ladder in front of the character, sized to it.
  scene::Ladder& ladder = next.session->ladder;
  const float h = std::max(next.height, 1e-3f);
  ladder.base_ms = {next.center_ms.x, next.floor_y,
                    next.center_ms.z + 0.2f * h * next.session->chains().forward_ms.z};
  ladder.rung_spacing = 0.17f * h;
  ladder.rail_width = 0.28f * h;
  ladder.rung_radius = 0.011f * h;
  ladder.first_rung_height = 0.14f * h;
  state.loaded = std::move(next);
  state.panel.model_label = std::filesystem::path(path).filename().string();
  state.panel.model_height = state.loaded.height;
  state.panel.selected_bone = -1;
  state.panel.status = warnings.empty() ? "" : warnings.front();
  // Face the character: its forward direction points at the camera.
  const glm::vec3 forward = state.loaded.session->chains().forward_ms;
  state.camera = OrbitCamera{};
  state.camera.yaw_deg = glm::degrees(std::atan2(forward.x, forward.z));
  state.camera.Frame(state.loaded.center_ms, state.loaded.radius);
  state.drag.End();
  state.mouse = MouseMode::kNone;
  state.history.Reset(*state.loaded.session);
  return true;
}

bool ApplyStartupOptions(ViewerState& state, std::string* error) {
  scene::PosingSession& session = *state.loaded.session;
  const anim::Model& model = *state.loaded.model;
  if (!state.options.clip.empty()) {
    const int clip = anim::FindClip(model, state.options.clip);
    if (clip < 0) {
      *error = "no clip named '" + state.options.clip + "' in " + state.options.model_path;
      return false;
    }
    session.playback.clip = clip;
    session.playback.time = state.options.clip_time;
    session.ResetTargets();
  }
  const auto limb_of = [&](const std::string& name, anim::Limb* limb) {
    for (anim::Limb l : anim::kLimbs) {
      const anim::LimbChain& chain = session.chain(l);
      if (name == anim::LimbName(l) ||
          (chain.valid() && model.skeleton.names[static_cast<std::size_t>(chain.end)] == name)) {
        *limb = l;
        return chain.valid();
      }
    }
    return false;
  };
  for (const auto& [name, position] : state.options.targets) {
    anim::Limb limb;
    if (!limb_of(name, &limb)) {
      *error = "no limb chain '" + name + "' in " + state.options.model_path;
      return false;
    }
    session.target(limb).target_ms = position;
  }
  for (const auto& [name, position] : state.options.poles) {
    anim::Limb limb;
    if (!limb_of(name, &limb)) {
      *error = "no limb chain '" + name + "' in " + state.options.model_path;
      return false;
    }
    session.target(limb).options.solver.use_pole = true;
    session.target(limb).options.solver.pole_ms = position;
  }
  if (state.options.camera) {
    state.camera.yaw_deg += state.options.camera->yaw_deg;  // 0: in front of the character
    state.camera.pitch_deg = state.options.camera->pitch_deg;
    if (state.options.camera->distance > 0.0f)
      state.camera.distance = state.options.camera->distance;
  }
  return true;
}

bool Init(ViewerState& state, std::string* error) {
  scene::Scenario scenario;
  if (!state.options.scene_path.empty()) {
    if (!scene::LoadScenario(state.options.scene_path, &scenario, error)) return false;
    if (state.options.model_path.empty()) state.options.model_path = scenario.ModelPath();
  }
  if (state.options.model_path.empty()) state.options.model_path = DefaultModelPath().string();
  // The file is read on another thread while SDL and the GL driver start: both take tens of
  // milliseconds, and the first frame waits for the slower of the two, not their sum.
  std::future<ParsedModel> parsed =
      std::async(std::launch::async, ParseModel, state.options.model_path);

  WindowOptions window_options;
  window_options.width = state.options.width;
  window_options.height = state.options.height;
  window_options.offscreen = state.options.offscreen;
  window_options.title = "ikpose";
  state.window = GlWindow::Open(window_options, error);
  if (!state.window) return false;
  state.panel.renderer = state.window->renderer();
  state.panel.history = &state.history;

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini dropped into the user's folder
  ImGui::StyleColorsDark();
  ImGui_ImplSDL2_InitForOpenGL(state.window->sdl_window(), state.window->gl_context());
  ImGui_ImplOpenGL3_Init("#version 330 core");
  state.imgui_ready = true;

  if (!state.lines.Init(DataDir() / "shaders", error)) return false;
  glGenQueries(1, &state.gpu_timer);
  if (!LoadInto(state, state.options.model_path, parsed.get(), error)) return false;
  if (!state.options.scene_path.empty() &&
      !scene::ApplyScenario(scenario, *state.loaded.session, error)) {
    return false;
  }
  if (!ApplyStartupOptions(state, error)) return false;
  state.history.Reset(*state.loaded.session);  // what the command line set up is the start
  return true;
}

glm::vec2 DrawableMouse(const ViewerState& state, int x, int y) {
  int window_w = 0, window_h = 0, drawable_w = 0, drawable_h = 0;
  SDL_GetWindowSize(state.window->sdl_window(), &window_w, &window_h);
  state.window->DrawableSize(&drawable_w, &drawable_h);
  return {static_cast<float>(x) * static_cast<float>(drawable_w) /
              static_cast<float>(std::max(window_w, 1)),
          static_cast<float>(y) * static_cast<float>(drawable_h) /
              static_cast<float>(std::max(window_h, 1))};
}

Ray MouseRay(const ViewerState& state, int x, int y) {
  const glm::vec2 p = DrawableMouse(state, x, y);
  int width = 0, height = 0;
  state.window->DrawableSize(&width, &height);
  return state.camera.PixelRay(p.x, p.y, static_cast<float>(std::max(width, 1)),
                               static_cast<float>(std::max(height, 1)));
}

// Left button down: a target or pole handle, else a joint (selects it) and orbit.
void BeginLeftDrag(ViewerState& state, int x, int y) {
  const Ray ray = MouseRay(state, x, y);
  const float handle = scene::HandleRadius(state.loaded.height) * 1.6f;
  if (state.drag.Begin(ray, *state.loaded.session, handle)) {
    state.mouse = MouseMode::kHandle;
    return;
  }
  const int joint =
      PickJoint(ray, state.loaded.model->skeleton, state.loaded.session->pose(), handle * 0.5f);
  if (joint >= 0) state.panel.selected_bone = joint;
  state.mouse = MouseMode::kOrbit;
}

void MouseMoved(ViewerState& state, int x, int y, int dx, int dy) {
  int drawable_w = 0, drawable_h = 0;
  state.window->DrawableSize(&drawable_w, &drawable_h);
  const float height = static_cast<float>(std::max(drawable_h, 1));
  switch (state.mouse) {
    case MouseMode::kOrbit:
      state.camera.Orbit(-0.4f * static_cast<float>(dx), 0.4f * static_cast<float>(dy));
      break;
    case MouseMode::kPan:
      state.camera.Pan(static_cast<float>(dx) / height, static_cast<float>(dy) / height);
      break;
    case MouseMode::kHandle: {
      const Uint8* keys = SDL_GetKeyboardState(nullptr);
      DragModifiers modifiers;
      modifiers.axis = keys[SDL_SCANCODE_X]   ? 0
                       : keys[SDL_SCANCODE_Y] ? 1
                       : keys[SDL_SCANCODE_Z] ? 2
                                              : -1;
      modifiers.fine = (SDL_GetModState() & KMOD_SHIFT) != 0;
      state.drag.Update(MouseRay(state, x, y), modifiers, *state.loaded.session);
      break;
    }
    case MouseMode::kNone:
      break;
  }
}

// Input goes to ImGui first, then target dragging, then the camera.
void HandleEvent(ViewerState& state, const SDL_Event& event) {
  ImGui_ImplSDL2_ProcessEvent(&event);
  const ImGuiIO& io = ImGui::GetIO();
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
    case SDL_DROPFILE: {
      std::string error;
      const std::string path = event.drop.file;
      SDL_free(event.drop.file);
      if (!LoadInto(state, path, ParseModel(path), &error)) {
        state.panel.status = "could not open " + path + ": " + error;
      } else {
        state.options.model_path = path;
      }
      break;
    }
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
      MouseMoved(state, event.motion.x, event.motion.y, event.motion.xrel, event.motion.yrel);
      break;
    case SDL_MOUSEWHEEL:
      if (io.WantCaptureMouse) break;
      state.camera.Zoom(std::pow(0.9f, static_cast<float>(event.wheel.y)));
      break;
    case SDL_KEYDOWN: {
      if (io.WantCaptureKeyboard) break;
      const bool ctrl = (event.key.keysym.mod & KMOD_CTRL) != 0;
      const bool shift = (event.key.keysym.mod & KMOD_SHIFT) != 0;
      if (ctrl && event.key.keysym.sym == SDLK_z) {
        (shift ? state.panel.request_redo : state.panel.request_undo) = true;
        break;
      }
      if (ctrl && event.key.keysym.sym == SDLK_y) {
        state.panel.request_redo = true;
        break;
      }
      switch (event.key.keysym.sym) {
        case SDLK_f:
          state.camera.Frame(state.loaded.center_ms, state.loaded.radius);
          break;
        case SDLK_e:
          state.panel.request_export_pose = true;  // handled after the next frame's panel
          break;
        case SDLK_r: {
          const float yaw = glm::degrees(std::atan2(state.loaded.session->chains().forward_ms.x,
                                                    state.loaded.session->chains().forward_ms.z));
          state.camera = OrbitCamera{};
          state.camera.yaw_deg = yaw;
          state.camera.Frame(state.loaded.center_ms, state.loaded.radius);
          break;
        }
        case SDLK_LEFT:
          state.camera.Orbit(-5.0f, 0.0f);
          break;
        case SDLK_RIGHT:
          state.camera.Orbit(5.0f, 0.0f);
          break;
        case SDLK_UP:
          state.camera.Orbit(0.0f, 5.0f);
          break;
        case SDLK_DOWN:
          state.camera.Orbit(0.0f, -5.0f);
          break;
        case SDLK_EQUALS:
        case SDLK_PLUS:
        case SDLK_KP_PLUS:
          state.camera.Zoom(0.9f);
          break;
        case SDLK_MINUS:
        case SDLK_KP_MINUS:
          state.camera.Zoom(1.0f / 0.9f);
          break;
        case SDLK_ESCAPE:
          state.running = false;
          break;
        default:
          break;
      }
      break;
    }
    default:
      break;
  }
}

void RecordGrid(ViewerState& state) {
  const float h = std::max(state.loaded.height, 1e-3f);
  const float step = std::pow(10.0f, std::floor(std::log10(h * 0.5f)));  // 1 m grid for people
  const int lines = 10;
  const glm::vec3 c(std::round(state.loaded.center_ms.x / step) * step, state.loaded.floor_y,
                    std::round(state.loaded.center_ms.z / step) * step);
  for (int i = -lines; i <= lines; ++i) {
    const float o = static_cast<float>(i) * step * 0.5f;
    const float e = static_cast<float>(lines) * step * 0.5f;
    const glm::vec4 color =
        i == 0 ? glm::vec4(0.55f, 0.55f, 0.6f, 0.8f) : glm::vec4(0.4f, 0.42f, 0.46f, 0.55f);
    state.debug.Line(c + glm::vec3(-e, 0, o), c + glm::vec3(e, 0, o), color);
    state.debug.Line(c + glm::vec3(o, 0, -e), c + glm::vec3(o, 0, e), color);
  }
}

// The scenario file "save scene" writes and "load scene" reads.
std::string ScenePath(const ViewerState& state) {
  return state.options.scene_path.empty() ? "ikpose-scene.json" : state.options.scene_path;
}

// Writes the session to --scene FILE (or ikpose-scene.json here), the model relative to it.
void SaveScene(ViewerState& state) {
  const std::string path = ScenePath(state);
  const std::filesystem::path model = anim::RelativeToFolderOf(state.options.model_path, path);
  std::string error;
  if (scene::SaveScenario(path, scene::CaptureScenario(*state.loaded.session, model.string()),
                          &error)) {
    state.panel.status = "saved " + path;
  } else {
    state.panel.status = error;
  }
}

// Reads the scene file back into the session as one undo step. A scenario naming another model
// opens that model first (which starts a new history).
void LoadScene(ViewerState& state) {
  const std::string path = ScenePath(state);
  scene::Scenario scenario;
  std::string error;
  if (!scene::LoadScenario(path, &scenario, &error)) {
    state.panel.status = error;
    return;
  }
  const std::string model = scenario.ModelPath();
  std::error_code ec;
  if (!model.empty() && !std::filesystem::equivalent(model, state.options.model_path, ec)) {
    if (!LoadInto(state, model, ParseModel(model), &error)) {
      state.panel.status = "could not open " + model + ": " + error;
      return;
    }
    state.options.model_path = model;
  }
  scene::PosingSession& session = *state.loaded.session;
  const scene::PosingSnapshot before = scene::CaptureSnapshot(session);
  session.playback.clip = -1;  // a scenario naming no clip is on the rest pose
  session.playback.time = 0.0f;
  if (!scene::ApplyScenario(scenario, session, &error)) {
    scene::RestoreSnapshot(before, session);
    state.panel.status = error;
    return;
  }
  state.history.Commit(session, "load scene");
  state.panel.status = "loaded " + path;
}

// Writes the pose on screen (clip and IK) as `<model stem>-posed.glb` beside the scenario file
// or in the working directory; the panel's status line says where, or why not.
void ExportPose(ViewerState& state) {
  const std::filesystem::path path =
      PosedExportPath(state.options.scene_path, state.options.model_path);
  std::vector<std::string> warnings;
  std::string error;
  if (asset::WritePosedGlb(*state.loaded.model, state.loaded.session->pose().locals_ls, path,
                           &warnings, &error)) {
    state.panel.status = "exported the pose to " + path.string() +
                         (warnings.empty() ? "" : " (" + warnings.front() + ")");
  } else {
    state.panel.status = error;
  }
}

// The panel's requests, after it has drawn. Each button that edits the session is one undo
// step; any other panel edit is committed once no widget is active, so a slider held and
// moved is one step when it is released. A target drag commits when it ends (mouse up).
void HandlePanelRequests(ViewerState& state) {
  ui::PanelState& panel = state.panel;
  scene::PosingSession& session = *state.loaded.session;
  scene::UndoHistory& history = state.history;
  const bool editing = state.drag.active() || ImGui::IsAnyItemActive();
  // An edit not recorded yet (a typed value left by clicking a button) is its own step.
  const auto step = [&](const char* label, auto&& edit) {
    history.Commit(session);
    edit();
    history.Commit(session, label);
  };
  if (panel.request_undo && !editing) history.Undo(session);
  if (panel.request_redo && !editing) history.Redo(session);
  if (panel.request_reset_targets) {
    step("targets to hands and feet", [&] { session.ResetTargets(); });
  }
  if (panel.request_snap_to_rungs) {
    step("snap to rungs", [&] {
      session.ladder_enabled = true;
      session.SnapToRungs();
    });
  }
  if (panel.request_step_rungs != 0) {
    const int delta = panel.request_step_rungs;
    step(delta > 0 ? "step up" : "step down", [&] {
      if (!session.StepRungs(delta)) panel.status = "a hand or foot would leave the ladder";
    });
  }
  if (panel.request_frame_model) state.camera.Frame(state.loaded.center_ms, state.loaded.radius);
  if (panel.request_save_scene) SaveScene(state);
  if (panel.request_load_scene) LoadScene(state);
  if (panel.request_export_pose) ExportPose(state);
  panel.request_reset_targets = panel.request_frame_model = false;
  panel.request_save_scene = panel.request_load_scene = panel.request_export_pose = false;
  panel.request_snap_to_rungs = panel.request_undo = panel.request_redo = false;
  panel.request_step_rungs = 0;
  // After "load scene" the session may be another model's: take it afresh.
  if (!editing) history.Commit(*state.loaded.session);
}

void Frame(ViewerState& state, float seconds) {
  const auto start = std::chrono::steady_clock::now();
  int width = 0;
  int height = 0;
  state.window->DrawableSize(&width, &height);
  // The window's first frame is drawn straight into its own framebuffer, without
  // multisampling: on a software rasteriser (llvmpipe) allocating and first touching the
  // multisampled target costs about 200 ms, which would delay the first picture. Antialiasing
  // starts with the second frame. Offscreen renders (screenshots) always use the target.
  const bool direct = !state.options.offscreen && state.first_frame_ms == 0.0f;
  if (!direct) state.target.Resize(width, height, kMsaaSamples);

  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplSDL2_NewFrame();
  ImGui::NewFrame();
  if (!state.options.offscreen || state.options.panel) {
    ui::DrawMainPanel(state.loaded.session.get(), state.panel);
  }
  ImGui::Render();
  HandlePanelRequests(state);
  scene::PosingSession& session = *state.loaded.session;  // "load scene" may open another model

  session.Advance(seconds);
  state.history.FollowPlayback(session);
  session.Evaluate();
  state.loaded.renderer->UpdatePose(*state.loaded.model, session.pose().models_ms);

  state.debug.Clear();
  if (state.options.grid) RecordGrid(state);
  anim::DebugDraw overlays;
  if (!state.options.offscreen || state.options.overlay) {
    scene::DrawOverlays(session, state.panel.overlays, state.loaded.height, overlays);
  }

  if (state.gpu_timer_pending) {
    GLuint64 ns = 0;
    glGetQueryObjectui64v(state.gpu_timer, GL_QUERY_RESULT, &ns);
    state.panel.frame_ms_gpu = static_cast<float>(ns) * 1e-6f;
  }
  glBeginQuery(GL_TIME_ELAPSED, state.gpu_timer);
  if (direct) {
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, width, height);
  } else {
    state.target.Bind();
  }
  glClearColor(0.18f, 0.20f, 0.23f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  const float aspect = static_cast<float>(width) / static_cast<float>(std::max(height, 1));
  // Centre the model in what the panel leaves free (the panel is ~440 px wide at the left).
  const bool panel_shown = !state.options.offscreen || state.options.panel;
  state.camera.shift_ndc_x = panel_shown && width > 880 ? 440.0f / static_cast<float>(width) : 0.0f;
  const glm::mat4 view_proj = state.camera.Projection(aspect) * state.camera.View();
  state.lines.Draw(state.debug, view_proj, false);
  render::Lighting lighting;
  lighting.eye_ms = state.camera.Eye();
  // The key light comes from above, over the camera's right shoulder.
  const glm::vec3 to_eye = glm::normalize(state.camera.Eye() - state.camera.focus_ms);
  lighting.light_dir_ms = glm::normalize(to_eye + glm::vec3(0.0f, 1.2f, 0.0f) +
                                         0.5f * glm::cross(glm::vec3(0, 1, 0), to_eye));
  state.loaded.renderer->Draw(view_proj, lighting);
  state.lines.Draw(overlays, view_proj, true);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  glEndQuery(GL_TIME_ELAPSED);
  state.gpu_timer_pending = true;
  if (!direct) {
    state.target.Resolve();
    state.target.BlitToScreen(width, height);
  }

  const auto end = std::chrono::steady_clock::now();
  state.panel.frame_ms_cpu = std::chrono::duration<float, std::milli>(end - start).count();
}

// The report `--report FILE` asks for: each limb's target and where its end joint is now.
bool WriteReport(const ViewerState& state, std::string* error) {
  const scene::PosingSession& session = *state.loaded.session;
  nlohmann::json chains = nlohmann::json::object();
  for (anim::Limb limb : anim::kLimbs) {
    const scene::LimbTarget& t = session.target(limb);
    if (!t.available) continue;
    const anim::ChainSolveResult& r = session.result(limb);
    const glm::vec3 end = anim::EndPositionMs(session.chain(limb), session.pose());
    nlohmann::json c = {{"target", {t.target_ms.x, t.target_ms.y, t.target_ms.z}},
                        {"end", {end.x, end.y, end.z}},
                        {"enabled", t.enabled},
                        {"error", glm::length(end - t.target_ms)}};
    if (r.ok) c["reach"] = std::string(ik::ReachName(r.output.reach));
    // Where the handle is on screen, in window pixels (top-left origin): tests drag from here.
    int window_w = 0, window_h = 0;
    SDL_GetWindowSize(state.window->sdl_window(), &window_w, &window_h);
    const glm::vec3 px = state.camera.Project(t.target_ms, static_cast<float>(window_w),
                                              static_cast<float>(window_h));
    c["target_px"] = {px.x, px.y};
    chains[std::string(anim::LimbName(limb))] = c;
  }
  const scene::UndoHistory& history = state.history;
  const nlohmann::json undo = {{"undo_steps", history.undo_steps()},
                               {"redo_steps", history.redo_steps()},
                               {"undo_label", history.undo_label()},
                               {"redo_label", history.redo_label()}};
  const nlohmann::json report = {{"model", state.options.model_path},
                                 {"height", state.loaded.height},
                                 {"first_frame_ms", state.first_frame_ms},
                                 {"chains", chains},
                                 {"history", undo}};
  return anim::WriteFileAtomically(
      state.options.report_path,
      report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n", error);
}

void Cleanup(ViewerState& state) {
  if (state.gpu_timer != 0) glDeleteQueries(1, &state.gpu_timer);
  if (state.imgui_ready) {
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplSDL2_Shutdown();
    ImGui::DestroyContext();
  }
}

}  // namespace

int RunViewer(const ViewerOptions& options) {
  auto state = std::make_unique<ViewerState>();
  state->options = options;
  std::string error;
  int exit_code = 0;
  if (!Init(*state, &error)) {
    PrintError(std::cerr, error);
    exit_code = 1;
  } else if (options.offscreen) {
    // Two frames: ImGui sizes its windows from the first one.
    for (int i = 0; i < 2; ++i) Frame(*state, 0.0f);
    if (!render::WritePngAtomically(options.screenshot_path, state->target.width(),
                                    state->target.height(), state->target.ReadRgba(), &error)) {
      PrintError(std::cerr, error);
      exit_code = 1;
    }
  } else {
    int frames = 0;
    while (state->running) {
      SDL_Event event;
      while (SDL_PollEvent(&event)) HandleEvent(*state, event);
      if (!state->running) break;
      const auto now = std::chrono::steady_clock::now();
      const float seconds = std::chrono::duration<float>(now - state->last_frame).count();
      state->last_frame = now;
      Frame(*state, seconds);
      state->window->Swap();
      if (state->first_frame_ms == 0.0f) {
        state->first_frame_ms = std::chrono::duration<float, std::milli>(
                                    std::chrono::steady_clock::now() - kProgramStart)
                                    .count();
      }
      if (options.quit_after_frames > 0 && ++frames >= options.quit_after_frames) break;
    }
  }
  if (exit_code == 0 && !options.report_path.empty() && !WriteReport(*state, &error)) {
    PrintError(std::cerr, error);
    exit_code = 1;
  }
  if (state->window) Cleanup(*state);
  return exit_code;
}

}  // namespace ikpose::app
