#include "scene/road/posing_request.h"

#include <algorithm>
#include <cmath>

namespace ikpose::scene {

namespace {

std::string ClipList(const anim::Model& model) {
  std::string list;
  for (std::size_t i = 0; i < model.clips.size(); ++i) {
    if (i > 0) list += ", ";
    list += model.clips[i].name.empty() ? std::to_string(i) : model.clips[i].name;
  }
  return list.empty() ? "the model has none" : "clips: " + list;
}

bool Targets(const PosingRequest& request, const std::string& chain) {
  for (const ChainPoint& t : request.targets) {
    if (t.chain == chain) return true;
  }
  if (!request.scenario) return false;
  for (anim::Limb limb : anim::kLimbs) {
    const LimbSetting& s = request.scenario->limbs[static_cast<int>(limb)];
    if (anim::LimbName(limb) == chain && s.present && s.enabled && s.target_ms) return true;
  }
  return false;
}

// Step 1: the start pose and the clip.
bool StartPose(const PosingRequest& request, PosingSession& session, std::string* error) {
  session.SetStartPose(request.start_pose_ls);
  const std::string clip_name = request.ClipName();
  if (clip_name.empty()) return true;
  const anim::Model& model = session.model();
  const int clip = anim::FindClip(model, clip_name);
  if (clip < 0) {
    *error = model.source + ": no clip named '" + clip_name + "' (" + ClipList(model) + ")";
    return false;
  }
  session.edits.playback.clip = clip;
  session.edits.playback.time =
      request.time.value_or(request.clip || !request.scenario ? 0.0f : request.scenario->time);
  return true;
}

// Step 3: the scenario's edits, then its ladder's snap and fit.
bool ApplyScenario(const Scenario& scenario, PosingSession& session, std::string* error) {
  if (!ApplyScenarioEdits(scenario, session.model(), session.ladder_prop() >= 0, &session.edits,
                          error)) {
    return false;
  }
  if (scenario.ladder) {
    if (scenario.ladder_snap) session.SnapToRungs();
    if (scenario.ladder_fit_body) session.FitBodyToLadder();
  }
  return true;
}

// Step 4: the command line's targets and poles (its policies: ApplyPolicies).
bool ApplyPoints(const PosingRequest& request, PosingSession& session, std::string* error) {
  for (const ChainPoint& t : request.targets) {
    LimbTarget* target = nullptr;
    if (!session.FindTarget(t.chain, &target, error)) return false;
    target->target_ms = t.point_ms;
    target->given = true;
    target->rung = -1;
  }
  for (const ChainPoint& p : request.poles) {
    LimbTarget* target = nullptr;
    if (!session.FindTarget(p.chain, &target, error)) return false;
    target->options.solver.use_pole = true;
    target->options.solver.pole_ms = p.point_ms;
    target->options.policy = anim::KneePolicy::kPole;
  }
  return true;
}

// Step 4, last: the policies (seed or natural drop a pole; pole needs one).
bool ApplyPolicies(const std::vector<std::pair<std::string, anim::KneePolicy>>& policies,
                   PosingSession& session, std::string* error) {
  for (const auto& [chain, policy] : policies) {
    std::vector<LimbTarget*> targets;
    if (chain.empty()) {
      for (anim::Limb limb : anim::kLimbs) {
        if (session.target(limb).available) targets.push_back(&session.target(limb));
      }
      for (ChainTarget& extra : session.extra_chains()) targets.push_back(&extra.target);
    } else {
      LimbTarget* target = nullptr;
      if (!session.FindTarget(chain, &target, error)) return false;
      targets.push_back(target);
    }
    for (LimbTarget* target : targets) {
      if (policy == anim::KneePolicy::kPole && !target->options.solver.use_pole) {
        *error = "--policy " + (chain.empty() ? std::string() : chain + "=") +
                 "pole needs a pole for every chain it names (--pole CHAIN=x,y,z)";
        return false;
      }
      target->options.policy = policy;
      if (policy != anim::KneePolicy::kPole) target->options.solver.use_pole = false;
    }
  }
  return true;
}

// Step 5 done: every given, enabled target solved, or the first reason it could not be.
bool AllSolved(const PosingSession& session, std::string* error) {
  const anim::Model& model = session.model();
  for (anim::Limb limb : anim::kLimbs) {
    const LimbTarget& t = session.target(limb);
    if (t.available && t.given && t.enabled && !session.result(limb).ok) {
      *error = model.source + ": " + session.result(limb).error;
      return false;
    }
  }
  for (const ChainTarget& extra : session.extra_chains()) {
    if (extra.target.enabled && !extra.result.ok) {
      *error = model.source + ": " + extra.result.error;
      return false;
    }
  }
  return true;
}

}  // namespace

std::string PosingRequest::ClipName() const {
  if (clip) return *clip;
  return scenario ? scenario->clip : std::string();
}

bool CheckRequest(const PosingRequest& request, std::string* error) {
  for (std::size_t i = 0; i < request.targets.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (request.targets[j].chain == request.targets[i].chain) {
        *error = "chain " + request.targets[i].chain + " has two targets";
        return false;
      }
    }
  }
  for (std::size_t i = 0; i < request.poles.size(); ++i) {
    const std::string& chain = request.poles[i].chain;
    for (std::size_t j = 0; j < i; ++j) {
      if (request.poles[j].chain == chain) {
        *error = "chain " + chain + " has two poles";
        return false;
      }
    }
    if (!Targets(request, chain)) {
      *error = "pole given for chain " + chain + ", which has no --target";
      return false;
    }
  }
  if (request.time && request.ClipName().empty()) {
    *error = "--time needs --clip";
    return false;
  }
  if (request.time && !std::isfinite(*request.time)) {
    *error = "--time must be a finite number of seconds";
    return false;
  }
  return true;
}

std::unique_ptr<PosingSession> BuildSituation(const anim::Model& model,
                                              const PosingRequest& request, std::string* error,
                                              std::shared_ptr<const RigFacts> facts) {
  if (!CheckRequest(request, error)) return nullptr;
  // Built unsolved: SolveSituation solves it (once per policy for a trace frame). Only a ready
  // pose and a scenario's ladder snap or body fit read the placed targets while it is built;
  // for them the targets are placed as before (ResetTargets below).
  auto session = std::make_unique<PosingSession>(model, std::move(facts), /*solve=*/false);
  // Step 0: a ladder in front of the character, sized to it (a scenario's ladder replaces it).
  const anim::Bounds& bounds = session->facts()->rest_bounds;
  if (!bounds.empty()) {
    const glm::vec3 floor_ms(0.5f * (bounds.min.x + bounds.max.x), session->floor_y(),
                             0.5f * (bounds.min.z + bounds.max.z));
    float leg = 0.0f;
    for (anim::Limb limb : {anim::Limb::kLeftLeg, anim::Limb::kRightLeg}) {
      const anim::LimbChain& c = session->chain(limb);
      if (c.valid()) leg = std::max(leg, c.upper_length + c.lower_length);
    }
    session->edits.ladder =
        LadderFor(bounds.max.y - bounds.min.y, floor_ms, model.chains.forward_ms, leg);
  }
  // The world: props and floor; feet stand on them unless told.
  session->edits.world = request.world;
  session->FitLadderToProps();  // a ladder prop is the ladder the scenario snaps to
  const std::optional<Scenario>& scenario = request.scenario;
  session->edits.floor = !scenario || scenario->floor.value_or(true);
  session->edits.ground =
      request.ground.value_or(scenario && scenario->ground ? *scenario->ground : true);
  if (!StartPose(request, *session, error)) return nullptr;
  // A ready pose first: the scenario's and the command line's own entries then go over it.
  std::optional<ReadyPose> ready = request.ready;
  if (!ready && scenario) ready = scenario->ready;
  const bool reads_targets = ready || (scenario && scenario->ladder &&
                                       (scenario->ladder_snap || scenario->ladder_fit_body));
  session->ResetTargets(/*solve=*/reads_targets);
  if (ready && !ApplyReadyPose(*session, *ready, error)) return nullptr;
  if (request.scenario && !ApplyScenario(*request.scenario, *session, error)) return nullptr;
  if (request.ladder) {
    const Ladder ladder = request.ladder->Over(session->edits.ladder);
    if (!ladder.Valid()) {
      *error = "the game's ladder has a non-positive size or count";
      return nullptr;
    }
    session->edits.ladder = ladder;
    session->edits.ladder_enabled = true;
  }
  if (!ApplyPoints(request, *session, error)) return nullptr;
  if (request.mirror) session->edits.mirror = *request.mirror;
  if (request.body_help) session->edits.body_help = *request.body_help;
  if (request.limits) session->edits.limits = *request.limits;
  return session;
}

namespace {

// The end of step 4 and step 5 on `session` itself.
bool SolveInPlace(PosingSession& session,
                  const std::vector<std::pair<std::string, anim::KneePolicy>>& policies,
                  std::string* error) {
  if (!ApplyPolicies(policies, session, error)) return false;
  session.Evaluate();
  return AllSolved(session, error);
}

}  // namespace

std::unique_ptr<PosingSession> SolveSituation(
    const PosingSession& situation,
    const std::vector<std::pair<std::string, anim::KneePolicy>>& policies, std::string* error) {
  auto session = std::make_unique<PosingSession>(situation);
  return SolveInPlace(*session, policies, error) ? std::move(session) : nullptr;
}

std::unique_ptr<PosingSession> BuildSession(const anim::Model& model, const PosingRequest& request,
                                            std::string* error,
                                            std::shared_ptr<const RigFacts> facts) {
  // The situation solved where it stands: no copy when it is solved only once.
  std::unique_ptr<PosingSession> session = BuildSituation(model, request, error, std::move(facts));
  return session && SolveInPlace(*session, request.policies, error) ? std::move(session) : nullptr;
}

}  // namespace ikpose::scene
