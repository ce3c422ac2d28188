// The timeline panel: a recording's per-limb values plotted over its frames, a playhead, the
// pops marked in red, and the controls of the recording (record, clear, save, load).
//
// What: along the bottom of the window, beside the docked main panel. One value at a time
// (`TimelineValue`: reach margin, knee jump, bend, swivel, flip margin, hip and knee swing and
// twist) is plotted per limb in the limb's colour; dragging on the plot asks for that frame (a
// ShowFrame command), a click on a red tick selects the pop (and its frame), and the pop
// selected is explained in words: limb, frame, time, knee jump and the named cause. Ghost
// toggles say which policies the viewport draws beside the pose; the pop counts per policy are
// shown once the app has counted them.
// Why: issue 13: a pop is found and understood by looking at the values over time.
// Limits: draws with ImGui's draw lists only (no plotting library, no GL). A recording longer
// than the plot is wide is drawn one frame per pixel column's first frame (a one-frame spike
// between columns can hide; its red tick does not).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "scene/session/trace.h"
#include "scene/trace/pop_detector.h"
#include "ui/knee_policies.h"

namespace ikpose::ui {

enum class TimelineValue {
  kReachMargin,
  kKneeJump,  // |knee_i - knee_{i-1}|, model units per frame
  kBend,
  kSwivel,
  kFlipMargin,
  kHipSwing,
  kHipTwist,
  kKneeSwing,
  kKneeTwist,
};
inline constexpr int kTimelineValues = 9;
const char* TimelineValueName(TimelineValue value);
// The value of `limb` in frames[i] (0 where the limb was not solved; knee jump 0 at i = 0 or
// after an unsolved frame).
float TimelineValueAt(const scene::TraceRecorder& frames, std::size_t i, anim::Limb limb,
                      TimelineValue value);

// What the timeline's buttons and plot ask for, each with its arguments.
namespace timeline_cmd {
struct ToggleRecord {};
struct Clear {};
struct Save {  // the recording to this trace file
  std::string path;
};
struct Load {  // this trace file as the recording
  std::string path;
};
struct CountPolicies {};  // the pops under each knee policy
struct ShowFrame {        // the frame at this index in the viewport
  int index = -1;
};
}  // namespace timeline_cmd
using TimelineCommand =
    std::variant<timeline_cmd::ToggleRecord, timeline_cmd::Clear, timeline_cmd::Save,
                 timeline_cmd::Load, timeline_cmd::CountPolicies, timeline_cmd::ShowFrame>;

// What the app shows in the panel (read only here).
struct TimelineView {
  const scene::TraceRecorder* frames = nullptr;
  const std::vector<scene::Pop>* pops = nullptr;
  int shown = -1;  // index of the frame on screen
  bool recording = false;
  std::string source;  // "live" or the trace file's name
  // Pops over the recording under each policy (none: not counted yet, or no pole).
  PerKneePolicy<std::optional<int>> policy_pops;
};

struct TimelinePanelState {
  bool open = false;  // closed: a bar with the frame and pop counts
  TimelineValue value = TimelineValue::kKneeJump;
  std::array<bool, 4> limbs{true, true, true, true};  // which limbs are plotted
  PerKneePolicy<bool> ghosts{true};                   // which policies' ghosts are drawn
  int selected_pop = -1;                              // index into TimelineView::pops
  std::string path = "ikpose-trace.jsonl";            // what save writes and load reads
  std::string status;                                 // one line: the last save or load
  float height = 0.f;                                 // drawn height in pixels
  // Asked this frame, in order; the app applies and clears them.
  std::vector<TimelineCommand> commands;
};

// Draws along the bottom of the display, right of `left_px` (the main panel's width).
void DrawTimelinePanel(const TimelineView& view, float left_px, TimelinePanelState& state);

}  // namespace ikpose::ui
