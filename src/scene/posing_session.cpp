#include "scene/posing_session.h"

namespace ikpose::scene {

bool IsLeg(anim::Limb limb) {
  return limb == anim::Limb::kLeftLeg || limb == anim::Limb::kRightLeg;
}

PosingSession::PosingSession(const anim::Model& model) : model_(&model) {
  rest_ = anim::RestPose(model.skeleton);
  chains_ = anim::DetectChains(model.skeleton, rest_);
  for (anim::Limb limb : anim::kLimbs) target(limb).available = chains_[limb].valid();
  base_ = rest_;
  pose_ = rest_;
  ResetTargets();
}

void PosingSession::ResetTargets() {
  Evaluate();
  for (anim::Limb limb : anim::kLimbs) {
    if (!target(limb).available) continue;
    target(limb).target_ms = anim::EndPositionMs(chains_[limb], base_);
    target(limb).rung = -1;
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
  base_.locals_ls = rest_.locals_ls;
  if (playback.clip >= 0 && playback.clip < static_cast<int>(model_->clips.size())) {
    const anim::Clip& clip = model_->clips[static_cast<std::size_t>(playback.clip)];
    anim::SampleClip(clip, anim::ClipTime(clip.duration, clip.loop, playback.time),
                     base_.locals_ls);
  }
  base_.models_ms.resize(base_.locals_ls.size());
  anim::UpdateModels(model_->skeleton, base_);
  pose_ = base_;
  for (anim::Limb limb : anim::kLimbs) {
    const LimbTarget& t = target(limb);
    anim::ChainSolveResult& result = results_[static_cast<int>(limb)];
    if (!t.available || !t.enabled) {
      result = {};
      continue;
    }
    const anim::LimbChain& chain = chains_[limb];
    if (t.from_rest) {
      for (int bone : {chain.upper, chain.lower}) {
        pose_.locals_ls[static_cast<std::size_t>(bone)].rotation =
            rest_.locals_ls[static_cast<std::size_t>(bone)].rotation;
      }
      anim::UpdateSubtree(model_->skeleton, chain.upper, pose_);
    }
    result = anim::SolveChainOnPose(model_->skeleton, chain, t.target_ms, t.options, pose_);
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
