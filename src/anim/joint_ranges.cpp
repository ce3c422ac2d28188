#include "anim/joint_ranges.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "ik/rotation.h"

namespace ikpose::anim {
namespace {

constexpr glm::vec3 kUp{0.f, 1.f, 0.f};
constexpr float kFree = 180.f;

// The table. Values are typical active ranges of motion of healthy adults, in degrees, as
// clinical goniometry tables give them (the American Academy of Orthopaedic Surgeons' "Joint
// Motion: Method of Measuring and Recording", and Norkin and White's "Measurement of Joint
// Motion", agree to within a few degrees on these):
//   pelvis    the body's root: the body move and turn are the user's, so no range.
//   spine     thoracolumbar spine, pelvis to chest together: flexion 80, extension 25,
//             lateral flexion 35 each way, rotation 45 each way; split evenly over the spine's
//             bones (chest included), since every vertebral level gives a part of it.
//   chest     its share of the spine row (it is the spine's top bone).
//   neck      cervical spine with the head on it: flexion 45, extension 45, lateral flexion 45,
//             rotation 70 each way; split evenly over the neck and head bones.
//   head      its share of the neck row.
//   clavicle  sternoclavicular joint: elevation 40, depression 10, protraction and retraction
//             about 25, axial rotation about 40 (reference: up).
//   shoulder  glenohumeral with the shoulder girdle: flexion and abduction 180 from arms down,
//             extension 60, internal rotation 70, external 90. About a rig's rest (level in a
//             T-pose, 45 degrees down in an A-pose) no single front/back split holds, so a cone
//             of 150 degrees (the arm may not turn through the chest) and a twist of 90.
//   elbow     flexion 150 (the solver's hinge); forearm pronation and supination 80 each way
//             are the forearm bone's twist.
//   wrist     flexion 80, extension 70, radial deviation 20, ulnar 30: a cone of 80 (the palm's
//             side is not known from the rig); its own twist is small, 20 (the forearm turns).
//   hip       flexion 120, extension 30, abduction 45, adduction 30 (the side limit takes the
//             larger, as left and right mirror), internal and external rotation 45.
//   knee      flexion 135 (the solver's hinge); tibial rotation with the knee bent, 30.
//   ankle     dorsiflexion 20, plantarflexion 50 (reference: up, so "toward" lifts the toes),
//             abduction and adduction of the foot 25, inversion/eversion 35 as its twist.
//   toe       metatarsophalangeal: extension 70, flexion 45, little else (10).
struct TableRow {
  JointPart part;
  JointRange range;
};
constexpr std::array<TableRow, kJointPartCount> kJointTable = {{
    {JointPart::kPelvis, {kFree, kFree, kFree, kFree, RangeReference::kFacing}},
    {JointPart::kSpine, {80.f, 25.f, 35.f, 45.f, RangeReference::kFacing}},
    {JointPart::kChest, {80.f, 25.f, 35.f, 45.f, RangeReference::kFacing}},
    {JointPart::kNeck, {45.f, 45.f, 45.f, 70.f, RangeReference::kFacing}},
    {JointPart::kHead, {45.f, 45.f, 45.f, 70.f, RangeReference::kFacing}},
    {JointPart::kClavicle, {40.f, 10.f, 25.f, 40.f, RangeReference::kUp}},
    {JointPart::kShoulder, {150.f, 150.f, 150.f, 90.f, RangeReference::kFacing}},
    {JointPart::kElbow, {150.f, 150.f, 150.f, 80.f, RangeReference::kFacing}},
    {JointPart::kWrist, {80.f, 80.f, 80.f, 20.f, RangeReference::kFacing}},
    {JointPart::kHip, {120.f, 30.f, 45.f, 45.f, RangeReference::kFacing}},
    {JointPart::kKnee, {135.f, 135.f, 135.f, 30.f, RangeReference::kFacing}},
    {JointPart::kAnkle, {20.f, 50.f, 25.f, 35.f, RangeReference::kUp}},
    {JointPart::kToe, {70.f, 45.f, 10.f, 10.f, RangeReference::kUp}},
}};

constexpr std::array<const char*, kJointPartCount> kPartNames = {
    "pelvis", "spine", "chest", "neck", "head",  "clavicle", "shoulder",
    "elbow",  "wrist", "hip",   "knee", "ankle", "toe"};

JointRange Share(const JointRange& total, int bones) {
  if (bones <= 1) return total;
  const float n = static_cast<float>(bones);
  JointRange r = total;
  r.toward_deg /= n;
  r.away_deg /= n;
  r.side_deg /= n;
  r.twist_deg /= n;
  return r;
}

glm::vec3 PerpendicularPart(const glm::vec3& v, const glm::vec3& unit_axis) {
  return v - glm::dot(v, unit_axis) * unit_axis;
}

bool Finite(const glm::vec3& v) {
  return std::isfinite(v.x + v.y + v.z);
}

}  // namespace

const char* JointPartName(JointPart part) {
  const int i = static_cast<int>(part);
  return i >= 0 && i < kJointPartCount ? kPartNames[static_cast<std::size_t>(i)] : "";
}

const JointRange& TableRange(JointPart part) {
  const int i = std::clamp(static_cast<int>(part), 0, kJointPartCount - 1);
  return kJointTable[static_cast<std::size_t>(i)].range;
}

const BoneRange* JointRanges::Find(int bone) const {
  if (bone < 0 || bone >= static_cast<int>(bones.size())) return nullptr;
  const BoneRange& b = bones[static_cast<std::size_t>(bone)];
  return b.part == JointPart::kNone ? nullptr : &b;
}

JointRanges BuildJointRanges(const Skeleton& s, const Pose& rest, const ChainSet& chains,
                             const HumanoidMap& map) {
  JointRanges out;
  out.bones.resize(static_cast<std::size_t>(s.size()));
  const glm::vec3 facing = map.facing_valid ? map.facing_ms : chains.forward_ms;
  const auto P = [&rest](int bone) { return PositionMs(rest, bone); };

  // `toward_ms`: where the bone points at rest (a model-space direction).
  const auto set = [&](int bone, JointPart part, const JointRange& range,
                       const glm::vec3& toward_ms) {
    if (bone < 0 || bone >= s.size()) return;
    BoneRange& b = out.bones[static_cast<std::size_t>(bone)];
    const int parent = s.parents[static_cast<std::size_t>(bone)];
    const glm::quat parent_ms = RotationMs(rest, parent);
    const glm::quat to_parent = glm::conjugate(parent_ms);
    glm::vec3 axis = to_parent * toward_ms;
    if (!(glm::length(axis) > 1e-9f) || !Finite(axis)) axis = to_parent * kUp;
    axis = glm::normalize(axis);
    const glm::vec3 primary = range.reference == RangeReference::kUp ? kUp : facing;
    const glm::vec3 secondary = range.reference == RangeReference::kUp ? facing : kUp;
    glm::vec3 ref = PerpendicularPart(to_parent * primary, axis);
    // A bone along its reference (a foot pointing straight down, a spine leaning forward to
    // level) takes the other one, as its swing toward the reference is then undefined.
    if (!(glm::length(ref) > 0.2f)) ref = PerpendicularPart(to_parent * secondary, axis);
    if (!(glm::length(ref) > 1e-3f)) ref = ik::AnyPerpendicular(axis);
    b.part = part;
    b.range = range;
    b.rest_ls = rest.locals_ls[static_cast<std::size_t>(bone)].rotation;
    b.axis_ps = axis;
    b.reference_ps = glm::normalize(ref);
  };
  // The first joint child's direction, else `fallback`.
  const auto child_dir = [&](int bone, const glm::vec3& fallback) {
    for (int c : s.Children(bone)) {
      if (!s.IsJoint(c) && s.JointCount() > 0) continue;
      const glm::vec3 d = P(c) - P(bone);
      if (glm::length(d) > 1e-9f) return d;
    }
    return fallback;
  };

  if (map.pelvis >= 0) set(map.pelvis, JointPart::kPelvis, TableRange(JointPart::kPelvis), kUp);
  const int spine_n = static_cast<int>(map.spine.size());
  const int above_chest = map.neck >= 0 ? map.neck : map.head;
  for (int i = 0; i < spine_n; ++i) {
    const int bone = map.spine[static_cast<std::size_t>(i)];
    const bool chest = bone == map.chest;
    const glm::vec3 next = i + 1 < spine_n ? P(map.spine[static_cast<std::size_t>(i) + 1]) - P(bone)
                           : above_chest >= 0 ? P(above_chest) - P(bone)
                                              : child_dir(bone, kUp);
    set(bone, chest ? JointPart::kChest : JointPart::kSpine,
        Share(TableRange(JointPart::kSpine), spine_n), next);
  }
  if (map.chest >= 0 && spine_n == 0) {
    set(map.chest, JointPart::kChest, TableRange(JointPart::kSpine),
        above_chest >= 0 ? P(above_chest) - P(map.chest) : kUp);
  }
  const int neck_n = (map.neck >= 0 ? 1 : 0) + (map.head >= 0 ? 1 : 0);
  if (map.neck >= 0) {
    set(map.neck, JointPart::kNeck, Share(TableRange(JointPart::kNeck), neck_n),
        map.head >= 0 ? P(map.head) - P(map.neck) : child_dir(map.neck, kUp));
  }
  if (map.head >= 0) {
    set(map.head, JointPart::kHead, Share(TableRange(JointPart::kNeck), neck_n),
        child_dir(map.head, kUp));
  }

  for (Side side : {Side::kLeft, Side::kRight}) {
    const bool left = side == Side::kLeft;
    const LimbChain& arm = chains[left ? Limb::kLeftArm : Limb::kRightArm];
    const LimbChain& leg = chains[left ? Limb::kLeftLeg : Limb::kRightLeg];
    if (arm.valid()) {
      const glm::vec3 hand = EndPositionMs(arm, rest);
      const int clavicle = map.clavicle(side);
      if (clavicle >= 0) {
        set(clavicle, JointPart::kClavicle, TableRange(JointPart::kClavicle),
            P(arm.upper) - P(clavicle));
      }
      set(arm.upper, JointPart::kShoulder, TableRange(JointPart::kShoulder),
          P(arm.lower) - P(arm.upper));
      set(arm.lower, JointPart::kElbow, TableRange(JointPart::kElbow), hand - P(arm.lower));
      set(arm.end, JointPart::kWrist, TableRange(JointPart::kWrist),
          child_dir(arm.end, hand - P(arm.lower)));
    }
    if (leg.valid()) {
      const glm::vec3 foot = EndPositionMs(leg, rest);
      set(leg.upper, JointPart::kHip, TableRange(JointPart::kHip), P(leg.lower) - P(leg.upper));
      set(leg.lower, JointPart::kKnee, TableRange(JointPart::kKnee), foot - P(leg.lower));
      const int toe = map.toe(side);
      const glm::vec3 foot_dir = toe >= 0 ? P(toe) - P(leg.end) : child_dir(leg.end, facing);
      set(leg.end, JointPart::kAnkle, TableRange(JointPart::kAnkle), foot_dir);
      if (toe >= 0)
        set(toe, JointPart::kToe, TableRange(JointPart::kToe), child_dir(toe, foot_dir));
    }
  }
  return out;
}

float SwingLimitDeg(const BoneRange& bone, const glm::vec3& direction_ps) {
  const JointRange& r = bone.range;
  const glm::vec3 across = PerpendicularPart(direction_ps, bone.axis_ps);
  const float length = glm::length(across);
  if (!(length > 1e-9f)) return std::min({r.toward_deg, r.away_deg, r.side_deg});
  const glm::vec3 u = across / length;
  const glm::vec3 side_axis = glm::cross(bone.axis_ps, bone.reference_ps);
  const float c = glm::dot(u, bone.reference_ps);
  const float d = glm::dot(u, side_axis);
  const float front = c >= 0.f ? r.toward_deg : r.away_deg;
  // On the ellipse with half-axes `front` and `side_deg`.
  const float a = c / front;
  const float b = d / r.side_deg;
  return 1.f / std::sqrt(a * a + b * b);
}

RangeClamp ClampToRange(const BoneRange& bone, const glm::quat& rotation_ls) {
  RangeClamp out;
  out.rotation_ls = rotation_ls;
  const glm::quat delta_ps = rotation_ls * glm::conjugate(bone.rest_ls);
  const ik::SwingTwist st = ik::DecomposeSwingTwist(delta_ps, bone.axis_ps);
  out.swing_deg = glm::degrees(st.swing_angle_rad);
  out.twist_deg = glm::degrees(st.twist_angle_rad);
  const glm::vec3 swung = st.swing * bone.axis_ps;
  out.swing_limit_deg = SwingLimitDeg(bone, swung);
  const float twist_limit = bone.range.twist_deg;
  out.swing_clamped = out.swing_deg > out.swing_limit_deg && out.swing_limit_deg < kFree;
  out.twist_clamped = std::abs(out.twist_deg) > twist_limit && twist_limit < kFree;
  if (!out.at_limit()) return out;

  glm::quat swing = st.swing;
  if (out.swing_clamped) {
    // Same swing axis, shorter angle; a half turn whose axis is undefined takes the reference.
    const ik::AxisAngle aa = ik::ToAxisAngle(st.swing);
    glm::vec3 axis = aa.axis;
    if (!(std::abs(glm::dot(axis, bone.axis_ps)) < 0.99f)) {
      axis = glm::normalize(glm::cross(bone.axis_ps, bone.reference_ps));
    }
    swing = glm::angleAxis(glm::radians(out.swing_limit_deg), axis);
  }
  glm::quat twist = st.twist;
  if (out.twist_clamped) {
    twist = glm::angleAxis(glm::radians(std::copysign(twist_limit, out.twist_deg)), bone.axis_ps);
  }
  out.rotation_ls = glm::normalize(swing * twist * bone.rest_ls);
  return out;
}

}  // namespace ikpose::anim
