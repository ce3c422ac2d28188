#include "scene/session/body_solve.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "anim/knee_policy.h"
#include "ik/rotation.h"

namespace ikpose::scene {

// How far each bone may turn is its joint range (anim/joint_ranges.h), from its rest.
const BodyHelpTable kBodyHelp = {
    .reach_fraction = 0.999f,
    // 0.92: an elbow open to about 135 deg ("arms long" on a ladder); 0.85: a knee bent
    // about 60 deg.
    .arm_comfort = 0.92f,
    .leg_comfort = 0.85f,
    // 0.5: a knee bent about 120 deg (a deep squat); the hips go no lower unless nothing else
    // can bring the hands down.
    .leg_fold = 0.5f,
    .plane_distance = 0.25f,
    .knee_clearance = 0.04f,
    // A kneeling knee is about as high as the ankle; a twentieth of a leg lower is the floor.
    .knee_floor = 0.05f,
    // Hips sitting on the heels are about a third of a leg above the ankles; lower, a body
    // with its hands far ahead lies on the floor, torso upright, rather than crawling.
    .hips_floor = 0.3f,
    // Half the hip's extension: legs swung back to its limit leave a crawl or a push-up lying
    // on its thighs instead of bending at the hips.
    .hip_extension_use = 0.5f,
    // Feet placed more than 0.8 of a leg behind their hips start to lay the body along the legs
    // (a push-up's plank); from 1.2 legs back the pelvis tilts as far as the legs slope for
    // free. Nearer, as in a crawl, every degree of tilt is a bend at the hips.
    .plank_behind_from = 0.8f,
    .plank_behind_full = 1.2f,
    .arm_weight = 2.f,
    .leg_weight = 1.f,
    .reach_weight = 10.f,
    .knee_weight = 100.f,
    // As firm as the knees behind the rungs: a body leaning on a box bends over it, never
    // into it.
    .prop_weight = 100.f,
    // Hands on a prop, feet standing: the arms' help that leaves the hips or knees deeper in it
    // than this (leg lengths) gives way to the four-contact solve.
    .lean_depth = 0.025f,
    .plane_weight = 8.f,
    .lateral_weight = 4.f,
    .shift_weight = 0.3f,
    .bend_weight = 0.8f,
    // Bending at the hips, as far as hands on the floor in front of the feet ask (a standing
    // body touches the floor with about 90 deg at the hips); leaning back little. It costs
    // more than the spine's bend, so a climber stays upright and only a reach that the spine
    // cannot make tilts the pelvis.
    .support_weight = 1.f,
    .tilt_forward_deg = 90.f,
    .tilt_back_deg = 20.f,
    .tilt_weight = 1.5f,
};

namespace {

using anim::Limb;

constexpr int kMaxSpine = 8;  // spine bones turned (the ones nearest the chest beyond that)
constexpr int kBisections = 24;
constexpr int kProjections = 32;
constexpr int kGaussNewtonSteps = 16;
constexpr int kTiltStarts = 3;  // four contacts: from 0, a third and two thirds tilted forward

bool IsArm(Limb limb) {
  return limb == Limb::kLeftArm || limb == Limb::kRightArm;
}

// Turns `bone` by `turn_ms` about its own joint; its descendants follow.
void TurnBoneMs(const anim::Skeleton& skeleton, int bone, const glm::quat& turn_ms,
                anim::Pose& pose) {
  const auto b = static_cast<std::size_t>(bone);
  const glm::quat parent = anim::RotationMs(pose, skeleton.parents[b]);
  pose.locals_ls[b].rotation =
      glm::normalize(glm::inverse(parent) * turn_ms * parent * pose.locals_ls[b].rotation);
  anim::UpdateSubtree(skeleton, bone, pose);
}

// The model-space turn about `bone`'s joint that `turn_ms` becomes when the bone's new local
// rotation is held to its range (anim/joint_ranges.h); `parent_ms` is its parent's model
// rotation as it will be, `local_ls` its local rotation now. The identity for a bone without a
// range (the help turns only bones that have one).
glm::quat WithinRange(const anim::Model& model, int bone, const glm::quat& parent_ms,
                      const glm::quat& local_ls, const glm::quat& turn_ms) {
  const anim::BoneRange* range = model.ranges.Find(bone);
  if (!range) return glm::quat(1.f, 0.f, 0.f, 0.f);
  const glm::quat wanted_ls =
      glm::normalize(glm::inverse(parent_ms) * turn_ms * parent_ms * local_ls);
  const anim::RangeClamp c = anim::ClampToRange(*range, wanted_ls);
  if (!c.at_limit()) return turn_ms;
  return glm::normalize(parent_ms * c.rotation_ls * glm::inverse(local_ls) *
                        glm::inverse(parent_ms));
}

// The spine as points: a turn spread over its bones, each within its range.
struct Spine {
  const anim::Model* model = nullptr;
  int count = 0;
  std::array<int, kMaxSpine> bones{};
  std::array<glm::vec3, kMaxSpine> joints{};      // model space, as the pose has them now
  std::array<glm::quat, kMaxSpine> locals_ls{};   // each bone's local rotation now
  std::array<glm::quat, kMaxSpine> parents_ms{};  // its parent's model rotation now

  void Measure(const anim::Model& m, const anim::Pose& pose) {
    model = &m;
    const anim::HumanoidMap& map = m.humanoid;
    const int n = static_cast<int>(map.spine.size());
    count = std::min(n, kMaxSpine);
    for (int i = 0; i < count; ++i) {
      bones[i] = map.spine[static_cast<std::size_t>(n - count + i)];
      const auto b = static_cast<std::size_t>(bones[i]);
      joints[i] = anim::PositionMs(pose, bones[i]);
      locals_ls[i] = pose.locals_ls[b].rotation;
      parents_ms[i] = anim::RotationMs(pose, m.skeleton.parents[b]);
    }
  }

  // Per-bone turns (model space, each about its own joint, root first) for a total turn
  // `rotvec_ms` (axis times angle) split evenly, each bone's held to its range.
  std::array<glm::quat, kMaxSpine> Split(const glm::vec3& rotvec_ms) const {
    std::array<glm::quat, kMaxSpine> turns;
    turns.fill(glm::quat(1.f, 0.f, 0.f, 0.f));
    const float angle = glm::length(rotvec_ms);
    if (count == 0 || angle < 1e-7f) return turns;
    const glm::quat each = glm::angleAxis(angle / static_cast<float>(count), rotvec_ms / angle);
    glm::quat above(1.f, 0.f, 0.f, 0.f);  // what the bones below turned the next one's parent by
    for (int i = 0; i < count; ++i) {
      turns[i] = WithinRange(*model, bones[i], above * parents_ms[i], locals_ls[i], each);
      above = turns[i] * above;
    }
    return turns;
  }

  // Where `p` (a point the chest carries) goes under `turns`.
  glm::vec3 Carry(const std::array<glm::quat, kMaxSpine>& turns, glm::vec3 p) const {
    std::array<glm::vec3, kMaxSpine> j = joints;
    for (int i = 0; i < count; ++i) {
      for (int k = i + 1; k < count; ++k) j[k] = j[i] + turns[i] * (j[k] - j[i]);
      p = j[i] + turns[i] * (p - j[i]);
    }
    return p;
  }

  // Where its joints go under `turns` (each carried by the bones below it).
  std::array<glm::vec3, kMaxSpine> CarryJoints(
      const std::array<glm::quat, kMaxSpine>& turns) const {
    std::array<glm::vec3, kMaxSpine> j = joints;
    for (int i = 0; i < count; ++i)
      for (int k = i + 1; k < count; ++k) j[k] = j[i] + turns[i] * (j[k] - j[i]);
    return j;
  }

  // Applies `turns` to the pose and measures it again.
  void Apply(const std::array<glm::quat, kMaxSpine>& turns, anim::Pose& pose) {
    for (int i = 0; i < count; ++i) {
      if (turns[i] == glm::quat(1.f, 0.f, 0.f, 0.f)) continue;
      TurnBoneMs(model->skeleton, bones[i], turns[i], pose);
    }
    Measure(*model, pose);
  }
};

// The smallest s in [0, 1] for which `ok(s)` holds (ok is taken to be monotone), else 1.
template <typename Ok>
float SmallestFraction(Ok ok) {
  if (!ok(1.f)) return 1.f;
  float lo = 0.f, hi = 1.f;
  for (int i = 0; i < kBisections; ++i) {
    const float mid = 0.5f * (lo + hi);
    (ok(mid) ? hi : lo) = mid;
  }
  return hi;
}

struct Ball {
  glm::vec3 center{0.f};
  float radius = 0.f;
};

// A point near the origin inside every ball: alternating projections from the origin, the
// last balls projected last (the held feet win over the reaching limb when they disagree).
glm::vec3 PointInBalls(const std::vector<Ball>& balls) {
  glm::vec3 o(0.f);
  for (int pass = 0; pass < kProjections; ++pass) {
    bool inside = true;
    for (const Ball& b : balls) {
      const glm::vec3 d = o - b.center;
      const float len = glm::length(d);
      if (len > b.radius * 1.0001f) {
        o = b.center + d * (b.radius / len);
        inside = false;
      }
    }
    if (inside) break;
  }
  return o;
}

// Damped Gauss-Newton from `x` on `residuals` (forward differences of `step`), each step's
// parameters held where `bound` puts them; the cost it ends at.
template <typename ResidualsFn, typename BoundFn, std::size_t N>
float GaussNewton(const ResidualsFn& residuals, const BoundFn& bound,
                  const std::array<float, N>& step, std::array<float, N>& x) {
  using Params = std::array<float, N>;
  constexpr int kParams = static_cast<int>(N);
  const auto cost = [](const auto& r) {
    float c = 0.f;
    for (float v : r) c += v * v;
    return c;
  };
  auto r = residuals(x);
  using Residuals = decltype(r);
  constexpr int kResiduals = static_cast<int>(std::tuple_size_v<Residuals>);
  float c = cost(r);
  float damping = 1e-3f;
  for (int it = 0; it < kGaussNewtonSteps; ++it) {
    std::array<Residuals, kParams> jac{};
    for (int p = 0; p < kParams; ++p) {
      Params xp = x;
      xp[static_cast<std::size_t>(p)] += step[static_cast<std::size_t>(p)];
      const Residuals rp = residuals(xp);
      for (int i = 0; i < kResiduals; ++i)
        jac[p][i] = (rp[i] - r[i]) / step[static_cast<std::size_t>(p)];
    }
    // (J^T J + damping diag) dx = -J^T r, by Gaussian elimination with partial pivoting.
    float a[kParams][kParams + 1];
    for (int p = 0; p < kParams; ++p) {
      for (int q = 0; q < kParams; ++q) {
        float s = 0.f;
        for (int i = 0; i < kResiduals; ++i) s += jac[p][i] * jac[q][i];
        a[p][q] = s;
      }
      float g = 0.f;
      for (int i = 0; i < kResiduals; ++i) g += jac[p][i] * r[i];
      a[p][kParams] = -g;
    }
    bool improved = false;
    for (int attempt = 0; attempt < 10 && !improved; ++attempt) {
      float m[kParams][kParams + 1];
      for (int p = 0; p < kParams; ++p) {
        for (int q = 0; q <= kParams; ++q) m[p][q] = a[p][q];
        m[p][p] += damping * (1.f + a[p][p]);
      }
      Params dx{};
      bool singular = false;
      for (int col = 0; col < kParams && !singular; ++col) {
        int best = col;
        for (int row = col + 1; row < kParams; ++row)
          if (std::abs(m[row][col]) > std::abs(m[best][col])) best = row;
        if (std::abs(m[best][col]) < 1e-12f) {
          singular = true;
          break;
        }
        for (int q = 0; q <= kParams; ++q) std::swap(m[col][q], m[best][q]);
        for (int row = col + 1; row < kParams; ++row) {
          const float f = m[row][col] / m[col][col];
          for (int q = col; q <= kParams; ++q) m[row][q] -= f * m[col][q];
        }
      }
      if (singular) break;
      for (int row = kParams - 1; row >= 0; --row) {
        float s = m[row][kParams];
        for (int q = row + 1; q < kParams; ++q) s -= m[row][q] * dx[static_cast<std::size_t>(q)];
        dx[static_cast<std::size_t>(row)] = s / m[row][row];
      }
      Params xn = x;
      for (int p = 0; p < kParams; ++p)
        xn[static_cast<std::size_t>(p)] += dx[static_cast<std::size_t>(p)];
      bound(xn);
      const Residuals rn = residuals(xn);
      const float cn = cost(rn);
      if (std::isfinite(cn) && cn < c) {
        x = xn;
        r = rn;
        c = cn;
        damping = std::max(1e-6f, damping * 0.3f);
        improved = true;
      } else {
        damping *= 4.f;
      }
    }
    if (!improved) break;
  }
  return c;
}

float LimbLength(const anim::LimbChain& chain) {
  return chain.upper_length + chain.lower_length;
}

class BodySolver {
 public:
  BodySolver(const anim::Model& model, int pelvis, const std::array<BodyGoal, 4>& goals,
             const ContactPlane& plane, const BodyObstacles& obstacles, anim::Pose& pose)
      : model_(model),
        map_(model.humanoid),
        pelvis_(pelvis),
        goals_(goals),
        plane_(plane),
        obstacles_(obstacles),
        pose_(pose) {
    spine_.Measure(model_, pose_);
    before_ = pose_.locals_ls;
  }

  BodyHelpReport Run() {
    bool four = true;
    for (Limb limb : anim::kLimbs) four = four && goal(limb).contact && chain(limb).valid();
    // A hand or both placed and both feet standing, with props: the hands may lean on one.
    const bool leaning = !four && LeaningOnProps();
    HelpLimbs(four);
    if (leaning && BodyInProps()) {
      // The arms' help sank the body into the prop (a pelvis shifted down toward a low box
      // bends the standing knees into it): solve it as four contacts instead, the feet held
      // where they stand, which bends the body over the prop. A free hand holds nothing: it
      // counts for nothing there (its weight 0) and hangs as the pose has it.
      pose_.locals_ls = before_;  // the pose as it came
      anim::UpdateModels(model_.skeleton, pose_);
      spine_.Measure(model_, pose_);
      report_ = BodyHelpReport{};
      for (Limb limb : anim::kLimbs) {
        BodyGoal& g = goals_[static_cast<std::size_t>(limb)];
        if (IsArm(limb) && !g.contact) {
          g.weight = 0.f;
          g.end_ms = anim::EndPositionMs(chain(limb), pose_);
        }
        g.contact = true;
      }
      HelpLimbs(true);
    }
    Report();
    return report_;
  }

 private:
  const BodyGoal& goal(Limb limb) const { return goals_[static_cast<std::size_t>(limb)]; }

  void HelpLimbs(bool four) {
    if (four) {
      report_.four_contacts = true;
      FourContacts();
    }
    for (Limb limb : {Limb::kLeftLeg, Limb::kRightLeg}) HelpLeg(limb);
    for (Limb limb : {Limb::kLeftArm, Limb::kRightArm}) HelpArm(limb);
    // Once more at full pull: the second hand's spine turn may carry the first hand's shoulder
    // away (a partial pull asks once, so that its share stays what it says).
    for (Limb limb : {Limb::kLeftArm, Limb::kRightArm}) {
      if (goal(limb).pull >= 1.f) HelpArm(limb);
    }
  }

  // Props to keep out of, one hand or both placed (contacts; the other free), both feet
  // standing where they are.
  bool LeaningOnProps() const {
    if (!obstacles_.ball_depth) return false;
    int hands = 0;
    for (Limb limb : {Limb::kLeftArm, Limb::kRightArm}) {
      if (!chain(limb).valid()) return false;
      const bool placed = goal(limb).contact && Needs(limb);
      if (!placed && goal(limb).active) return false;  // a hand on its way somewhere else
      hands += placed ? 1 : 0;
    }
    for (Limb limb : {Limb::kLeftLeg, Limb::kRightLeg})
      if (!goal(limb).anchored || goal(limb).active || !chain(limb).valid()) return false;
    return hands > 0;
  }

  // Whether the pelvis, a thigh (hip to knee, by quarters) or a knee (where the standing legs
  // will put it) is inside a prop by more than lean_depth of a leg.
  bool BodyInProps() const {
    const PelvisMove stay;
    const glm::vec3 pelvis = anim::PositionMs(pose_, pelvis_);
    for (Limb limb : {Limb::kLeftLeg, Limb::kRightLeg}) {
      const anim::LimbChain& c = chain(limb);
      const float allowed = kBodyHelp.lean_depth * LimbLength(c);
      const glm::vec3 hip = Root(limb);
      const glm::vec3 knee = PredictKnee(limb, stay, goal(limb).end_ms);
      if (obstacles_.ball_depth(pelvis, BoneRadius(c.upper)) > allowed ||
          obstacles_.ball_depth(knee, BoneRadius(c.end)) > allowed)
        return true;
      for (int i = 0; i <= 4; ++i) {  // the thigh from the hip to the knee, by quarters
        const glm::vec3 p = glm::mix(hip, knee, 0.25f * static_cast<float>(i));
        if (obstacles_.ball_depth(p, BoneRadius(c.lower)) > allowed) return true;
      }
    }
    return false;
  }

  const anim::LimbChain& chain(Limb limb) const { return model_.chains[limb]; }
  glm::vec3 Root(Limb limb) const { return anim::PositionMs(pose_, chain(limb).upper); }
  // A bone's thickness by its child joint (0 unknown).
  float BoneRadius(int joint) const {
    const auto j = static_cast<std::size_t>(joint);
    return joint >= 0 && j < obstacles_.limb_radius.size() ? obstacles_.limb_radius[j] : 0.f;
  }
  bool Needs(Limb limb) const {
    const BodyGoal& g = goal(limb);
    return g.active && g.pull > 0.f && g.weight >= 1.f && chain(limb).valid();
  }

  void ShiftPelvis(const glm::vec3& offset_ms) {
    if (offset_ms == glm::vec3(0.f)) return;
    anim::ShiftBoneMs(model_.skeleton, pelvis_, offset_ms, pose_);
    report_.pelvis_offset_ms += offset_ms;
    spine_.Measure(model_, pose_);
  }

  // The held feet as constraints on a pelvis offset: each stays within its leg's reach (or no
  // further than it is now, when it is already out of reach). `except` is left out.
  void AddHeldFeet(std::vector<Ball>& balls, Limb except) const {
    for (Limb limb : {Limb::kLeftLeg, Limb::kRightLeg}) {
      const BodyGoal& g = goal(limb);
      if (limb == except || !g.anchored || !chain(limb).valid()) continue;
      const glm::vec3 to_foot = g.end_ms - Root(limb);
      const float reach = kBodyHelp.reach_fraction * LimbLength(chain(limb));
      balls.push_back({to_foot, std::max(reach, glm::length(to_foot))});
    }
  }

  void HelpLeg(Limb limb) {
    if (!Needs(limb)) return;
    const float reach = kBodyHelp.reach_fraction * LimbLength(chain(limb));
    const glm::vec3 to_goal = goal(limb).end_ms - Root(limb);
    if (glm::length(to_goal) <= reach) return;
    std::vector<Ball> balls{{to_goal, reach}};
    AddHeldFeet(balls, limb);
    ShiftPelvis(goal(limb).pull * PointInBalls(balls));
  }

  void HelpArm(Limb limb) {
    if (!Needs(limb)) return;
    const anim::LimbChain& arm = chain(limb);
    const float reach = kBodyHelp.reach_fraction * LimbLength(arm);
    const glm::vec3 g = goal(limb).end_ms;
    glm::vec3 s = Root(limb);
    if (glm::length(g - s) <= reach) return;
    const auto reaches = [&](const glm::vec3& p) { return glm::length(g - p) <= reach; };
    const float pull = goal(limb).pull;
    const int side = limb == Limb::kLeftArm ? 0 : 1;

    // 1. The clavicle, toward the target, within its range.
    const int clavicle = map_.clavicles[static_cast<std::size_t>(side)];
    glm::quat clavicle_turn(1.f, 0.f, 0.f, 0.f);
    if (clavicle >= 0 && clavicle != map_.chest && model_.ranges.Find(clavicle)) {
      const glm::vec3 c = anim::PositionMs(pose_, clavicle);
      const glm::quat parent =
          anim::RotationMs(pose_, model_.skeleton.parents[static_cast<std::size_t>(clavicle)]);
      const glm::quat local = pose_.locals_ls[static_cast<std::size_t>(clavicle)].rotation;
      const ik::AxisAngle aa = ik::ToAxisAngle(ik::RotationBetween(s - c, g - c));
      const auto turn = [&](float f) {
        return WithinRange(model_, clavicle, parent, local,
                           glm::angleAxis(f * aa.angle_rad, aa.axis));
      };
      const float f = SmallestFraction([&](float x) { return reaches(c + turn(x) * (s - c)); });
      clavicle_turn = turn(f);
      s = c + clavicle_turn * (s - c);
    }
    // 2. The spine: the turn that points its base-to-shoulder line at the target, spread over
    // its bones, as far as needed.
    glm::vec3 spine_turn(0.f);
    if (!reaches(s) && spine_.count > 0) {
      const glm::vec3 base = spine_.joints[0];
      const ik::AxisAngle aa = ik::ToAxisAngle(ik::RotationBetween(s - base, g - base));
      const glm::vec3 full = aa.angle_rad * aa.axis;
      const float f = SmallestFraction(
          [&](float x) { return reaches(spine_.Carry(spine_.Split(x * full), s)); });
      spine_turn = f * full;
      s = spine_.Carry(spine_.Split(spine_turn), s);
    }
    // 3. The pelvis, toward the target, the held feet staying within reach.
    glm::vec3 shift(0.f);
    if (!reaches(s)) {
      std::vector<Ball> balls{{g - s, reach}};
      AddHeldFeet(balls, Limb::kLeftArm);
      shift = PointInBalls(balls);
    }
    // Applied in that order, each scaled by the limb's pull.
    if (clavicle_turn != glm::quat(1.f, 0.f, 0.f, 0.f)) {
      const glm::quat turn = glm::slerp(glm::quat(1.f, 0.f, 0.f, 0.f), clavicle_turn, pull);
      TurnBoneMs(model_.skeleton, clavicle, turn, pose_);
      spine_.Measure(model_, pose_);
    }
    if (spine_turn != glm::vec3(0.f)) spine_.Apply(spine_.Split(pull * spine_turn), pose_);
    ShiftPelvis(pull * shift);
  }

  // The pelvis moved as a whole: turned by `tilt` about its joint `pivot`, then shifted.
  struct PelvisMove {
    glm::vec3 pivot{0.f};
    glm::quat tilt{1.f, 0.f, 0.f, 0.f};
    glm::vec3 shift{0.f};
    glm::vec3 operator()(const glm::vec3& p) const { return pivot + tilt * (p - pivot) + shift; }
  };

  // The knee where the natural policy would put it for the leg's hip carried by `move` (the
  // leg's current knee carried the same way), the end on `end_ms`.
  glm::vec3 PredictKnee(Limb limb, const PelvisMove& move, const glm::vec3& end_ms) const {
    const anim::LimbChain& leg = chain(limb);
    const glm::vec3 hip = move(Root(limb));
    const glm::vec3 knee = move(anim::PositionMs(pose_, leg.lower));
    const glm::vec3 end_now = move(anim::EndPositionMs(leg, pose_));  // as the solve sees it
    const float l1 = leg.upper_length, l2 = leg.lower_length;
    const glm::vec3 axis = end_ms - hip;
    const float d = std::clamp(glm::length(axis), std::abs(l1 - l2) + 1e-5f, l1 + l2 - 1e-5f);
    if (glm::length(axis) < 1e-6f) return knee;
    const glm::vec3 u = glm::normalize(axis);
    glm::vec3 dir(0.f);
    const int parent = model_.skeleton.parents[static_cast<std::size_t>(leg.upper)];
    if (leg.natural.valid) {
      anim::SwivelChoice choice = anim::ChooseSwivel(
          leg.natural, glm::mat3_cast(move.tilt * anim::RotationMs(pose_, parent)), hip, knee,
          end_ms, l1 + l2, 0.f, &end_now);
      if (plane_.valid) {
        anim::KneeClearance clear;
        clear.valid = true;
        clear.point_ms = plane_.point_ms;
        clear.normal_ms = plane_.normal_ms;
        clear.clearance = kBodyHelp.knee_clearance * (l1 + l2);
        const glm::vec3 across = move(Root(Limb::kLeftLeg)) - move(Root(Limb::kRightLeg));
        if (glm::length(across) > 1e-6f) {
          clear.outward_ms = glm::normalize(limb == Limb::kLeftLeg ? across : -across);
          anim::KeepKneeBehind(clear, hip, end_ms, l1, l2, &choice);
        }
      }
      if (choice.valid) dir = choice.knee_dir_ms;
    }
    if (dir == glm::vec3(0.f)) {
      const glm::vec3 off = (knee - hip) - glm::dot(knee - hip, u) * u;
      dir = glm::length(off) > 1e-6f ? glm::normalize(off) : ik::AnyPerpendicular(u);
    }
    const float x = (l1 * l1 - l2 * l2 + d * d) / (2.f * d);
    const float h = std::sqrt(std::max(0.f, l1 * l1 - x * x));
    return hip + x * u + h * dir;
  }

  // How far (radians) the leg's thigh swings past `range` (its hip's, `parent_ms` the thigh's
  // parent's model rotation) with its hip at `hip_ms` and its foot on its goal, the knee bent
  // forward, toward `facing_ms`; only hip_extension_use of the extension counts as free.
  float PastHipRange(Limb limb, const glm::vec3& hip_ms, const glm::quat& parent_ms,
                     const anim::BoneRange& range, const glm::vec3& facing_ms) const {
    const glm::vec3 v = goal(limb).end_ms - hip_ms;
    const float l1 = chain(limb).upper_length, l2 = chain(limb).lower_length;
    const float d = glm::length(v);
    if (!(d > 1e-6f)) return 0.f;
    glm::vec3 thigh_ms = v / d;
    const glm::vec3 ahead = facing_ms - glm::dot(facing_ms, thigh_ms) * thigh_ms;
    if (glm::length(ahead) > 1e-4f) {
      // The cosine of the triangle's angle at the hip (law of cosines).
      const float c = std::clamp((l1 * l1 + d * d - l2 * l2) / (2.f * l1 * d), -1.f, 1.f);
      thigh_ms = c * thigh_ms + std::sqrt(1.f - c * c) * glm::normalize(ahead);
    }
    const glm::vec3 thigh_ps = glm::conjugate(parent_ms) * thigh_ms;
    const float swing = std::acos(std::clamp(glm::dot(thigh_ps, range.axis_ps), -1.f, 1.f));
    const bool back = glm::dot(thigh_ps, range.reference_ps) < 0.f;
    const float limit = glm::radians(anim::SwingLimitDeg(range, thigh_ps)) *
                        (back ? kBodyHelp.hip_extension_use : 1.f);
    return std::max(0.f, swing - limit);
  }

  // True when turning the pelvis carries every limb's root and the spine (the thighs hang
  // from it, as in most rigs; some hang the legs from a bone beside it).
  bool PelvisCarriesTheBody() const {
    for (Limb limb : anim::kLimbs)
      if (!model_.skeleton.IsAncestorOrSelf(pelvis_, chain(limb).upper)) return false;
    for (int i = 0; i < spine_.count; ++i)
      if (!model_.skeleton.IsAncestorOrSelf(pelvis_, spine_.bones[static_cast<std::size_t>(i)]))
        return false;
    return true;
  }

  // Four contacts: pelvis offset, one spine bend and (on the floor) a pelvis tilt by damped
  // Gauss-Newton (see the header).
  void FourContacts() {
    float leg = 0.f;
    for (Limb limb : {Limb::kLeftLeg, Limb::kRightLeg})
      leg = std::max(leg, LimbLength(chain(limb)));
    if (!(leg > 0.f)) return;
    const float spine_range = glm::radians(anim::TableRange(anim::JointPart::kSpine).toward_deg);
    const glm::vec3 pelvis_ms = anim::PositionMs(pose_, pelvis_);
    // Sideways: from one hip to the other.
    const glm::vec3 across = Root(Limb::kLeftLeg) - Root(Limb::kRightLeg);
    const glm::vec3 side_ms =
        glm::length(across) > 1e-6f ? glm::normalize(across) : glm::vec3(1.f, 0.f, 0.f);
    std::array<glm::vec3, 4> roots{};
    for (Limb limb : anim::kLimbs) roots[static_cast<std::size_t>(limb)] = Root(limb);
    // The body's facing and down as the pelvis carries them (its turn from the rest, which
    // the user's body turn may have changed), for the legs' swing at the hips.
    glm::quat pelvis_rest_ms(1.f, 0.f, 0.f, 0.f);
    for (int b = pelvis_; b >= 0; b = model_.skeleton.parents[static_cast<std::size_t>(b)])
      pelvis_rest_ms =
          model_.skeleton.rest_ls[static_cast<std::size_t>(b)].rotation * pelvis_rest_ms;
    const glm::quat body_turn_ms =
        anim::RotationMs(pose_, pelvis_) * glm::inverse(glm::normalize(pelvis_rest_ms));
    const glm::vec3 facing0_ms = body_turn_ms * map_.facing_ms;
    const glm::vec3 down0_ms = body_turn_ms * glm::vec3(0.f, -1.f, 0.f);
    // The pelvis tilts forward (bending at the hips, as hands on the floor ask) or back about
    // the line through its hips, turned to the body's left, when turning it carries the whole
    // body. The hips' line, not the torso's left: a fighting stance's hips face 40 deg from its
    // chest, and tilting them about the torso's left rolled the hips, one knee to the floor.
    const bool on_floor = !plane_.valid;
    const bool can_tilt = on_floor && PelvisCarriesTheBody();
    const glm::vec3 left_ms = glm::cross(facing0_ms, down0_ms);  // up x facing
    glm::vec3 tilt_axis_ms = side_ms;
    if (glm::length(left_ms) > 1e-6f) {
      const glm::vec3 body_left_ms = glm::normalize(left_ms);
      const float along = glm::dot(side_ms, body_left_ms);
      // A hip line far from the body's left (under 0.5: past 60 deg) says little; so does none.
      tilt_axis_ms = std::abs(along) > 0.5f ? (along > 0.f ? side_ms : -side_ms) : body_left_ms;
    }
    const float tilt_forward = glm::radians(kBodyHelp.tilt_forward_deg);
    const float tilt_back = glm::radians(kBodyHelp.tilt_back_deg);
    // x[6] as a tilt: within its range, or none where the pelvis cannot tilt.
    const auto tilt_of = [&](const auto& x) {
      return can_tilt ? std::clamp(x[6], -tilt_back, tilt_forward) : 0.f;
    };
    const auto move_of = [&](const auto& x) {
      return PelvisMove{pelvis_ms, glm::angleAxis(tilt_of(x), tilt_axis_ms),
                        glm::vec3(x[0], x[1], x[2])};
    };

    // Each thigh's range and its parent's model rotation now (the tilt turns it).
    std::array<const anim::BoneRange*, 4> hip_ranges{};
    std::array<glm::quat, 4> hip_parents_ms{};
    for (Limb limb : {Limb::kLeftLeg, Limb::kRightLeg}) {
      const std::size_t i = static_cast<std::size_t>(limb);
      const int thigh = chain(limb).upper;
      hip_ranges[i] = model_.ranges.Find(thigh);
      hip_parents_ms[i] =
          anim::RotationMs(pose_, model_.skeleton.parents[static_cast<std::size_t>(thigh)]);
    }
    // The lowest foot's contact; the knees stay above it less a twentieth of a leg.
    const float feet_y = std::min(goal(Limb::kLeftLeg).end_ms.y, goal(Limb::kRightLeg).end_ms.y);
    const float floor_y = feet_y - kBodyHelp.knee_floor * leg;

    // Each limb's stretch as it stands (root to end over its length), and how far below the
    // hips each hand is, eased over a fifth of a leg: 1 where it can bear weight.
    // And how much each limb's wishes count: how firmly it holds times its pull.
    std::array<float, 4> frac0{}, bearing{}, hold{};
    // The hips no lower than standing for this: feet placed far behind drop the pelvis before
    // this solve (posing_session_ground.cpp), and hands on the floor still bear weight.
    const float hips_y = std::max(0.5f * (roots[static_cast<std::size_t>(Limb::kLeftLeg)].y +
                                          roots[static_cast<std::size_t>(Limb::kRightLeg)].y),
                                  feet_y + leg);
    for (Limb limb : anim::kLimbs) {
      const std::size_t i = static_cast<std::size_t>(limb);
      hold[i] = std::sqrt(std::clamp(goal(limb).weight * goal(limb).pull, 0.f, 1.f));
      frac0[i] = glm::length(goal(limb).end_ms - roots[i]) / LimbLength(chain(limb));
      const float below = std::clamp((hips_y - goal(limb).end_ms.y) / (0.2f * leg), 0.f, 1.f);
      bearing[i] = below * below * (3.f - 2.f * below);
    }

    // How much each foot is placed behind its hip (along the facing, as the body stands):
    // 0 to 1 from plank_behind_from to plank_behind_full leg lengths, eased.
    std::array<float, 4> plank{};
    glm::vec3 ahead_ms(facing0_ms.x, 0.f, facing0_ms.z);
    if (glm::length(ahead_ms) > 1e-6f) {
      ahead_ms = glm::normalize(ahead_ms);
      for (Limb limb : {Limb::kLeftLeg, Limb::kRightLeg}) {
        const std::size_t i = static_cast<std::size_t>(limb);
        const float behind =
            -glm::dot(goal(limb).end_ms - roots[i], ahead_ms) / LimbLength(chain(limb));
        const float e = std::clamp((behind - kBodyHelp.plank_behind_from) /
                                       (kBodyHelp.plank_behind_full - kBodyHelp.plank_behind_from),
                                   0.f, 1.f);
        plank[i] = e * e * (3.f - 2.f * e);
      }
    }
    // How far (of its length) each arm's end is from its root fully folded, and a little room.
    std::array<float, 4> arm_fold{};
    for (Limb limb : {Limb::kLeftArm, Limb::kRightArm}) {
      const anim::LimbChain& c = chain(limb);
      arm_fold[static_cast<std::size_t>(limb)] =
          std::abs(c.upper_length - c.lower_length) / LimbLength(c) + 0.02f;
    }

    constexpr int kParams = 7;
    constexpr int kResiduals = 4 * 3 + 2 + 1 + 1 + 6 + 1 + 2 + 6;
    using Params = std::array<float, kParams>;
    using Residuals = std::array<float, kResiduals>;
    const auto residuals = [&](const Params& x) {
      const PelvisMove move = move_of(x);
      const glm::vec3& shift = move.shift;
      const glm::vec3 bend(x[3], x[4], x[5]);
      const auto turns = spine_.Split(bend);
      Residuals r{};
      int k = 0;
      for (Limb limb : anim::kLimbs) {
        const BodyGoal& g = goal(limb);
        const float w = hold[static_cast<std::size_t>(limb)];
        const glm::vec3 root0 = roots[static_cast<std::size_t>(limb)];
        const glm::vec3 root = move(IsArm(limb) ? spine_.Carry(turns, root0) : root0);
        const float frac = glm::length(g.end_ms - root) / LimbLength(chain(limb));
        const bool arm = IsArm(limb);
        const std::size_t i = static_cast<std::size_t>(limb);
        // A ladder's climber reaches with a natural bend; on the floor a limb is comfortable
        // as it stands (a standing leg straight) and only one stretched further asks the body
        // to come, so four targets at the hands and feet leave the body where it is.
        const float comfort = arm ? kBodyHelp.arm_comfort : kBodyHelp.leg_comfort;
        float over = on_floor ? std::max(0.f, frac - std::max(comfort, frac0[i])) : frac - comfort;
        // An arm bearing weight holds the body up: bent past its comfort, it costs (else a body
        // with its feet far behind lies down on folded arms).
        if (on_floor && arm) over -= bearing[i] * std::max(0.f, comfort - frac);
        r[k++] = w * (arm ? kBodyHelp.arm_weight : kBodyHelp.leg_weight) * over;
        // On the floor, a hand low enough to bear weight (below the hips) wants its shoulder
        // over it, not out in front of it.
        const glm::vec3 off = g.end_ms - root;
        r[k++] = on_floor && arm
                     ? kBodyHelp.support_weight * w * bearing[i] *
                           glm::length(glm::vec2(off.x, off.z)) / LimbLength(chain(limb))
                     : 0.f;
        // Within reach, with room; on the floor, a leg not folded past kBodyHelp.leg_fold, and
        // an arm never closer than it folds (a box's top at the shoulders: the body stays back).
        const float fold = !arm ? (on_floor ? std::max(0.f, kBodyHelp.leg_fold - frac) : 0.f)
                                : std::max(0.f, arm_fold[i] - frac);
        r[k++] = kBodyHelp.reach_weight * w * (std::max(0.f, frac - 0.985f) + fold);
      }
      // On the floor, each thigh within its hip's range as the limb solve will hold it: feet
      // behind an upright pelvis ask the hips to bend, not to sink, and a fold stops short of
      // the hip's flexion. A bent knee puts the thigh ahead of the hip-to-foot line by the
      // triangle's angle at the hip, toward where the feet point (the body's facing, not the
      // tilted pelvis's). Checking the line instead let a fold past the hip's 120 deg, and
      // the limb solve's clamp then left both feet short.
      for (Limb limb : {Limb::kLeftLeg, Limb::kRightLeg}) {
        const std::size_t i = static_cast<std::size_t>(limb);
        r[k++] = on_floor && hip_ranges[i]
                     ? kBodyHelp.reach_weight * hold[i] *
                           PastHipRange(limb, move(roots[i]), move.tilt * hip_parents_ms[i],
                                        *hip_ranges[i], facing0_ms)
                     : 0.f;
      }
      // And the hips no lower than sitting on the heels.
      const float hips_low = feet_y + kBodyHelp.hips_floor * leg -
                             std::min(move(roots[static_cast<std::size_t>(Limb::kLeftLeg)]).y,
                                      move(roots[static_cast<std::size_t>(Limb::kRightLeg)]).y);
      r[k++] = on_floor ? kBodyHelp.reach_weight * std::max(0.f, hips_low) / leg : 0.f;
      // Knees on the climber's side of the rungs, and none below the feet (a knee on the
      // floor is about as low as an ankle).
      for (Limb limb : {Limb::kLeftLeg, Limb::kRightLeg}) {
        const BodyGoal& g = goal(limb);
        float through = 0.f;
        // On the floor a knee can be below it only with the hip less than a thigh above it.
        const bool low =
            on_floor &&
            move(roots[static_cast<std::size_t>(limb)]).y - chain(limb).upper_length < floor_y;
        if (g.weight > 0.f && (plane_.valid || low)) {
          const glm::vec3 knee = PredictKnee(limb, move, g.end_ms);
          if (plane_.valid) {
            const float side = glm::dot(knee - plane_.point_ms, plane_.normal_ms) / leg;
            through = std::max(0.f, kBodyHelp.knee_clearance - side);
          }
          if (low) through += std::max(0.f, floor_y - knee.y) / leg;
        }
        r[k++] = kBodyHelp.knee_weight * through;
      }
      // Out of the props (a box leaned on): each knee, thigh and hip, and the spine's joints up
      // to the shoulders, as balls as thick as their bones.
      if (obstacles_.ball_depth) {
        const auto depth = [&](const glm::vec3& p, int bone) {
          return kBodyHelp.prop_weight * obstacles_.ball_depth(p, BoneRadius(bone)) / leg;
        };
        // The pelvis: its joint, each hip and halfway between.
        const glm::vec3 pelvis = move(pelvis_ms);
        float hips = 0.f;
        for (Limb limb : {Limb::kLeftLeg, Limb::kRightLeg}) {
          const BodyGoal& g = goal(limb);
          const anim::LimbChain& c = chain(limb);
          const glm::vec3 hip = move(roots[static_cast<std::size_t>(limb)]);
          hips = std::max({hips, depth(pelvis, c.upper), depth(0.5f * (pelvis + hip), c.upper)});
          const glm::vec3 knee = g.weight > 0.f ? PredictKnee(limb, move, g.end_ms)
                                                : move(anim::PositionMs(pose_, c.lower));
          r[k++] = std::max(depth(knee, c.lower), depth(knee, c.end));
          r[k++] = depth(0.5f * (hip + knee), c.lower);
          hips = std::max(hips, depth(hip, c.lower));
        }
        // The spine from the pelvis to the shoulders' midpoint, at each joint and halfway to
        // the next, each as thick as the bone leaving it (the last as the one before it).
        float torso = 0.f;
        if (spine_.count > 0) {
          const auto joints = spine_.CarryJoints(turns);
          torso = depth(0.5f * (pelvis + move(joints[0])), spine_.bones[0]);
          const glm::vec3 shoulders =
              spine_.Carry(turns, 0.5f * (roots[static_cast<std::size_t>(Limb::kLeftArm)] +
                                          roots[static_cast<std::size_t>(Limb::kRightArm)]));
          for (int i = 0; i < spine_.count; ++i) {
            const auto j = static_cast<std::size_t>(i);
            const bool last = i + 1 == spine_.count;
            const glm::vec3 next = last ? shoulders : joints[j + 1];
            const int bone = spine_.bones[last ? j : j + 1];
            torso = std::max({torso, depth(move(joints[j]), bone),
                              depth(move(0.5f * (joints[j] + next)), bone)});
            if (last) torso = std::max(torso, depth(move(shoulders), bone));
          }
        }
        r[k++] = hips;
        r[k++] = torso;
      } else {
        k += 6;
      }
      r[k++] = plane_.valid
                   ? kBodyHelp.plane_weight *
                         (glm::dot(pelvis_ms + shift - plane_.point_ms, plane_.normal_ms) / leg -
                          kBodyHelp.plane_distance)
                   : 0.f;
      // As little shift as that allows, sideways least of all; as little bend.
      const float lateral = glm::dot(shift, side_ms);
      r[k++] = kBodyHelp.lateral_weight * lateral / leg;
      r[k++] = kBodyHelp.shift_weight * glm::length(shift - lateral * side_ms) / leg;
      r[k++] = 0.f;
      for (int i = 3; i < 6; ++i)
        r[k++] = kBodyHelp.bend_weight * x[static_cast<std::size_t>(i)] / spine_range;
      // The tilt costs as a bend at the hips: past the legs' own slope (hips to feet, from
      // straight down toward the back) where the feet are placed far behind, so a push-up's
      // body lies along its legs instead of kneeling.
      float leg_slope = 0.f;
      for (Limb limb : {Limb::kLeftLeg, Limb::kRightLeg}) {
        const std::size_t i = static_cast<std::size_t>(limb);
        if (plank[i] == 0.f) continue;
        const glm::vec3 v = goal(limb).end_ms - move(roots[i]);
        leg_slope += 0.5f * plank[i] * std::atan2(-glm::dot(v, facing0_ms), glm::dot(v, down0_ms));
      }
      const float tilt = tilt_of(x);
      r[k++] = kBodyHelp.tilt_weight * (tilt - std::clamp(leg_slope, 0.f, std::max(tilt, 0.f))) /
               tilt_forward;
      return r;
    };
    const std::array<float, kParams> step = {1e-4f * leg, 1e-4f * leg, 1e-4f * leg, 1e-4f,
                                             1e-4f,       1e-4f,       1e-4f};
    // From the body as it stands and, when the pelvis can tilt, from it bent at the hips: hands
    // placed on the floor pull an upright body down onto its knees, which is a nearer minimum
    // than bending over. The lowest cost wins; ties go to the earlier start (the upright one).
    Params best{};
    float best_cost = std::numeric_limits<float>::infinity();
    // Bent starts only where a hand is low enough to bear weight (the rest cost nothing more).
    bool hand_low = false;
    for (Limb limb : {Limb::kLeftArm, Limb::kRightArm})
      hand_low = hand_low || bearing[static_cast<std::size_t>(limb)] > 0.f;
    const int starts = can_tilt && hand_low ? kTiltStarts : 1;
    for (int start = 0; start < starts; ++start) {
      Params x{};
      x[6] = tilt_forward * static_cast<float>(start) / static_cast<float>(kTiltStarts);
      const float c = GaussNewton(
          residuals, [&](Params& p) { p[6] = tilt_of(p); }, step, x);
      if (c < best_cost) {
        best_cost = c;
        best = x;
      }
    }
    const Params& x = best;
    const glm::vec3 bend(x[3], x[4], x[5]);
    spine_.Apply(spine_.Split(bend), pose_);
    const PelvisMove move = move_of(x);
    if (move.tilt != glm::quat(1.f, 0.f, 0.f, 0.f)) {
      report_.pelvis_tilt_deg = glm::degrees(tilt_of(x));
      TurnBoneMs(model_.skeleton, pelvis_, move.tilt, pose_);
      spine_.Measure(model_, pose_);
    }
    ShiftPelvis(move.shift);
  }

  void Report() {
    std::vector<int> bones;
    for (int side = 0; side < 2; ++side) {
      if (map_.clavicles[static_cast<std::size_t>(side)] >= 0)
        bones.push_back(map_.clavicles[static_cast<std::size_t>(side)]);
    }
    bones.insert(bones.end(), map_.spine.begin(), map_.spine.end());
    bones.push_back(pelvis_);
    std::sort(bones.begin(), bones.end());
    bones.erase(std::unique(bones.begin(), bones.end()), bones.end());
    for (int bone : bones) {
      const auto b = static_cast<std::size_t>(bone);
      const glm::quat delta = glm::inverse(before_[b].rotation) * pose_.locals_ls[b].rotation;
      const float deg = glm::degrees(ik::ToAxisAngle(glm::normalize(delta)).angle_rad);
      if (deg > 1e-3f) report_.bones.push_back({bone, deg});
    }
  }

  const anim::Model& model_;
  const anim::HumanoidMap& map_;
  int pelvis_;
  std::array<BodyGoal, 4> goals_;  // a copy: standing feet may become contacts
  const ContactPlane& plane_;
  const BodyObstacles& obstacles_;
  anim::Pose& pose_;
  Spine spine_;
  std::vector<anim::Transform> before_;
  BodyHelpReport report_;
};

}  // namespace

BodyHelpReport SolveBodyHelp(const anim::Model& model, int pelvis,
                             const std::array<BodyGoal, 4>& goals, const ContactPlane& plane,
                             const BodyObstacles& obstacles, anim::Pose& pose) {
  if (pelvis < 0 || pelvis >= model.skeleton.size()) return {};
  bool any = false;
  for (const BodyGoal& g : goals) any = any || (g.active && g.pull > 0.f);
  if (!any) return {};
  return BodySolver(model, pelvis, goals, plane, obstacles, pose).Run();
}

}  // namespace ikpose::scene
