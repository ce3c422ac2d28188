#include "app/viewer.h"

#include <SDL.h>
#include <backends/imgui_impl_opengl3.h>
#include <backends/imgui_impl_sdl.h>
#include <imgui.h>

#include <chrono>
#include <future>
#include <iostream>

#include <glm/gtc/constants.hpp>

#include "app/error_line.h"
#include "app/ground_report.h"
#include "app/paths.h"
#include "app/pose_report.h"
#include "app/viewer_state.h"
#include "render/png_file.h"
#include "scene/view/bone_rings.h"
#include "scene/view/ground_draw.h"
#include "scene/view/overlays.h"

namespace ikpose::app {

render::Lighting KeyLight(const OrbitCamera& camera) {
  render::Lighting lighting;
  lighting.eye_ms = camera.Eye();
  const glm::vec3 to_eye = glm::normalize(camera.Eye() - camera.focus_ms);
  lighting.light_dir_ms = glm::normalize(to_eye + glm::vec3(0.0f, 1.2f, 0.0f) +
                                         0.5f * glm::cross(glm::vec3(0, 1, 0), to_eye));
  return lighting;
}

namespace {

// Taken during static initialisation, before main(): the start of the start-up time.
const auto kProgramStart = std::chrono::steady_clock::now();

bool PanelShown(const ViewerState& state) {
  return (!state.options.offscreen || state.options.panel) && !state.panel_hidden;
}

// The corner view's rectangle, in pixels from the bottom-left: a third of the window's height,
// portrait (a standing character), at the bottom-right.
struct CornerRect {
  int x, y, width, height;
};
CornerRect CornerViewRect(const ViewerState& state, int width, int height) {
  constexpr int kMargin = 8;
  // Above the timeline when it is open along the bottom.
  const int bottom = PanelShown(state) && state.timeline.visible
                         ? static_cast<int>(state.timeline.panel.height)
                         : 0;
  const int h = std::max(16, height / 3);
  const int w = std::max(16, h * 3 / 5);
  return {width - w - kMargin, bottom + kMargin, w, h};
}

// Its camera: orthographic, from the side CornerViewSide picks, framing the character where its
// body is now (it may have climbed a ladder).
OrbitCamera CornerCamera(const ViewerState& state, float aspect, OrbitCamera::Side* side) {
  const scene::PosingSession& session = *state.loaded.session;
  glm::vec3 center_ms = state.loaded.center_ms;
  if (session.body_bone() >= 0) {
    center_ms +=
        session.BodyPositionMs() - anim::PositionMs(session.rest_pose(), session.body_bone());
  }
  const float facing = FacingYawDeg(state);
  *side = CornerViewSide(state.camera.yaw_deg, facing);
  OrbitCamera camera;
  // From the side the character's height fills the view; from the front the arms spread
  // sideways, so the width is fitted as well.
  camera.Frame(center_ms, *side == OrbitCamera::Side::kFront
                              ? state.loaded.radius / std::min(aspect, 1.0f)
                              : 0.45f * state.loaded.height);
  camera.LookFrom(*side, facing);
  camera.orthographic = true;
  return camera;
}

void DrawCornerView(ViewerState& state, int width, int height) {
  const CornerRect r = CornerViewRect(state, width, height);
  const float aspect = static_cast<float>(r.width) / static_cast<float>(r.height);
  OrbitCamera::Side side;
  const OrbitCamera camera = CornerCamera(state, aspect, &side);
  const glm::mat4 view_proj = camera.Projection(aspect) * camera.View();
  state.painter.BeginInset(r.x, r.y, r.width, r.height);
  state.painter.DrawLines(state.grid_lines, view_proj, false);
  state.loaded.renderer->Draw(view_proj, KeyLight(camera));
  DrawProps(state, view_proj, KeyLight(camera));
  state.painter.DrawLines(state.overlay_lines, view_proj, true);
  state.painter.EndInset();
}

// The corner view's frame and name, drawn by ImGui over the image.
void LabelCornerView(const ViewerState& state, int width, int height) {
  const CornerRect r = CornerViewRect(state, width, height);
  OrbitCamera::Side side;
  CornerCamera(state, 1.0f, &side);
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  const ImGuiIO& io = ImGui::GetIO();
  // ImGui works in window points, the frame in drawable pixels (they differ on HiDPI).
  const float sx = io.DisplaySize.x / static_cast<float>(std::max(width, 1));
  const float sy = io.DisplaySize.y / static_cast<float>(std::max(height, 1));
  const ImVec2 top_left(static_cast<float>(r.x) * sx,
                        static_cast<float>(height - r.y - r.height) * sy);
  const ImVec2 bottom_right(static_cast<float>(r.x + r.width) * sx,
                            static_cast<float>(height - r.y) * sy);
  draw->AddRect(top_left, bottom_right, IM_COL32(200, 200, 200, 160));
  draw->AddText(ImVec2(top_left.x + 4.0f, top_left.y + 2.0f), IM_COL32(220, 220, 220, 255),
                side == OrbitCamera::Side::kFront ? "front" : "right side");
}

// The name of the bone a click on the body would take, beside the cursor.
void HoverLabel(const ViewerState& state) {
  const anim::Skeleton& skeleton = state.loaded.model->skeleton;
  if (state.mouse != MouseMode::kNone || state.hover_bone < 0 ||
      state.hover_bone >= skeleton.size()) {
    return;
  }
  // The motion event's position: ImGui's global-mouse position can be off under some X servers.
  const ImVec2 mouse(state.hover_px.x, state.hover_px.y);
  const char* name = skeleton.names[static_cast<std::size_t>(state.hover_bone)].c_str();
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  const ImVec2 at(mouse.x + 16.0f, mouse.y + 8.0f);
  const ImVec2 size = ImGui::CalcTextSize(name);
  draw->AddRectFilled(ImVec2(at.x - 3.0f, at.y - 2.0f),
                      ImVec2(at.x + size.x + 3.0f, at.y + size.y + 2.0f), IM_COL32(0, 0, 0, 170),
                      3.0f);
  draw->AddText(at, IM_COL32(255, 170, 90, 255), name);
}

// The selected bone's rings, three pixels wide, over the model and under the panel; the ring
// under the cursor (or held) brighter and wider, so a user sees which one a click takes.
void DrawRings(const ViewerState& state, int width, int height) {
  const int selected = state.panel.selected_bone;
  if (selected < 0 || selected >= state.loaded.model->skeleton.size()) return;
  const auto rings =
      scene::BoneRings(state.loaded.session->pose(), selected, state.panel.ring_local_axes,
                       RingViewDir(state), RingRadius(state));
  const int held = state.ring_drag.active() ? static_cast<int>(state.ring_drag.axis()) : -1;
  const int lit = held >= 0 ? held : state.mouse == MouseMode::kNone ? state.hover_ring : -1;
  const ImGuiIO& io = ImGui::GetIO();
  const float w = static_cast<float>(std::max(width, 1)),
              h = static_cast<float>(std::max(height, 1));
  const glm::vec2 scale(io.DisplaySize.x / w, io.DisplaySize.y / h);
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  for (int r = 0; r < static_cast<int>(rings.size()); ++r) {
    const scene::BoneRing& ring = rings[static_cast<std::size_t>(r)];
    const glm::vec3 helper =
        std::abs(ring.axis_ms.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
    const glm::vec3 u = glm::normalize(glm::cross(ring.axis_ms, helper));
    const glm::vec3 v = glm::cross(ring.axis_ms, u);
    constexpr int kPoints = 64;
    ImVec2 points[kPoints];
    for (int i = 0; i < kPoints; ++i) {
      const float a = 6.28318530718f * static_cast<float>(i) / kPoints;
      const glm::vec3 p = state.camera.Project(
          ring.center_ms + ring.radius * (std::cos(a) * u + std::sin(a) * v), w, h);
      points[i] = ImVec2(p.x * scale.x, p.y * scale.y);
    }
    glm::vec4 c = ring.color;
    if (r == lit) c = glm::mix(c, glm::vec4(1.0f), 0.45f);
    draw->AddPolyline(points, kPoints, ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, 1.0f)),
                      ImDrawFlags_Closed, r == lit ? 5.0f : 3.0f);
  }
}

// The selected prop's turn ring, drawn as the bone rings are: brighter and wider under the
// cursor or while held.
void DrawPropRing(ViewerState& state, int width, int height) {
  const PropRing* ring = SelectedPropRing(state);
  if (ring == nullptr) return;
  const bool lit = state.mouse == MouseMode::kPropTurn ||
                   (state.mouse == MouseMode::kNone && state.hover_prop_ring);
  const ImGuiIO& io = ImGui::GetIO();
  const float w = static_cast<float>(std::max(width, 1)),
              h = static_cast<float>(std::max(height, 1));
  ImVec2 points[kPropRingPoints];
  for (int i = 0; i < kPropRingPoints; ++i) {
    const float a = glm::two_pi<float>() * static_cast<float>(i) / kPropRingPoints;
    const glm::vec3 p = state.camera.Project(PropRingPoint(*ring, a), w, h);
    points[i] = ImVec2(p.x * io.DisplaySize.x / w, p.y * io.DisplaySize.y / h);
  }
  const ImU32 color = lit ? IM_COL32(255, 235, 150, 255) : IM_COL32(240, 190, 40, 255);
  ImGui::GetBackgroundDrawList()->AddPolyline(points, kPropRingPoints, color, ImDrawFlags_Closed,
                                              lit ? 5.0f : 3.0f);
}

// The axis a drag or G/R/S is locked to, as a long line through the handle in its colour.
void DrawAxisLock(const ViewerState& state, anim::DebugDraw& lines) {
  const bool key = state.transform.active() && state.transform.axis >= 0;
  const int axis = key                                                        ? state.transform.axis
                   : state.mouse == MouseMode::kHandle && state.drag.active() ? state.drag_axis
                                                                              : -1;
  if (axis < 0) return;
  glm::vec3 along(0.0f);
  along[axis] = 2.0f * state.loaded.height;
  glm::vec4 color(0.25f, 0.25f, 0.25f, 1.0f);
  color[axis] = 1.0f;
  const glm::vec3 at = key ? state.transform.pivot_ms : state.drag.start_ms();
  lines.Line(at - along, at + along, color);
}

// What G/R/S is doing and the keys that shape it, along the top of the view (as Blender's
// header does).
void TransformHeader(const ViewerState& state) {
  const std::string hint = TransformHint(state);
  if (hint.empty()) return;
  const float left = PanelShown(state) ? state.panel.width + 8.0f : 8.0f;
  const float wrap = ImGui::GetIO().DisplaySize.x - left - 8.0f;
  ImDrawList* draw = ImGui::GetForegroundDrawList();
  const ImVec2 size = ImGui::CalcTextSize(hint.c_str(), nullptr, false, wrap);
  draw->AddRectFilled(ImVec2(left - 4.0f, 4.0f), ImVec2(left + size.x + 4.0f, 8.0f + size.y),
                      IM_COL32(0, 0, 0, 190), 3.0f);
  draw->AddText(nullptr, 0.0f, ImVec2(left, 6.0f), IM_COL32(255, 220, 120, 255), hint.c_str(),
                nullptr, wrap);
}

float MsSinceStart() {
  return std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - kProgramStart)
      .count();
}

// False with one line in *error; *exit_code 2 for a command line that cannot be used.
bool Init(ViewerState& state, std::string* error, int* exit_code) {
  scene::TraceHeader trace_header;
  std::vector<scene::TraceFrame> trace_frames;
  const bool trace = !state.options.trace_path.empty();
  *exit_code = 1;  // a trace file that cannot be read
  if (trace && !PlanTrace(state.options, &trace_header, &trace_frames, error)) return false;
  state.timeline.visible = !state.options.offscreen || trace;
  state.timeline.timeline.recording = !state.options.offscreen;
  PosePlan plan;
  PlanError planned;
  if (!PlanPose(state.options.request, &plan, &planned)) {
    *error = planned.what;
    *exit_code = planned.exit_code;
    return false;
  }
  if (!StartLink(state, error, exit_code)) return false;
  if (!CheckViewerStability(state, error, exit_code)) return false;
  *exit_code = 1;
  state.request = std::move(plan.request);
  state.scene_path = state.options.request.scene.string();
  const std::string model_path = ChooseModel(state.options.model_path, plan.scene_model).string();
  const std::vector<NamedInput> inputs = {{"the model", model_path},
                                          {"the scenario file", state.options.request.scene},
                                          {"the trace file", state.options.trace_path},
                                          {"the reference image", state.options.reference_path}};
  for (const auto& [option, out] : {std::pair{"--out", state.options.screenshot_path},
                                    std::pair{"--report", state.options.report_path}}) {
    *error = OutputNamesAnInput(option, out, inputs);
    if (!error->empty()) return false;
  }
  // Read before the window opens. The importer is a program of its own (fork, then exec at
  // once: import_child.h), so the GL driver's threads cannot leave it stuck on their locks; a
  // model opened later (dropped, named by a scene) goes through the same program.
  std::future<ParsedModel> parsed = std::async(std::launch::deferred, ParseModel, model_path);
  parsed.wait();

  WindowOptions window_options;
  window_options.width = state.options.width;
  window_options.height = state.options.height;
  window_options.offscreen = state.options.offscreen;
  // "ikpose" once the panel is laid out (RunWindow): a script driving the window waits for it.
  window_options.title = "ikpose (opening)";
  const auto step = [&state](const char* name) {
    state.startup_ms.emplace_back(name, MsSinceStart());
  };
  step("command line");
  state.window = GlWindow::Open(window_options, error);
  if (!state.window) return false;
  step("window and GL context");
  state.panel.renderer = state.window->renderer();
  state.panel.props.bundled_folder = DataDir() / "assets" / "props";
  state.panel.history = &state.history;
  state.panel.corner_view = state.options.corner_view;

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini dropped into the user's folder
  ImGui::StyleColorsDark();
  ImGui_ImplSDL2_InitForOpenGL(state.window->sdl_window(), state.window->gl_context());
  ImGui_ImplOpenGL3_Init("#version 330 core");
  state.imgui_ready = true;
  step("panel");

  if (!state.painter.Init(DataDir() / "shaders", error)) return false;
  step("frame shaders");
  ParsedModel read = parsed.get();
  step("model read (own thread)");
  if (!OpenModel(state, model_path, std::move(read), state.request, error)) return false;
  step("model posed and uploaded");
  if (!ShowViewerStability(state, error)) return false;
  if (trace &&
      !StartTrace(state, state.options.trace_path, std::move(trace_header), std::move(trace_frames),
                  state.request, state.options.trace_frame, error)) {
    return false;
  }
  if (state.options.offscreen) {  // a picture waits for the library: always the same picture
    StartLibrary(state);
    PollLibrary(state, /*wait=*/true);
  }
  if (!state.options.offscreen) FindAutosave(state);
  step("autosave (the library is read on its own thread)");
  if (!state.options.reference_path.empty() &&
      !LoadReference(state, state.options.reference_path)) {
    *error = state.panel.status;
    return false;
  }
  // The command line's mirror over an asymmetric rest: said on the terminal as by `pose`.
  if (const std::string warning = MirrorWarning(*state.loaded.session); !warning.empty()) {
    PrintWarning(std::cerr, warning);
  }
  // Props and a ladder far off the character's size, and bones inside them: as `pose` says.
  for (const std::string& warning : WorldWarnings(*state.loaded.session)) {
    PrintWarning(std::cerr, warning);
  }
  if (const std::optional<CameraSetting>& camera = state.options.camera) {
    state.camera.yaw_deg += camera->yaw_deg;  // 0: in front of the character
    state.camera.pitch_deg = camera->pitch_deg;
    if (camera->distance > 0.0f) state.camera.distance = camera->distance;
  }
  return true;
}

// Quit and window events, a dropped file, then mouse and keys (ImGui sees every event first).
void HandleEvent(ViewerState& state, const SDL_Event& event) {
  ImGui_ImplSDL2_ProcessEvent(&event);
  const bool ours = event.type == SDL_WINDOWEVENT &&
                    event.window.windowID == SDL_GetWindowID(state.window->sdl_window());
  if (event.type == SDL_QUIT || (ours && event.window.event == SDL_WINDOWEVENT_CLOSE)) {
    RequestQuit(state);  // asks first when there are unsaved edits
  } else if (ours && event.window.event == SDL_WINDOWEVENT_MINIMIZED) {
    state.minimized = true;
  } else if (ours && (event.window.event == SDL_WINDOWEVENT_RESTORED ||
                      event.window.event == SDL_WINDOWEVENT_SHOWN)) {
    state.minimized = false;
  } else if (event.type == SDL_DROPFILE) {
    const std::string path = event.drop.file;
    SDL_free(event.drop.file);
    std::string error;
    if (IsImageFile(path)) {
      LoadReference(state, path);                        // a picture to pose against, not a model
    } else if ((SDL_GetModState() & KMOD_SHIFT) != 0) {  // Shift: a prop before the character
      state.panel.status =
          AddProp(state, path, &error) ? "added prop " + path : "could not add " + error;
    } else {
      OpenModelFile(state, path, {}, &state.panel.status);  // the current model stays
    }
  } else {
    HandleInput(state, event);
  }
}

void Frame(ViewerState& state, float seconds) {
  const auto start = std::chrono::steady_clock::now();
  int width = 0, height = 0;
  state.window->DrawableSize(&width, &height);

  PollLibrary(state, /*wait=*/false);
  // Panel -> commands: the panel edits the session and asks for commands, applied here.
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplSDL2_NewFrame();
  ImGui::NewFrame();
  state.panel.status_ok = !state.panel.status.empty() && state.panel.status == state.done_status;
  state.panel.unsaved = UnsavedEdits(state);
  if (PanelShown(state)) {
    ui::DrawMainPanel(state.loaded.session.get(), state.panel);
    DrawTimeline(state);
  }
  if (state.safety.quit_asked) ui::DrawQuitQuestion(state.panel, ScenePath(state));
  if (state.panel.corner_view) LabelCornerView(state, width, height);
  HoverLabel(state);
  DrawPropRing(state, width, height);
  DrawRings(state, width, height);
  TransformHeader(state);
  ImGui::Render();
  ApplyCommands(state);
  // The library's thumbnails are wanted from the frame after its section opens.
  if (state.panel.library.shown && state.panel.library.thumbnails_stale) SyncThumbnails(state);
  if (state.panel.ready.shown && state.panel.ready.stale) SyncReadyThumbnails(state);
  if (!state.options.offscreen) StepAutosave(state, seconds);
  ApplyTimelineCommands(state);
  StepBake(state);

  // Pose: the clip moves on, then base pose + IK, then the GPU palette.
  scene::PosingSession& session = *state.loaded.session;  // "load scene" may have replaced it
  const float record_seconds = ApplyLink(state, seconds);
  session.Advance(seconds);
  state.history.FollowPlayback(session);
  session.Evaluate();
  state.loaded.renderer->UpdatePose(*state.loaded.model, session.pose().models_ms);
  RecordTimeline(state, record_seconds);

  // Overlays: floor grid under the model; targets, circles and skeleton on top.
  state.grid_lines.Clear();
  state.overlay_lines.Clear();
  StepStability(state, state.overlay_lines);
  if (state.options.grid) {
    scene::DrawFloorGrid(state.loaded.center_ms, state.loaded.floor_y, state.loaded.height,
                         state.grid_lines);
  }
  if (!state.options.offscreen || state.options.overlay) {
    scene::DrawOverlays(session, state.panel.overlays, state.loaded.height, state.overlay_lines);
    DrawTimelineOverlays(state, state.overlay_lines);
    DrawAxisLock(state, state.overlay_lines);
  }
  scene::DrawGroundContacts(session, state.loaded.height, state.overlay_lines);
  if (std::string error; !SyncProps(state, &error)) state.panel.status = error;

  // Rendering. The window's first frame goes straight to the screen without multisampling
  // (see FramePainter::Begin); screenshots always use the multisampled target.
  const bool direct = !state.options.offscreen && state.first_frame_ms == 0.0f;
  state.painter.Begin(width, height, direct);
  state.camera.fov_y_deg = state.panel.picture.fov_y_deg;
  // Centre the model in what the docked panel leaves free at the left.
  state.camera.shift_ndc_x =
      PanelShown(state) ? state.panel.width / static_cast<float>(std::max(width, 1)) : 0.0f;
  state.camera.shift_ndc_y =
      PanelShown(state) && state.timeline.visible
          ? state.timeline.panel.height / static_cast<float>(std::max(height, 1))
          : 0.0f;
  const float aspect = static_cast<float>(width) / static_cast<float>(std::max(height, 1));
  const glm::mat4 view_proj = state.camera.Projection(aspect) * state.camera.View();
  DrawReference(state, view_proj);
  state.painter.DrawLines(state.grid_lines, view_proj, false);
  state.loaded.renderer->SetHighlight(state.mouse == MouseMode::kNone ? state.hover_bone : -1);
  state.loaded.renderer->Draw(view_proj, KeyLight(state.camera));
  DrawProps(state, view_proj, KeyLight(state.camera));
  state.painter.DrawLines(state.overlay_lines, view_proj, true);
  if (state.panel.corner_view) DrawCornerView(state, width, height);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  state.painter.End();

  state.panel.frame_ms_gpu = state.painter.gpu_ms();
  state.panel.frame_ms_cpu =
      std::chrono::duration<float, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// The window's loop: events, then a frame, then swap. A minimised window waits for events.
void RunWindow(ViewerState& state) {
  int frames = 0;
  int drawn = 0;
  while (state.running) {
    SDL_Event event;
    if (state.minimized && SDL_WaitEvent(&event)) HandleEvent(state, event);
    while (SDL_PollEvent(&event)) HandleEvent(state, event);
    if (!state.running || state.minimized) continue;
    const auto now = std::chrono::steady_clock::now();
    const float seconds = std::chrono::duration<float>(now - state.last_frame).count();
    state.last_frame = now;
    Frame(state, seconds);
    if (state.first_frame_ms == 0.0f)
      state.startup_ms.emplace_back("first frame drawn", MsSinceStart());
    state.window->Swap();
    if (state.first_frame_ms == 0.0f) {
      state.first_frame_ms = MsSinceStart();
      state.startup_ms.emplace_back("first frame on screen", state.first_frame_ms);
      StartLibrary(state);  // read once the window is up, not on the way to it
    }
    // ImGui lays its windows out in the first frame and draws them in the second: from then
    // on a click lands where the panel shows a button. The title says the window is ready.
    if (++drawn == 2) SDL_SetWindowTitle(state.window->sdl_window(), "ikpose");
    const int quit_after = state.options.quit_after_frames;
    if (quit_after > 0 && ++frames >= quit_after) break;
  }
}

void Cleanup(ViewerState& state) {
  if (!state.imgui_ready) return;
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplSDL2_Shutdown();
  ImGui::DestroyContext();
}

}  // namespace

int RunViewer(const ViewerOptions& options) {
  auto state = std::make_unique<ViewerState>();
  state->options = options;
  std::string error;
  int exit_code = 0;
  if (!Init(*state, &error, &exit_code)) {
    PrintError(std::cerr, error);
  } else if (options.offscreen) {
    exit_code = 0;
    for (int i = 0; i < 2; ++i) Frame(*state, 0.0f);  // ImGui sizes its windows on the first
    if (!render::WritePngAtomically(options.screenshot_path, state->painter.width(),
                                    state->painter.height(), state->painter.ReadRgba(), &error)) {
      PrintError(std::cerr, error);
      exit_code = 1;
    }
  } else {
    exit_code = 0;
    RunWindow(*state);
    RemoveAutosave(*state);  // a clean exit: nothing to offer back next time
  }
  if (exit_code == 0 && !options.report_path.empty()) {
    FinishLink(*state);
    FinishStability(*state);
  }
  if (exit_code == 0 && !options.report_path.empty() && !WriteViewerReport(*state, &error)) {
    PrintError(std::cerr, error);
    exit_code = 1;
  }
  Cleanup(*state);
  return exit_code;
}

}  // namespace ikpose::app
