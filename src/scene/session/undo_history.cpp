#include "scene/session/undo_history.h"

#include <algorithm>
#include <vector>

namespace ikpose::scene {

PosingSnapshot CaptureSnapshot(const PosingSession& session) {
  PosingSnapshot s = session.edits;
  for (anim::Limb limb : anim::kLimbs) {
    LimbTarget& t = s.target(limb);
    // A target not placed follows its hand as the clip plays: where it is is not an edit.
    t.given = session.placed(limb);
    if (!t.given) t.target_ms = glm::vec3(0.0f);
  }
  s.playback.playing = false;  // play/pause and speed are not edits
  s.playback.speed = ClipPlayback{}.speed;
  return s;
}

void RestoreSnapshot(const PosingSnapshot& snapshot, PosingSession& session) {
  PosingEdits& edits = session.edits;
  const ClipPlayback playing = edits.playback;
  const std::vector<glm::quat> turns_ls = std::move(edits.bone_turns_ls);
  std::array<bool, 4> available{};
  for (anim::Limb limb : anim::kLimbs)
    available[static_cast<std::size_t>(limb)] = edits.target(limb).available;
  edits = snapshot;
  for (anim::Limb limb : anim::kLimbs) {
    LimbTarget& target = edits.target(limb);
    // Whether the model has the limb is a property of the model, not an edit.
    target.available = available[static_cast<std::size_t>(limb)];
    if (!target.given) target.target_ms = session.resting_target(limb);
  }
  const int clips = static_cast<int>(session.model().clips.size());
  if (edits.playback.clip >= clips) edits.playback.clip = -1;
  edits.playback.playing = playing.playing;
  edits.playback.speed = playing.speed;
  if (edits.bone_turns_ls.size() != turns_ls.size()) edits.bone_turns_ls = turns_ls;
  session.Evaluate();
}

namespace {

// Props in the same places, one or more of them turned about the vertical.
bool OnlyTurned(const World& before, const World& after) {
  bool turned = false;
  for (std::size_t i = 0; i < after.props().size(); ++i) {
    PropPlacement a = before.props()[i].placement;
    const PropPlacement& b = after.props()[i].placement;
    turned = turned || a.yaw_deg != b.yaw_deg;
    a.yaw_deg = b.yaw_deg;
    if (!(a == b)) return false;
  }
  return turned;
}

}  // namespace

std::string DescribeChange(const PosingSnapshot& before, const PosingSnapshot& after) {
  // Moving the body places the pinned targets and carries the others: one gesture, one name.
  if (before.body != after.body) return "move body";
  // Turning a limb's bone lets go of its target too: still one gesture.
  if (before.bone_turns_ls != after.bone_turns_ls) {
    std::size_t turned = 0;
    for (std::size_t i = 0; i < after.bone_turns_ls.size(); ++i) {
      if (i >= before.bone_turns_ls.size() || before.bone_turns_ls[i] != after.bone_turns_ls[i]) {
        ++turned;
      }
    }
    return turned == 1 ? "turn bone" : "turn bones";
  }
  std::vector<std::string> parts;
  if (before.world != after.world) {
    const std::size_t was = before.world ? before.world->props().size() : 0;
    const std::size_t is = after.world ? after.world->props().size() : 0;
    parts.push_back(is > was   ? "add prop"
                    : is < was ? "remove prop"
                    : before.world && after.world && OnlyTurned(*before.world, *after.world)
                        ? "turn prop"
                        : "move prop");
  }
  if (before.ground != after.ground) parts.push_back(after.ground ? "ground on" : "ground off");
  if (before.floor != after.floor) parts.push_back(after.floor ? "floor on" : "floor off");
  if (before.limits != after.limits) parts.push_back(after.limits ? "limits on" : "limits off");
  if (before.body_help != after.body_help) {
    parts.push_back(after.body_help ? "body help on" : "body help off");
  }
  if (before.mirror != after.mirror) {
    parts.push_back("mirror " + std::string(anim::MirrorModeName(after.mirror)));
  }
  std::size_t moved_targets = 0;
  for (anim::Limb limb : anim::kLimbs) {
    const LimbTarget& a = before.target(limb);
    const LimbTarget& b = after.target(limb);
    const std::string name(anim::LimbName(limb));
    if (a.enabled != b.enabled) parts.push_back((b.enabled ? "turn on " : "turn off ") + name);
    if (a.pinned != b.pinned) parts.push_back((b.pinned ? "pin " : "unpin ") + name);
    if (a.target_ms != b.target_ms) {
      parts.push_back("move " + name + " target");
      ++moved_targets;
    }
    const ik::TwoBoneOptions& pa = a.options.solver;
    const ik::TwoBoneOptions& pb = b.options.solver;
    if (pa.use_pole != pb.use_pole) {
      parts.push_back(name + (pb.use_pole ? " pole on" : " pole off"));
    } else if (pa.pole_ms != pb.pole_ms) {
      parts.push_back("move " + name + " pole");
    }
    // Every other option, whatever fields the options grow later.
    anim::ChainSolveOptions rest_a = a.options;
    rest_a.solver.use_pole = pb.use_pole;
    rest_a.solver.pole_ms = pb.pole_ms;
    if (rest_a != b.options || a.from_rest != b.from_rest) parts.push_back(name + " options");
  }
  if (before.ladder != after.ladder || before.ladder_enabled != after.ladder_enabled ||
      before.ladder_follows_clip != after.ladder_follows_clip) {
    parts.push_back("ladder");
  }
  if (before.playback.clip != after.playback.clip) {
    parts.push_back("choose clip");
  } else if (before.playback.time != after.playback.time) {
    parts.push_back("set clip time");
  }
  if (parts.empty()) return "edit";  // e.g. only a rung number
  if (parts.size() == 1) return parts.front();
  if (moved_targets == parts.size()) return "move " + std::to_string(moved_targets) + " targets";
  return parts.front() + " and " + std::to_string(parts.size() - 1) + " more";
}

UndoHistory::UndoHistory(int capacity) : capacity_(std::max(capacity, 1)) {}

void UndoHistory::Reset(const PosingSession& session) {
  steps_.clear();
  steps_.push_back({CaptureSnapshot(session), ""});
  present_ = 0;
}

bool UndoHistory::Commit(const PosingSession& session, std::string label) {
  if (steps_.empty()) {
    Reset(session);
    return false;
  }
  FollowPlayback(session);
  PosingSnapshot state = CaptureSnapshot(session);
  const PosingSnapshot& present = steps_[present_].state;
  if (state == present) return false;
  if (label.empty()) label = DescribeChange(present, state);
  steps_.erase(steps_.begin() + static_cast<std::ptrdiff_t>(present_) + 1, steps_.end());
  steps_.push_back({std::move(state), std::move(label)});
  while (steps_.size() > static_cast<std::size_t>(capacity_) + 1) steps_.pop_front();
  present_ = steps_.size() - 1;
  return true;
}

bool UndoHistory::Undo(PosingSession& session) {
  Commit(session);
  if (!CanUndo()) return false;
  --present_;
  RestoreSnapshot(steps_[present_].state, session);
  return true;
}

bool UndoHistory::Redo(PosingSession& session) {
  Commit(session);
  if (!CanRedo()) return false;
  ++present_;
  RestoreSnapshot(steps_[present_].state, session);
  return true;
}

void UndoHistory::FollowPlayback(const PosingSession& session) {
  if (steps_.empty() || !session.edits.playback.playing) return;
  steps_[present_].state.playback.time = session.edits.playback.time;
}

void UndoHistory::FollowLive(const PosingSession& session, const std::array<bool, 4>& limbs,
                             bool clip_time, bool ladder, bool props) {
  if (steps_.empty()) return;
  PosingSnapshot& present = steps_[present_].state;
  for (anim::Limb limb : anim::kLimbs) {
    const int l = static_cast<int>(limb);
    if (limbs[static_cast<std::size_t>(l)])
      present.targets[static_cast<std::size_t>(l)] = session.target(limb);
  }
  if (clip_time) present.playback.time = session.edits.playback.time;
  if (ladder) {
    present.ladder = session.edits.ladder;
    present.ladder_enabled = session.edits.ladder_enabled;
  }
  if (props) present.world = session.edits.world;  // the game moved its props: a new World
}

const std::string& UndoHistory::undo_label() const {
  static const std::string kNone;
  return CanUndo() ? steps_[present_].label : kNone;
}

const std::string& UndoHistory::redo_label() const {
  static const std::string kNone;
  return CanRedo() ? steps_[present_ + 1].label : kNone;
}

}  // namespace ikpose::scene
