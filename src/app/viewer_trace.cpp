#include "app/viewer_trace.h"

#include <algorithm>
#include <filesystem>
#include <utility>
#include <variant>

#include "anim/file_paths.h"
#include "app/pose_plan.h"
#include "app/pose_report.h"
#include "app/prop_option.h"
#include "app/viewer_state.h"
#include "scene/trace/trace_replay.h"

namespace ikpose::app {

namespace {

namespace fs = std::filesystem;

// Pops are recounted at most this often (in frames) while frames keep coming in.
constexpr int kPopRefreshFrames = 30;

bool AnyPole(const scene::TraceFrame& frame) {
  return std::any_of(frame.inputs.begin(), frame.inputs.end(),
                     [](const scene::LimbInput& in) { return in.has_target && in.pole_ms; });
}

// `frame` solved under `policy` through the road the timeline's frames came from.
bool SolveUnder(const ViewerState& state, const scene::TraceFrame& frame,
                std::optional<anim::KneePolicy> policy, scene::TraceFrame* solved,
                std::string* error) {
  const scene::Timeline& t = state.timeline.timeline;
  if (t.base) {
    return scene::SolveFrame(*state.loaded.model, *t.base, frame, policy, solved, error,
                             state.loaded.session->facts()) != nullptr;
  }
  *solved = scene::SolveLive(*state.loaded.session, frame, policy);
  return true;
}

void RefreshPops(ViewerState& state) {
  ViewerTimeline& v = state.timeline;
  v.Follow();
  v.pops = scene::DetectPops(v.timeline.recorder.Frames(),
                             scene::LimbLengths(state.loaded.model->chains));
  v.pops_current = true;
  v.frames_since_pops = 0;
  if (v.panel.selected_pop >= static_cast<int>(v.pops.size())) v.panel.selected_pop = -1;
}

void CountPolicies(ViewerState& state) {
  ViewerTimeline& v = state.timeline;
  v.Follow();
  const std::vector<scene::TraceFrame> frames = v.timeline.recorder.Frames();
  const bool any_pole = std::any_of(frames.begin(), frames.end(), AnyPole);
  const std::array<float, 4> lengths = scene::LimbLengths(state.loaded.model->chains);
  for (const ui::KneePolicyEntry& entry : ui::kKneePolicies) {
    const anim::KneePolicy policy = entry.policy;
    std::optional<int>& count = v.policy_pops[policy];
    count.reset();
    if (policy == anim::KneePolicy::kPole && !any_pole) continue;
    std::vector<scene::TraceFrame> replayed;
    replayed.reserve(frames.size());
    std::string error;
    for (const scene::TraceFrame& frame : frames) {
      scene::TraceFrame solved;
      if (!SolveUnder(state, frame, policy, &solved, &error)) break;
      replayed.push_back(solved);
    }
    if (!error.empty()) {
      v.panel.status = std::string("under the ") + anim::PolicyName(policy) + " policy: " + error;
      continue;
    }
    count = static_cast<int>(scene::DetectPops(replayed, lengths).size());
  }
}

// The ghosts of the frame shown, recomputed when it or the recording changes.
void UpdateGhosts(ViewerState& state) {
  ViewerTimeline& v = state.timeline;
  v.Follow();
  const scene::Timeline& t = v.timeline;
  const bool wanted =
      std::any_of(ui::kKneePolicies.begin(), ui::kKneePolicies.end(),
                  [&](const ui::KneePolicyEntry& e) { return v.panel.ghosts[e.policy]; });
  if (!wanted || t.shown < 0 || static_cast<std::size_t>(t.shown) >= t.recorder.size()) {
    v.ghosts = {};
    v.ghost_frame = -1;
    return;
  }
  if (v.ghost_frame == t.shown) return;
  const scene::TraceFrame& frame = t.recorder[static_cast<std::size_t>(t.shown)];
  for (const ui::KneePolicyEntry& entry : ui::kKneePolicies) {
    std::optional<scene::TraceFrame>& ghost = v.ghosts[entry.policy];
    ghost.reset();
    if (entry.policy == anim::KneePolicy::kPole && !AnyPole(frame)) continue;
    scene::TraceFrame solved;
    std::string error;
    if (SolveUnder(state, frame, entry.policy, &solved, &error)) ghost = solved;
  }
  v.ghost_frame = t.shown;
}

// Puts frame `index` in the viewport. False with one line.
bool ShowFrame(ViewerState& state, int index, std::string* error) {
  scene::Timeline& t = state.timeline.timeline;
  if (index < 0 || static_cast<std::size_t>(index) >= t.recorder.size()) {
    *error = "frame " + std::to_string(index) + " is not in the recording (" +
             std::to_string(t.recorder.size()) + " frames)";
    return false;
  }
  const scene::TraceFrame& frame = t.recorder[static_cast<std::size_t>(index)];
  if (t.base) {
    std::unique_ptr<scene::PosingSession> session =
        scene::SolveFrame(*state.loaded.model, *t.base, frame, std::nullopt, nullptr, error,
                          state.loaded.session->facts());
    if (!session) return false;
    session->edits.playback.playing = false;
    SwapSession(state, std::move(session), SessionHistory::kKeep);
  } else {
    scene::RestoreInput(frame, *state.loaded.session);
    state.loaded.session->Evaluate();
  }
  const scene::PosingSession& session = *state.loaded.session;
  t.last = scene::RecordFrame(session, frame.frame, frame.time, scene::LiveInputs(session));
  t.shown = index;
  return true;
}

void SaveTrace(ViewerState& state, const std::string& path) {
  ViewerTimeline& v = state.timeline;
  scene::TraceHeader header = v.timeline.header;
  header.model = anim::RelativeToFolderOf(state.loaded.path, path).string();
  header.limits = state.loaded.session->edits.limits;
  header.body_help = state.loaded.session->edits.body_help;
  header.ground = state.loaded.session->edits.ground;
  header.props = HeaderProps(state.options.request.props, path);
  if (!v.timeline.base) {
    // A live recording: its frames' inputs replay on the session's scenario as written by
    // "save scene", which the header cannot name; the clip is the session's.
    const scene::PosingSession& session = *state.loaded.session;
    const int clip = session.edits.playback.clip;
    header.clip =
        clip >= 0 ? state.loaded.model->clips[static_cast<std::size_t>(clip)].name : std::string();
  }
  std::string error;
  v.panel.status =
      scene::WriteTraceFile(path, header, v.timeline.recorder.Frames(), &error)
          ? "saved " + std::to_string(v.timeline.recorder.size()) + " frames to " + path
          : error;
}

void LoadTrace(ViewerState& state, const std::string& path) {
  ViewerTimeline& v = state.timeline;
  ViewerOptions options;
  options.trace_path = path;
  scene::TraceHeader header;
  std::vector<scene::TraceFrame> frames;
  std::string error;
  if (!PlanTrace(options, &header, &frames, &error)) {
    v.panel.status = error;
    return;
  }
  PosePlan plan;
  PlanError planned;
  if (!PlanPose(options.request, &plan, &planned)) {
    v.panel.status = planned.what;
    return;
  }
  const std::string model = ChooseModel(options.model_path, plan.scene_model).string();
  std::error_code ec;
  if (!fs::equivalent(model, state.loaded.path, ec) &&
      !OpenModelFile(state, model, plan.request, &v.panel.status)) {
    return;
  }
  if (!StartTrace(state, options.trace_path, std::move(header), std::move(frames), plan.request, 0,
                  &error)) {
    v.panel.status = error;
  }
}

// Applies one of the timeline's commands.
struct ApplyTimeline {
  ViewerState& state;

  void operator()(const ui::timeline_cmd::ToggleRecord&) const {
    state.timeline.timeline.recording = !state.timeline.timeline.recording;
  }
  void operator()(const ui::timeline_cmd::Clear&) const { state.timeline.Clear(); }
  void operator()(const ui::timeline_cmd::Save& c) const { SaveTrace(state, c.path); }
  void operator()(const ui::timeline_cmd::Load& c) const { LoadTrace(state, c.path); }
  void operator()(const ui::timeline_cmd::CountPolicies&) const { CountPolicies(state); }
  void operator()(const ui::timeline_cmd::ShowFrame& c) const {
    std::string error;
    if (!ShowFrame(state, c.index, &error)) state.timeline.panel.status = error;
  }
};

}  // namespace

void ViewerTimeline::Follow() {
  if (Current()) return;
  derived_revision = timeline.revision;
  pops_current = false;
  policy_pops = {};
  ghost_frame = -1;
}

void ViewerTimeline::Clear() {
  scene::ClearTimeline(timeline);
  source = "live";
  pops.clear();
  panel.selected_pop = -1;
  Follow();
}

bool PlanTrace(ViewerOptions& options, scene::TraceHeader* header,
               std::vector<scene::TraceFrame>* frames, std::string* error) {
  const fs::path path = options.trace_path;
  if (!scene::ReadTraceFile(path, header, frames, error)) return false;
  if (frames->empty()) {
    *error = path.string() + ": the trace holds no frames";
    return false;
  }
  if (options.model_path.empty() && !header->model.empty()) {
    options.model_path = anim::ResolveFromFolderOf(header->model, path).string();
  }
  PoseRequest& request = options.request;
  if (request.scene.empty() && !header->scene.empty()) {
    request.scene = anim::ResolveFromFolderOf(header->scene, path);
  }
  if (!request.clip && !header->clip.empty()) request.clip = header->clip;
  if (request.policies.empty()) request.policies = header->policies;
  // Limits, body help and ground as they were when the frames were solved.
  const auto on_off = [](bool on) { return std::string(on ? "on" : "off"); };
  if (!request.limits && header->limits) request.limits = on_off(*header->limits);
  if (!request.body_help && header->body_help) request.body_help = on_off(*header->body_help);
  if (!request.ground && header->ground) request.ground = on_off(*header->ground);
  if (request.props.empty()) request.props = PropOptions(header->props, path);
  return true;
}

bool StartTrace(ViewerState& state, const std::string& path, scene::TraceHeader header,
                std::vector<scene::TraceFrame> frames, const scene::PosingRequest& base, int shown,
                std::string* error) {
  ViewerTimeline& v = state.timeline;
  scene::Timeline& t = v.timeline;
  scene::ClearTimeline(t);
  for (const scene::TraceFrame& frame : frames) t.recorder.Push(frame);
  t.next_frame = frames.back().frame + 1;
  t.clock = frames.back().time;
  t.header = std::move(header);
  t.base = base;
  t.recording = false;  // the trace is the recording; "record" appends to it
  ++t.revision;
  v.source = fs::path(path).filename().string();
  v.visible = true;
  v.panel.open = true;
  v.panel.ghosts = ui::PerKneePolicy<bool>(true);
  v.panel.selected_pop = -1;
  v.panel.path = path;
  if (!ShowFrame(state, shown, error)) return false;
  RefreshPops(state);
  for (std::size_t k = 0; k < v.pops.size(); ++k) {
    if (v.pops[k].index == shown) v.panel.selected_pop = static_cast<int>(k);
  }
  CountPolicies(state);
  v.panel.status = "opened " + path + ": " + std::to_string(frames.size()) + " frames";
  return true;
}

void DrawTimeline(ViewerState& state) {
  ViewerTimeline& v = state.timeline;
  if (!v.visible) return;
  ui::TimelineView view;
  view.frames = &v.timeline.recorder;
  view.pops = &v.pops;
  view.shown = v.timeline.shown;
  view.recording = v.timeline.recording;
  view.source = v.source;
  if (v.Current()) view.policy_pops = v.policy_pops;
  ui::DrawTimelinePanel(view, state.panel.width, v.panel);
}

void ApplyTimelineCommands(ViewerState& state) {
  // Taken out first: loading a trace replaces the panel's state.
  const std::vector<ui::TimelineCommand> commands = std::move(state.timeline.panel.commands);
  state.timeline.panel.commands.clear();
  for (const ui::TimelineCommand& command : commands) std::visit(ApplyTimeline{state}, command);
}

void RecordTimeline(ViewerState& state, float seconds) {
  ViewerTimeline& v = state.timeline;
  const bool pushed = scene::RecordLive(*state.loaded.session, seconds, v.timeline);
  ++v.frames_since_pops;
  v.Follow();
  if (!v.pops_current && (!pushed || v.frames_since_pops >= kPopRefreshFrames)) {
    RefreshPops(state);
  }
  UpdateGhosts(state);
}

void RecordLinkFrame(ViewerState& state, float seconds) {
  scene::RecordLive(*state.loaded.session, seconds, state.timeline.timeline);
  ++state.timeline.frames_since_pops;
}

void DrawTimelineOverlays(ViewerState& state, anim::DebugDraw& lines) {
  const ViewerTimeline& v = state.timeline;
  const scene::Timeline& t = v.timeline;
  if (!v.visible || t.shown < 0) return;
  for (const ui::KneePolicyEntry& entry : ui::kKneePolicies) {
    const std::optional<scene::TraceFrame>& ghost = v.ghosts[entry.policy];
    if (!v.panel.ghosts[entry.policy] || !ghost) continue;
    for (anim::Limb limb : anim::kLimbs) {
      const scene::LimbSample& s = ghost->limbs[static_cast<std::size_t>(limb)];
      if (!s.solved || !ghost->inputs[static_cast<std::size_t>(limb)].has_target) continue;
      lines.Line(s.hip_ms, s.knee_ms, entry.ghost_color);
      lines.Line(s.knee_ms, s.end_ms, entry.ghost_color);
    }
  }
  const int selected = v.panel.selected_pop;
  if (selected < 0 || static_cast<std::size_t>(selected) >= v.pops.size()) return;
  const scene::Pop& pop = v.pops[static_cast<std::size_t>(selected)];
  if (pop.index != t.shown) return;
  const scene::LimbSample& s =
      t.recorder[static_cast<std::size_t>(pop.index)].limbs[static_cast<std::size_t>(pop.limb)];
  const float r = std::max(0.02f * state.loaded.height, 1e-4f);
  const glm::vec4 white(1.f), red(1.f, 0.15f, 0.15f, 1.f), orange(1.f, 0.6f, 0.1f, 1.f),
      cyan(0.2f, 0.9f, 1.f, 1.f), grey(0.6f, 0.6f, 0.6f, 1.f);
  lines.Line(s.hip_ms, s.target_ms, white);  // the hip-target axis
  lines.Circle(pop.circle.center_ms, pop.circle.normal_ms, pop.circle.radius, grey);
  lines.Sphere(pop.knee_ms, r, red);  // the candidate chosen
  lines.Line(pop.circle.center_ms, pop.knee_ms, red);
  lines.Sphere(pop.other_knee_ms, r, orange);  // the opposite candidate
  lines.Line(pop.circle.center_ms, pop.other_knee_ms, orange);
  lines.Sphere(pop.previous_knee_ms, 0.6f * r, grey);
  lines.Line(pop.previous_knee_ms, pop.knee_ms, grey);
  if (glm::length(pop.reference_dir_ms) > 0.5f) {
    const float reach = std::max(pop.circle.radius, 0.1f * state.loaded.height);
    lines.Line(pop.circle.center_ms, pop.circle.center_ms + 1.5f * reach * pop.reference_dir_ms,
               cyan);
  }
}

asset::Json TimelineReport(const ViewerState& state) {
  const ViewerTimeline& v = state.timeline;
  const scene::Timeline& t = v.timeline;
  asset::Json j = {{"source", v.source},
                   {"frames", t.recorder.size()},
                   {"current_frame", t.shown},
                   {"recording", t.recording}};
  if (t.shown >= 0) {
    const scene::TraceFrame& frame = t.recorder[static_cast<std::size_t>(t.shown)];
    j["frame"] = frame.frame;
    j["time"] = frame.time;
    // The situation recorded with it: the clip's time, the ladder in force, where the props stood.
    j["clip_time"] = frame.clip_time ? asset::Json(*frame.clip_time) : asset::Json(nullptr);
    j["ladder"] = nullptr;
    if (frame.ladder) {  // whole: the sizes it left out are the default ladder's
      j["ladder"] =
          LadderInputReport(scene::LadderInput::Whole(frame.ladder->Over(scene::Ladder{})));
    }
    asset::Json props = asset::Json::array();
    for (const scene::PropInput& p : frame.props) {
      props.push_back(
          {{"index", p.index}, {"position", asset::ToJson(p.position_ms)}, {"yaw_deg", p.yaw_deg}});
    }
    j["props"] = props;
  }
  asset::Json pops = asset::Json::array();
  for (const scene::Pop& p : v.pops) {
    pops.push_back({{"limb", anim::LimbName(p.limb)},
                    {"frame", p.frame},
                    {"index", p.index},
                    {"time", p.time},
                    {"knee_jump", p.knee_jump},
                    {"cause", scene::PopCauseName(p.cause)},
                    {"knee", asset::ToJson(p.knee_ms)},
                    {"other_knee", asset::ToJson(p.other_knee_ms)}});
  }
  j["pops"] = pops;
  j["selected_pop"] = v.panel.selected_pop;
  asset::Json policies = asset::Json::object();
  asset::Json ghosts = asset::Json::object();
  for (const ui::KneePolicyEntry& entry : ui::kKneePolicies) {
    const std::string name = anim::PolicyName(entry.policy);
    const std::optional<int>& counted = v.policy_pops[entry.policy];
    if (v.Current() && counted) policies[name] = {{"pops", *counted}};
    const std::optional<scene::TraceFrame>& ghost = v.ghosts[entry.policy];
    if (!ghost || !v.panel.ghosts[entry.policy]) continue;
    asset::Json limbs = asset::Json::object();
    for (anim::Limb limb : anim::kLimbs) {
      const scene::LimbSample& s = ghost->limbs[static_cast<std::size_t>(limb)];
      if (!s.solved) continue;
      limbs[std::string(anim::LimbName(limb))] = {{"knee", asset::ToJson(s.knee_ms)},
                                                  {"end", asset::ToJson(s.end_ms)}};
    }
    ghosts[name] = limbs;
  }
  j["policies"] = policies;
  j["ghosts"] = ghosts;
  return j;
}

}  // namespace ikpose::app
