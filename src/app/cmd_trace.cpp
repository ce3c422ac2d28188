#include "app/cmd_trace.h"

#include <array>
#include <cmath>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "anim/atomic_file.h"
#include "anim/file_paths.h"
#include "app/error_line.h"
#include "app/link_targets.h"
#include "app/prop_option.h"
#include "asset/load_model.h"
#include "scene/files/trace_file.h"
#include "scene/session/foot_lock.h"
#include "scene/session/rig_facts.h"
#include "scene/session/trace.h"
#include "scene/trace/pop_detector.h"
#include "scene/trace/trace_replay.h"

namespace ikpose::app {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

constexpr double kMaxFps = 1000.0;

struct Range {
  double from = 0.0;
  double to = 0.0;
  int frames = 1;
};

Json PopJson(const scene::Pop& p) {
  return {{"limb", anim::LimbName(p.limb)},
          {"time", p.time},
          {"frame", p.frame},
          {"knee_jump", p.knee_jump},
          {"excess", p.excess},
          {"side_turn_deg", p.side_turn_deg},
          {"cause", scene::PopCauseName(p.cause)}};
}

Json Summary(const Range& range, double fps, std::size_t frames,
             const std::vector<scene::Pop>& pops, const std::array<scene::LimbSummary, 4>& limbs,
             const Json& policies) {
  Json j;
  j["frames"] = frames;
  j["from"] = range.from;
  j["to"] = range.to;
  j["fps"] = fps;
  j["pops"] = Json::array();
  for (const scene::Pop& p : pops) j["pops"].push_back(PopJson(p));
  j["limbs"] = Json::object();
  for (anim::Limb limb : anim::kLimbs) {
    const scene::LimbSummary& s = limbs[static_cast<int>(limb)];
    if (s.solved_frames == 0) continue;
    j["limbs"][std::string(anim::LimbName(limb))] = {{"solved_frames", s.solved_frames},
                                                     {"min_margin", s.min_reach_margin},
                                                     {"min_flip_margin", s.min_flip_margin},
                                                     {"max_knee_speed", s.max_knee_speed},
                                                     {"pops", s.pops}};
  }
  j["policies"] = policies;
  const scene::PopThresholds t;
  j["thresholds"] = {{"excess_fraction", t.excess_fraction},
                     {"straight_bend_deg", t.straight_bend_deg},
                     {"side_turn_deg", t.side_turn_deg}};
  return j;
}

// Per leg the clip moves: its plants and how far the foot slid while planted (what
// `export --bake --lock-feet` removes), in model units and millimetres when the units are known.
Json FeetJson(const std::array<scene::FootPaths::Leg, 4>& legs, const anim::Model& model) {
  Json j = Json::object();
  const float mm = anim::MetersPerUnit(model) * 1000.f;
  for (anim::Limb limb : anim::kLimbs) {
    const scene::FootPaths::Leg& leg = legs[static_cast<std::size_t>(limb)];
    if (!leg.recorded) continue;
    Json l = {{"plants", leg.plants}, {"slide", leg.slide_ms}};
    if (mm > 0.f) l["slide_mm"] = leg.slide_ms * mm;
    j[std::string(anim::LimbName(limb))] = l;
  }
  return j;
}

void PrintText(const Json& s, std::ostream& out) {
  out << s["frames"] << " frames from " << s["from"] << " s to " << s["to"] << " s at " << s["fps"]
      << " fps: " << s["pops"].size() << " pop" << (s["pops"].size() == 1 ? "" : "s") << "\n";
  for (const Json& p : s["pops"]) {
    out << "  pop: " << p["limb"].get<std::string>() << " at frame " << p["frame"] << " ("
        << p["time"] << " s): knee jumped " << p["knee_jump"] << " (" << p["excess"]
        << " unexplained), " << p["cause"].get<std::string>() << "\n";
  }
  for (const auto& [name, l] : s["limbs"].items()) {
    out << name << ": " << l["solved_frames"] << " frames solved, min reach margin "
        << l["min_margin"] << ", min flip margin " << l["min_flip_margin"] << ", max knee speed "
        << l["max_knee_speed"] << "/s, " << l["pops"] << " pops\n";
  }
  out << "pops per policy:";
  for (const auto& [name, p] : s["policies"].items()) out << " " << name << " " << p["pops"];
  out << "\n";
  if (!s.contains("feet")) return;
  for (const auto& [name, f] : s["feet"].items()) {
    if (f["plants"].get<int>() == 0) continue;
    out << name << " foot: " << f["plants"] << " plants, slid ";
    if (f.contains("slide_mm")) {
      out << f["slide_mm"] << " mm";
    } else {
      out << f["slide"] << " units";
    }
    out << " while planted (export --bake --lock-feet holds it)\n";
  }
}

// A frame count too large for any integer type (a range of 1e300 s) is said so, not converted.
std::string FrameCountText(double count) {
  if (!(count < 1e18)) return "more than 10^18";
  return std::to_string(static_cast<long long>(count));
}

// The frames from `from` to `to` at `fps`; more than a trace holds sets *too_many.
double FrameCount(double from, double to, double fps, std::string* too_many) {
  // Times read as floats: a hundredth of a frame's slack keeps the last line's frame.
  const double count = std::floor((to - from) * fps + 0.01) + 1.0;
  if (!(count <= scene::kMaxTraceFrames)) {
    *too_many = "--from .. --to at --fps " + std::to_string(fps) + " is " + FrameCountText(count) +
                " frames; at most " + std::to_string(scene::kMaxTraceFrames);
  }
  return count;
}

}  // namespace

int RunTrace(const TraceOptions& options, std::ostream& out, std::ostream& err) {
  if (!std::isfinite(options.fps) || options.fps < 1.0 || options.fps > kMaxFps) {
    return PrintError(err, "--fps must be a number of frames a second in 1..1000", 2);
  }
  for (const auto& [name, value] : {std::pair{"--from", options.from}, {"--to", options.to}}) {
    if (value && !std::isfinite(*value)) {
      return PrintError(err, std::string(name) + " must be a finite number of seconds", 2);
    }
  }
  if (options.from && options.to && *options.from > *options.to) {
    return PrintError(err, "--from must not be after --to", 2);
  }
  LinkAddress link_address;
  if (std::string what;
      !options.link.listen.empty() && !CheckLinkOptions(options.link, &link_address, &what)) {
    return PrintError(err, what, 2);
  }
  if (options.from && options.to) {  // a range too long is a usage error, before any reading
    std::string too_many;
    FrameCount(*options.from, *options.to, options.fps, &too_many);
    if (!too_many.empty()) return PrintError(err, too_many, 2);
  }
  PosePlan plan;
  PlanError planned;
  if (!PlanPose(options.request, &plan, &planned)) {
    return PrintError(err, planned.what, planned.exit_code);
  }
  const fs::path model_path = ChooseModel(options.model, plan.scene_model);
  if (const std::string named = OutputNamesAnInput("--out", options.out,
                                                   {{"the model", model_path},
                                                    {"the scenario file", options.request.scene},
                                                    {"the targets file", options.targets}});
      !named.empty()) {
    return PrintError(err, named);
  }
  std::string error;
  std::vector<scene::TargetKey> keys;
  if (!options.targets.empty() &&
      !scene::ReadTargetsFile(options.targets, {options.fps, options.from, options.to}, &keys,
                              &error)) {
    return PrintError(err, error);
  }
  // --listen: the same lines from a running game (app/link_targets.h).
  if (!options.link.listen.empty() &&
      !ReceiveTargets(link_address, options.link.idle_timeout_s, err, &keys, &error)) {
    return PrintError(err, error);
  }
  anim::Model model;
  if (!asset::TryLoadModel(model_path, &model, &error)) return PrintError(err, error);

  const std::string clip_name = plan.request.ClipName();
  const int clip = clip_name.empty() ? -1 : anim::FindClip(model, clip_name);
  if (clip_name.empty()) {
    for (const scene::TargetKey& key : keys) {
      if (key.clip_time) {
        return PrintError(err,
                          "the targets give clip_time but the trace has no clip (--clip "
                          "NAME or the scenario's)");
      }
    }
  }
  Range range;
  range.from = options.from.value_or(keys.empty() ? 0.0 : keys.front().time);
  range.to = options.to.value_or(
      !keys.empty() ? keys.back().time
                    : (clip >= 0 ? model.clips[static_cast<std::size_t>(clip)].duration : 0.0));
  if (range.to < range.from) {
    return PrintError(err,
                      "--from " + std::to_string(range.from) + " is after the end, " +
                          std::to_string(range.to) + " s",
                      2);
  }
  std::string too_many;
  const double count = FrameCount(range.from, range.to, options.fps, &too_many);
  if (!too_many.empty()) return PrintError(err, too_many, 2);
  range.frames = static_cast<int>(count);

  // The trace file is written frame by frame as each is solved (never held whole as text), and
  // put in place only when every frame and every replay has gone through.
  anim::AtomicFileWriter trace_file;
  scene::TraceHeader header;
  if (!options.out.empty()) {
    header.model = anim::RelativeToFolderOf(model_path, options.out).string();
    if (!options.request.scene.empty()) {
      header.scene = anim::RelativeToFolderOf(options.request.scene, options.out).string();
    }
    header.clip = clip_name;
    header.policies = options.request.policies;
    header.fps = static_cast<float>(options.fps);
    header.props = HeaderProps(options.request.props, options.out);
    if (!trace_file.Open(options.out, &error)) return PrintError(err, error);
  }

  // Frame i's input, made again when needed rather than kept: its time, the clip's time, and
  // the targets held then (a binary search in the targets index).
  const auto input_at = [&](int i) {
    scene::TraceFrame in;
    in.frame = i;
    in.time = static_cast<float>(range.from + i / options.fps);
    if (!clip_name.empty()) in.clip_time = in.time;
    if (const scene::TargetKey* key = scene::KeyAt(keys, in.time)) {
      in.inputs = key->limbs;
      if (key->clip_time) in.clip_time = key->ClipTimeAt(in.time);
      in.ladder = key->ladder;
      in.props = key->props;
    }
    return in;
  };
  const auto frame_error = [&](const scene::TraceFrame& in) {
    std::ostringstream at;  // "frame 3 (0.05 s): "
    at << "frame " << in.frame << " (" << in.time << " s): ";
    return at.str() + error;
  };

  // Every frame from its own input, through the one road: its situation built once (the clip
  // sampled once), solved as given and under each policy, whose pops are counted as they go (a
  // pop compares two frames only). Memory: the solved frames as given (for the summary and its
  // pops), about 800 bytes a frame; nothing else grows with the trace.
  std::vector<scene::TraceFrame> frames(static_cast<std::size_t>(range.frames));
  scene::FootPaths feet;  // the clip's feet, for how far its planted feet slide
  bool any_pole = false;  // the pole policy is compared only when some input has a pole
  for (int i = 0; i < range.frames && !any_pole; ++i) {
    for (const scene::LimbInput& limb : input_at(i).inputs)
      any_pole = any_pole || limb.pole_ms.has_value();
  }
  struct Replay {
    anim::KneePolicy policy;
    std::vector<scene::TraceFrame> pair;  // the previous frame and this one
    std::size_t pops = 0;
    std::string error;  // the first frame it failed on; reported once every frame is solved
  };
  std::vector<Replay> replays;
  for (anim::KneePolicy policy :
       {anim::KneePolicy::kSeed, anim::KneePolicy::kNatural, anim::KneePolicy::kPole}) {
    if (policy != anim::KneePolicy::kPole || any_pole)
      replays.push_back({policy, std::vector<scene::TraceFrame>(2), 0, {}});
  }
  const std::array<float, 4> lengths = scene::LimbLengths(model.chains);
  const std::shared_ptr<const scene::RigFacts> facts = scene::MeasureRig(model);
  // Props a game moved: the situation's world with them placed, rebuilt only when they move.
  scene::PosingRequest base = plan.request;
  std::vector<scene::PropInput> placed_props;
  const auto base_for = [&](const scene::TraceFrame& in) {
    if (in.props != placed_props) {
      base.world = scene::MoveProps(plan.request.world, in.props, &error);
      placed_props = in.props;
    }
    return base.world != nullptr || in.props.empty();
  };
  for (int i = 0; i < range.frames; ++i) {
    const scene::TraceFrame in = input_at(i);
    if (!base_for(in)) return PrintError(err, frame_error(in));
    scene::TraceFrame& solved = frames[static_cast<std::size_t>(i)];
    const auto situation = scene::FrameSituation(model, base, in, &error, facts);
    const auto session =
        situation ? scene::SolveFrame(*situation, base, in, std::nullopt, &solved, &error)
                  : nullptr;
    if (!session) return PrintError(err, frame_error(in));
    feet.Record(*session);
    // The game's ladder whole (its sizes as they were in force) and the props it moved.
    if (in.ladder) solved.ladder = scene::LadderInput::Whole(session->edits.ladder);
    solved.props = in.props;
    if (!options.out.empty()) {
      // The header once the first frame says what was on (the scenario's or the command
      // line's), so that a replay solves with the same.
      if (i == 0) {
        header.limits = session->edits.limits;
        header.body_help = session->edits.body_help;
        header.ground = session->edits.ground;
        if (!trace_file.Write(scene::TraceHeaderLine(header) + "\n", &error)) {
          return PrintError(err, error);
        }
      }
      const scene::TraceFrame* previous =
          i > 0 ? &frames[static_cast<std::size_t>(i) - 1] : nullptr;
      if (!trace_file.Write(scene::TraceFrameLine(solved, previous) + "\n", &error)) {
        return PrintError(err, error);
      }
    }
    for (Replay& replay : replays) {
      if (!replay.error.empty()) continue;
      std::swap(replay.pair[0], replay.pair[1]);
      if (!scene::SolveFrame(*situation, base, in, replay.policy, &replay.pair[1], &error)) {
        replay.error = frame_error(in);
        continue;
      }
      if (i > 0) replay.pops += scene::DetectPops(replay.pair, lengths).size();
    }
  }
  const std::vector<scene::Pop> pops = scene::DetectPops(frames, lengths);
  const std::array<scene::LimbSummary, 4> limbs = scene::SummarizeLimbs(frames, pops);
  const std::size_t frame_count = frames.size();
  // The frames stay until the end: freeing this one large block would raise glibc's mmap
  // threshold, and later allocations would then fragment the heap (measured: 340 MB resident
  // for 36,000 frames instead of about 60).

  Json policies = Json::object();
  for (const Replay& replay : replays) {
    if (!replay.error.empty()) {
      return PrintError(err, std::string("under the ") + anim::PolicyName(replay.policy) +
                                 " policy: " + replay.error);
    }
    policies[anim::PolicyName(replay.policy)] = {{"pops", replay.pops}};
  }

  if (!options.out.empty() && !trace_file.Commit(&error)) return PrintError(err, error);
  Json summary = Summary(range, options.fps, frame_count, pops, limbs, policies);
  summary["feet"] =
      FeetJson(feet.Summarize(static_cast<float>(options.fps), scene::BodyHeight(model)), model);
  if (options.json) {
    out << summary.dump(2, ' ', false, Json::error_handler_t::replace) << "\n";
  } else {
    PrintText(summary, out);
  }
  out.flush();
  if (!out) return PrintError(err, "cannot write the summary to standard output");
  return options.fail_on_pop && !pops.empty() ? 1 : 0;
}

}  // namespace ikpose::app
