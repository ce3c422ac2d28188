// The C interface (<ikpose/ikpose.h>): plain arrays in, the same solver calls the ikpose program
// makes, plain arrays out. `ikpose solve` runs ik::SolvePositions on the line's points and
// options; `ikpose pose` turns the natural policy into a pole (apply_ik.cpp); so do these.
#include "ikpose/ikpose.h"

#include <cmath>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "anim/knee_policy.h"
#include "ik/two_bone_positions.h"

namespace {

using ikpose::ik::InputError;

// The solver's own bound on magnitudes (two_bone_positions.cpp): beyond it squares overflow.
constexpr float kHuge = 1e18f;

bool Usable(float x) {
  return std::abs(x) < kHuge;
}  // false for NaN and infinities too

bool Usable3(const float* p) {
  return Usable(p[0]) && Usable(p[1]) && Usable(p[2]);
}

glm::vec3 Load3(const float* p) {
  return {p[0], p[1], p[2]};
}

void Store3(const glm::vec3& v, float* p) {
  p[0] = v.x;
  p[1] = v.y;
  p[2] = v.z;
}

void StoreQuat(const glm::quat& q, float* p) {
  p[0] = q.x;
  p[1] = q.y;
  p[2] = q.z;
  p[3] = q.w;
}

int Code(InputError error) {
  switch (error) {
    case InputError::kNone:
      return IKPOSE_OK;
    case InputError::kZeroLengthUpper:
      return IKPOSE_ERROR_ZERO_LENGTH_UPPER;
    case InputError::kZeroLengthLower:
      return IKPOSE_ERROR_ZERO_LENGTH_LOWER;
    case InputError::kTargetOnHip:
      return IKPOSE_ERROR_TARGET_ON_HIP;
    default:
      // kNonFinite; the option errors cannot happen with the options set here.
      return IKPOSE_ERROR_NON_FINITE;
  }
}

// A rotation argument: NULL is the identity; a finite quaternion of non-negligible length is
// normalised (a stored rotation drifts off unit length), anything else is refused.
int LoadRotation(const float* xyzw, glm::mat3* rotation) {
  if (xyzw == nullptr) {
    *rotation = glm::mat3(1.f);
    return IKPOSE_OK;
  }
  for (int i = 0; i < 4; ++i) {
    if (!std::isfinite(xyzw[i])) return IKPOSE_ERROR_NON_FINITE;
  }
  const glm::quat q(xyzw[3], xyzw[0], xyzw[1], xyzw[2]);  // glm takes w first
  const float length = glm::length(q);
  if (!(length > 1e-6f) || !std::isfinite(length)) return IKPOSE_ERROR_BAD_ROTATION;
  *rotation = glm::mat3_cast(q / length);
  return IKPOSE_OK;
}

bool UnitVector(const float* v) {
  return Usable3(v) && std::abs(glm::length(Load3(v)) - 1.f) < 1e-3f;
}

ikpose::ik::PositionsInput Chain(const float* a, const float* b, const float* c, const float* t) {
  ikpose::ik::PositionsInput in;
  in.hip_ms = Load3(a);
  in.knee_ms = Load3(b);
  in.foot_ms = Load3(c);
  in.target_ms = Load3(t);
  return in;
}

// Solves and writes the outputs only on success (they may alias the inputs, read above).
int Solve(const ikpose::ik::PositionsInput& in, float* b_out, float* c_out, float* rotations_out) {
  ikpose::ik::PositionsResult result;
  const InputError error = ikpose::ik::SolvePositions(in, &result);
  if (error != InputError::kNone) return Code(error);
  Store3(result.knee_ms, b_out);
  Store3(result.foot_ms, c_out);
  if (rotations_out != nullptr) {
    StoreQuat(result.hip_rotation, rotations_out);
    StoreQuat(result.knee_rotation, rotations_out + 4);
  }
  return IKPOSE_OK;
}

}  // namespace

extern "C" {

long ikpose_version(void) {
  return IKPOSE_VERSION_NUMBER;
}

const char* ikpose_error_message(int code) {
  switch (code) {
    case IKPOSE_OK:
      return "no error";
    case IKPOSE_ERROR_NULL_POINTER:
      return "a required pointer is NULL";
    case IKPOSE_ERROR_NON_FINITE:
      return "an input is NaN, infinite or too large (over 1e18)";
    case IKPOSE_ERROR_ZERO_LENGTH_UPPER:
      return "the upper bone (hip to knee) has zero length";
    case IKPOSE_ERROR_ZERO_LENGTH_LOWER:
      return "the lower bone (knee to foot) has zero length";
    case IKPOSE_ERROR_TARGET_ON_HIP:
      return "the target is on the hip";
    case IKPOSE_ERROR_BAD_ROTATION:
      return "a rotation quaternion has (nearly) zero length";
    case IKPOSE_ERROR_BAD_BEND:
      return "the natural bend is not one made by ikpose_natural_bend_from_rest";
    case IKPOSE_ERROR_BAD_REST:
      return "the rest hip, knee and foot give no hip-to-foot direction";
    default:
      return "unknown error code";
  }
}

int ikpose_solve_two_bone(const float a[3], const float b[3], const float c[3], const float t[3],
                          float b_out[3], float c_out[3]) {
  if (!a || !b || !c || !t || !b_out || !c_out) return IKPOSE_ERROR_NULL_POINTER;
  // Default options: the seed's rule, as `ikpose solve` runs a line without options.
  return Solve(Chain(a, b, c, t), b_out, c_out, nullptr);
}

int ikpose_solve_limb_pole(const float a[3], const float b[3], const float c[3], const float t[3],
                           const float pole[3], float b_out[3], float c_out[3],
                           float rotations_out[8]) {
  if (!a || !b || !c || !t || !pole || !b_out || !c_out) return IKPOSE_ERROR_NULL_POINTER;
  ikpose::ik::PositionsInput in = Chain(a, b, c, t);
  in.options.use_pole = true;
  in.options.pole_ms = Load3(pole);
  return Solve(in, b_out, c_out, rotations_out);
}

int ikpose_natural_bend_from_rest(const float rest_a[3], const float rest_b[3],
                                  const float rest_c[3], const float rest_parent_rotation[4],
                                  const float forward[3], int is_leg,
                                  ikpose_natural_bend* bend_out) {
  if (!rest_a || !rest_b || !rest_c || !forward || !bend_out) return IKPOSE_ERROR_NULL_POINTER;
  if (!Usable3(rest_a) || !Usable3(rest_b) || !Usable3(rest_c) || !Usable3(forward)) {
    return IKPOSE_ERROR_NON_FINITE;
  }
  glm::mat3 parent_rotation_ms;
  const int rotation_code = LoadRotation(rest_parent_rotation, &parent_rotation_ms);
  if (rotation_code != IKPOSE_OK) return rotation_code;
  const ikpose::anim::NaturalBend bend = ikpose::anim::RestNaturalBend(
      Load3(rest_a), Load3(rest_b), Load3(rest_c), parent_rotation_ms, is_leg != 0, Load3(forward));
  if (!bend.valid) return IKPOSE_ERROR_BAD_REST;
  Store3(bend.bend_ps, bend_out->bend_ps);
  Store3(bend.reach_ps, bend_out->reach_ps);
  bend_out->range_deg = bend.range_deg;
  bend_out->from_rest = bend.from_rest ? 1 : 0;
  return IKPOSE_OK;
}

int ikpose_solve_limb_natural(const ikpose_natural_bend* bend, const float parent_rotation[4],
                              const float a[3], const float b[3], const float c[3],
                              const float t[3], float swivel_range_deg, float b_out[3],
                              float c_out[3], float rotations_out[8]) {
  if (!bend || !a || !b || !c || !t || !b_out || !c_out) return IKPOSE_ERROR_NULL_POINTER;
  if (!UnitVector(bend->bend_ps) || !UnitVector(bend->reach_ps) ||
      !(bend->range_deg > 0.f && bend->range_deg <= 180.f) ||
      std::abs(glm::dot(Load3(bend->bend_ps), Load3(bend->reach_ps))) > 1e-3f) {
    return IKPOSE_ERROR_BAD_BEND;
  }
  if (!std::isfinite(swivel_range_deg)) return IKPOSE_ERROR_NON_FINITE;
  glm::mat3 parent_rotation_ms;
  const int rotation_code = LoadRotation(parent_rotation, &parent_rotation_ms);
  if (rotation_code != IKPOSE_OK) return rotation_code;
  ikpose::ik::PositionsInput in = Chain(a, b, c, t);
  const InputError error = ikpose::ik::ValidatePositions(in);
  if (error != InputError::kNone) return Code(error);

  ikpose::anim::NaturalBend natural;
  natural.valid = true;
  natural.bend_ps = Load3(bend->bend_ps);
  natural.reach_ps = Load3(bend->reach_ps);
  natural.range_deg = bend->range_deg;
  natural.from_rest = bend->from_rest != 0;
  const float limb = glm::length(in.knee_ms - in.hip_ms) + glm::length(in.foot_ms - in.knee_ms);
  const ikpose::anim::SwivelChoice choice =
      ikpose::anim::ChooseSwivel(natural, parent_rotation_ms, in.hip_ms, in.knee_ms, in.target_ms,
                                 limb, swivel_range_deg, &in.foot_ms);
  if (!choice.valid) return IKPOSE_ERROR_TARGET_ON_HIP;  // validated above; kept for safety
  in.options.use_pole = true;
  in.options.pole_ms = ikpose::anim::NaturalPoleMs(choice, in.hip_ms, in.target_ms, limb);
  return Solve(in, b_out, c_out, rotations_out);
}

}  // extern "C"
