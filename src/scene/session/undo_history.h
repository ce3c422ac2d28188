// Undo history of posing edits.
//
// What: snapshots of what the user edited in a PosingSession (its PosingEdits), one per step, each
// named after the edit that made it ("move left_leg target"). Undo and redo put a snapshot back
// into the session and re-solve the IK from it. Why: posing is trial and error; Ctrl+Z has to take
// back one whole gesture (a drag, a released slider, a button), as in Blender's pose mode. Limits:
// the caller says when an edit is over by calling Commit (the viewer: when a drag ends, when no
// panel widget is active, after a button). Snapshots belong to one session's model: opening another
// model starts a new history. Play/pause and speed are not edits, and neither is a playing clip
// moving its time (FollowPlayback), nor a live game moving its targets, clip time or ladder
// (FollowLive). At most `capacity` steps are kept, the oldest dropped first.
#pragma once

#include <array>
#include <deque>
#include <string>
#include <vector>

#include "scene/session/posing_session.h"

namespace ikpose::scene {

// What undo keeps: the session's edits (scene/session/posing_edits.h) as they would be saved, so
// two snapshots are equal exactly when the user's edits are: a target not placed holds no point
// (where it rests follows the clip), and playing and speed are left at their defaults.
using PosingSnapshot = PosingEdits;

PosingSnapshot CaptureSnapshot(const PosingSession& session);
// Puts `snapshot` into `session` (playing and speed stay) and evaluates the pose.
void RestoreSnapshot(const PosingSnapshot& snapshot, PosingSession& session);
// What changed, as a step name: "move left_leg target", "left_arm options", "ladder", ...
std::string DescribeChange(const PosingSnapshot& before, const PosingSnapshot& after);

class UndoHistory {
 public:
  static constexpr int kDefaultCapacity = 256;

  explicit UndoHistory(int capacity = kDefaultCapacity);

  // Starts over from the session's state: nothing to undo or redo.
  void Reset(const PosingSession& session);
  // Records the session's state as a step named `label` (empty: DescribeChange names it). False,
  // and nothing recorded, when it equals the present step. Drops whatever could be redone.
  // While the clip plays, its time is the playback's, not an edit (see FollowPlayback).
  bool Commit(const PosingSession& session, std::string label = {});
  // Steps back and restores the previous state into the session; false if there is none. An
  // edit the session holds but that was not committed yet is committed first, so undo takes it
  // back instead of losing it.
  bool Undo(PosingSession& session);
  // Re-applies the step undone last; false if there is none (or an uncommitted edit dropped it).
  bool Redo(PosingSession& session);
  // A playing clip moves its time by itself, which is not an edit: the present step takes the
  // session's clip time so the next Commit does not see a change. Call after advancing the clip
  // (the frame that pauses it would otherwise see the last advance as an edit).
  void FollowPlayback(const PosingSession& session);
  // What a live game changed (the live link) is not an edit either: the present step takes the
  // session's state of the limbs in `limbs` (anim::Limb indices), and its clip time, ladder and
  // props when `clip_time`, `ladder` and `props` say the game moved them, so the next Commit
  // records only the user's own edits and a streaming game never pushes the user's steps out.
  // Call right after the game's frame is put into the session.
  void FollowLive(const PosingSession& session, const std::array<bool, 4>& limbs, bool clip_time,
                  bool ladder, bool props);

  int undo_steps() const { return static_cast<int>(present_); }
  int redo_steps() const {
    return static_cast<int>(steps_.size()) - 1 - static_cast<int>(present_);
  }
  bool CanUndo() const { return undo_steps() > 0; }
  bool CanRedo() const { return redo_steps() > 0; }
  // The name of the step Undo (Redo) would take back (re-apply); "" when there is none.
  const std::string& undo_label() const;
  const std::string& redo_label() const;
  int capacity() const { return capacity_; }

 private:
  struct Step {
    PosingSnapshot state;
    std::string label;  // the edit that led to this state; "" for the first
  };

  std::deque<Step> steps_;  // steps_[present_] is the state the session was last committed in
  std::size_t present_ = 0;
  int capacity_;
};

}  // namespace ikpose::scene
