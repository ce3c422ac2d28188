// The viewer's timeline host: records the live session, scrubs, saves and loads trace files,
// finds the pops and draws why they happened and what the other policies give.
//
// What: `ViewerTimeline` holds the recording (scene/trace/timeline.h), the panel's state
// (ui/timeline_panel.h) and what is derived from the recording alone, for one revision of it:
// its pops, the pop counts per policy and the ghosts of the frame shown. A frame is put back
// through the road its frames came from: a trace file's frames through scene::SolveFrame over
// the trace's request (what `ikpose trace` computed; the new session goes on screen through
// SwapSession), a live recording's as the live session's edits with the frame's input in them
// (scene::RestoreInput).
// Why: issue 13: record, plot, find the pop, understand it, compare policies.
// Limits: the pop counts per policy replay every frame (a session built per frame), so they are
// counted when asked (and when a trace opens), not while recording.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "anim/debug_draw.h"
#include "asset/report.h"
#include "scene/trace/timeline.h"
#include "ui/timeline_panel.h"

namespace ikpose::app {

struct ViewerState;
struct ViewerOptions;

// The timeline on screen: the recording, the panel's state, and what is derived from the
// recording (its pops, the pops per policy, the ghosts of the frame shown). Everything derived
// belongs to one revision of the recording (scene::Timeline::revision): Follow() drops it all
// at once when the frames changed, so no part can describe other frames than another.
struct ViewerTimeline {
  scene::Timeline timeline;
  ui::TimelinePanelState panel;
  bool visible = true;  // the panel is drawn (offscreen: only with --trace)
  std::string source = "live";

  // The revision `policy_pops`, `ghosts` and `pops_current` describe.
  std::uint64_t derived_revision = ~std::uint64_t{0};
  // Shown while frames keep coming in, recounted at most every kPopRefreshFrames frames.
  std::vector<scene::Pop> pops;
  bool pops_current = false;
  int frames_since_pops = 0;
  ui::PerKneePolicy<std::optional<int>> policy_pops;  // counted when asked
  // The ghosts of frame `ghost_frame` per policy (none: off, or no pole for the pole policy).
  ui::PerKneePolicy<std::optional<scene::TraceFrame>> ghosts;
  int ghost_frame = -1;

  bool Current() const { return derived_revision == timeline.revision; }
  // After the frames changed: what was derived from the old ones goes (the pops stay on
  // screen until recounted).
  void Follow();
  // An empty live recording, as the panel's "clear" leaves it.
  void Clear();
};

// Before the model opens: a trace file's header fills in what the command line left out (the
// model, the scene, the clip, the policies; the header's names are relative to the trace's
// folder). False with one line.
bool PlanTrace(ViewerOptions& options, scene::TraceHeader* header,
               std::vector<scene::TraceFrame>* frames, std::string* error);
// Once the model is open: the frames become the timeline, the frame `shown` is put in the
// viewport and the pops are counted per policy. False with one line.
// `base` is the request the frames were solved from (planned from the header).
bool StartTrace(ViewerState& state, const std::string& path, scene::TraceHeader header,
                std::vector<scene::TraceFrame> frames, const scene::PosingRequest& base, int shown,
                std::string* error);

// The panel, drawn inside the ImGui frame.
void DrawTimeline(ViewerState& state);
// After the panel's commands: scrubbing, record, clear, save, load, counting per policy.
void ApplyTimelineCommands(ViewerState& state);
// After the session's Evaluate: records the frame, refreshes the pops.
void RecordTimeline(ViewerState& state, float seconds);
// A live game's frame between two window frames: recorded (scene::RecordLive) without the
// ghosts and pops that RecordTimeline then refreshes once.
void RecordLinkFrame(ViewerState& state, float seconds);
// The selected pop's explanation and the ghosts, into the viewport's overlay lines.
void DrawTimelineOverlays(ViewerState& state, anim::DebugDraw& lines);
// For `--report`: frames, the frame shown, the pops with their causes, pops per policy and
// the ghosts' knees.
asset::Json TimelineReport(const ViewerState& state);

}  // namespace ikpose::app
