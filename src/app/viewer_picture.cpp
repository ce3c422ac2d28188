// A picture of the view from the window (F12, the Picture section's button): the character as
// the camera sees it, without the panel or the overlays, at the window's size or a chosen one,
// optionally on a transparent background, written atomically as a PNG beside the scene file (or
// in the working directory) under a name that does not replace an earlier picture.
#include <cctype>
#include <chrono>
#include <ctime>
#include <filesystem>

#include "anim/bounded_input.h"
#include "app/paths.h"
#include "app/viewer_state.h"
#include "render/png_file.h"

namespace ikpose::app {

namespace {

std::filesystem::path PicturePath(const ViewerState& state) {
  const std::filesystem::path beside = PosedExportPath(state.scene_path, state.loaded.path);
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm local{};
  localtime_r(&now, &local);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
  const std::string stem = std::filesystem::path(state.loaded.path).stem().string() + "-" + stamp;
  std::filesystem::path path = beside.parent_path() / (stem + ".png");
  std::error_code ec;
  for (int n = 2; std::filesystem::exists(path, ec) && n < 1000; ++n)
    path = beside.parent_path() / (stem + "-" + std::to_string(n) + ".png");
  return path;
}

constexpr std::size_t kMaxImageBytes = 64u << 20;
constexpr int kMaxImageSide = 8192;

}  // namespace

bool IsImageFile(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".png" || ext == ".jpg" || ext == ".jpeg";
}

bool LoadReference(ViewerState& state, const std::string& path) {
  std::string bytes, error;
  render::RgbaImage image;
  // Its shaders are compiled on the first image, off the path to the first frame.
  if (!state.reference.ready() && !state.reference.Init(DataDir() / "shaders", &error)) {
    state.panel.status = error;
    return false;
  }
  if (!anim::ReadRegularFile(path, kMaxImageBytes, &bytes, &error)) {
    state.panel.status = error;
    return false;
  }
  if (!render::DecodePng(bytes, kMaxImageSide, &image, &error)) {
    state.panel.status = path + ": " + error;
    return false;
  }
  state.reference.SetImage(image);
  state.panel.picture.reference_path = path;
  state.panel.picture.reference_shown = true;
  SayDone(state, "showing " + path + " behind the character");
  return true;
}

void DrawReference(ViewerState& state, const glm::mat4& view_proj) {
  const ui::PicturePanel& picture = state.panel.picture;
  if (!state.reference.has_image() || !picture.reference_shown) return;
  // As tall as the character (a little more), standing on its floor, behind it as seen from
  // the front (or from its right side).
  const glm::vec3 up(0.0f, 1.0f, 0.0f);
  const glm::vec3 forward = state.loaded.model->chains.forward_ms;
  const glm::vec3 left = glm::normalize(glm::cross(up, forward));
  const glm::vec3 toward_eye = picture.reference_side ? -left : forward;
  const glm::vec3 screen_right = glm::cross(-toward_eye, up);
  const float h = 1.1f * state.loaded.height;
  const float w = h * state.reference.aspect();
  glm::vec3 base = state.loaded.center_ms - toward_eye * state.loaded.radius * 0.6f;
  base.y = state.loaded.floor_y;
  state.reference.Draw(
      {base - 0.5f * w * screen_right, base + 0.5f * w * screen_right,
       base + 0.5f * w * screen_right + h * up, base - 0.5f * w * screen_right + h * up},
      view_proj, picture.reference_opacity);
}

void TakeScreenshot(ViewerState& state, const ui::cmd::Screenshot& how) {
  int width = 0, height = 0;
  state.window->DrawableSize(&width, &height);
  if (!how.window_size) {
    width = how.width;
    height = how.height;
  }
  if (width <= 0 || height <= 0) return;
  // The camera as on screen, centred in the whole picture (no panel beside it).
  OrbitCamera camera = state.camera;
  camera.shift_ndc_x = camera.shift_ndc_y = 0.0f;
  const glm::mat4 view_proj =
      camera.Projection(static_cast<float>(width) / static_cast<float>(height)) * camera.View();
  const render::Lighting lighting = KeyLight(camera);
  state.painter.Begin(width, height, false, how.transparent);
  if (!how.transparent) {
    DrawReference(state, view_proj);
    state.painter.DrawLines(state.grid_lines, view_proj, false);
  }
  state.loaded.renderer->SetHighlight(-1);
  state.loaded.renderer->Draw(view_proj, lighting);
  state.painter.End();  // the window's frame that follows draws over what this left there
  const std::filesystem::path path = PicturePath(state);
  std::string error;
  if (render::WritePngAtomically(path.string(), width, height, state.painter.ReadRgba(), &error)) {
    SayDone(state, "saved a " + std::to_string(width) + "x" + std::to_string(height) +
                       " picture to " + path.string());
  } else {
    state.panel.status = error;
  }
}

}  // namespace ikpose::app
