// The viewer's timeline: a live recording of the posing session, and frames put back into it.
//
// What: `Timeline` holds a TraceRecorder (scene/session/trace.h) that the viewer feeds once per
// frame through `RecordLive`, which pushes a frame only when the session's situation changed since
// the last push or restore (a paused, untouched viewer records nothing). `LiveInputs` reads a live
// session's input the way a trace stores it (the given targets, the poles in use);
// `RestoreInput` puts a recorded frame's input (clip time, targets, poles, policies) back into a
// live session as one PosingEdits value (`RestoredEdits`: the session's edits with the frame's
// input in them); `SolveLive` solves a frame's input on a copy of the live
// session, under another policy when asked (the viewer's ghosts and per-policy pop counts for
// recordings made in the window). A timeline opened from a trace file keeps the trace's request
// (`base`), and its frames are restored and re-solved through scene::SolveFrame instead, which is
// exactly what `ikpose trace` computed.
// Why: issue 13: scrubbing must show the frame as it was recorded, and a recording must not fill
// with copies of a still frame.
// A live frame also records the ladder in force (where it stands and its sizes; none when it is
// off) and where every prop stands, so a game's moved ladder and props are put back too.
// Limits: a live frame's input is its targets, poles, policies, clip time, ladder and props;
// what else the session holds (limb options, the body) is the live session's when it is
// restored, so edit those and the restored frame differs from the recording. Limbs placed by the
// ladder following a clip are re-snapped from the clip time, not from the recorded target.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "scene/files/trace_file.h"
#include "scene/road/posing_request.h"
#include "scene/session/trace.h"
#include "scene/trace/pop_detector.h"

namespace ikpose::scene {

struct Timeline {
  explicit Timeline(std::size_t capacity = TraceRecorder::kDefaultCapacity) : recorder(capacity) {}

  TraceRecorder recorder;
  bool recording = true;
  float clock = 0.f;  // seconds of recording since the last clear
  int next_frame = 0;
  // The situation last pushed or restored: a frame equal to it is not pushed again.
  std::optional<TraceFrame> last;
  // Bumped by every change of the frames kept; caches compare it.
  std::uint64_t revision = 0;
  int shown = -1;  // the index of the frame on screen; -1: none (empty)
  // A timeline read from a trace file: its header and the request its frames were solved from.
  std::optional<PosingRequest> base;
  TraceHeader header;
};

// The session's input as a trace stores it: per limb, the target when given and enabled, and
// the pole when the limb uses one.
std::array<LimbInput, 4> LiveInputs(const PosingSession& session);

// The session's props where they stand, as a trace frame holds them (every prop, by index).
std::vector<PropInput> PlacedProps(const PosingSession& session);

// Equal inputs, clip time, limb samples, ladder and props (frame numbers and times aside).
bool SameSituation(const TraceFrame& a, const TraceFrame& b);

// After the session's Evaluate: records it if the timeline is recording and the situation
// changed (the first situation seen is kept as the baseline, pushed as frame 0 with the first
// change). `seconds` is the frame's duration (it advances the recording's clock). True when a
// frame was pushed (it is then the frame shown).
bool RecordLive(const PosingSession& session, float seconds, Timeline& timeline);

// Empties the recording (a trace's request is dropped too: what follows is live).
void ClearTimeline(Timeline& timeline);

// One limb's input (a trace frame's, a live game's) put on its target: placed, enabled, off any
// rung, at the input's point, and toward its pole under the pole policy when it has one. False,
// and the target untouched, when the input places no target.
bool PlaceInput(const LimbInput& in, LimbTarget& target);

// The session's edits with the frame's input in them: clip time (paused), every limb's target
// (given when the frame gave it, else back on its hand or foot), pole and policy, the ladder
// (off when the frame has none) and the props' places; every other edit as the session has it.
PosingEdits RestoredEdits(const TraceFrame& frame, const PosingSession& session);
// session.edits = RestoredEdits(frame, session), in one assignment. Evaluate afterwards.
void RestoreInput(const TraceFrame& frame, PosingSession& session);

// Every limb the frame's input gives switched to `policy` as `--policy` does (pole: only the
// limbs with a pole; seed and natural drop the pole).
void ApplyPolicy(const TraceFrame& frame, anim::KneePolicy policy, PosingSession& session);

// The frame's input solved on a copy of `live` (under `policy` when given), recorded.
TraceFrame SolveLive(const PosingSession& live, const TraceFrame& input,
                     std::optional<anim::KneePolicy> policy);

}  // namespace ikpose::scene
