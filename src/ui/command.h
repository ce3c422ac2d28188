// What a user can ask the viewer to do, as values that carry their own arguments: panel buttons
// and keys append the same Command, and the app applies each in one place, each edit as one
// undo step.
// Why: one list of actions instead of a flag per button, so a key and its button cannot drift
// apart and every action is recorded the same way; a command names what it acts on (the bone,
// the library entry, the prop file) when it is made, so applying it never reads the panel's
// state of a later frame.
#pragma once

#include <string>
#include <variant>

#include "anim/chains.h"
#include "anim/mirror.h"
#include "scene/files/pose_library.h"
#include "scene/session/hand_pose.h"
#include "scene/session/ready_poses.h"

namespace ikpose::ui {

// The camera's views, as Blender's numpad: 1, Ctrl+1, 3, Ctrl+3, 7, Ctrl+7.
enum class ViewSide { kFront, kBack, kRight, kLeft, kTop, kBottom };
// The quit question's answers.
enum class QuitAnswer { kSaveAndQuit, kQuitWithoutSaving, kStayOpen };

namespace cmd {

struct Undo {};
struct Redo {};
struct ResetTargets {};  // every target back on its hand or foot
struct SnapToRungs {};
struct StepRungs {  // every snapped limb this many rungs up (negative: down)
  int delta = 1;
};
struct FitBodyToLadder {};  // the pelvis where a climber's is for the snapped rungs
struct ResetBody {};        // the body back where the clip (or rest pose) has it
struct ResetBoneTurn {      // this bone's turn back to identity
  int bone = -1;
};
struct ResetBoneTurns {};  // every bone's turn back to identity
struct FrameModel {};
struct ResetView {};  // in front of the character, framed
struct LookFrom {
  ViewSide side = ViewSide::kFront;
};
struct ToggleOrthographic {};
struct SaveScene {};
struct LoadScene {};
struct ExportPose {};
struct Quit {};
struct AnswerQuit {
  QuitAnswer answer = QuitAnswer::kStayOpen;
};
struct AnswerAutosave {  // the session a crash left behind: back on screen, or discarded
  bool restore = false;
};
struct Screenshot {         // a PNG of the view
  bool window_size = true;  // else width x height
  int width = 0;
  int height = 0;
  bool transparent = false;  // the background left transparent (alpha 0)
};
struct LoadReference {  // a PNG or JPEG as the reference image
  std::string path;
};
struct ClearReference {};
struct ApplyReadyPose {  // as one undo step
  scene::ReadyPose pose = scene::ReadyPose::kStand;
};
struct AddProp {  // placed in front of the character, as one undo step
  std::string path;
};
struct RemoveProp {  // as one undo step
  int index = -1;
};
struct LibrarySave {  // the current pose under `name`, with a thumbnail
  std::string name;
};
struct LibraryApply {  // whole or to the chosen limbs, blended
  std::string name;
  scene::ApplyOptions options;
};
struct LibraryRename {
  std::string from;
  std::string to;
};
struct LibraryDelete {
  std::string name;
};
struct LibraryRefresh {};  // read the folder again
struct PoseHand {
  anim::Limb arm = anim::Limb::kLeftArm;
  scene::HandPose pose;
};
struct SetMirror {  // mirror while editing: off, left side onto the right, right onto the left
  anim::MirrorMode mode = anim::MirrorMode::kOff;
};
struct ToggleFlip {};  // the whole pose flipped across the character's plane, or not
struct BakeClip {      // bake the situation on screen over its clip
  float fps = 30.0f;
  bool lock_left_foot = false;  // hold the foot where the clip plants it
  bool lock_right_foot = false;
};
struct CancelBake {};  // stop a bake before it writes anything

}  // namespace cmd

using Command =
    std::variant<cmd::Undo, cmd::Redo, cmd::ResetTargets, cmd::SnapToRungs, cmd::StepRungs,
                 cmd::FitBodyToLadder, cmd::ResetBody, cmd::ResetBoneTurn, cmd::ResetBoneTurns,
                 cmd::FrameModel, cmd::ResetView, cmd::LookFrom, cmd::ToggleOrthographic,
                 cmd::SaveScene, cmd::LoadScene, cmd::ExportPose, cmd::Quit, cmd::AnswerQuit,
                 cmd::AnswerAutosave, cmd::Screenshot, cmd::LoadReference, cmd::ClearReference,
                 cmd::ApplyReadyPose, cmd::AddProp, cmd::RemoveProp, cmd::LibrarySave,
                 cmd::LibraryApply, cmd::LibraryRename, cmd::LibraryDelete, cmd::LibraryRefresh,
                 cmd::PoseHand, cmd::SetMirror, cmd::ToggleFlip, cmd::BakeClip, cmd::CancelBake>;

}  // namespace ikpose::ui
