// Where the viewer's autosaves live, one per window, and which of them a crash left behind.
//
// What: every window autosaves into its own `autosave-PID.json` in the per-user state folder
// ($XDG_STATE_HOME/ikpose, else ~/.local/state/ikpose) and holds an flock on `autosave-PID.lock`
// while it runs. An autosave whose lock nobody holds belongs to a window that did not close
// cleanly: that one is offered back.
// Why: two windows open at once must not overwrite each other's autosave, and a window that is
// still running must not have its autosave offered to (and deleted by) another one. The lock,
// not the process id, says who is alive: the kernel drops it when the process dies, however it
// dies, and a reused process id cannot fake it.
#pragma once

#include <filesystem>

namespace ikpose::app {

// The per-user folder for autosaves; empty when there is no such folder for this user.
std::filesystem::path AutosaveFolder();

// This window's own autosave, locked for as long as the object lives.
class OwnAutosave {
 public:
  // Takes autosave-PID.json in `folder` (created when missing); path() is empty when the
  // folder cannot be made or the lock cannot be taken (then nothing is autosaved).
  explicit OwnAutosave(const std::filesystem::path& folder);
  ~OwnAutosave();  // removes nothing: a clean exit calls Remove() first
  OwnAutosave(const OwnAutosave&) = delete;
  OwnAutosave& operator=(const OwnAutosave&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // The autosave and its lock gone: the window closed cleanly.
  void Remove();

 private:
  std::filesystem::path path_;
  std::filesystem::path lock_path_;
  int lock_fd_ = -1;
};

// The newest autosave in `folder` that no running window holds (a crash left it), or empty.
// `own` (this window's) is never returned. Looks at no more than a few thousand entries.
std::filesystem::path FindOrphanAutosave(const std::filesystem::path& folder,
                                         const std::filesystem::path& own);

// Removes an orphan autosave and its lock file.
void RemoveAutosaveFile(const std::filesystem::path& autosave);

}  // namespace ikpose::app
