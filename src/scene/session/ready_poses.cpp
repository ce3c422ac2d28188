#include "scene/session/ready_poses.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ikpose::scene {

namespace {

using anim::Limb;

// The rig's measures at rest, in its own directions.
struct Frame {
  glm::vec3 up{0.0f, 1.0f, 0.0f};
  glm::vec3 forward{0.0f, 0.0f, 1.0f};  // horizontal, the character's facing
  glm::vec3 left{1.0f, 0.0f, 0.0f};     // the character's own left
  std::array<glm::vec3, 4> root_ms{};   // hip or shoulder joint, by anim::Limb
  std::array<glm::vec3, 4> end_ms{};    // hand or foot at rest
  std::array<float, 4> upper{}, lower{};
  float floor_y = 0.0f;  // the ankles' height at rest: feet on the ground stay there
};

// How each pose carries the torso and head (degrees forward about the character's left, a
// negative value back): spread evenly over the spine's bones and the neck and head. The
// values are a posture, well inside the spine's and neck's natural ranges (joint_ranges.h).
struct Carriage {
  float spine_lean_deg;
  float head_nod_deg;
};
Carriage CarriageOf(ReadyPose pose) {
  switch (pose) {
    case ReadyPose::kStand:
      return {0.0f, 0.0f};
    case ReadyPose::kSitOnABox:
      return {8.0f, 0.0f};  // sitting up, leaning a little toward the knees
    case ReadyPose::kKneel:
      return {6.0f, 8.0f};  // looking down at the raised knee
    case ReadyPose::kRun:
      return {12.0f, -10.0f};  // leaning into the run, eyes ahead
    case ReadyPose::kClimbARung:
      return {0.0f, -15.0f};  // looking up the ladder
    case ReadyPose::kReachUp:
      return {-5.0f, -20.0f};  // arching a little, looking at the hands
    case ReadyPose::kCrawl:
      return {0.0f, -30.0f};  // the body solve bends the back; the head looks ahead
    case ReadyPose::kPushUp:
      return {0.0f, -20.0f};
  }
  return {0.0f, 0.0f};
}

// The climb's hands and feet hold rungs, the crawl's are on the floor: the four contacts place
// the pelvis for them, so their limbs keep asking the body's help. (The push-up's plank is
// composed: the four contacts would let its legs sag to the floor.)
bool BodyPlacesIt(ReadyPose pose) {
  return pose == ReadyPose::kClimbARung || pose == ReadyPose::kCrawl;
}

int Index(Limb limb) {
  return static_cast<int>(limb);
}

Frame Measure(const PosingSession& session) {
  Frame f;
  // The whole torso's facing (hips and shoulders together), else the rig's forward.
  const anim::HumanoidMap& body = session.model().humanoid;
  glm::vec3 forward = body.facing_valid ? body.facing_ms : session.model().chains.forward_ms;
  forward.y = 0.0f;
  if (glm::length(forward) > 1e-6f) f.forward = glm::normalize(forward);
  f.left = glm::normalize(glm::cross(f.up, f.forward));
  const anim::Pose& rest = session.rest_pose();
  for (Limb limb : anim::kLimbs) {
    const anim::LimbChain& chain = session.chain(limb);
    if (!session.target(limb).available) continue;
    const int i = Index(limb);
    f.root_ms[i] = anim::PositionMs(rest, chain.upper);
    f.end_ms[i] = anim::PositionMs(rest, chain.end);
    f.upper[i] = chain.upper_length;
    f.lower[i] = chain.lower_length;
  }
  f.floor_y = 0.5f * (f.end_ms[Index(Limb::kLeftLeg)].y + f.end_ms[Index(Limb::kRightLeg)].y);
  return f;
}

bool IsLeft(Limb limb) {
  return limb == Limb::kLeftArm || limb == Limb::kLeftLeg;
}

// Sets a limb's target; one beyond `reach` of the limb's root comes in along the same line, so
// short arms on a long body still touch (a hand on a knee) instead of stretching past it.
void Place(PosingSession& session, Limb limb, glm::vec3 target_ms, const glm::vec3& root_ms,
           float reach) {
  LimbTarget& t = session.target(limb);
  if (!t.available) return;
  const glm::vec3 from_root = target_ms - root_ms;
  const float distance = glm::length(from_root);
  if (distance > reach && distance > 0.0f) target_ms = root_ms + from_root * (reach / distance);
  t.target_ms = target_ms;
  t.given = true;
  t.rung = -1;
}

// Turns `bones` so that together they bend `degrees` about `axis_ms`, each its share, each about
// the model-space axis as it stands at rest (bone turns are local, on top of the start pose).
void Bend(PosingSession& session, const std::vector<int>& bones, const glm::vec3& axis_ms,
          float degrees) {
  if (bones.empty() || degrees == 0.0f) return;
  const float share = glm::radians(degrees) / static_cast<float>(bones.size());
  const anim::Pose& rest = session.rest_pose();
  for (int bone : bones) {
    const auto b = static_cast<std::size_t>(bone);
    if (bone < 0 || b >= session.edits.bone_turns_ls.size()) continue;
    const glm::quat bone_ms = anim::RotationMs(rest, bone);
    const glm::quat turn_ms = glm::angleAxis(share, axis_ms);
    session.edits.bone_turns_ls[b] =
        glm::normalize(session.edits.bone_turns_ls[b] * glm::inverse(bone_ms) * turn_ms * bone_ms);
  }
}

// The torso and head as the pose carries them (the humanoid map's spine, neck and head).
void Carry(PosingSession& session, ReadyPose pose, const glm::vec3& left) {
  const anim::HumanoidMap& body = session.model().humanoid;
  const Carriage carriage = CarriageOf(pose);
  Bend(session, body.spine, left, carriage.spine_lean_deg);
  std::vector<int> neck_and_head;
  if (body.neck >= 0) neck_and_head.push_back(body.neck);
  if (body.head >= 0 && body.head != body.neck) neck_and_head.push_back(body.head);
  // The head's nod is counted from level: the spine's lean is taken back first.
  Bend(session, neck_and_head, left, carriage.head_nod_deg - carriage.spine_lean_deg);
}

// Where a wrist lies with its palm on the floor (grip.h's PalmOnFloor; the ankles' rest height
// for a rig whose hands were not measured).
float PalmWristY(const PosingSession& session, const Frame& f) {
  const HandShape& hand = session.facts()->hands[Index(Limb::kLeftArm)];
  return hand.valid ? session.floor_y() + PalmThickness(hand) : f.floor_y;
}

// The push-up's plank: the body straight from the shoulders to the heels, turned forward about
// the pelvis as one piece (so the straight legs and the rest torso stay as they are), on the
// toes, the arms near straight with the hands on the floor under the shoulders. The turn is the
// one at which the shoulders are an arm's 0.95 above the wrists while the balls of the feet
// (the toe joints, as high as at rest) touch it; the feet turn with the legs (the solve keeps
// the pitch a foot has in the pose it is solved on), so they stand on their toes. It needs both
// arms and a torso that stands up at rest (shoulders above the hips by more than they are in
// front of them); otherwise (a quadruped is on all fours already) it places nothing and
// returns false.
bool Plank(PosingSession& session, const Frame& f) {
  const auto mid = [&](Limb left, Limb right, const std::array<glm::vec3, 4>& p) {
    return 0.5f * (p[Index(left)] + p[Index(right)]);
  };
  const float leg = f.upper[Index(Limb::kLeftLeg)] + f.lower[Index(Limb::kLeftLeg)];
  // Each leg straightened along its hip-to-ankle line at rest (a rig whose rest bends its
  // knees, as CesiumMan's, would plank on bent legs), to 0.98 of its length.
  std::array<glm::vec3, 4> end_ms = f.end_ms;
  for (Limb leg_limb : {Limb::kLeftLeg, Limb::kRightLeg}) {
    const int i = Index(leg_limb);
    const glm::vec3 line = f.end_ms[i] - f.root_ms[i];
    if (glm::length(line) > 0.0f)
      end_ms[i] = f.root_ms[i] + glm::normalize(line) * (0.98f * (f.upper[i] + f.lower[i]));
  }
  const glm::vec3 ankles = mid(Limb::kLeftLeg, Limb::kRightLeg, end_ms);
  if (!session.target(Limb::kLeftArm).available || !session.target(Limb::kRightArm).available)
    return false;
  const float arm = f.upper[Index(Limb::kLeftArm)] + f.lower[Index(Limb::kLeftArm)];
  const glm::vec3 shoulders = mid(Limb::kLeftArm, Limb::kRightArm, f.root_ms);
  const glm::vec3 torso = shoulders - mid(Limb::kLeftLeg, Limb::kRightLeg, f.root_ms);
  if (!(glm::dot(torso, f.up) > glm::length(torso - glm::dot(torso, f.up) * f.up))) return false;
  // The ball of the foot from the ankle at rest (along the facing, and up): the toe joints',
  // at least a foot's usual 0.15 of the leg ahead (some rigs' toe joint is just in front of the
  // ankle; a plank's ankle stood on it would sit within a planted foot's height of the floor,
  // and the ground would lay the foot flat).
  float ball_ahead = 0.15f * leg, ball_up = -0.07f * leg;
  const anim::HumanoidMap& body = session.model().humanoid;
  if (body.toes[0] >= 0 && body.toes[1] >= 0) {
    const glm::vec3 ball = 0.5f * (anim::PositionMs(session.rest_pose(), body.toes[0]) +
                                   anim::PositionMs(session.rest_pose(), body.toes[1]));
    const glm::vec3 rest_ankles = mid(Limb::kLeftLeg, Limb::kRightLeg, f.end_ms);
    ball_ahead = std::max(ball_ahead, glm::dot(ball - rest_ankles, f.forward));
    ball_up = glm::dot(ball - rest_ankles, f.up);
  }
  // The ankles' height above the rest's once the feet turn by `a` with the legs, the balls of
  // the feet kept at their rest height.
  const auto ankle_lift = [&](float a) {
    return ball_ahead * std::sin(a) + ball_up * (1.0f - std::cos(a));
  };
  const float rise = glm::dot(shoulders - ankles, f.up);
  // Heights above the ankles' rest height: the wrists lie a palm's thickness over the floor
  // (the session lays a hand on the floor on its palm, grip.h), the shoulders 0.95 of an arm
  // above them; arms longer than that would hold the body more upright than a plank (the
  // robot's reach the floor from an upright kneel): the shoulders then bend them, at most 0.45
  // of their standing height up.
  const float wrist_y = PalmWristY(session, f);
  const float shoulder_height = wrist_y - f.floor_y + std::min(0.95f * arm, 0.45f * rise);
  // Shoulders above ankles once turned by `a`, less what the plank asks; falls as `a` grows.
  const auto excess = [&](float a) {
    // The higher shoulder (a stance rig's chest is turned: one is further ahead than the other).
    float top = -std::numeric_limits<float>::infinity();
    for (Limb arm_limb : {Limb::kLeftArm, Limb::kRightArm}) {
      const glm::vec3 v = f.root_ms[Index(arm_limb)] - ankles;
      top = std::max(top, glm::dot(v, f.up) * std::cos(a) - glm::dot(v, f.forward) * std::sin(a));
    }
    return top - (shoulder_height - ankle_lift(a));
  };
  float lo = glm::radians(20.0f), hi = glm::radians(88.0f);
  for (int i = 0; i < 40; ++i) {
    const float a = 0.5f * (lo + hi);
    (excess(a) > 0.0f ? lo : hi) = a;
  }
  const float turn_rad = 0.5f * (lo + hi);
  const glm::quat turn_ms = glm::angleAxis(turn_rad, f.left);  // up toward forward
  // The pelvis stays over where it stood; it rises or sinks until the ankles are where the
  // balls of the feet need them.
  session.Evaluate();
  const glm::vec3 pivot = session.BodyPositionMs();
  const auto turned = [&](const glm::vec3& p) { return pivot + turn_ms * (p - pivot); };
  const float sink = f.floor_y + ankle_lift(turn_rad) - turned(ankles).y;
  const glm::vec3 delta = sink * f.up;
  session.MoveBody(delta, turn_ms);
  // The toes bent back up by the feet's turn, flat on the floor under the balls of the feet
  // (within the toes' range).
  std::vector<int> toes;
  for (int toe : body.toes) {
    if (toe >= 0) toes.push_back(toe);
  }
  Bend(session, toes, f.left, -glm::degrees(turn_rad));
  for (Limb leg_limb : {Limb::kLeftLeg, Limb::kRightLeg}) {
    const int i = Index(leg_limb);
    Place(session, leg_limb, turned(end_ms[i]) + delta, turned(f.root_ms[i]) + delta,
          f.upper[i] + f.lower[i]);
  }
  session.Evaluate();
  for (Limb arm_limb : {Limb::kLeftArm, Limb::kRightArm}) {
    const glm::vec3 shoulder = anim::PositionMs(session.pose(), session.chain(arm_limb).upper);
    glm::vec3 hand = shoulder + 0.1f * arm * f.forward;
    hand.y = wrist_y;
    Place(session, arm_limb, hand, shoulder, 0.97f * arm);
  }
  return true;
}

}  // namespace

const char* ReadyPoseName(ReadyPose pose) {
  switch (pose) {
    case ReadyPose::kStand:
      return "stand";
    case ReadyPose::kSitOnABox:
      return "sit on a box";
    case ReadyPose::kKneel:
      return "kneel";
    case ReadyPose::kRun:
      return "run";
    case ReadyPose::kClimbARung:
      return "climb a rung";
    case ReadyPose::kReachUp:
      return "reach up";
    case ReadyPose::kCrawl:
      return "crawl";
    case ReadyPose::kPushUp:
      return "push up";
  }
  return "";
}

bool ParseReadyPose(std::string_view name, ReadyPose* pose) {
  std::string spaced(name);
  for (char& c : spaced) {
    if (c == '-' || c == '_') c = ' ';
  }
  for (ReadyPose p : kReadyPoses) {
    if (spaced == ReadyPoseName(p)) {
      *pose = p;
      return true;
    }
  }
  return false;
}

std::string ReadyPoseChoices() {
  std::string text;
  for (ReadyPose p : kReadyPoses) {
    std::string name = ReadyPoseName(p);
    for (char& c : name) {
      if (c == ' ') c = '-';
    }
    text += (text.empty() ? "" : ", ") + name;
  }
  return text;
}

bool ApplyReadyPose(PosingSession& session, ReadyPose pose, std::string* error) {
  if (!session.target(Limb::kLeftLeg).available || !session.target(Limb::kRightLeg).available ||
      session.body_bone() < 0) {
    *error = std::string("\"") + ReadyPoseName(pose) +
             "\" needs two legs and a pelvis; this rig has no such limbs detected";
    return false;
  }
  const Frame f = Measure(session);
  // From the rest: nothing of the previous pose stays.
  session.ResetBoneTurns();
  session.edits.body = BodyMove{};
  session.edits.ladder_enabled = false;
  session.ResetTargets();
  // Every limb asks the body's help as a new limb does (a previous ready pose set it to 0);
  // the composed poses take it back at the end.
  for (Limb limb : anim::kLimbs) session.target(limb).pull_body = LimbTarget{}.pull_body;
  Carry(session, pose, f.left);
  session.Evaluate();

  // Where a limb's root is once the body moved by `delta` (a shoulder as the torso now carries
  // it), and its outward side.
  const auto root = [&](Limb limb, const glm::vec3& delta) {
    if (IsLeg(limb)) return f.root_ms[Index(limb)] + delta;
    session.Evaluate();
    return anim::PositionMs(session.pose(), session.chain(limb).upper);
  };
  const auto out = [&](Limb limb) { return IsLeft(limb) ? f.left : -f.left; };
  const auto length = [&](Limb limb) { return f.upper[Index(limb)] + f.lower[Index(limb)]; };
  const auto on_floor = [&](glm::vec3 p) {
    p.y = f.floor_y;
    return p;
  };
  // A hand on the floor: its wrist a palm's thickness over it (the session lays it on its palm).
  const auto hand_on_floor = [&, wrist_y = PalmWristY(session, f)](glm::vec3 p) {
    p.y = wrist_y;
    return p;
  };
  const Limb legs[] = {Limb::kLeftLeg, Limb::kRightLeg};
  const Limb arms[] = {Limb::kLeftArm, Limb::kRightArm};
  glm::vec3 delta(0.0f);
  bool body_places = false;  // the push-up on a rig that cannot plank: the four contacts place it
  // The climb's standing foot: on the floor where it stands at rest, stepped up to a fifth of a
  // leg behind the rungs (a foot left at rest would hold the pelvis back with a straight leg).
  // Placed as it is (not brought within reach of the hip at rest): the body comes to it.
  const auto floor_foot = [&] {
    glm::vec3 ankle = f.end_ms[Index(Limb::kLeftLeg)];
    const float to_rungs = glm::dot(session.edits.ladder.base_ms - ankle, f.forward);
    const float keep = 0.2f * length(Limb::kLeftLeg);
    if (to_rungs > keep) ankle += (to_rungs - keep) * f.forward;
    Place(session, Limb::kLeftLeg, ankle, ankle, 0.0f);
  };
  // The hips' middle to the shoulders' middle at rest (a leg when the arms are missing).
  float torso = length(Limb::kLeftLeg);
  if (session.target(Limb::kLeftArm).available && session.target(Limb::kRightArm).available) {
    torso =
        glm::length(0.5f * (f.root_ms[Index(Limb::kLeftArm)] + f.root_ms[Index(Limb::kRightArm)]) -
                    0.5f * (f.root_ms[Index(Limb::kLeftLeg)] + f.root_ms[Index(Limb::kRightLeg)]));
  }
  // Hands and feet on the floor (model units along the facing): placed as they are, not brought
  // within reach of the standing body; the four contacts bring the body to them.
  const auto on_all_fours = [&](float hands_ahead, float feet_back) {
    for (Limb arm : arms) {
      const Limb leg_limb = IsLeft(arm) ? Limb::kLeftLeg : Limb::kRightLeg;
      const glm::vec3 foot = f.end_ms[Index(leg_limb)];
      const glm::vec3 foot_target = foot - feet_back * f.forward;
      Place(session, leg_limb, foot_target, foot_target, 0.0f);
      if (!session.target(arm).available) continue;
      // Beside its shoulder: the shoulder's offset from the foot, across the facing only.
      const glm::vec3 shoulder = f.root_ms[Index(arm)];
      const float across = glm::dot(shoulder - foot, f.left);
      const glm::vec3 hand = hand_on_floor(foot + across * f.left + hands_ahead * f.forward);
      Place(session, arm, hand, hand, 0.0f);
    }
  };
  // Every target within 97% of its limb's length from its root (after the body moved).
  const auto place = [&](Limb limb, const glm::vec3& target_ms) {
    Place(session, limb, target_ms, root(limb, delta), 0.97f * length(limb));
  };

  switch (pose) {
    case ReadyPose::kStand:
      // Feet where they stand at rest, arms relaxed at the sides.
      for (Limb leg : legs) place(leg, f.end_ms[Index(leg)]);
      for (Limb arm : arms) {
        place(arm, root(arm, delta) +
                       length(arm) * (-0.95f * f.up + 0.12f * out(arm) + 0.1f * f.forward));
      }
      break;
    case ReadyPose::kSitOnABox: {
      // Thighs level: the seat is a shin above the ankles, the feet a thigh ahead of the hips.
      const float thigh = f.upper[Index(Limb::kLeftLeg)], shin = f.lower[Index(Limb::kLeftLeg)];
      delta = f.up * (f.floor_y + 0.97f * shin - f.root_ms[Index(Limb::kLeftLeg)].y);
      session.MoveBody(delta);
      for (Limb leg : legs) {
        place(leg, on_floor(root(leg, delta) + 0.95f * thigh * f.forward));
      }
      for (Limb arm : arms) {  // hands on the thighs, near the knees
        const Limb leg = IsLeft(arm) ? Limb::kLeftLeg : Limb::kRightLeg;
        place(arm, root(leg, delta) + 0.75f * thigh * f.forward + 0.12f * thigh * f.up);
      }
      break;
    }
    case ReadyPose::kKneel: {
      // On the right knee: its hip a thigh above the floor, the knee just ahead of the hip on
      // the floor and the foot a shin behind it; the left foot flat ahead, its knee up; hands
      // resting on the left knee and the right thigh.
      const float thigh = f.upper[Index(Limb::kRightLeg)], shin = f.lower[Index(Limb::kRightLeg)];
      delta = f.up * (f.floor_y + 0.9f * thigh - f.root_ms[Index(Limb::kRightLeg)].y);
      session.MoveBody(delta);
      const glm::vec3 knee = on_floor(root(Limb::kRightLeg, delta) + 0.3f * thigh * f.forward);
      place(Limb::kRightLeg, knee - 0.97f * shin * f.forward);
      place(Limb::kLeftLeg, on_floor(root(Limb::kLeftLeg, delta) + 0.8f * thigh * f.forward));
      place(Limb::kLeftArm,
            root(Limb::kLeftLeg, delta) + 0.75f * thigh * f.forward + 0.45f * thigh * f.up);
      place(Limb::kRightArm,
            root(Limb::kRightLeg, delta) + 0.45f * thigh * f.forward + 0.1f * thigh * f.up);
      break;
    }
    case ReadyPose::kRun: {
      // Mid stride: the left foot reaching forward, the right pushing off behind, the arms
      // swinging against the legs, elbows bent.
      const float leg = length(Limb::kLeftLeg);
      delta = -0.06f * leg * f.up;
      session.MoveBody(delta);
      place(Limb::kLeftLeg, root(Limb::kLeftLeg, delta) + leg * (0.4f * f.forward - 0.85f * f.up));
      place(Limb::kRightLeg,
            root(Limb::kRightLeg, delta) + leg * (-0.45f * f.forward - 0.75f * f.up));
      place(Limb::kLeftArm,
            root(Limb::kLeftArm, delta) +
                length(Limb::kLeftArm) * (-0.35f * f.forward - 0.65f * f.up + 0.1f * f.left));
      place(Limb::kRightArm,
            root(Limb::kRightArm, delta) +
                length(Limb::kRightArm) * (0.55f * f.forward - 0.35f * f.up - 0.1f * f.left));
      break;
    }
    case ReadyPose::kClimbARung:
      // The first step onto a ladder in front: the right foot on the lowest rung, the left on
      // the floor, hands on the rungs a forearm above the shoulders; the session's own snap
      // onto the nearest rungs and the body where a climber's is. (Both feet on rungs with the
      // hands as high put a straight leg under a pelvis held back by the raised knee.)
      for (Limb arm : arms)
        place(arm, root(arm, delta) + length(arm) * (0.6f * f.up + 0.4f * f.forward));
      place(Limb::kRightLeg, root(Limb::kRightLeg, delta) +
                                 length(Limb::kRightLeg) * (0.3f * f.forward - 0.75f * f.up));
      session.Evaluate();
      session.edits.ladder_enabled = true;
      session.SnapToRungs();
      floor_foot();
      session.FitBodyToLadder();
      // The fit moved the shoulders: the hands take the rungs nearest to where they now reach.
      session.Evaluate();
      for (Limb arm : arms) {
        if (!session.target(arm).available) continue;
        const glm::vec3 shoulder = anim::PositionMs(session.pose(), session.chain(arm).upper);
        Place(session, arm, shoulder + length(arm) * (0.35f * f.up + 0.35f * f.forward), shoulder,
              0.97f * length(arm));
      }
      session.SnapToRungs();
      floor_foot();
      break;
    case ReadyPose::kReachUp:
      // On the toes' side of standing: feet at rest, both hands straight up, a little forward.
      for (Limb leg : legs) place(leg, f.end_ms[Index(leg)]);
      for (Limb arm : arms) {
        place(arm, root(arm, delta) +
                       length(arm) * (0.96f * f.up + 0.15f * f.forward + 0.05f * out(arm)));
      }
      break;
    case ReadyPose::kCrawl:
      // On hands and knees: the feet where they stand, the hands on the floor a shin and a
      // torso in front of them (knees a shin ahead of the feet, the back about level), each
      // beside its shoulder; the four contacts bend the body down to them.
      on_all_fours(f.lower[Index(Limb::kLeftLeg)] + torso, 0.0f);
      break;
    case ReadyPose::kPushUp:
      // Else as the crawl, the feet further back: the four contacts place the body.
      if (!Plank(session, f)) {
        on_all_fours(0.35f * (length(Limb::kLeftLeg) + torso),
                     0.55f * (length(Limb::kLeftLeg) + torso));
        body_places = true;
      }
      break;
  }
  // A ready pose is composed whole, torso included, with every target within reach: the body's
  // help would only rearrange it (four placed limbs would move the pelvis and bend the spine to
  // ease them). Its limbs ask none (shown as "pull body 0"; raise it to let a limb pull); the
  // climb's hands and feet hold rungs, and the crawl's and push-up's are on the floor: there the
  // four contacts place the pelvis.
  if (!BodyPlacesIt(pose) && !body_places) {
    for (Limb limb : anim::kLimbs) session.target(limb).pull_body = 0.0f;
  }
  session.Evaluate();
  return true;
}

}  // namespace ikpose::scene
