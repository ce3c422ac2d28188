// Dragging a limb's target or pole handle with the mouse: pick the nearest handle under the
// cursor's ray, then move it in the plane through the handle that faces the camera. An axis
// lock (X/Y/Z held) keeps only that component of the move; fine mode (Shift) scales it by 0.1.
// Grabbing the body itself (a point of the skinned surface, scene/surface_pick.h) routes by the
// bone grabbed: a hand or forearm drives its arm's target, a foot, toe or shin its leg's
// target (the grabbed point keeps its offset and follows the mouse in the view plane); the
// pelvis moves the body (pins hold); any other bone turns about its joint so that the grabbed
// point swings toward the mouse.
// Pure math over the scene: no SDL, so tests drive it with rays.
#pragma once

#include "app/orbit_camera.h"
#include "scene/bone_rings.h"
#include "scene/overlays.h"
#include "scene/posing_session.h"
#include "scene/surface_pick.h"

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
  bool Begin(const Ray& ray, const scene::PosingSession& session, float radius);
  // Moves the grabbed handle to follow `ray`.
  // Grabs the body at `hit` (a surface hit along `ray`), routed by its bone (see above); false
  // for a miss or a hit without a bone.
  bool BeginOnSurface(const Ray& ray, const scene::PosingSession& session,
                      const scene::SurfaceHit& hit);
  void Update(const Ray& ray, const DragModifiers& modifiers, scene::PosingSession& session) const;
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
