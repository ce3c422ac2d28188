#include "scene/trace/trace_replay.h"

#include <algorithm>

#include "scene/world/world.h"

namespace ikpose::scene {

namespace {

template <typename Points>
void Replace(Points& points, const std::string& chain, const glm::vec3& point_ms) {
  std::erase_if(points, [&](const ChainPoint& p) { return p.chain == chain; });
  points.push_back({chain, point_ms});
}

}  // namespace

PosingRequest FrameRequest(const PosingRequest& base, const TraceFrame& frame) {
  PosingRequest request = base;
  if (frame.clip_time) request.time = *frame.clip_time;
  if (frame.ladder) request.ladder = frame.ladder;
  for (anim::Limb limb : anim::kLimbs) {
    const LimbInput& in = frame.inputs[static_cast<int>(limb)];
    if (!in.has_target) continue;
    const std::string chain(anim::LimbName(limb));
    Replace(request.targets, chain, in.target_ms);
    if (in.pole_ms) Replace(request.poles, chain, *in.pole_ms);
  }
  return request;
}

std::vector<std::pair<std::string, anim::KneePolicy>> PoliciesUnder(const TraceFrame& frame,
                                                                    anim::KneePolicy policy) {
  if (policy != anim::KneePolicy::kPole) return {{std::string(), policy}};
  // An earlier seed or natural for every limb would drop the poles: only the limbs with one.
  std::vector<std::pair<std::string, anim::KneePolicy>> policies;
  for (anim::Limb limb : anim::kLimbs) {
    const LimbInput& in = frame.inputs[static_cast<int>(limb)];
    if (in.has_target && in.pole_ms) policies.emplace_back(anim::LimbName(limb), policy);
  }
  return policies;
}

PosingRequest WithPolicy(const PosingRequest& request, const TraceFrame& frame,
                         anim::KneePolicy policy) {
  PosingRequest out = request;
  out.policies = PoliciesUnder(frame, policy);
  return out;
}

std::unique_ptr<PosingSession> FrameSituation(const anim::Model& model, const PosingRequest& base,
                                              const TraceFrame& input, std::string* error,
                                              std::shared_ptr<const RigFacts> facts) {
  return BuildSituation(model, FrameRequest(base, input), error, std::move(facts));
}

std::unique_ptr<PosingSession> SolveFrame(const PosingSession& situation, const PosingRequest& base,
                                          const TraceFrame& input,
                                          std::optional<anim::KneePolicy> policy,
                                          TraceFrame* recorded, std::string* error) {
  std::unique_ptr<PosingSession> session =
      SolveSituation(situation, policy ? PoliciesUnder(input, *policy) : base.policies, error);
  if (session && recorded) *recorded = RecordFrame(*session, input.frame, input.time, input.inputs);
  return session;
}

std::unique_ptr<PosingSession> SolveFrame(const anim::Model& model, const PosingRequest& base,
                                          const TraceFrame& input,
                                          std::optional<anim::KneePolicy> policy,
                                          TraceFrame* recorded, std::string* error,
                                          std::shared_ptr<const RigFacts> facts) {
  PosingRequest request = FrameRequest(base, input);
  if (!input.props.empty()) {  // the props as the frame had them
    request.world = MoveProps(base.world, input.props, error);
    if (!request.world) return nullptr;
  }
  if (policy) request = WithPolicy(request, input, *policy);
  std::unique_ptr<PosingSession> session = BuildSession(model, request, error, std::move(facts));
  if (session && recorded) *recorded = RecordFrame(*session, input.frame, input.time, input.inputs);
  return session;
}

bool ReplayUnder(const anim::Model& model, const PosingRequest& base,
                 const std::vector<TraceFrame>& inputs, anim::KneePolicy policy,
                 std::vector<TraceFrame>* replayed, std::string* error) {
  replayed->clear();
  replayed->reserve(inputs.size());
  const std::shared_ptr<const RigFacts> facts = MeasureRig(model);
  for (const TraceFrame& input : inputs) {
    TraceFrame frame;
    if (!SolveFrame(model, base, input, policy, &frame, error, facts)) return false;
    replayed->push_back(std::move(frame));
  }
  return true;
}

}  // namespace ikpose::scene
