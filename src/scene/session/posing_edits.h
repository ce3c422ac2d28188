// PosingEdits: everything the user edited over one model, as one value.
//
// What: per limb the target, pole and options; the clip and its time; the ladder; the body move;
// the bone turns; the mirror mode; the joint-limit and body-help switches; the props, the floor
// and ground contact. Why: one value is what undo keeps a copy of (scene/session/undo_history.h),
// what a scenario and the pose library convert to and from names (scene/files/scenario.h), what the
// panel and the timeline edit and what a trace restores; a new edit is a field here and its name in
// the scenario, nothing else. The rule: edit, then PosingSession::Evaluate() once (once a frame in
// the viewer, once on the command line). Limits: plain data in model space; whether the model
// has a limb (LimbTarget::available) and where an unplaced target rests belong to the session.
#pragma once

#include <array>
#include <memory>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "anim/apply_ik.h"
#include "anim/chains.h"
#include "anim/mirror.h"
#include "scene/world/ladder.h"
#include "scene/world/world.h"

namespace ikpose::scene {

struct LimbTarget {
  bool available = false;  // the model has this chain
  bool enabled = true;
  // Placed by the user or a file; else it rests on the hand or foot, unsolved. Moving a resting
  // target (by any code) places it: Evaluate notices that it left its resting point.
  bool given = false;
  glm::vec3 target_ms{0.0f};
  // The natural knee policy by default (a chain without a natural bend falls back to the seed).
  anim::ChainSolveOptions options = anim::NaturalOptions();
  bool from_rest = false;  // solve from the rest pose instead of the clip's pose
  int rung = -1;           // the ladder rung this target is snapped to, -1 for none
  // Pinned: stays where it is in model space when the body moves (its limb re-solves); else it
  // moves with the body. Feet are pinned by default, hands are not.
  bool pinned = false;
  // On a rung (rung >= 0, ladder shown): a hand grips it (palm on it, fingers curled round it,
  // the target being the grip's centre on the axis) and a foot stands on it (sole flat, the
  // ball of the foot on the target at the rung's top). Off: the target is the wrist or ankle.
  bool grip = true;
  // How much this limb may draw the body (clavicle, spine, pelvis) when it cannot reach its
  // target alone, 0..1 (scene/session/body_solve.h); the session's body_help switches it all off.
  float pull_body = 1.0f;

  bool operator==(const LimbTarget&) const = default;
};

// How the user moved the body: the body bone (pelvis) shifted and turned about its own joint,
// on top of the clip. Everything above the pelvis follows; pinned limbs re-solve.
struct BodyMove {
  glm::vec3 offset_ms{0.0f};
  glm::quat turn_ms{1.0f, 0.0f, 0.0f, 0.0f};

  bool operator==(const BodyMove&) const = default;
};

struct ClipPlayback {
  int clip = -1;  // index into the model's clips, -1 for the rest pose
  float time = 0.0f;
  bool playing = false;
  float speed = 1.0f;

  bool operator==(const ClipPlayback&) const = default;
};

struct PosingEdits {
  std::array<LimbTarget, 4> targets;  // indexed by anim::Limb
  ClipPlayback playback;              // playing and speed are not edits (undo keeps neither)
  Ladder ladder;
  bool ladder_enabled = false;
  // The ladder follows the clip: a clip that climbs in place (its held hands and feet slide
  // down together, as on a treadmill) scrolls the ladder's rungs with them, and every limb
  // not placed by the user snaps live to the rung nearest the clip's hand or foot, gripping or
  // standing, blended in as the clip's limb comes within a third of a rung of its hold.
  bool ladder_follows_clip = false;
  BodyMove body;
  // Rotations the user gave bones directly (FK rings, the pose library, hand presets): one local
  // rotation per bone, applied on top of the clip's (local = clip's · turn) before the body moves
  // and before IK, so a limb's solve starts from the turned pose and its knee stays on the
  // turned side. Identity for a bone not turned; one per bone of the skeleton.
  std::vector<glm::quat> bone_turns_ls;
  // Mirrors the solved pose across the character's own plane, after every target is solved.
  anim::MirrorMode mirror = anim::MirrorMode::kOff;
  // The body helps a limb that cannot reach (and four contacts place the pelvis): on by
  // default; each limb's pull_body scales its share.
  bool body_help = true;
  // Joints stop at their natural range (anim/joint_ranges.h, scene/session/joint_limits.h): FK
  // rings and grabs (scene/view/bone_rings.h) and every limb solve but the seed policy's; on by
  // default. The body help spreads its turns within the ranges either way.
  bool limits = true;
  // The props (shared and read-only, null for none: a World is never changed once built, so a
  // moved prop is a new World and the pointer says whether they changed); `floor` is the plane
  // y = floor_y() (0, or the rest soles' when far from 0); `ground` puts the feet on the floor
  // and props (on unless a scenario or the command line says off).
  std::shared_ptr<const World> world;
  bool floor = true;
  bool ground = true;

  LimbTarget& target(anim::Limb limb) { return targets[static_cast<int>(limb)]; }
  const LimbTarget& target(anim::Limb limb) const { return targets[static_cast<int>(limb)]; }

  // Floats compared exactly: a click without a move changes nothing.
  bool operator==(const PosingEdits&) const = default;
};

}  // namespace ikpose::scene
