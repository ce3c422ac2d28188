#include "scene/session/trace.h"

#include <cassert>

#include "anim/skeleton.h"
#include "ik/rotation.h"
#include "scene/session/posing_session.h"

namespace ikpose::scene {

namespace {

// Swing and twist (degrees) of a local rotation about the bone's direction to its child.
void SwingTwistDeg(const glm::quat& rotation_ls, const glm::vec3& child_ls, float* swing,
                   float* twist) {
  const ik::SwingTwist st = ik::DecomposeSwingTwist(rotation_ls, child_ls);
  *swing = glm::degrees(st.swing_angle_rad);
  *twist = glm::degrees(st.twist_angle_rad);
}

LimbSample SampleLimb(const PosingSession& session, anim::Limb limb) {
  LimbSample s;
  const anim::ChainSolveResult& r = session.result(limb);
  const LimbTarget& t = session.target(limb);
  if (!t.available || !r.ok) return s;
  const anim::LimbChain& chain = session.chain(limb);
  const anim::Skeleton& skeleton = session.model().skeleton;
  const anim::Pose& pose = session.pose();
  const ik::PositionsReport& p = r.report.positions;
  s.solved = true;
  s.policy = r.policy;
  s.reach = r.output.reach;
  s.reach_margin = p.reach_margin;
  s.flip_margin = p.flip_margin;
  s.bend_deg = p.knee_bend_deg;
  s.target_ms = r.target_ms;
  if (r.policy == anim::KneePolicy::kPole) s.pole_ms = t.options.solver.pole_ms;
  s.hip_ms = r.hip_ms;
  s.knee_ms = r.knee_ms;
  s.end_ms = r.end_ms;
  s.input_knee_ms = anim::PositionMs(session.base_pose(), chain.lower);
  s.circle = p.circle;
  s.limit_clamped = r.output.limit_clamped;
  s.softened = r.output.softened;
  s.swivel_clamped = r.swivel.valid && r.swivel.clamped;
  // The swivel of the knee where it ended, about the axis to the limb's target, measured from
  // the natural direction in the body's current frame (whatever the policy that placed it).
  const int parent = skeleton.parents[static_cast<std::size_t>(chain.upper)];
  const float limb_length = chain.upper_length + chain.lower_length;
  const anim::SwivelChoice swivel =
      anim::ChooseSwivel(chain.natural, glm::mat3_cast(anim::RotationMs(pose, parent)), r.hip_ms,
                         r.knee_ms, r.end_target_ms, limb_length, 0.f);
  if (swivel.valid) {
    s.swivel_deg = swivel.reference_deg;
    s.natural_ms = swivel.natural_ms;
  }
  const auto& locals = pose.locals_ls;
  const glm::vec3 end_ls = chain.end_is_child
                               ? locals[static_cast<std::size_t>(chain.end)].translation
                               : chain.end_offset_ls;
  SwingTwistDeg(locals[static_cast<std::size_t>(chain.upper)].rotation,
                locals[static_cast<std::size_t>(chain.lower)].translation, &s.hip_swing_deg,
                &s.hip_twist_deg);
  SwingTwistDeg(locals[static_cast<std::size_t>(chain.lower)].rotation, end_ls, &s.knee_swing_deg,
                &s.knee_twist_deg);
  return s;
}

}  // namespace

Ladder LadderInput::Over(const Ladder& ladder) const {
  Ladder out = ladder;
  out.base_ms = base_ms;
  if (rung_spacing) out.rung_spacing = *rung_spacing;
  if (rung_count) out.rung_count = *rung_count;
  if (rail_width) out.rail_width = *rail_width;
  if (rung_radius) out.rung_radius = *rung_radius;
  if (first_rung_height) out.first_rung_height = *first_rung_height;
  if (yaw_deg) out.yaw_deg = *yaw_deg;
  return out;
}

LadderInput LadderInput::Whole(const Ladder& ladder) {
  return {ladder.base_ms,     ladder.rung_spacing,      ladder.rung_count, ladder.rail_width,
          ladder.rung_radius, ladder.first_rung_height, ladder.yaw_deg};
}

TraceFrame RecordFrame(const PosingSession& session, int frame, float time,
                       const std::array<LimbInput, 4>& inputs) {
  TraceFrame f;
  f.frame = frame;
  f.time = time;
  if (session.edits.playback.clip >= 0) f.clip_time = session.edits.playback.time;
  f.inputs = inputs;
  for (anim::Limb limb : anim::kLimbs) {
    f.limbs[static_cast<int>(limb)] = SampleLimb(session, limb);
  }
  return f;
}

TraceRecorder::TraceRecorder(std::size_t capacity) : capacity_(capacity > 0 ? capacity : 1) {}

void TraceRecorder::Push(const TraceFrame& frame) {
  if (ring_.empty()) ring_.resize(capacity_);
  if (size_ < capacity_) {
    ring_[(start_ + size_) % capacity_] = frame;
    ++size_;
    return;
  }
  ring_[start_] = frame;  // overwrite the oldest
  start_ = (start_ + 1) % capacity_;
  ++dropped_;
}

void TraceRecorder::Clear() {
  start_ = 0;
  size_ = 0;
  dropped_ = 0;
}

const TraceFrame& TraceRecorder::operator[](std::size_t i) const {
  assert(i < size_);
  return ring_[(start_ + i) % capacity_];
}

std::vector<TraceFrame> TraceRecorder::Frames() const {
  std::vector<TraceFrame> frames;
  frames.reserve(size_);
  for (std::size_t i = 0; i < size_; ++i) frames.push_back((*this)[i]);
  return frames;
}

std::shared_ptr<const World> MoveProps(const std::shared_ptr<const World>& world,
                                       const std::vector<PropInput>& moves, std::string* error) {
  std::vector<Prop> props;
  if (world) props = world->props();
  for (const PropInput& move : moves) {
    if (move.index < 0 || static_cast<std::size_t>(move.index) >= props.size()) {
      *error = "props: no prop " + std::to_string(move.index) + " (the situation has " +
               std::to_string(props.size()) + ")";
      return nullptr;
    }
    PropPlacement& placement = props[static_cast<std::size_t>(move.index)].placement;
    placement.position_ms = move.position_ms;
    placement.yaw_deg = move.yaw_deg;
  }
  return World::Build(std::move(props), error);
}

}  // namespace ikpose::scene
