// The viewer's end of the live link (`view --listen`): the game's newest targets put into the
// live session once a frame, where the timeline records them and finds the pops as they happen.
//
// What: each frame, before the session is evaluated, the keys the receiver queued
// (app/link_receiver.h) are taken without waiting, and every limb they place gets its newest
// target and pole (held as `trace --targets` holds them: a limb left out keeps its target). A
// paused timeline (recording off: scrubbing) takes the keys but applies none, so scrubbing is
// not overwritten; resuming applies the next ones. The panel's status line shows the link.
// Why: issue 22: watch the running game, record it, scrub it.
// A line's optional clip time, ladder and props go into the session too (the clip paused at the
// game's time, the ladder shown, the props moved).
// The timeline records them with the targets (scene/trace/timeline.h).
// Every key is a frame of the timeline (the game's rate, not the window's), timed by the game's
// clock.
// Limits: at most kMaxKeysAFrame keys are recorded a window frame; beyond, the oldest of them
// are skipped (counted as merged), so a game flooding the link never stalls the window.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/link_receiver.h"
#include "asset/report.h"
#include "scene/files/trace_file.h"
#include "scene/session/trace.h"

namespace ikpose::app {

struct ViewerState;

struct ViewerLink {
  // The most keys one window frame records (a flood past it keeps the newest): the session is
  // evaluated once a key, some 40 us on the bundled character.
  static constexpr std::size_t kMaxKeysAFrame = 64;

  std::unique_ptr<LinkReceiver> receiver;
  LinkStatus status;
  std::size_t applied = 0;                     // keys put into the session
  std::size_t skipped = 0;                     // keys taken while the timeline was paused
  std::size_t merged = 0;                      // keys past kMaxKeysAFrame, not recorded
  std::vector<scene::PropInput> placed_props;  // the props the game last moved
  std::optional<scene::TargetKey> last;        // the newest key applied
};

// Before the window opens: --listen checked (exit 2) and bound (exit 1). False with one line.
bool StartLink(ViewerState& state, std::string* error, int* exit_code);
// Once a frame, before Evaluate: the keys queued since the last frame, each but the newest
// evaluated and recorded on the timeline. Returns the seconds to record the window's frame with
// (the game's, from its previous frame, when one came; else `seconds`).
float ApplyLink(ViewerState& state, float seconds);
// When the window has closed, before --report: the link stops and the frames it read since the
// window's last frame are recorded, so the report holds every frame the game sent before then.
void FinishLink(ViewerState& state);
// For `--report`: the address, the game, frames received, applied, skipped and dropped.
asset::Json LinkReport(const ViewerState& state);

}  // namespace ikpose::app
