// The pose library: named poses kept in a folder, applied to the posing session by bone name.
//
// What: one `NAME.json` per pose, a pose file (scene/files/pose_file.h: every bone's local
// rotation, translation and scale by name, and the model it was made on, so `ikpose export --pose
// NAME.json` takes it as it is) beside an optional `NAME.png` thumbnail (the caller renders it;
// the library only keeps its bytes). Saving writes both atomically (anim/atomic_file.h);
// rename and delete move or remove both. Applying sets the bone turns in one call
// (PosingSession::SetBoneRotations): the whole pose, or only the chosen limbs (each limb's upper
// bone and everything below it: forearm, hand and fingers; shin, foot and toes), each bone slerped
// from its current rotation toward the saved one by a blend factor. Bones are matched by name, so a
// pose saved on one character applies to another rig with the same names; the names the
// model lacks are reported.
// Why: artists keep and reuse poses (hands on hips, a fist, a crouch) instead of rebuilding
// them; by name, so one library serves every character of a naming style.
// Limits: rotations only: a bone's saved translation and scale are kept in the file (for
// export) but not applied, so the character stays where it stands (the body's turn is part of
// the pelvis' rotation and is applied; its offset is not). Reading is bounded: at most
// kMaxPoses files, kMaxPoseBytes per pose and kMaxThumbnailBytes per thumbnail; a broken file
// is one line on its own entry. Names are 1 to kMaxNameBytes bytes, without '/', '\', control
// characters or a leading '.'. Flipped, the pose is mirrored with the rig's left/right map
// (anim/mirror.h) before it is applied: the chosen limbs then take their counterparts' saved
// turns, reflected; an asymmetric rest flips as the mirror does (the panel lists the odd bones).
#pragma once

#include <array>
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

#include "scene/files/pose_file.h"
#include "scene/session/posing_session.h"

namespace ikpose::scene {

struct LibraryEntry {
  std::string name;                 // the files' stem
  std::filesystem::path pose_path;  // NAME.json
  std::filesystem::path thumbnail_path;
  PoseFile pose;                // valid when `error` is empty
  std::string error;            // why the pose cannot be used (one line), empty when fine
  std::string thumbnail;        // the PNG's bytes, empty when there is none or it is broken
  std::string thumbnail_error;  // why the thumbnail is not shown (one line), empty when fine
};

struct ApplyOptions {
  // 0 keeps the current pose, 1 takes the saved one; each bone is slerped between the two.
  float blend = 1.0f;
  // Whole pose, or only the limbs marked in `limbs` (indexed by anim::Limb).
  bool whole = true;
  std::array<bool, 4> limbs{};
  // Mirrored across the character's left/right plane (the session's mirror map); refused on a
  // rig without left/right pairs.
  bool flip = false;
};

struct ApplyResult {
  bool ok = false;
  std::string error;                   // when not ok
  int applied = 0;                     // bones turned
  std::vector<std::string> unmatched;  // the pose's bones this model has no bone for
};

class PoseLibrary {
 public:
  static constexpr std::size_t kMaxPoses = 500;
  static constexpr std::size_t kMaxPoseBytes = 4u << 20;
  static constexpr std::size_t kMaxThumbnailBytes = 4u << 20;
  static constexpr std::size_t kMaxNameBytes = 64;

  // Reads the folder (see Refresh); a missing folder is an empty library, made on first save.
  explicit PoseLibrary(std::filesystem::path folder);

  const std::filesystem::path& folder() const { return folder_; }
  // Every `*.json` in the folder (not hidden), sorted by name, at most kMaxPoses of them.
  const std::vector<LibraryEntry>& entries() const { return entries_; }
  // A problem with the folder itself (unreadable, more than kMaxPoses poses), else empty.
  const std::string& folder_note() const { return folder_note_; }
  const LibraryEntry* Find(const std::string& name) const;

  // Re-reads the folder.
  void Refresh();
  // Saves the session's pose (what it shows: clip, turns, body and IK) as NAME.json, with
  // `thumbnail_png` (PNG bytes, may be empty) as NAME.png; an existing pose of that name is
  // replaced. `model_path` is written relative to the folder. False with one line.
  bool Save(const std::string& name, const PosingSession& session, const std::string& model_path,
            const std::string& thumbnail_png, std::string* error);
  // Renames both files; refuses a name already taken. False with one line.
  bool Rename(const std::string& from, const std::string& to, std::string* error);
  // Removes both files. False with one line.
  bool Delete(const std::string& name, std::string* error);

 private:
  std::filesystem::path folder_;
  std::vector<LibraryEntry> entries_;
  std::string folder_note_;
};

// Whether `name` can name a pose (see the header's limits); else false with the reason.
bool ValidPoseName(const std::string& name, std::string* why);

// $XDG_DATA_HOME/ikpose/poses, else $HOME/.local/share/ikpose/poses, else ./ikpose-poses.
std::filesystem::path DefaultLibraryFolder();

// The pose file as it would be saved for the session's pose (every reported bone).
PoseFile CapturePose(const PosingSession& session, const std::string& model_path);

// Applies `pose` to the session as bone turns (one undo step for the caller to commit).
ApplyResult ApplyPose(const PoseFile& pose, const ApplyOptions& options, PosingSession& session);

}  // namespace ikpose::scene
