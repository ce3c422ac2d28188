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
// The timeline records them with the targets (scene/timeline.h).
// Limits: several keys arriving within one window frame give that frame the newest one (the
// timeline records at the window's rate, not the game's).
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "app/link_receiver.h"
#include "asset/report.h"
#include "scene/trace.h"

namespace ikpose::app {

struct ViewerState;

struct ViewerLink {
  std::unique_ptr<LinkReceiver> receiver;
  LinkStatus status;
  std::size_t applied = 0;                     // keys put into the session
  std::size_t skipped = 0;                     // keys taken while the timeline was paused
  std::vector<scene::PropInput> placed_props;  // the props the game last moved
};

// Before the window opens: --listen checked (exit 2) and bound (exit 1). False with one line.
bool StartLink(ViewerState& state, std::string* error, int* exit_code);
// Once a frame, before Evaluate.
void ApplyLink(ViewerState& state);
// For `--report`: the address, the game, frames received, applied, skipped and dropped.
asset::Json LinkReport(const ViewerState& state);

}  // namespace ikpose::app
