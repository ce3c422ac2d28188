// Dragging a limb's target or pole handle with the mouse: pick the nearest handle under the
// cursor's ray, then move it in the view plane through the handle (normal to the camera's
// forward axis, so screen up is the camera's up: a foot lifted straight up in the front view
// keeps its depth, wherever it is on screen). An axis
// lock (X/Y/Z held) keeps only that component of the move; fine mode (Shift) scales it by 0.1.
// Grabbing the body itself (a point of the skinned surface, scene/world/surface_pick.h) routes by
// the bone grabbed: a hand or forearm drives its arm's target, a foot, toe or shin its leg's target
// (the grabbed point keeps its offset and follows the mouse in the view plane); the pelvis moves
// the body (pins hold); any other bone turns about its joint so that the grabbed point swings
// toward the mouse. Pure math over the scene: no SDL, so tests drive it with rays.
#pragma once

#include "app/orbit_camera.h"
#include "scene/session/posing_session.h"
#include "scene/view/bone_rings.h"
#include "scene/view/overlays.h"
#include "scene/world/surface_pick.h"

namespace ikpose::app {

struct DragModifiers {
  int axis = -1;      // 0, 1, 2: move along x, y or z only; -1: free
  bool fine = false;  // a tenth of the mouse's movement
};

class TargetDrag {
 public:
  enum class Handle { kNone, kTarget, kPole, kBody, kBodyRing, kBone };

  // Grabs the nearest target, pole or body (pelvis, twice the radius) sphere of `radius` that
  // `ray` hits, else the body's turning ring (scene::kBodyRingScale times the radius, level around
  // the pelvis: dragging it turns the body about the vertical); false if none.
  // `view_forward_ms` is the camera's forward axis (the drag plane's normal); zero: the ray's.
  bool Begin(const Ray& ray, const scene::PosingSession& session, float radius,
             const glm::vec3& view_forward_ms = glm::vec3(0.0f));
  // Moves the grabbed handle to follow `ray`.
  // Grabs the body at `hit` (a surface hit along `ray`), routed by its bone (see above); false
  // for a miss or a hit without a bone.
  bool BeginOnSurface(const Ray& ray, const scene::PosingSession& session,
                      const scene::SurfaceHit& hit,
                      const glm::vec3& view_forward_ms = glm::vec3(0.0f));
  void Update(const Ray& ray, const DragModifiers& modifiers, scene::PosingSession& session) const;
  // Puts a grabbed target, pole or body at its grab position plus `delta_ms` (a typed move);
  // false for a handle that turns instead (a bone, the body ring).
  bool MoveBy(const glm::vec3& delta_ms, scene::PosingSession& session) const;
  // Where the grabbed handle started, and the drag plane's normal.
  const glm::vec3& start_ms() const { return start_ms_; }
  const glm::vec3& plane_normal_ms() const { return plane_normal_ms_; }
  void End() { handle_ = Handle::kNone; }

  bool active() const { return handle_ != Handle::kNone; }
  Handle handle() const { return handle_; }
  anim::Limb limb() const { return limb_; }
  int bone() const { return turn_.bone; }  // the bone a kBone drag turns

 private:
  Handle handle_ = Handle::kNone;
  anim::Limb limb_ = anim::Limb::kLeftArm;
  glm::vec3 start_ms_{0.0f};        // the handle's position when grabbed
  glm::vec3 plane_point_ms_{0.0f};  // the drag plane passes through it (the grabbed point)
  scene::TurnStart turn_;           // kBone: the bone's rotations when grabbed
  glm::vec3 body_start_ms_{0.0f};   // the body's offset when grabbed
  glm::quat body_start_turn_{1.0f, 0.0f, 0.0f, 0.0f};
  glm::vec3 grab_hit_ms_{0.0f};  // where the ray met the drag plane when grabbed
  glm::vec3 plane_normal_ms_{0.0f, 0.0f, 1.0f};
};

// The limb whose target a grab on `bone` drives: the limb's lower or end bone, or a bone below
// a leg's end (toes); false for any other bone and for a limb not available or disabled.
bool LimbOfGrabbedBone(const scene::PosingSession& session, int bone, anim::Limb* limb);

// The joint whose sphere of `radius` the ray hits first, or -1.
int PickJoint(const Ray& ray, const anim::Skeleton& skeleton, const anim::Pose& pose, float radius);

}  // namespace ikpose::app
