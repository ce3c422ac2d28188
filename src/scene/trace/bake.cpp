#include "scene/trace/bake.h"

#include <cmath>
#include <sstream>

#include "scene/session/trace.h"
#include "scene/trace/trace_replay.h"

namespace ikpose::scene {

namespace {

bool IsLegLimb(anim::Limb limb) {
  return limb == anim::Limb::kLeftLeg || limb == anim::Limb::kRightLeg;
}

bool Differs(const glm::vec3& a, const glm::vec3& b) {
  return a != b;
}
bool Differs(const glm::quat& a, const glm::quat& b) {
  return a != b;
}

}  // namespace

int BakeFrameCount(double from, double to, double fps) {
  if (!std::isfinite(from) || !std::isfinite(to) || !std::isfinite(fps) || from < 0.0 ||
      to < from || fps < 1.0 || fps > 1000.0) {
    return -1;
  }
  double count = std::floor((to - from) * fps + 0.01) + 1.0;
  // The end gets a key of its own when it falls between frames, so a looping clip keeps its
  // length (a 0.708 s walk baked at 30 fps still loops at 0.708 s).
  if (from + (count - 1.0) / fps < to - 1e-6) count += 1.0;
  if (!(count <= static_cast<double>(kMaxTraceFrames))) return -1;
  return static_cast<int>(count);
}

std::vector<anim::Clip> ClipsWithBake(const anim::Model& model, anim::Clip baked) {
  std::vector<anim::Clip> clips = model.clips;
  const int source = anim::FindClip(model, baked.name);
  if (source >= 0) {
    clips[static_cast<std::size_t>(source)] = std::move(baked);
  } else {
    clips.push_back(std::move(baked));
  }
  return clips;
}

Baker::Baker(const anim::Model& model, PosingRequest base, BakeSettings settings)
    : model_(&model),
      facts_(MeasureRig(model)),
      base_(std::move(base)),
      settings_(std::move(settings)) {
  clip_name_ = base_.ClipName();
  frame_count_ = std::max(0, BakeFrameCount(settings_.from, settings_.to, settings_.fps));
  locals_ls_.reserve(static_cast<std::size_t>(frame_count_));
  for (anim::Limb limb : anim::kLimbs) {
    feet_ms_[static_cast<int>(limb)].reserve(static_cast<std::size_t>(frame_count_));
  }
  if (frame_count_ == 0) phase_ = Phase::kDone;
}

float Baker::FrameTime(int frame) const {
  return static_cast<float>(std::min(settings_.from + frame / settings_.fps, settings_.to));
}

PosingRequest Baker::RequestAt(int frame) const {
  TraceFrame input;
  input.frame = frame;
  input.time = FrameTime(frame);
  if (!clip_name_.empty()) input.clip_time = input.time;
  input.inputs = TargetsAt(settings_.targets, input.time);
  return FrameRequest(base_, input);
}

float Baker::progress() const {
  if (phase_ == Phase::kDone || frame_count_ == 0) return 1.f;
  const bool locking = settings_.lock_feet[static_cast<int>(anim::Limb::kLeftLeg)] ||
                       settings_.lock_feet[static_cast<int>(anim::Limb::kRightLeg)];
  if (phase_ == Phase::kSolve) {
    return static_cast<float>(next_) / static_cast<float>(frame_count_) * (locking ? 0.5f : 1.f);
  }
  const float second =
      relock_.empty() ? 1.f : static_cast<float>(next_) / static_cast<float>(relock_.size());
  return 0.5f + 0.5f * second;
}

bool Baker::Step(std::string* error) {
  if (phase_ == Phase::kDone) return true;
  const int frame = phase_ == Phase::kSolve ? next_ : relock_[static_cast<std::size_t>(next_)];
  auto fail = [&](const std::string& why) {
    std::ostringstream at;
    at << "frame " << frame << " (" << FrameTime(frame) << " s): " << why;
    *error = at.str();
    return false;
  };
  std::string why;
  // The one road (BuildSession's two halves) without the solves' reports: a bake writes only
  // the pose.
  const PosingRequest request = RequestAt(frame);
  std::unique_ptr<PosingSession> situation = BuildSituation(*model_, request, &why, facts_);
  if (situation) situation->reports = false;
  std::unique_ptr<PosingSession> session =
      situation ? SolveSituation(*situation, request.policies, &why) : nullptr;
  if (!session) return fail(why);
  if (phase_ == Phase::kSolve) {
    for (anim::Limb limb : anim::kLimbs) {
      const int l = static_cast<int>(limb);
      const anim::LimbChain& chain = session->chain(limb);
      feet_ms_[l].push_back(chain.valid() ? anim::EndPositionMs(chain, session->pose())
                                          : glm::vec3(0.f));
      hips_ms_[l].push_back(chain.valid() ? anim::PositionMs(session->pose(), chain.upper)
                                          : glm::vec3(0.f));
      free_[l].push_back(chain.valid() &&
                         (IsLegLimb(limb) ? FootIsTheClips(*session, limb)
                                          : !session->result(limb).ok && !session->Mirrored(limb)));
    }
    locals_ls_.push_back(session->pose().locals_ls);
    if (++next_ == frame_count_) FindLocks();
    return true;
  }
  // A foot lock: the frame again with each locked foot's target on its plant.
  bool moved = false;
  const float fps = static_cast<float>(settings_.fps);
  for (anim::Limb limb : anim::kLimbs) {
    const int l = static_cast<int>(limb);
    const LockWeight& w =
        weights_[l].empty() ? LockWeight{} : weights_[l][static_cast<std::size_t>(frame)];
    if (w.plant < 0 || !(w.weight > 0.f)) continue;
    LimbTarget& target = session->target(limb);
    const glm::vec3 clip_ms = feet_ms_[l][static_cast<std::size_t>(frame)];
    target.target_ms = glm::mix(
        clip_ms, plants_[l][static_cast<std::size_t>(w.plant)].PointAt(frame, fps), w.weight);
    target.given = true;
    target.options.end_rotation = ik::EndRotation::kKeepModel;
    moved = true;
  }
  if (moved) {
    session->Evaluate();
    for (anim::Limb limb : anim::kLimbs) {
      const int l = static_cast<int>(limb);
      if (weights_[l].empty() || weights_[l][static_cast<std::size_t>(frame)].plant < 0) continue;
      if (!session->result(limb).ok)
        return fail("the foot lock's solve failed: " + session->result(limb).error);
      locked_ms_[l][static_cast<std::size_t>(frame)] =
          anim::EndPositionMs(session->chain(limb), session->pose());
    }
    locals_ls_[static_cast<std::size_t>(frame)] = session->pose().locals_ls;
  }
  if (++next_ == static_cast<int>(relock_.size())) phase_ = Phase::kDone;
  return true;
}

void Baker::FindLocks() {
  const float height = BodyHeight(*model_);
  const float fps = static_cast<float>(settings_.fps);
  std::vector<bool> touched(static_cast<std::size_t>(frame_count_), false);
  for (anim::Limb limb : anim::kLimbs) {
    const int l = static_cast<int>(limb);
    if (!IsLegLimb(limb) || !settings_.lock_feet[static_cast<std::size_t>(l)]) continue;
    plants_[l] = FindPlants(feet_ms_[l], free_[l], fps, height, settings_.plant_rules);
    // A hair inside full stretch, so the held foot is reached exactly rather than pointed at.
    const anim::LimbChain& chain = model_->chains[limb];
    const float reach = (chain.upper_length + chain.lower_length) * 0.9999f;
    for (Plant& plant : plants_[l]) {
      plant.point_ms = ReachablePoint(plant.point_ms, hips_ms_[l], plant, reach, fps);
    }
    weights_[l] = LockWeights(plants_[l], frame_count_, free_[l], fps, settings_.plant_rules);
    locked_ms_[l] = feet_ms_[l];
    for (int i = 0; i < frame_count_; ++i) {
      if (weights_[l][static_cast<std::size_t>(i)].plant >= 0)
        touched[static_cast<std::size_t>(i)] = true;
    }
  }
  for (int i = 0; i < frame_count_; ++i) {
    if (touched[static_cast<std::size_t>(i)]) relock_.push_back(i);
  }
  next_ = 0;
  phase_ = relock_.empty() ? Phase::kDone : Phase::kLock;
}

BakeResult Baker::Finish() {
  BakeResult result;
  result.frames = static_cast<int>(locals_ls_.size());
  anim::Clip& clip = result.clip;
  clip.name = clip_name_.empty() ? "ik" : clip_name_;
  const int source = clip_name_.empty() ? -1 : anim::FindClip(*model_, clip_name_);
  clip.loop = source >= 0 ? model_->clips[static_cast<std::size_t>(source)].loop : false;
  std::vector<float> times(locals_ls_.size());
  for (std::size_t i = 0; i < times.size(); ++i) times[i] = FrameTime(static_cast<int>(i));
  clip.duration = times.empty() ? 0.f : times.back();
  const anim::Skeleton& s = model_->skeleton;
  for (int b = 0; b < s.size(); ++b) {
    const std::size_t k = static_cast<std::size_t>(b);
    const anim::Transform& rest = s.rest_ls[k];
    bool t = false, r = false, sc = false;
    for (const std::vector<anim::Transform>& frame : locals_ls_) {
      t = t || Differs(frame[k].translation, rest.translation);
      r = r || Differs(frame[k].rotation, rest.rotation);
      sc = sc || Differs(frame[k].scale, rest.scale);
    }
    if (!t && !r && !sc) continue;
    anim::BoneTrack track;
    track.bone = b;
    for (const std::vector<anim::Transform>& frame : locals_ls_) {
      if (t) track.translation.values.push_back(frame[k].translation);
      if (r) track.rotation.values.push_back(frame[k].rotation);
      if (sc) track.scale.values.push_back(frame[k].scale);
    }
    if (t) track.translation.times = times;
    if (r) track.rotation.times = times;
    if (sc) track.scale.times = times;
    clip.tracks.push_back(std::move(track));
  }
  for (anim::Limb limb : anim::kLimbs) {
    const int l = static_cast<int>(limb);
    FootLockReport& report = result.feet[static_cast<std::size_t>(l)];
    report.asked = IsLegLimb(limb) && settings_.lock_feet[static_cast<std::size_t>(l)];
    if (!report.asked) continue;
    report.plants = static_cast<int>(plants_[l].size());
    for (const LockWeight& w : weights_[l]) report.locked_frames += w.plant >= 0 ? 1 : 0;
    const float fps = static_cast<float>(settings_.fps);
    report.slide_before_ms = Slide(feet_ms_[l], plants_[l], fps);
    report.slide_after_ms =
        Slide(locked_ms_[l].empty() ? feet_ms_[l] : locked_ms_[l], plants_[l], fps);
  }
  if (settings_.max_error_ms > 0.f) {
    result.unreduced = clip;
    result.keys = anim::ReduceKeys(s, settings_.max_error_ms, clip);
    result.reduction_error_ms = anim::MaxJointError(s, result.unreduced, clip);
  } else {
    for (const anim::BoneTrack& t : clip.tracks) {
      result.keys.before +=
          t.translation.times.size() + t.rotation.times.size() + t.scale.times.size();
    }
    result.keys.after = result.keys.before;
  }
  return result;
}

}  // namespace ikpose::scene
