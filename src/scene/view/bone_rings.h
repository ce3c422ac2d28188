// FK rings: turning one bone about an axis through its joint, and the rings that show it.
//
// What: the selected bone shows three axis rings (X red, Y green, Z blue; the bone's own axes
// or the model's) and a white view ring about the view axis, all around its joint.
// TurnBoneMs turns a bone by a model-space rotation about its own joint, starting from where a
// drag grabbed it: the bone and its children swing, nothing else moves. The body bone turns the
// body (PosingSession::MoveBody), so pinned feet hold as they do for the body ring.
// Why: the rings, the swing of a grabbed head or spine and the panel's numbers share one way to
// turn a bone, which goes through PosingSession::SetBoneRotation (one undoable edit, saved in
// scenario files; an IK limb's bone lets its target go).
// Limits: the turn is exact under uniform scale of the parents (every rig we load); under
// non-uniform parent scale the bone turns about the nearest rotation of its frame.
#pragma once

#include <array>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "anim/debug_draw.h"
#include "scene/session/posing_session.h"

namespace ikpose::scene {

struct BoneRing {
  glm::vec3 center_ms{0.0f};
  glm::vec3 axis_ms{1.0f, 0.0f, 0.0f};  // unit; the ring lies in the plane normal to it
  float radius = 1.0f;
  glm::vec4 color{1.0f};
};

enum class RingAxis { kX, kY, kZ, kView };

// The four rings of `bone` in `pose`: X, Y, Z (the bone's axes when `local_axes`, else the
// model's), then the view ring about `view_dir_ms` (toward the scene), a little larger.
std::array<BoneRing, 4> BoneRings(const anim::Pose& pose, int bone, bool local_axes,
                                  const glm::vec3& view_dir_ms, float radius);
void DrawBoneRings(const std::array<BoneRing, 4>& rings, anim::DebugDraw& draw);

// Where a turn starts: the bones it turns (root first) with their local and model rotations,
// and the body's turn.
struct TurnStart {
  struct Bone {
    int bone = -1;
    glm::quat local_ls{1.0f, 0.0f, 0.0f, 0.0f};
    glm::quat model_ms{1.0f, 0.0f, 0.0f, 0.0f};
  };
  int bone = -1;            // the bone turned (the last of `bones`)
  std::vector<Bone> bones;  // it alone, or the neck or spine bones down to it
  glm::quat body_turn_ms{1.0f, 0.0f, 0.0f, 0.0f};
};
// `spread`: with the session's limits on, a neck, head or spine bone's turn is shared by the
// neck (or spine) bones from the bottom of the neck (spine) up to it, each within its range, as
// a body bends (grabbing the body); else the bone turns alone (FK rings).
TurnStart StartTurn(const PosingSession& session, int bone, bool spread = false);
// Gives the bones the rotation `turn_ms` (model space, about the bone's joint; spread, each of
// the n bones turns by its n-th part) on top of `start`, each held to its range when the
// session's limits are on; calling it again with another turn replaces the previous one (a drag
// calls it on every move). False for a bone out of range or a turn that is not finite.
bool TurnBoneMs(PosingSession& session, const TurnStart& start, const glm::quat& turn_ms);

// The signed angle (radians) from `from_ms` to `to_ms` about `axis_ms`, both projected on the
// plane normal to it; 0 when either lies along the axis.
float SweptAngle(const glm::vec3& from_ms, const glm::vec3& to_ms, const glm::vec3& axis_ms);
// `angle` rounded to whole multiples of `step` (radians).
float SnapAngle(float angle, float step);

}  // namespace ikpose::scene
