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

void ApplyReadyPoseCommand(ViewerState& state) {
  const int chosen = state.panel.ready.chosen;
  if (chosen < 0 || chosen >= static_cast<int>(scene::kReadyPoses.size())) return;
  const scene::ReadyPose pose = scene::kReadyPoses[static_cast<std::size_t>(chosen)];
  std::string error;
  state.panel.ready.note.clear();
  LibraryStep(state, std::string("ready pose ") + scene::ReadyPoseName(pose),
              [&](scene::PosingSession& s) {
                if (!scene::ApplyReadyPose(s, pose, &error)) state.panel.ready.note = error;
              });
}

void ApplyLibraryCommand(ViewerState& state, ui::Command command, bool editing) {
  if (!state.library) return;  // still being read: the section that asks is not shown yet
  ui::LibraryPanel& panel = state.panel.library;
  std::string error;
  switch (command) {
    case ui::Command::kLibrarySave: {
      std::string thumbnail_error;
      const std::string png = RenderThumbnail(state, &thumbnail_error);
      if (state.library->Save(panel.save_name, *state.loaded.session, state.loaded.path, png,
                              &error)) {
        panel.note = "saved '" + panel.save_name + "'" +
                     (png.empty() ? " without a picture: " + thumbnail_error : "");
        panel.selected = panel.save_name;
        panel.rename_to = panel.save_name;
      } else {
        panel.note = error;
      }
      break;
    }
    case ui::Command::kLibraryApply: {
      const scene::LibraryEntry* e = state.library->Find(panel.selected);
      if (e == nullptr || !e->error.empty()) break;
      scene::ApplyResult result;
      LibraryStep(state, "apply pose " + e->name, [&](scene::PosingSession& s) {
        result = scene::ApplyPose(e->pose, panel.apply, s);
      });
      panel.unmatched = result.unmatched;
      panel.note = result.ok
                       ? "applied '" + e->name + "' to " + std::to_string(result.applied) + " bones"
                       : result.error;
      return;  // nothing on disk changed
    }
    case ui::Command::kLibraryRename:
      if (state.library->Rename(panel.selected, panel.rename_to, &error)) {
        panel.note = "renamed '" + panel.selected + "' to '" + panel.rename_to + "'";
        panel.selected = panel.rename_to;
      } else {
        panel.note = error;
      }
      break;
    case ui::Command::kLibraryDelete:
      if (state.library->Delete(panel.selected, &error)) {
        panel.note = "deleted '" + panel.selected + "'";
        panel.selected.clear();
      } else {
        panel.note = error;
      }
      break;
    case ui::Command::kLibraryRefresh:
      state.library->Refresh();
      break;
    case ui::Command::kPoseHand: {
      ui::HandsPanel& hands = state.panel.hands;
      const std::string arm(anim::LimbName(hands.arm));
      const auto pose = [&](scene::PosingSession& s) {
        hands.note.clear();
        if (!scene::PoseHand(s, hands.arm, hands.request, &error)) hands.note = error;
      };
      // A slider held is one step when released (ApplyCommands commits then).
      if (editing) {
        pose(*state.loaded.session);
      } else {
        LibraryStep(state, "pose " + arm + " hand", pose);
      }
      return;
    }
    default:
      return;
  }
  panel.unmatched.clear();
  SyncThumbnails(state);
}

}  // namespace ikpose::app
