// Ground contact: feet standing on the floor and on props, and bones that went into a prop.
//
// What: a foot nobody placed whose clip (or rest pose) holds it within kPlantedLift of standing
// on the floor, and a placed foot target within kPlantedLift above a surface or below one, stand
// on the surface under it (higher or lower than the floor), found by a ray cast straight down from
// the hip's height at the ankle: the ankle at the hit plus the rest pose's ankle height along the
// surface's normal, the foot flat as at rest, heading where its pose turns it about the vertical,
// tilted so its sole lies on the surface (at most kMaxSoleTiltDeg: the ankle's range), so that the
// ankle and the first toe joint sit at their rest heights along the normal. When a foot must go
// lower than its leg reaches, the pelvis drops, never to less than kMinPelvisLift of a leg above
// the ground under it. After the solve the heights reached are measured. Penetrations: every bone
// (joint to each child joint), a capsule as thick as the limb (limb_radius.h), is measured against
// the props and the solid ladder; a limb whose skin goes inside a closed surface is listed with
// how deep (a foot standing on a surface touches it: not inside). Why: ozz-animation's foot-IK
// sample and the engines' foot placement do the same per frame; here it is exact, reported, and the
// same on the command line as in the window. A toe over a step's edge: the surface under the toe is
// cast too; one higher than the ankle's surface (by kToeStepOfFoot of the foot) carries the foot,
// flat on it, and a lower one (a toe past the edge) leaves the sole on the ankle's surface, never
// tilted down into the edge; the heel (kHeelBehindOfFoot behind the ankle) is cast the same way,
// so a heel over an edge hangs and a heel over a higher surface lifts the foot onto it. A step up
// that would fold a knee past kMaxKneeFoldDeg raises the pelvis (pelvis_drop negative), never
// stretching the other leg. Limits: the floor is the plane y = floor_y (0, or the rest soles'
// height for a rig far off 0: RigFacts::floor_y). Three rays per foot (ankle, toe, heel): a surface
// between them narrower than the foot is not caught. Inside/outside comes from the triangles'
// winding (counter-clockwise seen from outside): an open or inverted prop is measured by how near
// the skin comes to its surface alone.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "scene/world/surface_bvh.h"

namespace ikpose::scene {

class World;

inline constexpr float kPlantedLift = 0.03f;     // m for a 1.8 m body; scaled by height / 1.8
inline constexpr float kMaxSoleTiltDeg = 30.0f;  // the ankle's range on a slope
inline constexpr float kMinPelvisLift = 0.25f;   // of the leg's length, above the ground
// How far (degrees from straight) a knee folds under a foot stood on a surface; a higher step
// raises the pelvis instead (never so far that the other leg stretches).
inline constexpr float kMaxKneeFoldDeg = 120.0f;
// A surface under the toe this far (of the foot's length) above the ankle's surface is a step
// the toe stands on: the foot stands on it, flat, its heel over the edge.
inline constexpr float kToeStepOfFoot = 0.05f;
// The heel's back is this far (of the ankle-to-toe length, along the ground) behind the ankle,
// on the sole: the point the heel ray looks under.
inline constexpr float kHeelBehindOfFoot = 0.35f;

struct FootContact {
  bool contact = false;    // the foot was put on a surface
  int prop = -1;           // the prop under it; -1 for the floor
  glm::vec3 hit_ms{0.0f};  // where the ray from above the ankle met the surface
  glm::vec3 normal_ms{0.0f, 1.0f, 0.0f};
  float tilt_deg = 0.0f;  // the sole's turn onto the surface
  bool tilt_clamped = false;
  glm::vec3 ankle_target_ms{0.0f};
  glm::quat rotation_ms{1.0f, 0.0f, 0.0f, 0.0f};
  // Measured after the solve, along the normal from the surface; and their rest heights.
  float ankle_height = 0.0f, toe_height = 0.0f;
  float rest_ankle_height = 0.0f, rest_toe_height = 0.0f;
  float height_error = 0.0f;  // the larger of the ankle's and the toe's misses
  // A foot nobody placed that its clip lifts (a step): raised by how far the surface under it
  // is above the floor, so it swings over a stair as it swings over the floor.
  float lifted = 0.0f;
  // Where the ray under the heel met the ground (the heel's sole point when it met nothing), and
  // whether that surface, higher than the ankle's, carries the foot.
  glm::vec3 heel_hit_ms{0.0f};
  bool on_heel_surface = false;

  bool moves() const { return contact || lifted > 0.0f; }
};

struct Penetration {
  int bone = -1;               // the joint the bone starts at
  int child = -1;              // the joint it ends at
  int prop = -1;               // index into the world's props; -1 for the ladder
  float depth = 0.0f;          // how far the limb's skin goes under the surface (model units)
  float radius = 0.0f;         // the limb's thickness (limb_radius.h): a depth over it is the
                               // axis itself inside
  float inside_length = 0.0f;  // how much of the bone's length has its skin inside
  glm::vec3 point_ms{0.0f};    // the point of the bone's axis where the skin goes deepest
};

struct GroundReport {
  bool active = false;               // contact was on this frame
  float pelvis_drop = 0.0f;          // how far the pelvis was lowered (negative: raised)
  bool pelvis_drop_limited = false;  // a foot still could not reach (never through the ground),
                                     // or a knee still folds past kMaxKneeFoldDeg
  std::array<FootContact, 4> feet;   // by anim::Limb; legs only
  std::vector<Penetration> penetrations;
};

// The highest surface under `from_ms` (props of `world`, which may be null, and the floor plane
// when `floor`), within `max_distance` below it.
std::optional<RayHit> GroundBelow(const World* world, bool floor, float floor_y,
                                  const glm::vec3& from_ms, float max_distance, int* prop);

// The turn that lays a sole facing +Y onto a surface of unit normal `normal_ms`, at most
// `max_deg`; *clamped says whether it was held there.
glm::quat SoleTilt(const glm::vec3& normal_ms, float max_deg, float* tilt_deg, bool* clamped);

// How far a hip at `hip_ms` must drop (along -Y) for a leg of `reach` to touch `target_ms`;
// 0 when it already reaches. A target farther sideways than the reach needs the hip at its
// height.
float HipDropToReach(const glm::vec3& hip_ms, const glm::vec3& target_ms, float reach);

// How far a hip at `hip_ms` must rise (along +Y) to be at least `min_distance` from
// `target_ms` (a knee folded no further than kMaxKneeFoldDeg); 0 when it already is.
float HipRiseToFold(const glm::vec3& hip_ms, const glm::vec3& target_ms, float min_distance);

// How far a hip at `hip_ms` may rise (along +Y) with a leg of `reach` still touching
// `target_ms`; 0 when it already cannot.
float HipRiseToReach(const glm::vec3& hip_ms, const glm::vec3& target_ms, float reach);

// The shortest hip-to-ankle distance of a leg of bones `upper` and `lower` whose knee folds at
// most `fold_deg` from straight.
float FoldedLegLength(float upper, float lower, float fold_deg);

// How far a limb round segment a -> b, `radius` thick (a capsule), goes inside the closed
// surfaces of `bvh` (winding: outside is counter-clockwise): its deepest point as a Penetration
// (bone and child left unset), none when the limb stays outside. `prop_of` maps a triangle to
// its prop (may be null: -1).
std::optional<Penetration> SegmentInside(const SurfaceBvh& bvh, const glm::vec3& a_ms,
                                         const glm::vec3& b_ms, float radius, const World* prop_of);

// How deep a ball round `center_ms`, `radius` thick, goes inside the closed props of `world`
// (model units; 0 outside or touching). The ladder is left out: the body keeps behind its rungs'
// plane instead. Why: the body solve keeps the hips, knees and chest out of a box it leans on.
// Free where no prop's box is near; near a surface one nearest-point query (the side of it comes
// from the triangle's winding); a ray cast only for a centre deeper inside than the radius.
float BallInsideProps(const World& world, const glm::vec3& center_ms, float radius);

}  // namespace ikpose::scene
