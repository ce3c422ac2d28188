// `ikpose trace [MODEL] [--scene FILE] [--targets PATH.jsonl] [--clip NAME] [--from T0] [--to T1]
// [--fps N] [--policy ...] [--out trace.jsonl] [--json] [--fail-on-pop]`: replay a situation
// frame by frame, headlessly, and find the pops.
//
// What: frames are sampled at --fps from --from to --to (defaults: the targets file's first and
// last times, else 0 and the clip's duration). Each frame's situation is the command line's
// (scenario, clip, policies) with the clip at the frame's time and the targets file's targets
// held from its last line at or before that time; it is built through the one road
// (app::PlanPose, scene::BuildSession) and solved from that frame's input pose alone (the
// clip's, else the rest pose), as a game's IK pass would: nothing carries over between frames.
// Every frame is recorded (scene/session/trace.h) and searched for pops
// (scene/trace/pop_detector.h); the same inputs are replayed under seed, natural and pole (pole
// only when the targets have poles) to count each policy's pops, two frames at a time. `--out`
// writes the trace file (scene/files/trace_file.h) frame by frame as each is solved, put in place
// at the end; `--json` prints the summary, `--fail-on-pop` exits 1 when a pop is found. Memory: the
// targets index (scene::ReadTargetsFile, at most one key a frame) and the solved frames (800 bytes
// each); each frame's input is made again from the index when needed. Why: a game's IK bug report
// is a path of targets; this turns it into numbers, pops with a cause, and a file the viewer can
// scrub.
// `--listen [HOST:]PORT` takes the targets from a running game instead (app/link_targets.h):
// what it sent before closing the connection is reported as the same lines in a file would be.
// Limits: at most scene::kMaxTraceFrames frames; --fps in 1..1000. Usage errors exit 2 (a
// --from..--to range too long among them, before anything is read), files that cannot be read
// or solved exit 1; --out naming the model, scenario or targets file is refused.
#pragma once

#include <filesystem>
#include <optional>
#include <ostream>

#include "app/link_listener.h"
#include "app/pose_plan.h"

namespace ikpose::app {

struct TraceOptions {
  std::filesystem::path model;    // empty: the scene's model, else the bundled character
  PoseRequest request;            // --scene, --clip, --policy (no targets, poles or time)
  std::filesystem::path targets;  // --targets PATH.jsonl; empty for none
  LinkOptions link;               // --listen [HOST:]PORT (instead of --targets), --idle-timeout
  std::optional<double> from;     // --from T0, seconds
  std::optional<double> to;       // --to T1, seconds
  double fps = 60.0;              // --fps N
  std::filesystem::path out;      // --out trace.jsonl; empty for none
  bool json = false;
  bool fail_on_pop = false;
};

// Returns the exit status; errors are one line "ikpose: error: <what>" on `err`.
int RunTrace(const TraceOptions& options, std::ostream& out, std::ostream& err);

}  // namespace ikpose::app
