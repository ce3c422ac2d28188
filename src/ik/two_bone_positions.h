// The positions step of the two-bone solver: where the knee and the foot go.
//
// What: given hip a, knee b, foot c and target t (all in one space, usually model space),
// finds the final knee b' and foot c' so that the bone lengths |ab| and |bc| are kept and c'
// is as close to t as the chain allows.
// Why: this is the first half of the seed (the blog post, "Finding the New Positions"),
// and the whole of `ikpose solve`. With default options the result is the seed's:
//   - reachable, | |ab|-|bc| | <= |at| <= |ab|+|bc|: c' = t and b' is the point closest to
//     the current knee on the circle where the sphere (a, |ab|) meets the sphere (t, |bc|);
//     by the law of cosines cos(theta) = (|ab|^2 + |at|^2 - |bc|^2) / (2 |ab| |at|), the
//     circle's center is a + |ab| cos(theta) (t-a)/|at| and its radius |ab| sin(theta);
//   - too far: both bones straight toward t;
//   - too close: the longer bone toward t, the other folded back away from it.
// All three cases are one formula here: the foot goes to the reachable distance nearest to
// |at| along the ray a->t, and the knee to the closest point of that distance's circle.
// Options (all off by default) add a pole, hinge limits, softening and a weight.
// Limits: float precision; |a|, |b|, |c|, |t| should be within a few limb lengths of each
// other's scale (positions 1000 limb lengths from the origin lose digits to rounding). Near
// full extension the knee is ill-conditioned (it moves as the square root of the distance to
// the boundary), which is what `soften` is for. The seed replaces the direction by +x when
// |at| < 1e-3 (an absolute length); here a target within 1e-6 limb lengths of the hip is
// invalid input and any other target uses its true direction.
#pragma once

#include <cstdint>
#include <string_view>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "ik/rotation.h"

namespace ikpose::ik {

enum class Reach : std::uint8_t {
  kReachable,  // | |ab|-|bc| | <= |at| <= |ab|+|bc|
  kTooFar,     // |at| > |ab|+|bc|
  kTooClose,   // |at| < | |ab|-|bc| |
};
// "reachable", "too_far", "too_close".
std::string_view ReachName(Reach reach);

// Why a solve cannot run. `Validate` returns the first problem found.
enum class InputError : std::uint8_t {
  kNone,
  kNonFinite,          // a NaN or an infinity in an input or an option
  kZeroLengthUpper,    // |ab| (hip to knee) is zero, or tiny next to the limb
  kZeroLengthLower,    // |bc| (knee to foot) is zero, or tiny next to the limb
  kTargetOnHip,        // |at| within 1e-6 limb lengths: no direction to reach in
  kBadLimits,          // limits not 0 <= min_deg <= max_deg <= 180
  kBadSoften,          // soften outside [0, 1]
  kBadWeight,          // weight outside [0, 1]
  kSingularTransform,  // (job) a zero or near-zero scale, or a singular parent matrix
  kBadRotation,        // (job) a quaternion far from unit length
};
// A short English sentence, e.g. "the target is on the hip".
std::string_view InputErrorMessage(InputError error);
// A stable snake_case name, e.g. "target_on_hip".
std::string_view InputErrorName(InputError error);

// The knee's hinge range as a bend angle: 0 deg is a straight limb, 180 deg fully folded.
// The knee always bends toward the pole (or the current knee), so a bend >= 0 never points
// backward; min_deg > 0 keeps the limb from locking straight.
struct HingeLimits {
  float min_deg = 0.f;
  float max_deg = 180.f;

  bool operator==(const HingeLimits&) const = default;
};

// Options beyond the seed. With every field at its default the seed's algorithm runs.
struct TwoBoneOptions {
  // Pole (hint): the knee bends toward this point, as in Unity, Unreal and Blender. In the
  // same space as the chain (model space for the job). Also decides the straight-chain case.
  bool use_pole = false;
  glm::vec3 pole_ms{0.f};

  // Hinge limits on the knee bend; when they clamp, the foot goes as near to t as they allow.
  bool use_limits = false;
  HingeLimits limits;

  // Soften ratio in [0, 1]: beyond soften * (|ab|+|bc|) the foot's distance from the hip
  // approaches full extension smoothly (exponentially) instead of reaching it and stopping,
  // so the knee does not snap straight. 1 turns it off.
  float soften = 1.f;

  // Blend from the input pose (0) to the solved pose (1), applied to each bone's rotation.
  float weight = 1.f;

  bool operator==(const TwoBoneOptions&) const = default;
};

struct PositionsInput {
  glm::vec3 hip_ms{0.f};     // a
  glm::vec3 knee_ms{0.f};    // b, the current knee
  glm::vec3 foot_ms{0.f};    // c, the current foot
  glm::vec3 target_ms{0.f};  // t
  TwoBoneOptions options;
};

// What the solver decided; cheap to compute.
struct PositionsResult {
  Reach reach = Reach::kReachable;
  glm::vec3 knee_ms{0.f};  // b'
  glm::vec3 foot_ms{0.f};  // c'
  // Minimal rotations in the chain's space: hip_rotation turns (b - a) toward (b' - a);
  // knee_rotation turns hip_rotation * (c - b) toward (c' - b'). With weight < 1 these are
  // the weighted ones and b', c' follow from them.
  glm::quat hip_rotation{1.f, 0.f, 0.f, 0.f};
  glm::quat knee_rotation{1.f, 0.f, 0.f, 0.f};
  bool limit_clamped = false;  // a hinge limit moved the result
  bool softened = false;       // soften pulled the foot short of where it would have gone
};

// The circle of possible knees for the final foot (radius 0 when the limb is straight or
// folded).
struct KneeCircle {
  glm::vec3 center_ms{0.f};
  float radius = 0.f;
  glm::vec3 normal_ms{1.f, 0.f, 0.f};  // unit, from the hip toward the target

  bool operator==(const KneeCircle&) const = default;
};

// Everything the UI panel and `ikpose solve` show. Lengths are in the chain's units.
struct PositionsReport {
  PositionsResult result;
  float length_ab = 0.f;
  float length_bc = 0.f;
  float length_at = 0.f;
  // Signed distance from t to the reachable shell | |ab|-|bc| | <= r <= |ab|+|bc| around a:
  // positive inside (how far t can move before leaving it), negative outside.
  float reach_margin = 0.f;
  KneeCircle circle;
  float cos_theta = 1.f;  // angle at the hip between a->t and a->b' (law of cosines)
  float theta_rad = 0.f;
  float knee_bend_deg = 0.f;      // final bend at the knee: 0 straight, 180 folded
  float knee_displacement = 0.f;  // |b' - b|
  float residual = 0.f;           // |c' - t|
  // The knee reference's (pole, else current knee) distance from the hip-target line over
  // |ab|+|bc|. Near zero the "closest point to the current knee" can jump across the circle.
  float flip_margin = 0.f;
  bool used_pole = false;           // the pole decided the bend direction
  bool used_fallback_side = false;  // pole and knee were on the axis: an arbitrary side
  RotationReport hip_rotation;      // about the hip bone (b - a)
  RotationReport knee_rotation;     // about the rotated lower bone hip_rotation * (c - b)
};

// Checks the input; kNone means SolvePositions will succeed.
InputError ValidatePositions(const PositionsInput& input);

// Runs the positions step. On invalid input returns the error and leaves *result and *report
// untouched. `report` may be null when only the result is wanted.
InputError SolvePositions(const PositionsInput& input, PositionsResult* result,
                          PositionsReport* report = nullptr);

}  // namespace ikpose::ik
