#include "scene/posing_session.h"

namespace ikpose::scene {

namespace {

// Solves one target on `pose` (from the rest rotations of its two bones when asked).
anim::ChainSolveResult SolveTarget(const anim::Model& model, const anim::LimbChain& chain,
                                   const LimbTarget& t, const anim::Pose& rest, anim::Pose& pose) {
  if (t.from_rest) {
    for (int bone : {chain.upper, chain.lower}) {
      pose.locals_ls[static_cast<std::size_t>(bone)].rotation =
          rest.locals_ls[static_cast<std::size_t>(bone)].rotation;
    }
    anim::UpdateSubtree(model.skeleton, chain.upper, pose);
  }
  return anim::SolveChainOnPose(model.skeleton, chain, t.target_ms, t.options, pose);
}

}  // namespace

bool IsLeg(anim::Limb limb) {
  return limb == anim::Limb::kLeftLeg || limb == anim::Limb::kRightLeg;
}

PosingSession::PosingSession(const anim::Model& model) : model_(&model) {
  rest_ = anim::RestPose(model.skeleton);
  for (anim::Limb limb : anim::kLimbs) target(limb).available = chain(limb).valid();
  base_ = rest_;
  pose_ = rest_;
  ResetTargets();
}

void PosingSession::SetStartPose(std::vector<anim::Transform> locals_ls) {
  start_ls_ = std::move(locals_ls);
  if (start_ls_.size() != rest_.locals_ls.size()) start_ls_.clear();
}

bool PosingSession::FindTarget(const std::string& name, LimbTarget** found, std::string* error) {
  const anim::Skeleton& skeleton = model_->skeleton;
  for (anim::Limb limb : anim::kLimbs) {
    const anim::LimbChain& c = chain(limb);
    if (name == anim::LimbName(limb) ||
        (c.valid() && skeleton.names[static_cast<std::size_t>(c.end)] == name)) {
      if (!c.valid()) break;  // ResolveChain below says why
      *found = &target(limb);
      return true;
    }
  }
  for (ChainTarget& extra : extra_) {
    if (extra.chain.name == name) {
      *found = &extra.target;
      return true;
    }
  }
  ChainTarget extra;
  if (!anim::ResolveChain(skeleton, rest_, model_->chains, name, &extra.chain, error)) {
    *error = model_->source + ": " + *error;
    return false;
  }
  extra.chain.name = name;
  extra.target.available = true;
  extra.target.target_ms = anim::EndPositionMs(extra.chain, base_);
  extra_.push_back(std::move(extra));
  *found = &extra_.back().target;
  return true;
}

void PosingSession::ResetTargets() {
  for (anim::Limb limb : anim::kLimbs) {
    target(limb).given = false;
    target(limb).rung = -1;
    target(limb).target_ms = resting_ms_[static_cast<int>(limb)];
  }
  Evaluate();
}

void PosingSession::Advance(float seconds) {
  if (!playback.playing || playback.clip < 0) return;
  const anim::Clip& clip = model_->clips[static_cast<std::size_t>(playback.clip)];
  playback.time =
      anim::ClipTime(clip.duration, clip.loop, playback.time + seconds * playback.speed);
}

void PosingSession::Evaluate() {
  base_.locals_ls = start_ls_.empty() ? rest_.locals_ls : start_ls_;
  if (playback.clip >= 0 && playback.clip < static_cast<int>(model_->clips.size())) {
    const anim::Clip& clip = model_->clips[static_cast<std::size_t>(playback.clip)];
    anim::SampleClip(clip, anim::ClipTime(clip.duration, clip.loop, playback.time),
                     base_.locals_ls);
  }
  base_.models_ms.resize(base_.locals_ls.size());
  anim::UpdateModels(model_->skeleton, base_);
  pose_ = base_;
  for (anim::Limb limb : anim::kLimbs) {
    LimbTarget& t = target(limb);
    anim::ChainSolveResult& result = results_[static_cast<int>(limb)];
    result = {};
    if (!t.available) continue;
    glm::vec3& resting = resting_ms_[static_cast<int>(limb)];
    if (!t.given && t.target_ms != resting) t.given = true;  // moved since it was put to rest
    if (!t.given) t.target_ms = resting = anim::EndPositionMs(chain(limb), base_);
    if (t.given && t.enabled) result = SolveTarget(*model_, chain(limb), t, rest_, pose_);
  }
  for (ChainTarget& extra : extra_) {
    extra.result = {};
    if (extra.target.enabled) {
      extra.result = SolveTarget(*model_, extra.chain, extra.target, rest_, pose_);
    }
  }
}

void PosingSession::SnapToRungs() {
  if (!ladder.Valid()) return;
  for (anim::Limb limb : anim::kLimbs) {
    LimbTarget& t = target(limb);
    if (!t.available) continue;
    t.rung = ladder.NearestRung(t.target_ms);
    t.target_ms =
        IsLeg(limb) ? ladder.RestPoint(t.rung, t.target_ms) : ladder.GripPoint(t.rung, t.target_ms);
    t.given = true;
  }
}

bool PosingSession::StepRungs(int delta) {
  for (anim::Limb limb : anim::kLimbs) {
    const LimbTarget& t = target(limb);
    if (!t.available || t.rung < 0) continue;
    const int next = t.rung + delta;
    if (next < 0 || next >= ladder.rung_count) return false;
  }
  for (anim::Limb limb : anim::kLimbs) {
    LimbTarget& t = target(limb);
    if (!t.available || t.rung < 0) continue;
    t.rung += delta;
    t.target_ms =
        IsLeg(limb) ? ladder.RestPoint(t.rung, t.target_ms) : ladder.GripPoint(t.rung, t.target_ms);
  }
  return true;
}

}  // namespace ikpose::scene
