#include "scene/trace/timeline.h"

#include "scene/session/posing_session.h"
#include "scene/world/world.h"

namespace ikpose::scene {

std::array<LimbInput, 4> LiveInputs(const PosingSession& session) {
  std::array<LimbInput, 4> inputs;
  for (anim::Limb limb : anim::kLimbs) {
    const LimbTarget& t = session.target(limb);
    if (!t.available || !t.enabled || !t.given) continue;
    LimbInput& in = inputs[static_cast<int>(limb)];
    in.has_target = true;
    in.target_ms = t.target_ms;
    if (t.options.solver.use_pole) in.pole_ms = t.options.solver.pole_ms;
  }
  return inputs;
}

std::vector<PropInput> PlacedProps(const PosingSession& session) {
  std::vector<PropInput> props;
  if (!session.edits.world) return props;
  for (const Prop& prop : session.edits.world->props()) {
    props.push_back(
        {static_cast<int>(props.size()), prop.placement.position_ms, prop.placement.yaw_deg});
  }
  return props;
}

bool SameSituation(const TraceFrame& a, const TraceFrame& b) {
  return a.clip_time == b.clip_time && a.inputs == b.inputs && a.limbs == b.limbs &&
         a.ladder == b.ladder && a.props == b.props;
}

bool RecordLive(const PosingSession& session, float seconds, Timeline& timeline) {
  if (!timeline.recording) return false;
  TraceFrame frame = RecordFrame(session, timeline.next_frame, timeline.clock, LiveInputs(session));
  if (session.edits.ladder_enabled) frame.ladder = LadderInput::Whole(session.edits.ladder);
  frame.props = PlacedProps(session);
  // The first situation seen is only the baseline: a viewer nobody touches keeps nothing (and
  // allocates no ring). It becomes frame 0 when the first change comes.
  if (!timeline.last) {
    timeline.last = std::move(frame);
    return false;
  }
  if (SameSituation(frame, *timeline.last)) return false;
  if (timeline.recorder.empty()) {
    timeline.last->frame = timeline.next_frame++;
    timeline.last->time = timeline.clock;
    timeline.recorder.Push(*timeline.last);
  }
  // The clock runs only while frames are kept, so a pause does not stretch the plot.
  timeline.clock += seconds;
  frame.frame = timeline.next_frame;
  frame.time = timeline.clock;
  ++timeline.next_frame;
  timeline.recorder.Push(frame);
  timeline.last = std::move(frame);
  ++timeline.revision;
  timeline.shown = static_cast<int>(timeline.recorder.size()) - 1;
  return true;
}

void ClearTimeline(Timeline& timeline) {
  timeline.recorder.Clear();
  timeline.clock = 0.f;
  timeline.next_frame = 0;
  timeline.last.reset();
  timeline.shown = -1;
  timeline.base.reset();
  timeline.header = TraceHeader{};
  ++timeline.revision;
}

PosingEdits RestoredEdits(const TraceFrame& frame, const PosingSession& session) {
  PosingEdits edits = session.edits;
  if (frame.clip_time && edits.playback.clip >= 0) edits.playback.time = *frame.clip_time;
  edits.playback.playing = false;
  edits.ladder_enabled = frame.ladder.has_value();
  if (frame.ladder) {
    if (const Ladder ladder = frame.ladder->Over(edits.ladder); ladder.Valid()) {
      edits.ladder = ladder;
    }
  }
  if (!frame.props.empty() && frame.props != PlacedProps(session)) {
    std::string error;  // a prop the session lacks: its props stay as they are
    if (std::shared_ptr<const World> world = MoveProps(edits.world, frame.props, &error)) {
      edits.world = std::move(world);
    }
  }
  for (anim::Limb limb : anim::kLimbs) {
    LimbTarget& t = edits.target(limb);
    if (!t.available) continue;
    const LimbInput& in = frame.inputs[static_cast<int>(limb)];
    const LimbSample& sample = frame.limbs[static_cast<int>(limb)];
    t.given = in.has_target;
    if (!in.has_target) {
      t.target_ms = session.resting_target(limb);  // Evaluate puts it on the hand or foot
      continue;
    }
    PlaceInput(in, t);
    if (!in.pole_ms && sample.solved) t.options.policy = sample.policy;
  }
  return edits;
}

void RestoreInput(const TraceFrame& frame, PosingSession& session) {
  session.edits = RestoredEdits(frame, session);
}

bool PlaceInput(const LimbInput& in, LimbTarget& target) {
  if (!in.has_target) return false;
  target.given = true;
  target.enabled = true;
  target.rung = -1;
  target.target_ms = in.target_ms;
  target.options.solver.use_pole = in.pole_ms.has_value();
  if (in.pole_ms) {
    target.options.solver.pole_ms = *in.pole_ms;
    target.options.policy = anim::KneePolicy::kPole;
  }
  return true;
}

void ApplyPolicy(const TraceFrame& frame, anim::KneePolicy policy, PosingSession& session) {
  for (anim::Limb limb : anim::kLimbs) {
    LimbTarget& t = session.target(limb);
    if (!t.available || !frame.inputs[static_cast<int>(limb)].has_target) continue;
    if (policy == anim::KneePolicy::kPole && !t.options.solver.use_pole) continue;
    t.options.policy = policy;
    if (policy != anim::KneePolicy::kPole) t.options.solver.use_pole = false;
  }
}

TraceFrame SolveLive(const PosingSession& live, const TraceFrame& input,
                     std::optional<anim::KneePolicy> policy) {
  PosingSession session = live;
  RestoreInput(input, session);
  if (policy) ApplyPolicy(input, *policy, session);
  session.Evaluate();
  return RecordFrame(session, input.frame, input.time, input.inputs);
}

}  // namespace ikpose::scene
