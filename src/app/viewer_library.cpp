// The viewer's pose library and hands: opening the library folder, its thumbnails as GL
// textures for the panel, and the library and hand commands (each edit one undo step).
#include <imgui.h>

#include <chrono>
#include <cstdint>
#include <future>

#include "app/viewer_state.h"
#include "render/png_file.h"
#include "scene/session/ready_poses.h"

namespace ikpose::app {

namespace {

constexpr int kThumbnailPixels = 160;  // saved thumbnails are this square
constexpr int kMaxThumbnailSide = 1024;

// The current pose from the front (turned by `yaw_deg` toward the character's left, and from a
// little above when turned), framed, as a square RGBA image.
std::vector<std::uint8_t> PaintThumbnail(ViewerState& state, float yaw_deg = 0.0f) {
  OrbitCamera camera;
  camera.Frame(state.loaded.center_ms, state.loaded.radius);
  camera.LookFrom(OrbitCamera::Side::kFront, FacingYawDeg(state));
  if (yaw_deg != 0.0f) camera.Orbit(yaw_deg, 15.0f);
  const glm::mat4 view_proj = camera.Projection(1.0f) * camera.View();
  render::Lighting lighting;
  lighting.eye_ms = camera.Eye();
  return state.thumbnail_painter.Paint(kThumbnailPixels,
                                       [&] { state.loaded.renderer->Draw(view_proj, lighting); });
}

// The same as a PNG; empty on failure (the pose is saved without a picture).
std::string RenderThumbnail(ViewerState& state, std::string* error) {
  const std::vector<std::uint8_t> rgba = PaintThumbnail(state);
  std::string png;
  if (!render::EncodePng(kThumbnailPixels, kThumbnailPixels, rgba, &png, error)) return "";
  return png;
}

// A session edit as one undo step, named.
template <typename Edit>
void LibraryStep(ViewerState& state, const std::string& label, Edit&& edit) {
  state.history.Commit(*state.loaded.session);
  edit(*state.loaded.session);
  state.history.Commit(*state.loaded.session, label);
}

}  // namespace

void StartLibrary(ViewerState& state) {
  const std::filesystem::path folder = state.options.library_dir.empty()
                                           ? scene::DefaultLibraryFolder()
                                           : std::filesystem::path(state.options.library_dir);
  state.library_reading = std::async(
      std::launch::async, [folder] { return std::make_unique<scene::PoseLibrary>(folder); });
}

void PollLibrary(ViewerState& state, bool wait) {
  if (!state.library_reading.valid()) return;
  if (!wait &&
      state.library_reading.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
    return;
  }
  state.library = state.library_reading.get();
  state.panel.library.library = state.library.get();
  // Thumbnails are decoded and uploaded when the section is first opened, not before.
  state.panel.library.thumbnails_stale = true;
}

void SyncThumbnails(ViewerState& state) {
  ui::LibraryPanel& panel = state.panel.library;
  panel.thumbnails_stale = false;
  // This frame's panel was drawn with the current textures: they go once it is on screen.
  for (auto& [name, texture] : state.thumbnails)
    state.retired_thumbnails.push_back(std::move(texture));
  state.thumbnails.clear();
  panel.thumbnails.clear();
  panel.thumbnail_errors.clear();
  for (const scene::LibraryEntry& e : state.library->entries()) {
    if (e.thumbnail.empty()) continue;
    render::RgbaImage image;
    std::string error;
    if (!render::DecodePng(e.thumbnail, kMaxThumbnailSide, &image, &error)) {
      panel.thumbnail_errors[e.name] = error;
      continue;
    }
    auto texture = std::make_unique<render::ImageTexture>(image);
    panel.thumbnails[e.name] = reinterpret_cast<void*>(static_cast<std::uintptr_t>(texture->id()));
    state.thumbnails[e.name] = std::move(texture);
  }
}

void SyncReadyThumbnails(ViewerState& state) {
  state.panel.ready.stale = false;
  scene::PosingSession& session = *state.loaded.session;
  const scene::PosingSnapshot now = scene::CaptureSnapshot(session);
  for (std::size_t i = 0; i < scene::kReadyPoses.size(); ++i) {
    std::string error;
    if (scene::ApplyReadyPose(session, scene::kReadyPoses[i], &error)) {
      state.loaded.renderer->UpdatePose(*state.loaded.model, session.pose().models_ms);
      // Three quarters: a seat or a stride shows its depth.
      render::RgbaImage image{kThumbnailPixels, kThumbnailPixels, PaintThumbnail(state, 40.0f)};
      state.ready_thumbnails[i] = std::make_unique<render::ImageTexture>(image);
    } else {
      state.ready_thumbnails[i].reset();
    }
    state.panel.ready.thumbnails[i] =
        state.ready_thumbnails[i]
            ? reinterpret_cast<void*>(static_cast<std::uintptr_t>(state.ready_thumbnails[i]->id()))
            : nullptr;
  }
  scene::RestoreSnapshot(now, session);  // the pictures leave the pose as it was
  state.loaded.renderer->UpdatePose(*state.loaded.model, session.pose().models_ms);
}

void ApplyReadyPose(ViewerState& state, scene::ReadyPose pose) {
  std::string error;
  state.panel.ready.note.clear();
  LibraryStep(state, std::string("ready pose ") + scene::ReadyPoseName(pose),
              [&](scene::PosingSession& s) {
                if (!scene::ApplyReadyPose(s, pose, &error)) state.panel.ready.note = error;
              });
}

namespace {

// After a library command that changed the folder: its thumbnails again, no stale list of
// unmatched bones.
void LibraryChanged(ViewerState& state) {
  state.panel.library.unmatched.clear();
  SyncThumbnails(state);
}

}  // namespace

// The library is read on its own thread: until it is, its section (whose buttons make these
// commands) is not shown, and a command does nothing.
void LibrarySave(ViewerState& state, const std::string& name) {
  if (!state.library) return;
  ui::LibraryPanel& panel = state.panel.library;
  std::string error;
  std::string thumbnail_error;
  const std::string png = RenderThumbnail(state, &thumbnail_error);
  if (state.library->Save(name, *state.loaded.session, state.loaded.path, png, &error)) {
    panel.note =
        "saved '" + name + "'" + (png.empty() ? " without a picture: " + thumbnail_error : "");
    panel.selected = name;
    panel.rename_to = name;
  } else {
    panel.note = error;
  }
  LibraryChanged(state);
}

void LibraryApply(ViewerState& state, const std::string& name, const scene::ApplyOptions& options) {
  if (!state.library) return;
  ui::LibraryPanel& panel = state.panel.library;
  const scene::LibraryEntry* e = state.library->Find(name);
  if (e == nullptr || !e->error.empty()) return LibraryChanged(state);
  scene::ApplyResult result;
  LibraryStep(state, "apply pose " + e->name,
              [&](scene::PosingSession& s) { result = scene::ApplyPose(e->pose, options, s); });
  panel.unmatched = result.unmatched;
  panel.note = result.ok
                   ? "applied '" + e->name + "' to " + std::to_string(result.applied) + " bones"
                   : result.error;
  // Nothing on disk changed: the thumbnails stay.
}

void LibraryRename(ViewerState& state, const std::string& from, const std::string& to) {
  if (!state.library) return;
  ui::LibraryPanel& panel = state.panel.library;
  std::string error;
  if (state.library->Rename(from, to, &error)) {
    panel.note = "renamed '" + from + "' to '" + to + "'";
    panel.selected = to;
  } else {
    panel.note = error;
  }
  LibraryChanged(state);
}

void LibraryDelete(ViewerState& state, const std::string& name) {
  if (!state.library) return;
  ui::LibraryPanel& panel = state.panel.library;
  std::string error;
  if (state.library->Delete(name, &error)) {
    panel.note = "deleted '" + name + "'";
    if (panel.selected == name) panel.selected.clear();
  } else {
    panel.note = error;
  }
  LibraryChanged(state);
}

void LibraryRefresh(ViewerState& state) {
  if (!state.library) return;
  state.library->Refresh();
  LibraryChanged(state);
}

void PoseHand(ViewerState& state, anim::Limb arm, const scene::HandPose& hand, bool editing) {
  if (!state.library) return;  // the hands' section waits for the library's thread too
  ui::HandsPanel& hands = state.panel.hands;
  std::string error;
  const auto pose = [&](scene::PosingSession& s) {
    hands.note.clear();
    if (!scene::PoseHand(s, arm, hand, &error)) hands.note = error;
  };
  // A slider held is one step when released (ApplyCommands commits then).
  if (editing) {
    pose(*state.loaded.session);
  } else {
    LibraryStep(state, "pose " + std::string(anim::LimbName(arm)) + " hand", pose);
  }
}

}  // namespace ikpose::app
