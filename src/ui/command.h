// What a user can ask the viewer to do, as values: panel buttons and keys append the same
// Command, and the app applies each in one place, each edit as one undo step.
// Why: one list of actions instead of a flag per button, so a key and its button cannot drift
// apart and every action is recorded the same way.
#pragma once

namespace ikpose::ui {

enum class Command {
  kUndo,
  kRedo,
  kResetTargets,  // every target back on its hand or foot
  kSnapToRungs,
  kStepUp,           // every snapped limb one rung up
  kStepDown,         // ... one rung down
  kFitBodyToLadder,  // the pelvis where a climber's is for the snapped rungs
  kResetBody,        // the body back where the clip (or rest pose) has it
  kResetBoneTurn,    // PanelState::selected_bone's turn back to identity
  kResetBoneTurns,   // every bone's turn back to identity
  kFrameModel,
  kResetView,  // in front of the character, framed
  kSaveScene,
  kLoadScene,
  kExportPose,
  kQuit,
  kViewFront,  // the camera's views, as Blender's numpad: 1, Ctrl+1, 3, Ctrl+3, 7, Ctrl+7, 5
  kViewBack,
  kViewRight,
  kViewLeft,
  kViewTop,
  kViewBottom,
  kToggleOrthographic,
  // The pose library and hands (PanelState::library and ::hands say which pose, name, limbs).
  kLibrarySave,     // the current pose under library.save_name, with a thumbnail
  kLibraryApply,    // library.selected, whole or to the chosen limbs, blended
  kLibraryRename,   // library.selected to library.rename_to
  kLibraryDelete,   // library.selected
  kLibraryRefresh,  // read the folder again
  kPoseHand,        // hands.request on hands.arm
  kMirrorOff,       // mirror while editing: off, left side onto the right, right onto the left
  kMirrorLeftToRight,
  kMirrorRightToLeft,
  kToggleFlip,   // the whole pose flipped across the character's plane, or not
  kBakeClip,     // bake the situation on screen over its clip (PanelState::bake says how)
  kCancelBake,   // stop a bake before it writes anything
  kSaveAndQuit,  // the quit question's answers
  kQuitWithoutSaving,
  kStayOpen,
  kRestoreAutosave,  // the session a crash left behind, back on screen
  kDiscardAutosave,
  kScreenshot,      // a PNG of the view (PanelState::picture says its size and background)
  kLoadReference,   // picture.reference_path as the reference image
  kClearReference,  // no reference image
  kApplyReadyPose,  // ready.chosen (scene::kReadyPoses) on the model, as one undo step
  kAddProp,         // props.add_path placed in front of the character, as one undo step
};

}  // namespace ikpose::ui
