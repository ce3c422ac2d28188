#include "clips.h"

#include "loft.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace ikpose::character {

namespace {

constexpr int kKeysPerSecond = 30;
const dvec3 kX(1.0, 0.0, 0.0), kY(0.0, 1.0, 0.0), kZ(0.0, 0.0, 1.0);

double SmoothStep01(double u) {
  u = glm::clamp(u, 0.0, 1.0);
  return u * u * (3.0 - 2.0 * u);
}

// A curve over one cycle (keys in [0, 1)) that wraps around smoothly.
Curve PeriodicCurve(const std::vector<Curve::Key>& keys) {
  std::vector<Curve::Key> wrapped;
  for (int lap = -1; lap <= 1; ++lap) {
    for (const Curve::Key& k : keys) wrapped.push_back({k.t + lap, k.values});
  }
  return Curve(std::move(wrapped));
}

// A pose being built: local transforms starting at bind.
class Poser {
 public:
  explicit Poser(const Rig& rig) : rig_(rig) {
    for (const Joint& j : rig.joints) {
      local_.push_back({j.local.translation, glm::normalize(j.local.rotation)});
    }
  }
  // Turns `joint` by `angle` about `axis_ls`, an axis of its own bind frame.
  void TurnLocal(int joint, const dvec3& axis_ls, double angle) {
    Rigid& l = local_[static_cast<std::size_t>(joint)];
    l.rotation = glm::normalize(l.rotation * glm::angleAxis(angle, axis_ls));
  }
  // Turns `joint` by `angle` about `axis_ms`, a model-space axis as seen in the bind pose.
  void TurnModel(int joint, const dvec3& axis_ms, double angle) {
    TurnLocal(joint, glm::conjugate(rig_.bind_ms[joint].rotation) * axis_ms, angle);
  }
  // Gives `joint` the model-space rotation `rotation_ms`, its parent as posed so far.
  void SetModelRotation(int joint, const dquat& rotation_ms) {
    const int parent = rig_.joints[joint].parent;
    const dquat parent_ms = parent < 0 ? dquat(1, 0, 0, 0) : Model()[parent].rotation;
    local_[static_cast<std::size_t>(joint)].rotation =
        glm::normalize(glm::conjugate(parent_ms) * rotation_ms);
  }
  void Translate(int joint, const dvec3& offset) {
    local_[static_cast<std::size_t>(joint)].translation += offset;
  }
  std::vector<Rigid> Model() const { return ModelSpace(rig_, local_); }
  const std::vector<Rigid>& Local() const { return local_; }

 private:
  const Rig& rig_;
  std::vector<Rigid> local_;
};

// Lowest point of either shoe in the posed skeleton (heel, ball and toe tips on the sole).
double LowestSole(const Rig& rig, const std::vector<Rigid>& model) {
  double lowest = 1e9;
  for (const Side& side : rig.sides) {
    const dvec3 ball = rig.Position(side.ball);
    const std::array<std::pair<int, dvec3>, 3> points{{{side.foot, side.heel_ms},
                                                       {side.foot, dvec3(ball.x, 0.0, ball.z)},
                                                       {side.ball, side.toe_ms}}};
    for (const auto& [joint, p_bind] : points) {
      const dvec3 p = Apply(model[joint], Apply(Inverse(rig.bind_ms[joint]), p_bind));
      lowest = std::min(lowest, p.y);
    }
  }
  return lowest;
}

// Sets the pelvis height so that the lowest sole point is on the floor.
void PlantOnFloor(const Rig& rig, Poser& poser) {
  const double lowest = LowestSole(rig, poser.Model());
  poser.Translate(rig.Index("pelvis"), dvec3(0.0, -lowest, 0.0));
}

Clip Sample(const std::string& name, double duration,
            const std::function<std::vector<Rigid>(double)>& pose_at) {
  Clip clip;
  clip.name = name;
  clip.duration = duration;
  const int keys = static_cast<int>(std::lround(duration * kKeysPerSecond));
  for (int k = 0; k <= keys; ++k) {
    clip.times.push_back(static_cast<double>(k) / kKeysPerSecond);
    clip.poses.push_back(k == keys ? clip.poses.front() : pose_at(clip.times.back()));
  }
  return clip;
}

void CurlFingers(const Side& side, Poser& poser, double fingers_degrees, double thumb_degrees) {
  for (std::size_t f = 0; f < side.fingers.size(); ++f) {
    const double base = f == 0 ? thumb_degrees : fingers_degrees;
    for (std::size_t k = 0; k < 3; ++k) {
      const double scale = f == 0 ? (k == 0 ? 0.3 : 1.0) : (k == 2 ? 0.7 : 1.0);
      poser.TurnLocal(side.fingers[f].joints[k], kX, Radians(base * scale));
    }
  }
}

Clip Idle(const Rig& rig) {
  const int pelvis = rig.Index("pelvis"), spine2 = rig.Index("spine_02"),
            spine3 = rig.Index("spine_03"), neck = rig.Index("neck_01"), head = rig.Index("head");
  const double leg =
      glm::length(rig.Position(rig.sides[0].foot) - rig.Position(rig.sides[0].thigh));
  return Sample("idle", 3.0, [&, leg](double t) {
    const double w = 2.0 * kPi * t / 3.0;
    const double breath = std::sin(w);
    const double sway = std::sin(w + 1.3);
    Poser p(rig);
    // Weight shift: the pelvis slides sideways and rolls a little, the legs stay planted.
    const double dx = 0.012 * sway;
    const double roll = Radians(1.2) * sway;
    p.Translate(pelvis, dvec3(dx, 0.0, 0.0));
    p.TurnModel(pelvis, kZ, roll);
    const double gamma = std::asin(-dx / leg);
    for (const Side& side : rig.sides) {
      p.TurnModel(side.thigh, kZ, gamma - roll);
      p.TurnModel(side.foot, kZ, -gamma);
    }
    // Breathing: the chest lifts and the shoulders rise on the in-breath.
    p.TurnLocal(spine2, kX, -Radians(1.2) * breath);
    p.TurnLocal(spine3, kX, -Radians(1.0) * breath);
    p.TurnModel(spine3, kZ, -0.6 * roll);
    p.TurnLocal(neck, kX, Radians(2.0) * breath);
    p.TurnModel(head, kY, Radians(5.0) * std::sin(w + 2.0));
    p.TurnLocal(head, kX, Radians(1.5) * std::sin(2.0 * w));
    for (const Side& side : rig.sides) {
      p.TurnLocal(side.clavicle, kX, Radians(1.5) * breath);
      // Arms hang relaxed, swaying slightly with the body.
      p.TurnModel(side.upperarm, kX, -Radians(4.0 + 1.5 * std::sin(w + 0.4)));
      p.TurnModel(side.upperarm, kZ, -side.sign * Radians(25.0 + 1.0 * sway * side.sign));
      p.TurnLocal(side.lowerarm, kX, Radians(8.0 + 2.0 * std::sin(w + 0.8)));
      CurlFingers(side, p, 10.0, 6.0);
    }
    PlantOnFloor(rig, p);
    return p.Local();
  });
}

Clip Walk(const Rig& rig) {
  const int pelvis = rig.Index("pelvis"), spine1 = rig.Index("spine_01"),
            spine2 = rig.Index("spine_02"), spine3 = rig.Index("spine_03"),
            head = rig.Index("head");
  // One leg's gait over a cycle (phase 0..1, heel strike at 0.25, toe off at 0.76), in
  // degrees: hip flexion (thigh forward), knee flexion, foot pitch on the floor (toes down),
  // toe bend relative to the foot (toes up is negative).
  const Curve gait = PeriodicCurve({
      {0.00, {20.0, 20.0, -6.0, 0.0}},
      {0.12, {25.0, 6.0, -10.0, 0.0}},
      {0.25, {24.0, 3.0, -12.0, 0.0}},
      {0.36, {17.0, 15.0, 0.0, 0.0}},
      {0.55, {4.0, 6.0, 0.0, 0.0}},
      {0.70, {-10.0, 22.0, 20.0, -20.0}},
      {0.76, {-8.0, 38.0, 34.0, -28.0}},
      {0.84, {2.0, 58.0, 8.0, -4.0}},
      {0.90, {12.0, 56.0, -2.0, 0.0}},
  });
  return Sample("walk", 1.0, [&](double t) {
    const double w = 2.0 * kPi * t;
    Poser p(rig);
    // Pelvis: turns towards the swinging leg, drops on the swing side, shifts over the stance
    // foot (left foot down from t = 0.25 to 0.75).
    p.Translate(pelvis, dvec3(0.015 * -std::cos(w), 0.0, 0.0));
    p.TurnModel(pelvis, kY, -Radians(5.0) * std::sin(w));
    p.TurnModel(pelvis, kZ, Radians(3.0) * -std::cos(w));
    p.TurnModel(pelvis, kX, Radians(3.0));
    p.TurnLocal(spine1, kX, Radians(2.0));
    p.TurnModel(spine2, kY, Radians(3.0) * std::sin(w));
    p.TurnModel(spine3, kY, Radians(4.0) * std::sin(w));
    p.TurnModel(spine3, kZ, -Radians(2.0) * -std::cos(w));
    p.TurnModel(head, kY, -Radians(2.0) * std::sin(w));
    p.TurnLocal(head, kX, -Radians(2.0));
    for (const Side& side : rig.sides) {
      // Phase of this leg: heel strike at 0.25, toe off at 0.75.
      const double phase = side.sign > 0 ? t : t + 0.5;
      const std::vector<double> g = gait(phase - std::floor(phase));
      const double hip_flex = Radians(g[0]), knee = Radians(g[1]), pitch = Radians(g[2]);
      const double thigh = -hip_flex - Radians(3.0);  // the pelvis leans 3 degrees forward
      p.TurnLocal(side.thigh, kX, thigh);
      p.TurnModel(side.thigh, kZ, -Radians(3.0) * -std::cos(w));  // keep the legs plumb
      p.TurnLocal(side.calf, kX, knee);
      p.TurnLocal(side.foot, kX, pitch - thigh - knee - Radians(3.0));
      p.TurnLocal(side.ball, kX, Radians(g[3]));
      // Arms swing against the legs: this arm is forward when the other leg is.
      const double swing = Radians(18.0) * std::sin(2.0 * kPi * (phase - 0.5));
      p.TurnModel(side.upperarm, kX, -swing);
      p.TurnModel(side.upperarm, kZ, -side.sign * Radians(23.0));
      p.TurnLocal(side.lowerarm, kX, Radians(14.0) + 0.6 * std::max(0.0, swing));
      p.TurnLocal(side.clavicle, kX, Radians(1.0) * std::sin(2.0 * w));
      CurlFingers(side, p, 14.0, 8.0);
    }
    PlantOnFloor(rig, p);
    return p.Local();
  });
}

// Twist of `q` about the unit axis `axis` (swing-twist split), in radians.
double TwistAngle(const dquat& q, const dvec3& axis) {
  const double sign = q.w < 0.0 ? -1.0 : 1.0;  // q and -q: the same turn, taken the short way
  const double along = sign * glm::dot(dvec3(q.x, q.y, q.z), axis);
  return 2.0 * std::atan2(along, sign * q.w);
}

Clip LadderClimb(const Rig& rig) {
  constexpr double kRungZ = 0.35;  // the ladder's rungs, in front of the character
  constexpr double kRate = 0.30;   // the rungs slide down this fast (m/s) while climbing
  constexpr double kCycle = 2.0;   // the clip: two strides
  constexpr double kStride = 1.0;  // each hand and foot moves once a stride, one rung up
  constexpr double kMove = 0.45;   // time a hand or foot spends moving to its next rung
  constexpr double kRungRadius = 0.015;
  const double hold_drop = kRate * (kStride - kMove);  // 0.165 m

  // Height of the rung a limb reaches for, relative to the body, and how far it is off the
  // ladder (metres, backwards) and how tight the grip is, at time t for a limb starting its
  // move at `start`. `top` is where the limb catches its rung.
  struct LimbState {
    double y, clearance, grip;
  };
  auto limb = [=](double t, double start, double top, double clear) {
    double tau = std::fmod(t - start + 2.0 * kStride, kStride);
    const double low = top - hold_drop;
    if (tau < kMove) {
      const double u = tau / kMove;
      const double y = low - kRate * tau + (top - low + kRate * kMove) * SmoothStep01(u);
      const double grip = 1.0 - SmoothStep01(tau / (0.18 * kMove)) + SmoothStep01((u - 0.8) / 0.2);
      return LimbState{y, clear * std::sin(kPi * u), grip};
    }
    return LimbState{top - kRate * (tau - kMove), 0.0, 1.0};
  };

  const int pelvis = rig.Index("pelvis"), spine2 = rig.Index("spine_02"),
            neck = rig.Index("neck_01"), head = rig.Index("head");
  return Sample("ladder_climb", kCycle, [=, &rig](double t) {
    Poser p(rig);
    // Hips close to the rungs (0.33 m: within a third of a metre) and raised so that the lower
    // foot's leg is nearly straight; the chest leans back so that the arms hang long from the rungs
    // rather than folding; the head tips forward to look at the ladder.
    p.Translate(pelvis, dvec3(0.0, 0.065, 0.03));
    p.TurnModel(pelvis, kX, -Radians(6.0));
    p.TurnLocal(spine2, kX, Radians(2.0));
    p.TurnLocal(neck, kX, Radians(4.0));
    p.TurnLocal(head, kX, Radians(6.0));
    p.TurnModel(pelvis, kY, Radians(3.0) * std::sin(2.0 * kPi * t / kStride));

    for (const Side& side : rig.sides) {
      // Left hand moves with the right foot, then the right hand with the left foot.
      const double hand_start = side.sign > 0 ? 0.0 : 0.5 * kStride;
      const double foot_start = side.sign > 0 ? 0.5 * kStride : 0.0;
      // The two sides start half a stride apart, so their rungs are half a rung apart at the
      // same phase: each side's tops sit a quarter rung above or below the middle (a hand
      // five rungs above the foot that moves with it).
      const double offset = 0.25 * kRate * kStride * side.sign;
      const double hand_top = 1.85 - offset;
      const LimbState hand = limb(t, hand_start, hand_top, 0.10);
      const LimbState foot = limb(t, foot_start, 0.35 + offset, 0.12);

      // Arm: the shoulder rises as the hand reaches up.
      p.TurnLocal(side.clavicle, kX,
                  Radians(10.0) * SmoothStep01((hand.y - (hand_top - hold_drop)) / hold_drop));
      std::vector<Rigid> model = p.Model();
      const dvec3 shoulder = model[side.upperarm].translation;
      const double l1 = glm::length(rig.Position(side.lowerarm) - rig.Position(side.upperarm));
      const double l2 = glm::length(rig.Position(side.hand) - rig.Position(side.lowerarm));
      // Grip: fingers up and a little forward, palm on the rung.
      const dvec3 along = glm::normalize(dvec3(0.0, 1.0, 0.2));
      const dvec3 palm = glm::normalize(kZ - glm::dot(kZ, along) * along);
      const dquat grip_ms = FrameAlongSide(along, glm::cross(along, palm));
      const dvec3 rung(side.sign * 0.20, hand.y, kRungZ - hand.clearance);
      const dvec3 wrist = rung - 0.06 * along - (0.017 + kRungRadius) * palm;
      const dvec3 elbow = SolveTwoBoneMiddle(shoulder, wrist, l1, l2,
                                             glm::normalize(dvec3(side.sign * 0.3, -1.0, -0.15)));
      const dvec3 bend = glm::normalize(glm::cross(elbow - shoulder, wrist - elbow));
      const dquat upper_ms = FrameAlongSide(elbow - shoulder, bend);
      dquat lower_ms = FrameAlongSide(wrist - elbow, bend);
      // Turning the palm onto the rung is a forearm twist (pronation) away from the hand's
      // rest turn; share it between forearm and wrist so neither skin band collapses.
      const dquat hand_rest = glm::normalize(rig.joints[side.hand].local.rotation);
      const double twist =
          TwistAngle(glm::conjugate(hand_rest) * glm::conjugate(lower_ms) * grip_ms, kY);
      lower_ms = lower_ms * glm::angleAxis(0.5 * twist, kY);
      p.SetModelRotation(side.upperarm, upper_ms);
      p.SetModelRotation(side.lowerarm, lower_ms);
      p.SetModelRotation(side.hand, grip_ms);
      CurlFingers(side, p, 12.0 + 58.0 * hand.grip, 8.0 + 30.0 * hand.grip);

      // Leg: the ball of the foot on its rung, the foot level (toes down while moving).
      model = p.Model();
      const dvec3 hip = model[side.thigh].translation;
      const dvec3 ball = rig.Position(side.ball);
      const dvec3 ankle_from_sole = rig.Position(side.foot) - dvec3(ball.x, 0.0, ball.z);
      const dvec3 contact(ball.x, foot.y + kRungRadius, kRungZ - foot.clearance);
      const dvec3 ankle = contact + ankle_from_sole;
      const double t1 = glm::length(rig.Position(side.calf) - rig.Position(side.thigh));
      const double t2 = glm::length(rig.Position(side.foot) - rig.Position(side.calf));
      const dvec3 knee =
          SolveTwoBoneMiddle(hip, ankle, t1, t2, glm::normalize(dvec3(side.sign * 1.0, 0.2, 1.0)));
      const dvec3 leg_bend = glm::normalize(glm::cross(knee - hip, ankle - knee));
      p.SetModelRotation(side.thigh, FrameAlongSide(knee - hip, leg_bend));
      p.SetModelRotation(side.calf, FrameAlongSide(ankle - knee, leg_bend));
      const double toes_down = Radians(18.0) * foot.clearance / 0.12;
      p.SetModelRotation(side.foot,
                         glm::angleAxis(toes_down, kX) * rig.bind_ms[side.foot].rotation);
    }
    return p.Local();
  });
}

}  // namespace

std::vector<Clip> BuildClips(const Rig& rig) {
  return {Idle(rig), Walk(rig), LadderClimb(rig)};
}

}  // namespace ikpose::character
