#include "rig.h"

#include <cmath>
#include <stdexcept>

namespace ikpose::character {

dvec3 Apply(const Rigid& t, const dvec3& p) {
  return t.rotation * p + t.translation;
}

Rigid Compose(const Rigid& parent, const Rigid& child) {
  return {parent.rotation * child.translation + parent.translation,
          glm::normalize(parent.rotation * child.rotation)};
}

Rigid Inverse(const Rigid& t) {
  const dquat inv = glm::conjugate(t.rotation);
  return {inv * -t.translation, inv};
}

dquat FrameAlongSide(const dvec3& along, const dvec3& side) {
  const dvec3 y = glm::normalize(along);
  const dvec3 x = glm::normalize(side - glm::dot(side, y) * y);
  const dvec3 z = glm::cross(x, y);
  return glm::normalize(glm::quat_cast(glm::dmat3(x, y, z)));
}

dvec3 SolveTwoBoneMiddle(const dvec3& a, const dvec3& c, double l1, double l2, const dvec3& pole) {
  const dvec3 ac = c - a;
  const double length = glm::length(ac);
  const dvec3 dir = length > 1e-12 ? ac / length : dvec3(0.0, -1.0, 0.0);
  const double d = glm::clamp(length, std::abs(l1 - l2) + 1e-9, l1 + l2 - 1e-9);
  const double cos_a = glm::clamp((l1 * l1 + d * d - l2 * l2) / (2.0 * l1 * d), -1.0, 1.0);
  dvec3 perp = pole - glm::dot(pole, dir) * dir;
  if (glm::length(perp) < 1e-9) {
    // Pole along the reach direction: any perpendicular will do.
    perp = glm::cross(dir, std::abs(dir.x) < 0.9 ? dvec3(1.0, 0.0, 0.0) : dvec3(0.0, 1.0, 0.0));
  }
  perp = glm::normalize(perp);
  return a + l1 * (cos_a * dir + std::sqrt(1.0 - cos_a * cos_a) * perp);
}

std::vector<Rigid> ModelSpace(const Rig& rig, const std::vector<Rigid>& local) {
  std::vector<Rigid> model(local.size());
  for (std::size_t i = 0; i < local.size(); ++i) {
    const int parent = rig.joints[i].parent;
    model[i] = parent < 0 ? local[i] : Compose(model[static_cast<std::size_t>(parent)], local[i]);
  }
  return model;
}

int Rig::Index(std::string_view name) const {
  for (std::size_t i = 0; i < joints.size(); ++i) {
    if (joints[i].name == name) return static_cast<int>(i);
  }
  throw std::out_of_range("no joint named " + std::string(name));
}

namespace {

struct Spec {
  std::string name;
  std::string parent;
  Rigid model;  // bind transform in model space, as designed
};

double Round6(double v) {
  return std::round(v * 1e6) / 1e6;
}

// `v` (unit) turned by `angle` towards `towards`, in the plane the two span.
dvec3 TurnedTowards(const dvec3& v, const dvec3& towards, double angle) {
  const dvec3 t = glm::normalize(towards - glm::dot(towards, v) * v);
  return std::cos(angle) * v + std::sin(angle) * t;
}

struct FingerSpec {
  const char* name;
  double along, across, normal;  // knuckle, in hand axes from the wrist
  double fan_degrees;            // spread towards the thumb side
  std::array<double, 3> lengths;
  double curl_degrees;  // rest curl at each joint, towards the palm
  double radius;
};

constexpr std::array<FingerSpec, 4> kFingers{{
    {"index", 0.092, 0.025, -0.003, 3.0, {0.040, 0.024, 0.020}, 10.0, 0.0092},
    {"middle", 0.096, 0.007, -0.004, 0.0, {0.044, 0.026, 0.021}, 10.0, 0.0096},
    {"ring", 0.092, -0.011, -0.003, -3.0, {0.041, 0.025, 0.020}, 11.0, 0.0090},
    {"pinky", 0.084, -0.027, -0.001, -7.0, {0.032, 0.019, 0.018}, 12.0, 0.0078},
}};

}  // namespace

Rig BuildRig() {
  std::vector<Spec> specs;
  auto add = [&specs](const std::string& name, const std::string& parent, const dvec3& p,
                      const dquat& r) {
    specs.push_back({name, parent, {p, r}});
  };
  const dvec3 up(0.0, 1.0, 0.0), forward(0.0, 0.0, 1.0), x_axis(1.0, 0.0, 0.0);

  // Spine, neck, head: on the mid-plane, with the gentle S of a standing back.
  const dvec3 pelvis(0.0, 0.975, -0.010), spine1(0.0, 1.055, -0.016), spine2(0.0, 1.175, -0.018),
      spine3(0.0, 1.295, -0.014), neck(0.0, 1.485, -0.028), head(0.0, 1.595, -0.012);
  add("root", "", dvec3(0.0), dquat(1.0, 0.0, 0.0, 0.0));
  add("pelvis", "root", pelvis, FrameAlongSide(up, x_axis));
  add("spine_01", "pelvis", spine1, FrameAlongSide(spine2 - spine1, x_axis));
  add("spine_02", "spine_01", spine2, FrameAlongSide(spine3 - spine2, x_axis));
  add("spine_03", "spine_02", spine3, FrameAlongSide(neck - spine3, x_axis));
  add("neck_01", "spine_03", neck, FrameAlongSide(head - neck, x_axis));
  add("head", "neck_01", head, FrameAlongSide(dvec3(0.0, 1.0, 0.04), x_axis));

  Rig rig;
  struct SideDesign {
    dvec3 wrist, hand_along, palm_normal, thumb_side;
    std::array<dvec3, 5> finger_base, finger_tip;
    std::array<double, 5> finger_radius;
    dvec3 foot_forward, heel, toe;
  };
  std::array<SideDesign, 2> design{};

  // Arms.
  for (int side = 0; side < 2; ++side) {
    const double s = side == 0 ? 1.0 : -1.0;
    const std::string sfx = side == 0 ? "_l" : "_r";
    auto mx = [s](double x, double y, double z) { return dvec3(s * x, y, z); };
    const double c45 = std::cos(Radians(45.0)), s45 = std::sin(Radians(45.0));

    const dvec3 clavicle = mx(0.030, 1.420, -0.006);
    const dvec3 shoulder = mx(0.180, 1.435, -0.030);
    const dvec3 dir_upper = glm::normalize(mx(c45, -s45, 0.06));
    const dvec3 dir_fore = TurnedTowards(dir_upper, forward, Radians(10.0));
    const dvec3 elbow = shoulder + 0.285 * dir_upper;
    const dvec3 wrist = elbow + 0.255 * dir_fore;
    const dvec3 arm_axis = glm::normalize(glm::cross(dir_upper, dir_fore));

    add("clavicle" + sfx, "spine_03", clavicle,
        FrameAlongSide(shoulder - clavicle, dvec3(0.0, 0.0, s)));
    add("upperarm" + sfx, "clavicle" + sfx, shoulder, FrameAlongSide(dir_upper, arm_axis));
    add("lowerarm" + sfx, "upperarm" + sfx, elbow, FrameAlongSide(dir_fore, arm_axis));

    // Hand: along the forearm, palm towards the thigh (A-pose), thumb forward.
    const dvec3 along = dir_fore;
    const dvec3 palm = s * arm_axis;
    const dvec3 thumb_side =
        glm::normalize(forward - glm::dot(forward, along) * along - glm::dot(forward, palm) * palm);
    add("hand" + sfx, "lowerarm" + sfx, wrist, FrameAlongSide(along, glm::cross(along, palm)));
    SideDesign& d = design[static_cast<std::size_t>(side)];
    d.wrist = wrist;
    d.hand_along = along;
    d.palm_normal = palm;
    d.thumb_side = thumb_side;

    // Thumb: from the heel of the hand, out towards the thumb side and the palm.
    {
      const dvec3 t1 = wrist + 0.020 * along + 0.021 * thumb_side + 0.011 * palm;
      const dvec3 d0 = glm::normalize(0.68 * along + 0.60 * thumb_side + 0.42 * palm);
      const dvec3 curl = glm::normalize(palm - 0.5 * thumb_side);
      const dvec3 n0 = glm::normalize(curl - glm::dot(curl, d0) * d0);
      const std::array<double, 3> lengths{0.044, 0.032, 0.027};
      const double c = Radians(9.0);
      dvec3 p = t1;
      for (int k = 0; k < 3; ++k) {
        const double a = c * (k + 1);
        const dvec3 dk = std::cos(a) * d0 + std::sin(a) * n0;
        const dvec3 nk = -std::sin(a) * d0 + std::cos(a) * n0;
        const std::string name = "thumb_0" + std::to_string(k + 1) + sfx;
        const std::string parent = k == 0 ? "hand" + sfx : "thumb_0" + std::to_string(k) + sfx;
        add(name, parent, p, FrameAlongSide(dk, glm::cross(dk, nk)));
        if (k == 0) d.finger_base[0] = p - 0.012 * dk;
        p += lengths[static_cast<std::size_t>(k)] * dk;
      }
      d.finger_tip[0] = p;
      d.finger_radius[0] = 0.0125;
    }
    // Fingers: three segments each, with a slight rest curl.
    for (std::size_t f = 0; f < kFingers.size(); ++f) {
      const FingerSpec& spec = kFingers[f];
      const dvec3 knuckle =
          wrist + spec.along * along + spec.across * thumb_side + spec.normal * palm;
      const double fan = Radians(spec.fan_degrees);
      const dvec3 d0 = glm::normalize(std::cos(fan) * along + std::sin(fan) * thumb_side);
      const dvec3 n0 = glm::normalize(palm - glm::dot(palm, d0) * d0);
      const double c = Radians(spec.curl_degrees);
      dvec3 p = knuckle;
      for (int k = 0; k < 3; ++k) {
        const double a = c * (k + 1);
        const dvec3 dk = std::cos(a) * d0 + std::sin(a) * n0;
        const dvec3 nk = -std::sin(a) * d0 + std::cos(a) * n0;
        const std::string base = std::string(spec.name) + "_0";
        const std::string name = base + std::to_string(k + 1) + sfx;
        const std::string parent = k == 0 ? "hand" + sfx : base + std::to_string(k) + sfx;
        add(name, parent, p, FrameAlongSide(dk, glm::cross(dk, nk)));
        if (k == 0) d.finger_base[f + 1] = p - 0.016 * dk;
        p += spec.lengths[static_cast<std::size_t>(k)] * dk;
      }
      d.finger_tip[f + 1] = p;
      d.finger_radius[f + 1] = spec.radius;
    }
  }

  // Legs: hip above the ankle, the knee 5 degrees forward of straight, toes out 6 degrees.
  for (int side = 0; side < 2; ++side) {
    const double s = side == 0 ? 1.0 : -1.0;
    const std::string sfx = side == 0 ? "_l" : "_r";
    const dvec3 hip(s * 0.092, 0.935, 0.0);
    const dvec3 ankle(s * 0.105, 0.085, -0.035);
    const double l1 = 0.43, beta = Radians(5.0);
    const double reach = glm::length(ankle - hip);
    const double cb = std::cos(beta);
    const double l2 = -l1 * cb + std::sqrt(l1 * l1 * cb * cb - l1 * l1 + reach * reach);
    const dvec3 knee = SolveTwoBoneMiddle(hip, ankle, l1, l2, forward);
    const dvec3 leg_axis = glm::normalize(glm::cross(knee - hip, ankle - knee));
    const double toe_out = Radians(6.0);
    const dvec3 foot_forward(s * std::sin(toe_out), 0.0, std::cos(toe_out));
    const dvec3 foot_side = glm::normalize(glm::cross(up, foot_forward));
    const dvec3 ball = ankle + 0.135 * foot_forward + dvec3(0.0, -0.060, 0.0);

    add("thigh" + sfx, "pelvis", hip, FrameAlongSide(knee - hip, leg_axis));
    add("calf" + sfx, "thigh" + sfx, knee, FrameAlongSide(ankle - knee, leg_axis));
    add("foot" + sfx, "calf" + sfx, ankle, FrameAlongSide(ball - ankle, foot_side));
    add("ball" + sfx, "foot" + sfx, ball, FrameAlongSide(foot_forward, foot_side));
    SideDesign& d = design[static_cast<std::size_t>(side)];
    d.foot_forward = foot_forward;
    d.heel = dvec3(ankle.x, 0.0, ankle.z) - 0.080 * foot_forward;
    d.toe = dvec3(ball.x, 0.0, ball.z) + 0.070 * foot_forward;
  }

  // Local TRS relative to the parent, rounded to 1e-6 as the file stores them.
  for (std::size_t i = 0; i < specs.size(); ++i) {
    Joint joint;
    joint.name = specs[i].name;
    Rigid parent_model;
    if (!specs[i].parent.empty()) {
      for (std::size_t p = 0; p < i; ++p) {
        if (specs[p].name == specs[i].parent) {
          joint.parent = static_cast<int>(p);
          parent_model = specs[p].model;
        }
      }
      if (joint.parent < 0) throw std::logic_error("parent after child: " + specs[i].name);
    }
    Rigid local = Compose(Inverse(parent_model), specs[i].model);
    if (local.rotation.w < 0.0) local.rotation = -local.rotation;
    for (int k = 0; k < 3; ++k) local.translation[k] = Round6(local.translation[k]);
    local.rotation = dquat(Round6(local.rotation.w), Round6(local.rotation.x),
                           Round6(local.rotation.y), Round6(local.rotation.z));
    joint.local = local;
    rig.joints.push_back(joint);
  }
  std::vector<Rigid> local(rig.joints.size());
  for (std::size_t i = 0; i < local.size(); ++i) {
    local[i] = rig.joints[i].local;
    local[i].rotation = glm::normalize(local[i].rotation);
  }
  rig.bind_ms = ModelSpace(rig, local);

  for (int side = 0; side < 2; ++side) {
    const std::string sfx = side == 0 ? "_l" : "_r";
    const SideDesign& d = design[static_cast<std::size_t>(side)];
    Side& out = rig.sides[static_cast<std::size_t>(side)];
    out.sign = side == 0 ? 1.0 : -1.0;
    out.clavicle = rig.Index("clavicle" + sfx);
    out.upperarm = rig.Index("upperarm" + sfx);
    out.lowerarm = rig.Index("lowerarm" + sfx);
    out.hand = rig.Index("hand" + sfx);
    out.thigh = rig.Index("thigh" + sfx);
    out.calf = rig.Index("calf" + sfx);
    out.foot = rig.Index("foot" + sfx);
    out.ball = rig.Index("ball" + sfx);
    out.hand_along = d.hand_along;
    out.palm_normal = d.palm_normal;
    out.thumb_side = d.thumb_side;
    out.palm_length = kFingers[1].along;
    const std::array<std::string, 5> names{"thumb", "index", "middle", "ring", "pinky"};
    for (std::size_t f = 0; f < 5; ++f) {
      Finger& finger = out.fingers[f];
      for (int k = 0; k < 3; ++k) {
        finger.joints[static_cast<std::size_t>(k)] =
            rig.Index(names[f] + "_0" + std::to_string(k + 1) + sfx);
      }
      finger.base_ms = d.finger_base[f];
      finger.tip_ms = d.finger_tip[f];
      finger.radius = d.finger_radius[f];
    }
    out.foot_forward = d.foot_forward;
    out.heel_ms = d.heel;
    out.toe_ms = d.toe;
  }
  return rig;
}

}  // namespace ikpose::character
