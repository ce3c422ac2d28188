#include "scene/session/posing_session.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>

namespace ikpose::scene {

namespace {

// Bit for bit equality of floats and of glm's types made of floats alone (no padding): a
// signed zero or a NaN is only the same as itself.
template <typename T>
bool SameBits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}
template <typename T>
bool SameBits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}
bool SameFitInputs(const std::array<BodyGoal, 4>& goals_a, const ContactPlane& plane_a,
                   const anim::Pose& pose_a, const std::array<BodyGoal, 4>& goals_b,
                   const ContactPlane& plane_b, const anim::Pose& pose_b) {
  for (std::size_t i = 0; i < goals_a.size(); ++i) {
    const BodyGoal& a = goals_a[i];
    const BodyGoal& b = goals_b[i];
    if (a.active != b.active || a.contact != b.contact || a.anchored != b.anchored ||
        !SameBits(a.end_ms, b.end_ms) || !SameBits(a.weight, b.weight) || !SameBits(a.pull, b.pull))
      return false;
  }
  return plane_a.valid == plane_b.valid && SameBits(plane_a.point_ms, plane_b.point_ms) &&
         SameBits(plane_a.normal_ms, plane_b.normal_ms) &&
         SameBits(pose_a.locals_ls, pose_b.locals_ls) &&
         SameBits(pose_a.models_ms, pose_b.models_ms);
}

// A foot already standing as the ground would put it (the rest pose on the floor): left as it
// is, so that contact on by default moves no bone of a pose that stands.
bool StandsAlready(const anim::Pose& pose, const anim::LimbChain& chain, const FootContact& on,
                   float height) {
  if (!on.contact) return false;
  const glm::quat q = anim::RotationMs(pose, chain.end);
  const glm::quat& r = on.rotation_ms;
  const float turn = std::min(glm::length(glm::vec4(q.x - r.x, q.y - r.y, q.z - r.z, q.w - r.w)),
                              glm::length(glm::vec4(q.x + r.x, q.y + r.y, q.z + r.z, q.w + r.w)));
  return glm::distance(anim::EndPositionMs(chain, pose), on.ankle_target_ms) < 1e-6f * height &&
         turn < 1e-5f;
}

// Solves one target on `pose` (from the rest rotations of its two bones when asked).
anim::ChainSolveResult SolveTarget(const anim::Model& model, const anim::LimbChain& chain,
                                   const LimbTarget& t, const anim::Pose& rest, bool report,
                                   anim::Pose& pose) {
  if (t.from_rest) {
    for (int bone : {chain.upper, chain.lower}) {
      pose.locals_ls[static_cast<std::size_t>(bone)].rotation =
          rest.locals_ls[static_cast<std::size_t>(bone)].rotation;
    }
    anim::UpdateSubtree(model.skeleton, chain.upper, pose);
  }
  return anim::SolveChainOnPose(model.skeleton, chain, t.target_ms, t.options, pose, report);
}

// The pelvis: the nearest common ancestor of the legs' hips (else of every limb found).
int FindBodyBone(const anim::Model& model) {
  const anim::Skeleton& skeleton = model.skeleton;
  if (skeleton.size() == 0) return -1;
  std::vector<int> uppers;
  for (anim::Limb limb : {anim::Limb::kLeftLeg, anim::Limb::kRightLeg}) {
    if (model.chains[limb].valid()) uppers.push_back(model.chains[limb].upper);
  }
  if (uppers.empty()) {
    for (anim::Limb limb : anim::kLimbs) {
      if (model.chains[limb].valid()) uppers.push_back(model.chains[limb].upper);
    }
  }
  if (uppers.empty()) return 0;
  int bone = skeleton.parents[static_cast<std::size_t>(uppers[0])];
  while (bone >= 0) {
    bool all = true;
    for (int upper : uppers) all = all && skeleton.IsAncestorOrSelf(bone, upper) && bone != upper;
    if (all) return bone;
    bone = skeleton.parents[static_cast<std::size_t>(bone)];
  }
  return 0;
}

// Shifts and turns `bone` in `pose` about its own joint (model space), children following.
void ApplyBodyMove(const anim::Skeleton& skeleton, int bone, const BodyMove& move,
                   anim::Pose& pose) {
  if (bone < 0 || (move.offset_ms == glm::vec3(0.0f) && move.turn_ms == glm::quat(1, 0, 0, 0)))
    return;
  const auto b = static_cast<std::size_t>(bone);
  const glm::vec3 pivot = anim::PositionMs(pose, bone);
  glm::mat4 moved = glm::mat4_cast(glm::normalize(move.turn_ms)) * pose.models_ms[b];
  moved[3] = glm::vec4(pivot + move.offset_ms, 1.0f);
  const int parent = skeleton.parents[b];
  const glm::mat4 local =
      parent >= 0 ? glm::inverse(pose.models_ms[static_cast<std::size_t>(parent)]) * moved : moved;
  const anim::Transform t = anim::Decompose(local);
  pose.locals_ls[b].translation = t.translation;
  pose.locals_ls[b].rotation = t.rotation;
  anim::UpdateSubtree(skeleton, bone, pose);
}

}  // namespace

bool IsLeg(anim::Limb limb) {
  return limb == anim::Limb::kLeftLeg || limb == anim::Limb::kRightLeg;
}

namespace {

// A rung's grip point (hands, on its axis) or rest point (feet, on its top) near `near_ms`.
glm::vec3 RungPoint(const Ladder& ladder, anim::Limb limb, int rung, const glm::vec3& near_ms) {
  return IsLeg(limb) ? ladder.RestPoint(rung, near_ms) : ladder.GripPoint(rung, near_ms);
}

}  // namespace

PosingSession::PosingSession(const anim::Model& model, std::shared_ptr<const RigFacts> facts,
                             bool solve)
    : model_(&model), facts_(std::move(facts)) {
  if (!facts_ || facts_->bone_count != model.skeleton.size()) facts_ = MeasureRig(model);
  for (anim::Limb limb : anim::kLimbs) {
    target(limb).available = chain(limb).valid();
    target(limb).pinned = IsLeg(limb);
    target(limb).options.level_end = IsLeg(limb);  // a lifted foot lands flat
  }
  body_bone_ = FindBodyBone(model);
  edits.bone_turns_ls.assign(facts_->rest.locals_ls.size(), glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
  base_ = facts_->rest;
  pose_ = facts_->rest;
  ResetTargets(solve);
}

void PosingSession::SetStartPose(std::vector<anim::Transform> locals_ls) {
  clip_sample_.reset();
  start_ls_ = std::move(locals_ls);
  if (start_ls_.size() != facts_->rest.locals_ls.size()) start_ls_.clear();
}

bool PosingSession::FindTarget(const std::string& name, LimbTarget** found, std::string* error) {
  for (ChainTarget& extra : extra_) {
    if (extra.chain.name == name) {
      *found = &extra.target;
      return true;
    }
  }
  // ResolveChain knows the names (a limb's, a limb's end bone, any bone): a detected limb is
  // its own target, anything else becomes an extra chain.
  ChainTarget extra;
  if (!anim::ResolveChain(model_->skeleton, facts_->rest, model_->chains, name, &extra.chain,
                          error)) {
    *error = model_->source + ": " + *error;
    return false;
  }
  for (anim::Limb limb : anim::kLimbs) {
    if (chain(limb).valid() && chain(limb).end == extra.chain.end &&
        chain(limb).upper == extra.chain.upper) {
      *found = &target(limb);
      return true;
    }
  }
  extra.chain.name = name;
  extra.target.available = true;
  extra.target.target_ms = anim::EndPositionMs(extra.chain, base_);
  extra_.push_back(std::move(extra));
  *found = &extra_.back().target;
  return true;
}

bool PosingSession::SetBoneRotation(int bone, const glm::quat& rotation_ls) {
  return SetBoneRotations({{bone, rotation_ls}});
}

bool PosingSession::SetBoneRotations(const std::vector<std::pair<int, glm::quat>>& rotations_ls) {
  const std::size_t n = facts_->rest.locals_ls.size();
  for (const auto& [bone, rotation_ls] : rotations_ls) {
    if (bone < 0 || static_cast<std::size_t>(bone) >= n) return false;
    const float len = glm::length(rotation_ls);
    if (!std::isfinite(len) || len < 1e-6f) return false;
  }
  if (edits.bone_turns_ls.size() != n)
    edits.bone_turns_ls.assign(n, glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
  std::vector<anim::Transform> clip_ls;
  SampleClipPose(clip_ls);
  // The turn that gives `bone` the local rotation `wanted_ls` on top of the clip's.
  const auto turn_to = [&](int b, const glm::quat& wanted_ls) {
    const auto i = static_cast<std::size_t>(b);
    edits.bone_turns_ls[i] = glm::normalize(glm::inverse(clip_ls[i].rotation) * wanted_ls);
  };
  bool bone_let_go = false;
  for (anim::Limb limb : anim::kLimbs) {
    const anim::LimbChain& c = chain(limb);
    LimbTarget& t = target(limb);
    const auto turned = [&c](const std::pair<int, glm::quat>& r) {
      return r.first == c.upper || r.first == c.lower || r.first == c.end;
    };
    if (!t.available || std::none_of(rotations_ls.begin(), rotations_ls.end(), turned)) continue;
    // The limb lets go of its target; its bones keep what IK gave them, so only the turned
    // bone moves.
    if (placed(limb) && t.enabled) {
      for (int b : {c.upper, c.lower, c.end})
        turn_to(b, pose_.locals_ls[static_cast<std::size_t>(b)].rotation);
      bone_let_go = true;
    }
    t.given = false;
    t.rung = -1;
    t.target_ms = resting_ms_[static_cast<int>(limb)];
  }
  // Letting go of a target the body helped: the body keeps what the help gave it (the spine
  // and clavicles as turns, the pelvis as a body move), so only the turned bone moves.
  if (bone_let_go) {
    for (const BodyHelpReport::BoneTurn& helped : help_.bones)
      turn_to(helped.bone, pose_.locals_ls[static_cast<std::size_t>(helped.bone)].rotation);
    edits.body.offset_ms += help_.pelvis_offset_ms;
  }
  for (const auto& [bone, rotation_ls] : rotations_ls)
    turn_to(bone, rotation_ls / glm::length(rotation_ls));
  return true;
}

void PosingSession::ResetBoneTurns() {
  std::fill(edits.bone_turns_ls.begin(), edits.bone_turns_ls.end(),
            glm::quat(1.0f, 0.0f, 0.0f, 0.0f));
}

bool PosingSession::HasBoneTurns() const {
  return std::any_of(edits.bone_turns_ls.begin(), edits.bone_turns_ls.end(),
                     [](const glm::quat& q) { return q != glm::quat(1.0f, 0.0f, 0.0f, 0.0f); });
}

void PosingSession::ResetTargets(bool solve) {
  for (anim::Limb limb : anim::kLimbs) {
    target(limb).given = false;
    target(limb).rung = -1;
    target(limb).target_ms = resting_ms_[static_cast<int>(limb)];
  }
  if (solve) Evaluate();
}

void PosingSession::Advance(float seconds) {
  if (!edits.playback.playing || edits.playback.clip < 0) return;
  const anim::Clip& clip = model_->clips[static_cast<std::size_t>(edits.playback.clip)];
  edits.playback.time = anim::ClipTime(clip.duration, clip.loop,
                                       edits.playback.time + seconds * edits.playback.speed);
}

void PosingSession::SampleClipPose(std::vector<anim::Transform>& locals_ls) const {
  locals_ls = start_ls_.empty() ? facts_->rest.locals_ls : start_ls_;
  if (edits.playback.clip >= 0 && edits.playback.clip < static_cast<int>(model_->clips.size())) {
    const anim::Clip& clip = model_->clips[static_cast<std::size_t>(edits.playback.clip)];
    anim::SampleClip(clip, anim::ClipTime(clip.duration, clip.loop, edits.playback.time),
                     locals_ls);
  }
}

void PosingSession::Evaluate() {
  if (edits.world != ladder_world_) FitLadderToProps();
  if (!clip_sample_ || clip_sample_->clip != edits.playback.clip ||
      clip_sample_->time != edits.playback.time) {
    auto sample = std::make_shared<ClipSample>();
    sample->clip = edits.playback.clip;
    sample->time = edits.playback.time;
    SampleClipPose(sample->locals_ls);
    clip_sample_ = std::move(sample);
  }
  base_.locals_ls = clip_sample_->locals_ls;
  if (edits.bone_turns_ls.size() == base_.locals_ls.size()) {
    for (std::size_t i = 0; i < edits.bone_turns_ls.size(); ++i) {
      base_.locals_ls[i].rotation =
          glm::normalize(base_.locals_ls[i].rotation * edits.bone_turns_ls[i]);
    }
  }
  base_.models_ms.resize(base_.locals_ls.size());
  anim::UpdateModels(model_->skeleton, base_);
  // A pinned hand or foot rests where the clip has it before the body moves: it holds.
  const bool body_moved = edits.body != BodyMove{};
  // (Also when the body did not move: the body help may move the pelvis.)
  std::array<glm::vec3, 4> before_body_ms{};
  for (anim::Limb limb : anim::kLimbs) {
    if (target(limb).available) {
      before_body_ms[static_cast<int>(limb)] = anim::EndPositionMs(chain(limb), base_);
    }
  }
  ApplyBodyMove(model_->skeleton, body_bone_, edits.body, base_);
  PlanGroundContact(before_body_ms);
  pose_ = base_;
  ScrollLadder();
  const bool follow = edits.ladder_enabled && edits.ladder_follows_clip && climb_.rate > 0.0f;
  for (anim::Limb limb : anim::kLimbs) {
    LimbTarget& t = target(limb);
    if (t.available && !t.given && t.target_ms != resting_ms_[static_cast<int>(limb)])
      t.given = true;  // moved since it was put to rest
  }
  help_ = {};
  if (edits.body_help) {
    ContactPlane plane;
    if (edits.ladder_enabled && ladder_now_.Valid()) {
      // The rungs' plane, its normal toward the climber.
      plane.valid = true;
      plane.point_ms = ladder_now_.base_ms;
      plane.normal_ms = ladder_now_.NormalToward(BodyPositionMs());
    }
    help_ = FitBody(BodyGoals(follow, before_body_ms), plane);
  }
  const bool body_held = body_moved || help_.moved_pelvis();
  for (anim::Limb limb : anim::kLimbs) {
    LimbTarget& t = target(limb);
    anim::ChainSolveResult& result = results_[static_cast<int>(limb)];
    result = {};
    palms_[static_cast<int>(limb)] = {};
    if (!t.available) continue;
    glm::vec3& resting = resting_ms_[static_cast<int>(limb)];
    if (!t.given && t.target_ms != resting) t.given = true;  // moved since it was put to rest
    const bool holds = t.pinned && body_held;  // resting, but held against the body's move
    if (!t.given) {
      resting =
          holds ? before_body_ms[static_cast<int>(limb)] : anim::EndPositionMs(chain(limb), pose_);
      const FootContact& on = ground_.feet[static_cast<int>(limb)];
      if (on.moves()) resting = on.ankle_target_ms;  // it stands on (steps over) the ground
      t.target_ms = resting;
    }
    if (ground_.feet[static_cast<int>(limb)].moves() && t.enabled) {
      const FootContact& on = ground_.feet[static_cast<int>(limb)];
      if (t.given || !StandsAlready(pose_, chain(limb), on, facts_->height))
        result = SolveToGoal(limb, t, EndGoal{on.ankle_target_ms, on.rotation_ms}, 1.0f);
    } else if (t.given && t.enabled && t.grip && t.rung >= 0 && edits.ladder_enabled) {
      result = SolveOnRung(limb, t);
    } else if (follow && !t.given && t.enabled) {
      result = FollowRung(limb, t);
    } else if (EndGoal palm; PalmGoal(limb, t, &palm, &palms_[static_cast<int>(limb)].prop)) {
      result = SolveToGoal(limb, t, palm, 1.0f, false);
      palms_[static_cast<int>(limb)].on = result.ok;
      if (result.ok) {
        LiftFingersOutOf(model_->skeleton, facts_->hands[static_cast<int>(limb)], chain(limb).end,
                         palm, pose_);
      }
    } else if (t.given && t.enabled) {
      result = SolveTarget(*model_, chain(limb), t, facts_->rest, reports, pose_);
    } else if (holds && t.enabled) {
      LimbTarget held = t;  // a held foot stays flat: it keeps its model rotation
      held.options.end_rotation = ik::EndRotation::kKeepModel;
      result = SolveTarget(*model_, chain(limb), held, facts_->rest, reports, pose_);
    }
    // The seed policy is the seed's solve as it was (its knee may flip): not limited. A hold on
    // a rung (placed or following the clip) is a contact the limb must keep; the body help
    // places the body for it.
    const bool holds_rung =
        edits.ladder_enabled && ((t.given && t.grip && t.rung >= 0) || (follow && !t.given));
    if (edits.limits && result.ok && result.policy != anim::KneePolicy::kSeed && !holds_rung &&
        LimitLimb(*model_, chain(limb), pose_)) {
      result.knee_ms = anim::PositionMs(pose_, chain(limb).lower);
      result.end_ms = anim::EndPositionMs(chain(limb), pose_);
      result.error_ms = glm::length(result.end_ms - result.end_target_ms);
    }
  }
  for (ChainTarget& extra : extra_) {
    extra.result = {};
    if (extra.target.enabled) {
      extra.result = SolveTarget(*model_, extra.chain, extra.target, facts_->rest, reports, pose_);
    }
  }
  anim::MirrorPose(model_->skeleton, facts_->rest, facts_->mirror_map, edits.mirror, pose_);
  MeasureGroundContact();
  at_limit_ = JointsAtLimit(*model_, pose_, /*past=*/!edits.limits);
}

bool PosingSession::Mirrored(anim::Limb limb) const {
  return chain(limb).valid() &&
         anim::MirrorWrites(facts_->mirror_map, edits.mirror, chain(limb).end);
}

bool PosingSession::HasRungShape(anim::Limb limb) const {
  const int i = static_cast<int>(limb);
  return IsLeg(limb) ? facts_->feet[i].valid : facts_->hands[i].valid;
}

EndGoal PosingSession::RungGoal(anim::Limb limb, const glm::vec3& target_ms) const {
  const int i = static_cast<int>(limb);
  return IsLeg(limb)
             ? StandOnRung(facts_->feet[i], target_ms)
             : GripRung(facts_->hands[i], target_ms, -ladder_now_.NormalToward(BodyPositionMs()),
                        ladder_now_.rung_radius);
}

anim::ChainSolveResult PosingSession::SolveOnRung(anim::Limb limb, const LimbTarget& t) {
  if (!HasRungShape(limb))
    return SolveTarget(*model_, chain(limb), t, facts_->rest, reports, pose_);
  return SolveToGoal(limb, t, RungGoal(limb, t.target_ms), 1.0f);
}

anim::KneeClearance PosingSession::KneeClearanceFor(anim::Limb limb) const {
  anim::KneeClearance plane;
  if (!edits.ladder_enabled || !ladder_now_.Valid()) return plane;
  const anim::LimbChain& left = chain(anim::Limb::kLeftLeg);
  const anim::LimbChain& right = chain(anim::Limb::kRightLeg);
  if (!left.valid() || !right.valid()) return plane;
  const glm::vec3 across =
      anim::PositionMs(pose_, left.upper) - anim::PositionMs(pose_, right.upper);
  if (!(glm::length(across) > 1e-6f)) return plane;
  plane.valid = true;
  plane.point_ms = ladder_now_.base_ms;
  plane.normal_ms = ladder_now_.NormalToward(BodyPositionMs());
  plane.clearance =
      kBodyHelp.knee_clearance * (chain(limb).upper_length + chain(limb).lower_length);
  plane.outward_ms = glm::normalize(limb == anim::Limb::kLeftLeg ? across : -across);
  return plane;
}

std::string PosingSession::PropPath(int prop) const {
  if (prop < 0 || !edits.world) return "";
  const auto& props = edits.world->props();
  return prop < static_cast<int>(props.size()) ? props[static_cast<std::size_t>(prop)].path : "";
}

bool PosingSession::PalmGoal(anim::Limb limb, const LimbTarget& t, EndGoal* goal,
                             int* prop_out) const {
  const int i = static_cast<int>(limb);
  if (IsLeg(limb) || !t.given || !t.enabled || !facts_->hands[i].valid) return false;
  if (t.grip && t.rung >= 0 && edits.ladder_enabled) return false;  // it grips its rung
  const HandShape& hand = facts_->hands[i];
  // The highest surface under the target that a foot could stand on: a prop's top or the floor
  // (whether or not the feet keep to it: a hand on the floor is on the floor).
  const float within = OnTheFloorWithin(hand, facts_->feet);
  int prop = -1;
  const std::optional<RayHit> hit =
      GroundBelow(edits.world.get(), true, facts_->floor_y,
                  t.target_ms + glm::vec3(0.0f, within, 0.0f), 3.0f * within, &prop);
  if (!hit || !(hit->normal_ms.y >= std::cos(glm::radians(kMaxSoleTiltDeg)))) return false;
  const float above = glm::dot(t.target_ms - hit->point_ms, hit->normal_ms);
  if (!(above <= within && above > -within)) return false;
  const anim::HumanoidMap& body = model_->humanoid;
  const glm::vec3 facing = body.facing_valid ? body.facing_ms : model_->chains.forward_ms;
  *goal =
      PalmOnSurface(hand, t.target_ms, hit->point_ms, hit->normal_ms, edits.body.turn_ms * facing);
  if (prop_out) *prop_out = prop;
  return true;
}

anim::ChainSolveResult PosingSession::SolveToGoal(anim::Limb limb, const LimbTarget& t,
                                                  const EndGoal& goal, float weight, bool curl) {
  const int i = static_cast<int>(limb);
  const bool leg = IsLeg(limb);
  LimbTarget on_rung = t;
  on_rung.target_ms = goal.end_target_ms;
  on_rung.options.end_rotation = ik::EndRotation::kTarget;
  on_rung.options.target_rotation_ms = goal.rotation_ms;
  on_rung.options.solver.weight *= weight;
  if (leg) on_rung.options.knee_clearance = KneeClearanceFor(limb);
  anim::ChainSolveResult result =
      SolveTarget(*model_, chain(limb), on_rung, facts_->rest, reports, pose_);
  if (result.ok && !leg && weight >= 1.0f && curl) {
    CurlFingers(model_->skeleton, facts_->hands[i], chain(limb).end, ladder_now_.rung_radius,
                pose_);
  }
  result.target_ms = t.target_ms;  // the grip point; end_target_ms is where the wrist went
  return result;
}

void PosingSession::MeasureClimb() {
  if (climb_.clip == edits.playback.clip) return;
  climb_ = ClipClimb{};
  climb_.clip = edits.playback.clip;
  if (edits.playback.clip < 0 || edits.playback.clip >= static_cast<int>(model_->clips.size()))
    return;
  const anim::Clip& clip = model_->clips[static_cast<std::size_t>(edits.playback.clip)];
  if (!(clip.duration > 0.0f)) return;
  // Sample every hand and foot; the held ones slide down at the climb's rate, so the median
  // vertical speed of all of them is that rate when they hold more than half the time.
  constexpr int kSamples = 64;
  const float dt = clip.duration / kSamples;
  std::vector<std::array<glm::vec3, 4>> ends(kSamples);
  anim::Pose pose = facts_->rest;
  for (int k = 0; k < kSamples; ++k) {
    pose.locals_ls = facts_->rest.locals_ls;
    anim::SampleClip(clip, static_cast<float>(k) * dt, pose.locals_ls);
    anim::UpdateModels(model_->skeleton, pose);
    for (anim::Limb limb : anim::kLimbs) {
      if (chain(limb).valid())
        ends[k][static_cast<int>(limb)] = anim::EndPositionMs(chain(limb), pose);
    }
  }
  const auto speed = [&](int k, int i) {
    return (ends[(k + 1) % kSamples][i].y - ends[k][i].y) / dt;
  };
  std::vector<float> speeds;
  for (int k = 0; k < kSamples; ++k) {
    for (anim::Limb limb : anim::kLimbs) {
      if (chain(limb).valid()) speeds.push_back(speed(k, static_cast<int>(limb)));
    }
  }
  if (speeds.empty()) return;
  std::nth_element(speeds.begin(), speeds.begin() + static_cast<long>(speeds.size() / 2),
                   speeds.end());
  const float rate = -speeds[speeds.size() / 2];
  float leg = 0.0f;
  for (anim::Limb limb : anim::kLimbs) {
    leg = std::max(leg, chain(limb).upper_length + chain(limb).lower_length);
  }
  if (!(rate > 0.05f * leg)) return;  // not climbing in place
  // The phase from a held foot: its sole rests on a rung's top.
  for (anim::Limb limb : {anim::Limb::kLeftLeg, anim::Limb::kRightLeg}) {
    const int i = static_cast<int>(limb);
    if (!chain(limb).valid() || !facts_->feet[i].valid) continue;
    for (int k = 0; k < kSamples; ++k) {
      if (std::abs(speed(k, i) + rate) > 0.02f * rate) continue;
      const float axis_y =
          ends[k][i].y - facts_->feet[i].ankle_from_ball_ms.y - edits.ladder.rung_radius;
      climb_.rate = rate;
      climb_.phase = axis_y + rate * static_cast<float>(k) * dt;
      return;
    }
  }
}

void PosingSession::ScrollLadder() {
  ladder_now_ = edits.ladder;
  // A ladder prop stands where it is placed: the clip's holds snap to its rungs unscrolled.
  if (!edits.ladder_follows_clip || !edits.ladder.Valid() || ladder_prop_ >= 0) return;
  MeasureClimb();
  if (!(climb_.rate > 0.0f)) return;
  const anim::Clip& clip = model_->clips[static_cast<std::size_t>(edits.playback.clip)];
  const float t = anim::ClipTime(clip.duration, clip.loop, edits.playback.time);
  // Rungs where the clip has them: axis heights equal to phase - rate * t, modulo the spacing;
  // the ladder moves down by less than one spacing from where it stands.
  const float s = edits.ladder.rung_spacing;
  float shift = std::fmod(
      climb_.phase - climb_.rate * t - (edits.ladder.base_ms.y + edits.ladder.first_rung_height),
      s);
  if (shift > 0.0f) shift -= s;
  ladder_now_.base_ms.y += shift;
}

float PosingSession::FollowGoal(anim::Limb limb, glm::vec3* rung_ms, EndGoal* goal) const {
  if (!HasRungShape(limb)) return 0.0f;
  const int i = static_cast<int>(limb);
  const bool leg = IsLeg(limb);
  const glm::vec3 end = anim::EndPositionMs(chain(limb), base_);
  // The rung the clip's hand grips (its axis a little above the wrist) or foot stands on.
  glm::vec3 probe = end;
  probe.y += leg ? -(facts_->feet[i].ankle_from_ball_ms.y + ladder_now_.rung_radius)
                 : 0.5f * facts_->hands[i].palm_length;
  *rung_ms = RungPoint(ladder_now_, limb, ladder_now_.NearestRung(probe), end);
  // Blended in over the last third of a rung: full within a tenth of a spacing of the hold.
  *goal = RungGoal(limb, *rung_ms);
  const float s = ladder_now_.rung_spacing;
  return std::clamp((0.35f * s - glm::length(goal->end_target_ms - end)) / (0.25f * s), 0.0f, 1.0f);
}

anim::ChainSolveResult PosingSession::FollowRung(anim::Limb limb, const LimbTarget& t) {
  LimbTarget on = t;
  EndGoal goal;
  const float weight = FollowGoal(limb, &on.target_ms, &goal);
  if (weight <= 0.0f) return {};
  anim::ChainSolveResult result = SolveToGoal(limb, on, goal, weight);
  result.grip_weight = weight;
  return result;
}

BodyHelpReport PosingSession::FitBody(const std::array<BodyGoal, 4>& goals,
                                      const ContactPlane& plane) {
  const std::shared_ptr<const BodyFit> last = body_fit_->last.load();
  if (last && last->world == edits.world &&
      SameFitInputs(last->goals, last->plane, last->before, goals, plane, pose_)) {
    pose_ = last->after;
    return last->help;
  }
  // The props the body keeps out of (a box it leans on).
  BodyObstacles obstacles;
  if (edits.world && !edits.world->props().empty()) {
    obstacles.ball_depth = [world = edits.world.get()](const glm::vec3& center_ms, float radius) {
      return BallInsideProps(*world, center_ms, radius);
    };
    obstacles.limb_radius = facts_->limb_radius;
  }
  // A session no copy shares the cell with (a bake's, the viewer's) keeps no fit: nothing
  // else would read it.
  if (body_fit_.use_count() < 2)
    return SolveBodyHelp(*model_, body_bone_, goals, plane, obstacles, pose_);
  auto fit = std::make_shared<BodyFit>();
  fit->goals = goals;
  fit->plane = plane;
  fit->world = edits.world;
  fit->before = pose_;
  fit->help = SolveBodyHelp(*model_, body_bone_, goals, plane, obstacles, pose_);
  fit->after = pose_;
  body_fit_->last.store(fit);
  return fit->help;
}

std::array<BodyGoal, 4> PosingSession::BodyGoals(bool follow,
                                                 const std::array<glm::vec3, 4>& held_ms) const {
  std::array<BodyGoal, 4> goals{};
  for (anim::Limb limb : anim::kLimbs) {
    const int i = static_cast<int>(limb);
    const LimbTarget& t = target(limb);
    BodyGoal& g = goals[static_cast<std::size_t>(i)];
    if (!t.available || !t.enabled || Mirrored(limb)) continue;
    g.pull = std::clamp(t.pull_body, 0.0f, 1.0f);
    if (t.given) {
      g.active = g.contact = true;
      g.anchored = IsLeg(limb);
      const bool on_rung = t.grip && t.rung >= 0 && edits.ladder_enabled && HasRungShape(limb);
      EndGoal palm;
      g.end_ms = on_rung                    ? RungGoal(limb, t.target_ms).end_target_ms
                 : PalmGoal(limb, t, &palm) ? palm.end_target_ms
                                            : t.target_ms;
    } else if (follow) {
      glm::vec3 rung_ms(0.0f);
      EndGoal goal;
      // Not a contact for the four-contact solve: its placement is not yet continuous enough
      // over a clip (a trace of the bundled climb pops); a held limb is still helped to reach.
      g.weight = FollowGoal(limb, &rung_ms, &goal);
      g.active = g.weight > 0.0f;
      g.anchored = IsLeg(limb) && g.weight >= 1.0f;
      g.end_ms = goal.end_target_ms;
    } else if (t.pinned && IsLeg(limb)) {
      g.anchored = true;  // a standing foot holds where it is
      g.end_ms = held_ms[static_cast<std::size_t>(i)];
    }
  }
  return goals;
}

glm::vec3 PosingSession::BodyPositionMs() const {
  return body_bone_ >= 0 ? anim::PositionMs(pose_, body_bone_) : glm::vec3(0.0f);
}

void PosingSession::MoveBody(const glm::vec3& delta_ms, const glm::quat& turn_ms) {
  const glm::vec3 pivot = BodyPositionMs();
  const auto carry = [&](glm::vec3& p) { p = pivot + delta_ms + turn_ms * (p - pivot); };
  for (anim::Limb limb : anim::kLimbs) {
    LimbTarget& t = target(limb);
    if (!t.available) continue;
    if (t.pinned) continue;  // it holds (Evaluate solves a resting pinned limb on its rest)
    if (placed(limb)) {
      carry(t.target_ms);
      if (t.options.solver.use_pole) carry(t.options.solver.pole_ms);
      t.rung = -1;
    }
  }
  edits.body.offset_ms += delta_ms;
  edits.body.turn_ms = glm::normalize(turn_ms * edits.body.turn_ms);
}

void PosingSession::FitBodyToLadder() {
  if (body_bone_ < 0 || !edits.ladder.Valid()) return;
  float feet_y = 0.0f, leg = 0.0f, hip_above_feet = 0.0f;
  int feet = 0;
  for (anim::Limb limb : {anim::Limb::kLeftLeg, anim::Limb::kRightLeg}) {
    const LimbTarget& t = target(limb);
    if (!t.available) continue;
    feet_y += t.rung >= 0 ? edits.ladder.RestPoint(t.rung, t.target_ms).y : t.target_ms.y;
    leg += chain(limb).upper_length + chain(limb).lower_length;
    hip_above_feet += anim::PositionMs(facts_->rest, body_bone_).y -
                      anim::EndPositionMs(chain(limb), facts_->rest).y;
    ++feet;
  }
  if (feet == 0) return;
  feet_y /= static_cast<float>(feet);
  leg /= static_cast<float>(feet);
  hip_above_feet /= static_cast<float>(feet);
  // Knees bent toward the ladder: the hips 80% of their standing height above the feet, a third
  // of a leg behind the rungs (along the facing; about 30 cm for an adult, close enough for
  // the hands to reach the rungs in front of the chest).
  constexpr float kBehindRungs = 0.3f;
  edits.body = BodyMove{};  // measured from where the clip (or rest pose) has the pelvis
  Evaluate();
  const glm::vec3 from = BodyPositionMs();
  // Behind the rungs on the side the character faces them from (a turned ladder too).
  glm::vec3 behind = edits.ladder.FaceNormalMs();
  if (glm::dot(behind, chains().forward_ms) > 0.0f) behind = -behind;
  glm::vec3 to =
      from + (glm::dot(edits.ladder.base_ms - from, behind) + kBehindRungs * leg) * behind;
  to.y = feet_y + 0.8f * hip_above_feet;
  edits.body.offset_ms = to - from;
  Evaluate();
}

void PosingSession::FitLadderToProps() {
  ladder_world_ = edits.world;
  ladder_note_.clear();
  const int before = ladder_prop_;
  ladder_prop_ = -1;
  const std::vector<Prop> none;
  const std::vector<Prop>& props = edits.world ? edits.world->props() : none;
  for (std::size_t i = 0; i < props.size() && ladder_prop_ < 0; ++i) {
    const Prop& prop = props[i];
    if (!prop.rungs) continue;
    const std::string name = "prop " + std::filesystem::path(prop.path).filename().string();
    Ladder fitted;
    std::string why;
    if (!prop.rungs->found) {
      if (prop.placement.rungs == true)
        ladder_note_ = name + " is marked as a ladder but has " + prop.rungs->why_not;
      continue;
    }
    if (!LadderFromRungs(*prop.rungs, prop.placement, &fitted, &why)) {
      ladder_note_ = name + ": " + why;
      continue;
    }
    // Limbs on rungs keep their rungs (and their place along them) as the ladder moves.
    for (anim::Limb limb : anim::kLimbs) {
      LimbTarget& t = target(limb);
      if (!t.available || t.rung < 0) continue;
      const int rung = std::min(t.rung, fitted.rung_count - 1);
      const glm::vec3 moved =
          t.target_ms + fitted.RungCenter(rung) - edits.ladder.RungCenter(t.rung);
      t.rung = rung;
      t.target_ms = RungPoint(fitted, limb, rung, moved);
    }
    edits.ladder = fitted;
    edits.ladder_enabled = true;
    ladder_prop_ = static_cast<int>(i);
  }
  if (ladder_prop_ < 0 && before >= 0) {  // the ladder prop went: so did its rungs
    edits.ladder_enabled = false;
    for (anim::Limb limb : anim::kLimbs) target(limb).rung = -1;
  }
}

void PosingSession::SnapToRungs() {
  if (!edits.ladder.Valid()) return;
  for (anim::Limb limb : anim::kLimbs) {
    LimbTarget& t = target(limb);
    if (!t.available) continue;
    t.rung = edits.ladder.NearestRung(t.target_ms);
    t.target_ms = RungPoint(edits.ladder, limb, t.rung, t.target_ms);
    t.given = true;
  }
}

bool PosingSession::StepRungs(int delta) {
  for (anim::Limb limb : anim::kLimbs) {
    const LimbTarget& t = target(limb);
    if (!t.available || t.rung < 0) continue;
    const int next = t.rung + delta;
    if (next < 0 || next >= edits.ladder.rung_count) return false;
  }
  for (anim::Limb limb : anim::kLimbs) {
    LimbTarget& t = target(limb);
    if (!t.available || t.rung < 0) continue;
    t.rung += delta;
    t.target_ms = RungPoint(edits.ladder, limb, t.rung, t.target_ms);
  }
  edits.body.offset_ms.y +=
      static_cast<float>(delta) * edits.ladder.rung_spacing;  // the body climbs too
  return true;
}

}  // namespace ikpose::scene
