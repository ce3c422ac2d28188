// Quitting without losing a pose: the quit question, and the autosave a crash leaves behind.
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>

#include "anim/file_paths.h"
#include "app/autosave_files.h"
#include "app/viewer_state.h"
#include "scene/files/scenario.h"

namespace ikpose::app {

namespace fs = std::filesystem;

namespace {

// What counts as an edit: a playing clip moves its time by itself, which is not one.
scene::PosingSnapshot EditableState(const ViewerState& state) {
  scene::PosingSnapshot snapshot = scene::CaptureSnapshot(*state.loaded.session);
  if (state.loaded.session->edits.playback.playing) snapshot.playback.time = 0.0f;
  return snapshot;
}

std::string FileTime(const fs::path& path) {
  std::error_code ec;
  const auto written = fs::last_write_time(path, ec);
  if (ec) return "an earlier session";
  // The file clock's epoch is not the system clock's: go through "now" on both.
  const auto system = std::chrono::time_point_cast<std::chrono::system_clock::duration>(
      written - fs::file_time_type::clock::now() + std::chrono::system_clock::now());
  const std::time_t t = std::chrono::system_clock::to_time_t(system);
  std::tm local{};
  localtime_r(&t, &local);
  char text[64];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M", &local);
  return text;
}

}  // namespace

void SayDone(ViewerState& state, std::string text) {
  state.panel.status = std::move(text);
  state.done_status = state.panel.status;
}

bool UnsavedEdits(const ViewerState& state) {
  // A live game moves the targets itself: what it sent is not the user's work to save.
  if (state.link.receiver) return false;
  return state.loaded.session && !(EditableState(state) == state.safety.saved);
}

void MarkSaved(ViewerState& state) {
  state.safety.saved = EditableState(state);
}

void RequestQuit(ViewerState& state) {
  if (UnsavedEdits(state)) {
    state.safety.quit_asked = true;
    return;
  }
  state.running = false;
}

void AnswerQuit(ViewerState& state, ui::QuitAnswer answer) {
  state.safety.quit_asked = false;
  if (answer == ui::QuitAnswer::kStayOpen) return;
  if (answer == ui::QuitAnswer::kSaveAndQuit && !SaveScene(state)) return;  // the status says why
  state.running = false;
}

void StepAutosave(ViewerState& state, float seconds) {
  if (state.options.autosave_seconds <= 0.0f || !state.safety.restore_offer.empty()) return;
  state.safety.since_autosave_s += seconds;
  if (state.safety.since_autosave_s < state.options.autosave_seconds) return;
  state.safety.since_autosave_s = 0.0f;
  const scene::PosingSnapshot now = EditableState(state);
  if (!state.safety.own || state.safety.own->path().empty()) return;
  const fs::path path = state.safety.own->path();
  if (now == state.safety.autosaved || (now == state.safety.saved && !fs::exists(path))) return;
  std::error_code ec;
  // The model by its absolute path: the autosave folder is not beside it.
  const std::string model = fs::absolute(state.loaded.path, ec).string();
  std::string error;
  if (scene::SaveScenario(path.string(), scene::CaptureScenario(*state.loaded.session, model),
                          &error)) {
    state.safety.autosaved = now;
  } else {
    state.panel.status = "autosave: " + error;
  }
}

void FindAutosave(ViewerState& state) {
  const fs::path folder = AutosaveFolder();
  state.safety.own = std::make_unique<OwnAutosave>(folder);
  const fs::path path = FindOrphanAutosave(folder, state.safety.own->path());
  if (path.empty()) return;
  state.safety.restore_offer = path;
  state.safety.restore_when = FileTime(path);
  state.panel.restore_offer = "ikpose did not close cleanly at " + state.safety.restore_when +
                              ": its last autosave can be restored.";
}

void AnswerAutosave(ViewerState& state, bool restore) {
  const fs::path path = state.safety.restore_offer;
  if (path.empty()) return;
  state.safety.restore_offer.clear();
  state.panel.restore_offer.clear();
  if (restore) {
    // Restored edits are not saved anywhere yet: quitting asks.
    if (LoadSceneFrom(state, path.string()))
      SayDone(state, "restored the autosave of " + state.safety.restore_when);
  }
  RemoveAutosaveFile(path);
  state.safety.autosaved = scene::PosingSnapshot{};
}

void RemoveAutosave(ViewerState& state) {
  // An orphan offered and not answered stays for next time; this window's own goes.
  if (state.safety.own) state.safety.own->Remove();
  state.safety.own.reset();
}

}  // namespace ikpose::app
