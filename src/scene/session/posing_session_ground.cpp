// PosingSession's ground contact (scene/world/ground_contact.h): kept apart from
// posing_session.cpp, which it hooks into at two points of Evaluate.
#include <algorithm>
#include <cmath>

#include "scene/session/posing_session.h"
#include "scene/world/limb_radius.h"
#include "scene/world/solid_shapes.h"

namespace ikpose::scene {

namespace {

// The foot's toe joint whose height the contract holds (the humanoid map's; -1 for none).
int ToeOf(const anim::Model& model, anim::Limb leg) {
  return model.humanoid.toe(leg == anim::Limb::kLeftLeg ? anim::Side::kLeft : anim::Side::kRight);
}

}  // namespace

void PosingSession::PlanGroundContact(const std::array<glm::vec3, 4>& before_body_ms) {
  ground_ = GroundReport{};
  if (!edits.ground || (!edits.floor && !edits.world)) return;
  ground_.active = true;
  const float scale = facts_->height / 1.8f;  // the thresholds are for a 1.8 m body
  const bool body_moved = edits.body != BodyMove{};
  const bool follow = edits.ladder_enabled && edits.ladder_follows_clip && climb_.rate > 0.0f;
  float drop = 0.0f, rise = 0.0f;
  float lowest_drop_allowed = 1e30f, highest_rise_allowed = 1e30f;
  for (anim::Limb limb : {anim::Limb::kLeftLeg, anim::Limb::kRightLeg}) {
    const int i = static_cast<int>(limb);
    const LimbTarget& t = target(limb);
    FootContact& foot = ground_.feet[static_cast<std::size_t>(i)];
    if (!t.available || !t.enabled || Mirrored(limb)) continue;
    const bool on_rung = t.given && t.rung >= 0 && t.grip && edits.ladder_enabled;
    if (on_rung || (follow && !placed(limb))) continue;
    const anim::LimbChain& c = chain(limb);
    const int toe = ToeOf(*model_, limb);
    foot.rest_ankle_height = anim::PositionMs(facts_->rest, c.end).y - facts_->floor_y;
    foot.rest_toe_height =
        toe >= 0 ? anim::PositionMs(facts_->rest, toe).y - facts_->floor_y : foot.rest_ankle_height;
    const bool holds = t.pinned && body_moved && !placed(limb);
    const glm::vec3 ankle = placed(limb) ? t.target_ms
                            : holds      ? before_body_ms[static_cast<std::size_t>(i)]
                                         : anim::EndPositionMs(c, base_);
    // From the hip's height: a surface above the hip is not one to stand on.
    const float hip_y = std::max(anim::PositionMs(base_, c.upper).y, ankle.y);
    const float reach = c.upper_length + c.lower_length;
    const glm::vec3 from(ankle.x, hip_y, ankle.z);
    int prop = -1;
    const std::optional<RayHit> hit = GroundBelow(edits.world.get(), edits.floor, facts_->floor_y,
                                                  from, hip_y - ankle.y + 2.0f * reach, &prop);
    if (!hit || hit->normal_ms.y <= 0.0f) continue;
    // A placed target is placed against the world: within the band above the surface, or
    // below it. A foot nobody placed stands wherever the surface under it is, up or down,
    // unless its clip lifts it off the floor (a step, a jump).
    const float lift =
        placed(limb) ? glm::dot(ankle - hit->point_ms, hit->normal_ms) - foot.rest_ankle_height
                     : ankle.y - facts_->floor_y - foot.rest_ankle_height;
    if (lift > kPlantedLift * scale) {
      // In the air: over a surface above the floor, the swing is raised by its height.
      const float raise = hit->point_ms.y - facts_->floor_y;
      if (!placed(limb) && raise > 1e-4f * facts_->height) {
        foot.lifted = raise;
        foot.prop = prop;
        foot.ankle_target_ms = ankle + glm::vec3(0.0f, raise, 0.0f);
        foot.rotation_ms = anim::RotationMs(base_, c.end);
      }
      continue;
    }
    foot.contact = true;
    foot.prop = prop;
    // Flat as at rest, heading where the pose (clip) turns it about the vertical, laid onto the
    // surface: a planted foot's sole on the ground, not the clip's heel or toe roll.
    const glm::quat rest_ms = anim::RotationMs(facts_->rest, c.end);
    const glm::quat delta = anim::RotationMs(base_, c.end) * glm::inverse(rest_ms);
    glm::quat heading(delta.w, 0.0f, delta.y, 0.0f);
    heading = glm::length(heading) > 1e-6f ? glm::normalize(heading) : glm::quat(1, 0, 0, 0);
    const auto stand_on = [&](const glm::vec3& point_ms, const glm::vec3& normal_ms) {
      foot.hit_ms = point_ms;
      foot.normal_ms = normal_ms;
      const glm::quat tilt =
          SoleTilt(normal_ms, kMaxSoleTiltDeg, &foot.tilt_deg, &foot.tilt_clamped);
      foot.rotation_ms = glm::normalize(tilt * heading * rest_ms);
      foot.ankle_target_ms = point_ms + normal_ms * foot.rest_ankle_height;
    };
    stand_on(hit->point_ms, hit->normal_ms);
    // Stands the foot under the ankle, on the plane through `point_ms` with `normal_ms`
    // (vertically below or above where the ankle's ray hit).
    const auto stand_under_ankle = [&](const glm::vec3& point_ms, const glm::vec3& normal_ms) {
      const glm::vec3 off = foot.hit_ms - point_ms;
      stand_on(glm::vec3(foot.hit_ms.x,
                         point_ms.y - (normal_ms.x * off.x + normal_ms.z * off.z) / normal_ms.y,
                         foot.hit_ms.z),
               normal_ms);
    };
    // A surface under `point_ms` (the toe's, the heel's) higher than the sole's by more than
    // `min_step` carries the foot: it stands under the ankle, flat on that surface's plane. A
    // lower one leaves the sole where it is. Returns the hit, if any.
    const auto carry_onto = [&](const glm::vec3& point_ms, float min_step, bool* carried) {
      int under_prop = -1;
      const std::optional<RayHit> under_hit = GroundBelow(
          edits.world.get(), edits.floor, facts_->floor_y, glm::vec3(point_ms.x, hip_y, point_ms.z),
          hip_y - ankle.y + 2.0f * reach, &under_prop);
      const float step =
          under_hit ? glm::dot(under_hit->point_ms - foot.hit_ms, foot.normal_ms) : 0.0f;
      *carried = under_hit && under_hit->normal_ms.y > 0.0f && step > min_step;
      if (*carried) {
        foot.prop = under_prop;
        stand_under_ankle(under_hit->point_ms, under_hit->normal_ms);
      }
      return under_hit;
    };
    // The sole on the plane through `heel_ms` and `toe_ms` (hits under the heel and the toe)
    // holding the foot's sideways axis level, under the ankle as carry_onto stands it.
    const auto straddle_sole = [&](const glm::vec3& heel_ms, const glm::vec3& toe_ms) {
      const glm::vec3 along = toe_ms - heel_ms;
      const glm::vec3 n = glm::cross(along, glm::cross(glm::vec3(0.0f, 1.0f, 0.0f), along));
      if (glm::length(n) < 1e-9f || !(n.y > 0.0f)) return;
      stand_under_ankle(heel_ms, glm::normalize(n));
    };
    // The toe over a step's edge (the heel over the edge), then the heel likewise (a step behind
    // the foot, a kerb the heel would sink into; a heel over an edge hangs).
    if (toe >= 0) {
      const glm::vec3 rest_ankle = anim::PositionMs(facts_->rest, c.end);
      const glm::vec3 rest_toe_off = anim::PositionMs(facts_->rest, toe) - rest_ankle;
      bool toe_carried = false;
      const std::optional<RayHit> toe_hit =
          carry_onto(foot.ankle_target_ms + foot.rotation_ms * glm::inverse(rest_ms) * rest_toe_off,
                     kToeStepOfFoot * glm::length(rest_toe_off), &toe_carried);
      glm::vec3 back = -rest_toe_off;
      back.y = 0.0f;
      const float foot_length = glm::length(back);
      if (foot_length > 1e-6f * facts_->height) {
        const glm::vec3 rest_heel_off =
            back * kHeelBehindOfFoot + glm::vec3(0.0f, facts_->floor_y - rest_ankle.y, 0.0f);
        const glm::vec3 heel_ms =
            foot.ankle_target_ms + foot.rotation_ms * glm::inverse(rest_ms) * rest_heel_off;
        const std::optional<RayHit> heel_hit =
            carry_onto(heel_ms, kToeStepOfFoot * foot_length, &foot.on_heel_surface);
        foot.heel_hit_ms = heel_hit ? heel_hit->point_ms : heel_ms;
        // Carried onto the surface under the toe and back onto the one under the heel: the foot
        // straddles them (the low edge of a ramp: the heel on the floor, the toe on the ramp,
        // whose plane under the ankle is below the floor). The sole lies through both hits.
        if (toe_carried && foot.on_heel_surface && toe_hit && heel_hit)
          straddle_sole(heel_hit->point_ms, toe_hit->point_ms);
      }
    }
    const glm::vec3 hip = anim::PositionMs(base_, c.upper);
    drop = std::max(drop, HipDropToReach(hip, foot.ankle_target_ms, 0.9999f * reach));
    // The pelvis stays a quarter of a leg above the ground under it.
    const float body_y = anim::PositionMs(base_, body_bone_ >= 0 ? body_bone_ : c.upper).y;
    lowest_drop_allowed =
        std::min(lowest_drop_allowed, body_y - foot.hit_ms.y - kMinPelvisLift * reach);
    // A step up the knee would fold past its range under: the pelvis rises, but no further
    // than this leg still reaches.
    const float folded = FoldedLegLength(c.upper_length, c.lower_length, kMaxKneeFoldDeg);
    rise = std::max(rise, HipRiseToFold(hip, foot.ankle_target_ms, folded));
    highest_rise_allowed =
        std::min(highest_rise_allowed, HipRiseToReach(hip, foot.ankle_target_ms, 0.9999f * reach));
  }
  if (body_bone_ < 0) return;
  if (drop > 0.0f) {
    const float allowed = std::max(0.0f, lowest_drop_allowed);
    ground_.pelvis_drop_limited = drop > allowed;
    ground_.pelvis_drop = std::min(drop, allowed);
  } else if (rise > 0.0f) {
    // A leg placed elsewhere (not on the ground) is not stretched by the rise either.
    for (anim::Limb limb : {anim::Limb::kLeftLeg, anim::Limb::kRightLeg}) {
      const LimbTarget& t = target(limb);
      if (ground_.feet[static_cast<std::size_t>(limb)].contact || !placed(limb) || !t.enabled)
        continue;
      const anim::LimbChain& c = chain(limb);
      highest_rise_allowed = std::min(highest_rise_allowed,
                                      HipRiseToReach(anim::PositionMs(base_, c.upper), t.target_ms,
                                                     0.9999f * (c.upper_length + c.lower_length)));
    }
    const float allowed = std::max(0.0f, highest_rise_allowed);
    ground_.pelvis_drop_limited = rise > allowed;
    ground_.pelvis_drop = -std::min(rise, allowed);
  }
  if (ground_.pelvis_drop != 0.0f)
    anim::ShiftBoneMs(model_->skeleton, body_bone_, {0.0f, -ground_.pelvis_drop, 0.0f}, base_);
}

void PosingSession::MeasureGroundContact() {
  if (!ground_.active && !edits.world && !edits.ladder_enabled) return;
  for (anim::Limb limb : {anim::Limb::kLeftLeg, anim::Limb::kRightLeg}) {
    FootContact& foot = ground_.feet[static_cast<std::size_t>(limb)];
    if (!foot.contact) continue;
    const int end = chain(limb).end;
    const int toe = ToeOf(*model_, limb);
    const glm::vec3 ankle = anim::PositionMs(pose_, end);
    const glm::vec3 toe_ms = toe >= 0 ? anim::PositionMs(pose_, toe) : ankle;
    foot.ankle_height = glm::dot(ankle - foot.hit_ms, foot.normal_ms);
    foot.toe_height = glm::dot(toe_ms - foot.hit_ms, foot.normal_ms);
    foot.height_error = std::max(std::abs(foot.ankle_height - foot.rest_ankle_height),
                                 std::abs(foot.toe_height - foot.rest_toe_height));
  }
  // Limbs inside props and the solid ladder: each joint to each of its children as thick as the
  // limb, bones shorter than a hundredth of the body left out (twist bones), a skin touching a
  // surface by less than the contact slack (a sole on a step) not inside.
  ground_.penetrations.clear();
  const bool ladder_shown = edits.ladder_enabled && ladder_now_.Valid();
  if (!edits.world && !ladder_shown) return;  // the floor alone: nothing to be inside
  // A ladder prop's solid is the prop's own, in the world's BVH.
  const bool ladder_solid = ladder_shown && ladder_prop_ < 0;
  if (ladder_solid && (!ladder_bvh_ || !(ladder_bvh_of_ == ladder_now_))) {
    std::vector<glm::vec3> vertices;
    std::vector<std::uint32_t> indices;
    LadderTriangles(ladder_now_, &vertices, &indices);
    auto bvh = std::make_shared<SurfaceBvh>();
    std::string ignored;  // a valid ladder has at most 1,000 rungs: far under the limit
    bvh->Build(vertices, indices, &ignored);
    ladder_bvh_ = std::move(bvh);
    ladder_bvh_of_ = ladder_now_;
  }
  const anim::Skeleton& skeleton = model_->skeleton;
  const float shortest = 0.01f * facts_->height;
  const float slack = kLimbRadius.contact_slack * facts_->height / 1.8f;
  // A hand gripping a rung wraps its fingers round it: touching it is the point, so the
  // fingers of a gripping hand are left out (its wrist and forearm are not). A rig whose
  // fingers hang from the forearm beside the hand (the robot's palms and thumb) has them left
  // out too: a forearm's child nearer the wrist than half the forearm is a part of the hand
  // (a twist bone, along the forearm, is not).
  std::vector<int> gripping;    // hands: the bones from their joint on
  std::vector<int> hand_parts;  // a forearm's other hand parts: from the forearm on
  for (anim::Limb limb : {anim::Limb::kLeftArm, anim::Limb::kRightArm}) {
    const LimbTarget& t = target(limb);
    const bool follows = edits.ladder_follows_clip && !t.given;
    if (!t.available || !ladder_shown || !t.grip || !(t.rung >= 0 || follows)) continue;
    const anim::LimbChain& arm = chain(limb);
    gripping.push_back(arm.end);
    const glm::vec3 wrist = anim::PositionMs(pose_, arm.end);
    for (int part : model_->skeleton.Children(arm.lower)) {
      if (part != arm.end &&
          glm::length(anim::PositionMs(pose_, part) - wrist) < 0.5f * arm.lower_length)
        hand_parts.push_back(part);
    }
  }
  const bool has_joints = skeleton.JointCount() > 0;
  for (int bone = 0; bone < skeleton.size(); ++bone) {
    const int parent = skeleton.parents[static_cast<std::size_t>(bone)];
    // Body parts only: from the pelvis down its tree (a root's link to the pelvis is none).
    if (parent < 0 || (body_bone_ >= 0 && !skeleton.IsAncestorOrSelf(body_bone_, parent))) continue;
    if (has_joints && (!skeleton.IsJoint(parent) || !skeleton.IsJoint(bone))) continue;
    if (std::any_of(gripping.begin(), gripping.end(),
                    [&](int hand) { return skeleton.IsAncestorOrSelf(hand, parent); }) ||
        std::any_of(hand_parts.begin(), hand_parts.end(),
                    [&](int part) { return skeleton.IsAncestorOrSelf(part, bone); }))
      continue;
    const glm::vec3 a = anim::PositionMs(pose_, parent);
    const glm::vec3 b = anim::PositionMs(pose_, bone);
    if (glm::length(b - a) < shortest) continue;
    const float radius = static_cast<std::size_t>(bone) < facts_->limb_radius.size()
                             ? facts_->limb_radius[static_cast<std::size_t>(bone)]
                             : 0.0f;
    std::optional<Penetration> worst;
    if (edits.world) worst = SegmentInside(edits.world->bvh(), a, b, radius, edits.world.get());
    if (ladder_solid) {
      std::optional<Penetration> rung = SegmentInside(*ladder_bvh_, a, b, radius, nullptr);
      if (rung && (!worst || rung->depth > worst->depth)) worst = rung;
    }
    if (!worst || worst->depth <= slack) continue;
    worst->bone = parent;
    worst->child = bone;
    ground_.penetrations.push_back(*worst);
  }
}

}  // namespace ikpose::scene
