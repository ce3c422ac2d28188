#include "support/seed_port.h"

#include <algorithm>
#include <cmath>

namespace ikpose::ik::seed {
namespace {

// trans(t) * rot(q) * scale(s) as a 4x4 matrix, as the post builds bone transforms.
glm::mat4 CalcTransform(const LocalTransform& local) {
  glm::mat4 m = glm::mat4_cast(local.rotation);
  m[0] *= local.scale.x;
  m[1] *= local.scale.y;
  m[2] *= local.scale.z;
  m[3] = glm::vec4(local.translation, 1.f);
  return m;
}

glm::vec3 To3d(const glm::vec4& p) {
  return glm::vec3(p) / p.w;
}

}  // namespace

glm::quat RotationBetween(const glm::vec3& u, const glm::vec3& v, float eps) {
  glm::vec3 axis = glm::cross(u, v);
  const float len_axis = glm::length(axis);
  const float cos_angle = std::clamp(glm::dot(u, v), -1.f, 1.f);
  if (len_axis < eps) {
    if (cos_angle >= 0.f) return glm::quat(1.f, 0.f, 0.f, 0.f);  // glm order: w first
    // Anti-parallel: a half turn about any axis perpendicular to u.
    const glm::vec3 other =
        std::abs(u.x) < 0.9f ? glm::vec3(1.f, 0.f, 0.f) : glm::vec3(0.f, 1.f, 0.f);
    return glm::angleAxis(3.14159265358979f, glm::normalize(glm::cross(u, other)));
  }
  axis /= len_axis;
  return glm::angleAxis(std::acos(cos_angle), axis);
}

SeedRotations SolveOrientations(const glm::mat4& hip_parent_ms, const LocalTransform& hip_ls,
                                const LocalTransform& knee_ls, const LocalTransform& foot_ls,
                                const glm::vec3& target_ms) {
  const glm::mat4 tt_k = hip_parent_ms * CalcTransform(hip_ls);
  const glm::mat4 tt_j = tt_k * CalcTransform(knee_ls);
  const glm::mat4 tt_i = tt_j * CalcTransform(foot_ls);
  const glm::vec3 a(tt_k[3]);
  const glm::vec3 b(tt_j[3]);
  const glm::vec3 c(tt_i[3]);
  const SeedPositions<float> pos = SolvePositions<float>(a, b, c, target_ms);

  SeedRotations out;
  const glm::mat4 inv_tt_k = glm::inverse(tt_k);
  glm::vec3 local_current = glm::normalize(To3d(inv_tt_k * glm::vec4(b, 1.f)));
  glm::vec3 local_final = glm::normalize(To3d(inv_tt_k * glm::vec4(pos.knee, 1.f)));
  LocalTransform hip_new = hip_ls;
  hip_new.rotation = hip_ls.rotation * RotationBetween(local_current, local_final);
  out.hip_rotation_ls = hip_new.rotation;

  const glm::mat4 tt_k_new = hip_parent_ms * CalcTransform(hip_new);
  const glm::mat4 tt_j_new = tt_k_new * CalcTransform(knee_ls);
  local_current = glm::normalize(To3d(glm::inverse(tt_j) * glm::vec4(c, 1.f)));
  local_final = glm::normalize(To3d(glm::inverse(tt_j_new) * glm::vec4(pos.foot, 1.f)));
  out.knee_rotation_ls = knee_ls.rotation * RotationBetween(local_current, local_final);
  return out;
}

}  // namespace ikpose::ik::seed
