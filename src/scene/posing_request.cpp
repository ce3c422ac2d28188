#include "scene/posing_request.h"

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
  session.playback.clip = clip;
  session.playback.time =
      request.time.value_or(request.clip || !request.scenario ? 0.0f : request.scenario->time);
  return true;
}

// Step 3: the scenario's limbs and ladder.
bool ApplyScenario(const Scenario& scenario, PosingSession& session, std::string* error) {
  for (anim::Limb l : anim::kLimbs) {
    const LimbSetting& limb = scenario.limbs[static_cast<int>(l)];
    if (!limb.present) continue;
    LimbTarget& target = session.target(l);
    if (!target.available) {
      *error = scenario.file + ": the model has no " + std::string(anim::LimbName(l)) + " chain";
      return false;
    }
    target.enabled = limb.enabled;
    if (limb.target_ms) {
      target.target_ms = *limb.target_ms;
      target.given = true;
    }
    target.options = limb.options;
    target.from_rest = limb.from_rest;
    if (limb.pinned) target.pinned = *limb.pinned;
    target.grip = limb.grip;
    target.pull_body = limb.pull_body;
  }
  if (scenario.body) session.body = *scenario.body;
  for (const auto& [name, turn] : scenario.bone_turns) {
    const int bone = session.model().skeleton.Find(name);
    if (bone < 0) {
      *error = scenario.file + ": bone_turns names '" + name + "', which the model does not have";
      return false;
    }
    session.bone_turns_ls[static_cast<std::size_t>(bone)] = turn;
  }
  session.mirror = scenario.mirror;
  if (scenario.body_help) session.body_help = *scenario.body_help;
  if (scenario.limits) session.limits = *scenario.limits;
  if (scenario.ladder) {
    // A ladder prop keeps its own rungs; the scenario's ladder options apply to it.
    if (session.ladder_prop() < 0) session.ladder = *scenario.ladder;
    session.ladder_enabled = scenario.ladder_enabled || session.ladder_prop() >= 0;
    session.ladder_follows_clip = scenario.ladder_follows_clip;
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
  auto session = std::make_unique<PosingSession>(model, std::move(facts));
  // Step 0: a ladder in front of the character, sized to it (a scenario's ladder replaces it).
  const anim::Bounds& bounds = session->facts()->rest_bounds;
  if (!bounds.empty()) {
    const glm::vec3 floor_ms(0.5f * (bounds.min.x + bounds.max.x), session->floor_y(),
                             0.5f * (bounds.min.z + bounds.max.z));
    session->ladder = LadderFor(bounds.max.y - bounds.min.y, floor_ms, model.chains.forward_ms);
  }
  // The world: props and floor; feet stand on them unless told.
  session->world = request.world;
  session->FitLadderToProps();  // a ladder prop is the ladder the scenario snaps to
  const std::optional<Scenario>& scenario = request.scenario;
  session->floor = !scenario || scenario->floor.value_or(true);
  session->ground =
      request.ground.value_or(scenario && scenario->ground ? *scenario->ground : true);
  if (!StartPose(request, *session, error)) return nullptr;
  session->ResetTargets();
  // A ready pose first: the scenario's and the command line's own entries then go over it.
  std::optional<ReadyPose> ready = request.ready;
  if (!ready && scenario) ready = scenario->ready;
  if (ready && !ApplyReadyPose(*session, *ready, error)) return nullptr;
  if (request.scenario && !ApplyScenario(*request.scenario, *session, error)) return nullptr;
  if (request.ladder) {
    const Ladder ladder = request.ladder->Over(session->ladder);
    if (!ladder.Valid()) {
      *error = "the game's ladder has a non-positive size or count";
      return nullptr;
    }
    session->ladder = ladder;
    session->ladder_enabled = true;
  }
  if (!ApplyPoints(request, *session, error)) return nullptr;
  if (request.mirror) session->mirror = *request.mirror;
  if (request.body_help) session->body_help = *request.body_help;
  if (request.limits) session->limits = *request.limits;
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
