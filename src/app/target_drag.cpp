#include "app/target_drag.h"

#include <cmath>
#include <limits>

#include "ik/rotation.h"

namespace ikpose::app {

namespace {

// The drag plane's normal: against the camera's forward axis, else against the ray.
glm::vec3 PlaneNormal(const Ray& ray, const glm::vec3& view_forward_ms) {
  const float length = glm::length(view_forward_ms);
  return length > 1e-6f ? -view_forward_ms / length : -ray.direction_ms;
}

}  // namespace

bool TargetDrag::Begin(const Ray& ray, const scene::PosingSession& session, float radius,
                       const glm::vec3& view_forward_ms) {
  handle_ = Handle::kNone;
  float best = std::numeric_limits<float>::max();
  const auto consider = [&](Handle handle, anim::Limb limb, const glm::vec3& center_ms,
                            float scale = 1.0f) {
    const float hit = RaySphere(ray, center_ms, radius * scale);
    if (hit >= 0.0f && hit < best) {
      best = hit;
      handle_ = handle;
      limb_ = limb;
      start_ms_ = center_ms;
    }
  };
  for (anim::Limb limb : anim::kLimbs) {
    const scene::LimbTarget& t = session.target(limb);
    if (!t.available || session.Mirrored(limb)) continue;  // the mirror places that limb
    consider(Handle::kTarget, limb, t.target_ms);
    if (t.options.solver.use_pole) consider(Handle::kPole, limb, t.options.solver.pole_ms);
  }
  // The body comes last: a hand or foot in front of the pelvis is still taken first.
  if (!active() && session.body_bone() >= 0) {
    consider(Handle::kBody, anim::Limb::kLeftLeg, session.BodyPositionMs(), 2.0f);
    body_start_ms_ = session.edits.body.offset_ms;
    body_start_turn_ = session.edits.body.turn_ms;
  }
  const glm::vec3 up(0.0f, 1.0f, 0.0f);
  glm::vec3 on_ring;
  if (!active() && session.body_bone() >= 0 &&
      RayPlane(ray, session.BodyPositionMs(), up, &on_ring)) {
    const float from_center = glm::length(on_ring - session.BodyPositionMs());
    if (std::abs(from_center - scene::kBodyRingScale * radius) < 0.5f * radius) {
      handle_ = Handle::kBodyRing;
      start_ms_ = plane_point_ms_ = session.BodyPositionMs();
      plane_normal_ms_ = up;
      grab_hit_ms_ = on_ring;
      return true;
    }
  }
  if (!active()) return false;
  plane_point_ms_ = start_ms_;
  plane_normal_ms_ = PlaneNormal(ray, view_forward_ms);
  if (!RayPlane(ray, start_ms_, plane_normal_ms_, &grab_hit_ms_)) grab_hit_ms_ = start_ms_;
  return true;
}

bool LimbOfGrabbedBone(const scene::PosingSession& session, int bone, anim::Limb* limb) {
  const anim::Skeleton& skeleton = session.model().skeleton;
  for (anim::Limb l : anim::kLimbs) {
    const anim::LimbChain& chain = session.chain(l);
    const scene::LimbTarget& t = session.target(l);
    if (!t.available || !t.enabled) continue;
    const bool below_foot = scene::IsLeg(l) && chain.end >= 0 && bone != chain.end &&
                            skeleton.IsAncestorOrSelf(chain.end, bone);
    if (bone == chain.lower || bone == chain.end || below_foot) {
      *limb = l;
      return true;
    }
  }
  return false;
}

bool TargetDrag::BeginOnSurface(const Ray& ray, const scene::PosingSession& session,
                                const scene::SurfaceHit& hit, const glm::vec3& view_forward_ms) {
  handle_ = Handle::kNone;
  if (!hit.hit || hit.bone < 0) return false;
  plane_point_ms_ = grab_hit_ms_ = hit.point_ms;
  plane_normal_ms_ = PlaneNormal(ray, view_forward_ms);
  if (LimbOfGrabbedBone(session, hit.bone, &limb_)) {
    handle_ = Handle::kTarget;  // the target moves by what the grabbed point moves
    start_ms_ = session.target(limb_).target_ms;
  } else if (hit.bone == session.body_bone()) {
    handle_ = Handle::kBody;
    start_ms_ = session.BodyPositionMs();
    body_start_ms_ = session.edits.body.offset_ms;
    body_start_turn_ = session.edits.body.turn_ms;
  } else {
    handle_ = Handle::kBone;
    start_ms_ = anim::PositionMs(session.pose(), hit.bone);  // the joint it turns about
    turn_ = scene::StartTurn(session, hit.bone, /*spread=*/true);
  }
  return true;
}

void TargetDrag::Update(const Ray& ray, const DragModifiers& modifiers,
                        scene::PosingSession& session) const {
  if (!active()) return;
  glm::vec3 hit;
  if (!RayPlane(ray, plane_point_ms_, plane_normal_ms_, &hit)) return;
  if (handle_ == Handle::kBone) {  // the grabbed point swings about the joint toward the mouse
    const glm::vec3 from = grab_hit_ms_ - start_ms_, to = hit - start_ms_;
    // A click without a move turns nothing (the plane hit can differ from the grab in the
    // last bits).
    if (glm::length(to - from) <= 1e-5f * glm::length(from)) return;
    if (glm::dot(from, from) < 1e-20f || glm::dot(to, to) < 1e-20f) return;
    glm::quat turn = ik::RotationBetween(from, to);
    if (modifiers.fine) turn = glm::slerp(glm::quat(1.0f, 0.0f, 0.0f, 0.0f), turn, 0.1f);
    scene::TurnBoneMs(session, turn_, turn);
    return;
  }
  if (handle_ == Handle::kBodyRing) {  // turn about the vertical through the pelvis
    const glm::vec3 a = grab_hit_ms_ - start_ms_, b = hit - start_ms_;
    float angle = std::atan2(glm::dot(glm::cross(a, b), plane_normal_ms_), glm::dot(a, b));
    if (modifiers.fine) angle *= 0.1f;
    const glm::quat goal = glm::angleAxis(angle, plane_normal_ms_) * body_start_turn_;
    const glm::quat step = glm::normalize(goal * glm::inverse(session.edits.body.turn_ms));
    if (std::abs(step.w) < 1.0f - 1e-9f) session.MoveBody(glm::vec3(0.0f), step);
    return;
  }
  glm::vec3 delta = hit - grab_hit_ms_;
  if (modifiers.axis >= 0 && modifiers.axis < 3) {
    const float along = delta[modifiers.axis];
    delta = glm::vec3(0.0f);
    delta[modifiers.axis] = along;
  }
  if (modifiers.fine) delta *= 0.1f;
  MoveBy(delta, session);
}

bool TargetDrag::MoveBy(const glm::vec3& delta, scene::PosingSession& session) const {
  if (handle_ == Handle::kNone || handle_ == Handle::kBone || handle_ == Handle::kBodyRing)
    return false;
  if (handle_ == Handle::kBody) {  // the body moves; pinned targets hold
    const glm::vec3 step = body_start_ms_ + delta - session.edits.body.offset_ms;
    if (step != glm::vec3(0.0f)) session.MoveBody(step);
    return true;
  }
  scene::LimbTarget& t = session.target(limb_);
  glm::vec3& moved = handle_ == Handle::kTarget ? t.target_ms : t.options.solver.pole_ms;
  if (moved == start_ms_ + delta) return true;  // a click without a move changes nothing
  moved = start_ms_ + delta;
  t.given = true;  // placed by the user: solved from now on (a pole needs its limb solved too)
  if (handle_ == Handle::kTarget) t.rung = -1;  // a dragged target has left its rung
  return true;
}

int PickJoint(const Ray& ray, const anim::Skeleton& skeleton, const anim::Pose& pose,
              float radius) {
  int picked = -1;
  float best = std::numeric_limits<float>::max();
  for (int bone = 0; bone < skeleton.size(); ++bone) {
    if (!skeleton.IsJoint(bone)) continue;
    const float hit = RaySphere(ray, anim::PositionMs(pose, bone), radius);
    if (hit >= 0.0f && hit < best) {
      best = hit;
      picked = bone;
    }
  }
  return picked;
}

}  // namespace ikpose::app
