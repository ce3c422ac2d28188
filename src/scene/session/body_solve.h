// Body help: the clavicle, spine and pelvis move so that a limb reaches what its two bones
// cannot, and four held contacts (both hands and both feet) place the pelvis and spine.
//
// What, run on the pose after the clip and the body move and before the limbs are solved:
//   1. Four contacts (every limb placed or holding a rung): the pelvis offset and one spine
//      bend (a rotation spread evenly over the spine bones) are found together by a few damped
//      Gauss-Newton steps that bring every limb near a comfortable fraction of its length
//      (kComfortFraction), keep every limb within reach, keep the predicted knees on the
//      climber's side of the contacts' plane (a ladder's rungs) and the pelvis near a third of
//      a leg from it, and move as little as that allows. On the floor (no such plane: a crawl,
//      a push-up) the pelvis may also tilt about the hip-to-hip line (free as far as the legs
//      slope where the feet are placed far behind: a plank), each thigh (as the
//      limb solve will place it) stays within its hip's range, the hips no lower than
//      sitting on the heels, hands bear weight under their shoulders on arms not folded and
//      no knee goes below the feet; it starts upright and bent a third and two thirds of the way,
//      and keeps the lowest cost, since from upright alone hands on the floor sink the body. With
//      props (BodyObstacles), the pelvis, hips, thighs, predicted knees and the spine up to the
//      shoulders, as balls as thick as their bones, stay out of them: hands on a low box bend
//      the body over it instead of sliding the hips into it; and no arm ends up nearer than it
//      folds (a box's top at the shoulders does not lean the body onto its hands). Each
//      contact counts by how firmly it holds (a clip's limb blending onto a rung counts by its
//      blend), so the pelvis moves smoothly as holds change.
//   2. A foot target beyond reach shifts the pelvis toward it (lower, usually), as little as
//      needed, while every other held foot stays within its leg's reach.
//   3. A hand target beyond reach draws, in order and each only as far as still needed: the
//      clavicle (turned toward the target, within its joint range), the spine (the same turn
//      spread over its bones, each within its joint range), then the pelvis (shifted toward
//      the target while the held feet stay within reach: it drops when the legs must bend).
//      Both hands placed with both feet standing, where this would leave the pelvis, a hip,
//      a thigh or a knee inside a prop (hands on a low box), the frame is solved as 1. instead,
//      the standing feet held as contacts.
// Each limb's "pull body" weight (0..1) scales the help it asks for; 0 asks none.
// The turns are rotations about the bones' own joints and the pelvis moves by translation
// (and, on the floor, a tilt about its joint), so no bone changes length. Feet held by the caller
// (given or pinned) are solved afterwards on their targets, which the pelvis move does not carry.
// Why: a straight arm that stops short of its target, or a climber hanging back from the
// ladder with folded arms, is what a rigid torso gives; people lean, reach and drop their hips.
// Deterministic and closed-form per step (bisection on one fraction, projections onto balls),
// tens of microseconds a frame (about half a millisecond more leaning on a prop: bench_body), so
// every frame of the viewer and `trace` can run it.
// Limits: the clavicle and spine turn within their joint ranges about the rest (Model::ranges),
// so a clip pose already at a limit leaves that bone nothing to give; a parent bone with
// non-uniform scale turns its children's turns slightly. A rig without a pelvis gets no help;
// without clavicles or spine, the stages it lacks are skipped. Two hands pulling opposite ways
// share the spine: the second may leave the first short, and its report then says too far.
#pragma once

#include <array>
#include <functional>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "anim/model.h"

namespace ikpose::scene {

// What counts as comfortable and how much each wish weighs: one table, its values (and why) in
// body_solve.cpp. How far each bone may turn is the joint ranges' table (anim/joint_ranges.h).
struct BodyHelpTable {
  // A limb helped when its target is further than this fraction of its length, and brought
  // to it (the same, so that the help starts continuously as a target moves out).
  float reach_fraction;
  // Four contacts: a natural bend (root to end over the limb's length) per arm and leg.
  float arm_comfort;
  float leg_comfort;
  float leg_fold;           // a leg folded closer than this (root to end over its length) costs
  float plane_distance;     // pelvis from the contacts' plane, in leg lengths
  float knee_clearance;     // knees this far (leg lengths) on the climber's side of it
  float knee_floor;         // knees no lower than this (leg lengths) under the lowest foot
  float hips_floor;         // on the floor: hips no lower than this (leg lengths) above the feet
  float hip_extension_use;  // on the floor: the share of a hip's extension the solve uses
  // On the floor, feet this far behind their hips (leg lengths) start / fully let the pelvis
  // tilt along the legs' slope without cost (a plank).
  float plank_behind_from;
  float plank_behind_full;
  // How much each wish counts against the others (residual weights).
  float arm_weight;
  float leg_weight;
  float reach_weight;  // past 0.985 of a limb's length
  float knee_weight;
  float prop_weight;  // hips, knees, thighs or chest inside a prop, per leg length
  float lean_depth;   // hands on a prop, feet standing: deepest the arms' help may sink the body
  float plane_weight;
  float lateral_weight;  // sideways pelvis shift, per leg length
  float shift_weight;    // any other pelvis shift, per leg length
  float bend_weight;     // spine bend, per the spine's flexion range
  float support_weight;  // on the floor: a hand's distance out from under its shoulder
  // Four contacts: the pelvis may tilt about the hip-to-hip line this far (degrees).
  float tilt_forward_deg;
  float tilt_back_deg;
  float tilt_weight;  // per tilt_forward_deg
};
extern const BodyHelpTable kBodyHelp;

// One limb's goal for the body solve.
struct BodyGoal {
  bool active = false;    // its end is sent to end_ms this frame
  bool contact = false;   // placed by the user or holding a rung
  bool anchored = false;  // a foot that must stay at end_ms when the pelvis moves
  glm::vec3 end_ms{0.f};
  float weight = 1.f;  // how firmly it holds: a clip's limb blending onto a rung counts less
  float pull = 1.f;    // LimbTarget::pull_body
};

// A plane the body stays behind: through `point_ms`, `normal_ms` (unit) toward the climber.
struct ContactPlane {
  bool valid = false;
  glm::vec3 point_ms{0.f};
  glm::vec3 normal_ms{0.f, 0.f, -1.f};
};

// Solids the body keeps out of (the props it leans on): how deep a ball round `center_ms`,
// `radius` thick, goes inside one (0 outside); `limb_radius` is each bone's thickness, indexed by
// its child joint (scene/world/limb_radius.h). No `ball_depth`: nothing to keep out of.
struct BodyObstacles {
  std::function<float(const glm::vec3& center_ms, float radius)> ball_depth;
  std::span<const float> limb_radius;
};

struct BodyHelpReport {
  bool four_contacts = false;  // the four-contact solve placed the pelvis
  glm::vec3 pelvis_offset_ms{0.f};
  float pelvis_tilt_deg = 0.f;  // on the floor, four contacts: forward about the hips, degrees
  struct BoneTurn {
    int bone = -1;
    float deg = 0.f;  // the angle of its turn
  };
  std::vector<BoneTurn> bones;  // clavicles, spine bones and pelvis it turned, skeleton order
  bool moved_pelvis() const { return pelvis_offset_ms != glm::vec3(0.f) || pelvis_tilt_deg != 0.f; }
};

// `pelvis` is the body bone (it is moved by translation); `goals` are indexed by anim::Limb.
// `pose.models_ms` must be up to date; they are kept up to date.
BodyHelpReport SolveBodyHelp(const anim::Model& model, int pelvis,
                             const std::array<BodyGoal, 4>& goals, const ContactPlane& plane,
                             const BodyObstacles& obstacles, anim::Pose& pose);

}  // namespace ikpose::scene
