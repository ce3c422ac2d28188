// Trace files and target paths: JSON Lines, one frame (or one target key) per line.
//
// What: a trace file opens with a header line, {"ikpose_trace": 1, "model": .., "scene": ..,
// "clip": .., "policies": [..], "fps": n, "limits": b, "body_help": b, "ground": b, "props":
// [{"file": .., "position": [..], "yaw_deg": a}]} (the last four when known), then
// one line per recorded frame:
//   {"frame": i, "time": t, "clip_time": ct, "limbs": {"left_leg": {"input": {"target": [..],
//    "pole": [..]}, "solved": true, "policy": .., "reach": .., "reach_margin": m, ..}},
//    "ladder": {"base": [..], "rung_spacing": s, ..}, "props": [{"index": i, ..}]}
// (every LimbSample field, scene/session/trace.h, under its own name; a limb neither given nor
// solved is left out). The game's ladder (where it stands and its sizes) and the props it moved are
// written on the frames where they change and held until then ("ladder": null: none). A targets
// file (`ikpose trace --targets`) holds a game's path of targets:
//   {"time": t, "limbs": {"left_arm": {"target": [x, y, z], "pole": [x, y, z]}}}
// poles optional, times strictly increasing; a limb absent from a line keeps its last target
// and pole, a limb on a line takes that line's target and pole (none if the line has none).
// Floats are written with the digits that read back to the same float, so a frame read back
// equals the frame written and restores the same situation.
// Why: a recorded game session is handed over, replayed, plotted and searched for pops; the files
// come from anywhere, so reading them is bounded: whole files up to kMaxTraceFileBytes, lines up
// to kMaxTraceLineBytes, nesting up to kMaxTraceDepth, finite numbers only, and a bad line is one
// error "<file>:<line>: <field>: <what>".
// Limits: trace files are read whole into memory (at most kMaxTraceFileBytes), targets files
// line by line (ReadTargetsFile); a trace holds at most kMaxTraceFrames frames. Between two lines
// of a targets file the earlier line's targets hold (no interpolation): a game's IK pass sees the
// target set that frame.
#pragma once

#include <array>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scene/session/trace.h"
#include "scene/world/world.h"

namespace ikpose::scene {

inline constexpr std::size_t kMaxTraceFileBytes = 256u << 20;
inline constexpr std::size_t kMaxTraceLineBytes = 64u << 10;
inline constexpr int kMaxTraceDepth = 8;
// Ten minutes at 60 frames a second.
inline constexpr int kMaxTraceFrames = 36000;

struct TraceHeader {
  std::string model;  // as given (relative to the trace file's folder when written by ikpose)
  std::string scene;  // "" for none
  std::string clip;   // "" for none
  std::vector<std::string> policies;  // the --policy words
  float fps = 60.f;
  // What was on when the frames were solved (none: not said, the scenario's or the default):
  // joint limits, the body's help to a limb out of reach, feet on the floor and props.
  std::optional<bool> limits;
  std::optional<bool> body_help;
  std::optional<bool> ground;
  // The command line's props (--prop; the scenario's come with it), files named as `model` is.
  std::vector<PropPlacement> props;

  bool operator==(const TraceHeader&) const = default;
};

// One line each, without the newline. A frame's ladder and props are written only when they
// differ from `previous`'s (the frame written before it; none for the first).
std::string TraceHeaderLine(const TraceHeader& header);
std::string TraceFrameLine(const TraceFrame& frame, const TraceFrame* previous);

// Header and frames, written line by line through a temporary file renamed into place (the
// text is never held whole); false with one line.
bool WriteTraceFile(const std::filesystem::path& path, const TraceHeader& header,
                    const std::vector<TraceFrame>& frames, std::string* error);

// `name` labels errors. False with one line "<name>:<line>: <field>: <what>".
bool ParseTrace(std::string_view text, const std::string& name, TraceHeader* header,
                std::vector<TraceFrame>* frames, std::string* error);
bool ReadTraceFile(const std::filesystem::path& path, TraceHeader* header,
                   std::vector<TraceFrame>* frames, std::string* error);

// One line of a targets file, with every limb's target held at that line: the ones the line
// places and, for the others, the latest earlier line's (has_target false: not placed yet).
struct TargetKey {
  float time = 0.f;
  std::array<LimbInput, 4> limbs;
  // Optional fields, held like the targets until a line gives them again: the clip's time
  // (given at `clip_time_at`, the line's time; it plays on from there), the game's ladder, and
  // the props it moved (each index's latest placement, by index).
  std::optional<float> clip_time;
  float clip_time_at = 0.f;
  std::optional<LadderInput> ladder;
  std::vector<PropInput> props;

  // The clip's time at `time` (at or after this key's): none when no line gave it.
  std::optional<float> ClipTimeAt(float time) const;

  bool operator==(const TargetKey&) const = default;
};

// Keys in file order (times strictly increasing); false with one line.
bool ParseTargets(std::string_view text, const std::string& name, std::vector<TargetKey>* keys,
                  std::string* error);

// The frames a trace samples, known before its targets file is read.
struct TargetWindow {
  double fps = 60.0;
  std::optional<double> from;  // else the first line's time
  std::optional<double> to;    // else the last line's time
};

// A targets file read line by line, never whole (memory: a megabyte of text and at most one
// key per frame of the window, and the first and last lines', whatever the file's length). Lines
// whose keys first show in the same frame of `window` are kept as one key (the later one, holding
// both), the first line always alone, so keys.front().time and keys.back().time are the first and
// last lines' times and TargetsAt gives at each frame's time what every line would give. Reading
// stops at the first line after `window.to`; a line more than kMaxTraceFrames frames after the
// start is refused at once, before the rest is read. False with one line "<file>:<line>: ...".
bool ReadTargetsFile(const std::filesystem::path& path, const TargetWindow& window,
                     std::vector<TargetKey>* keys, std::string* error);
// One line of a targets stream (no newline), numbered `number`, with ParseTargets' checks: a
// key appended to `keys` (its time after the last one's, holding the last one's targets for the
// limbs the line leaves out); a blank line adds nothing. False with one line
// "<name>:<number>: <field>: <what>". For text that arrives line by line (a live link).
bool ParseTargetsLine(std::string_view line, int number, const std::string& name,
                      std::vector<TargetKey>* keys, std::string* error);

// Each limb's latest target (and its pole) at `time`: held from the last line at or before it
// (0.1 ms of slack for times printed rounded), found by binary search. A limb not placed yet
// has no target.
std::array<LimbInput, 4> TargetsAt(const std::vector<TargetKey>& keys, float time);
// The key in force at `time` (the last at or before it, with the same slack); null before the
// first.
const TargetKey* KeyAt(const std::vector<TargetKey>& keys, float time);

}  // namespace ikpose::scene
