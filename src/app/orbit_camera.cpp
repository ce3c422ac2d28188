#include "app/orbit_camera.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace ikpose::app {

void OrbitCamera::Frame(const glm::vec3& center_ms, float radius) {
  focus_ms = center_ms;
  radius = std::max(radius, 1e-4f);
  // Distance at which the sphere fills the vertical field of view, with a margin.
  distance = 1.15f * radius / std::sin(glm::radians(fov_y_deg) * 0.5f);
}

void OrbitCamera::Orbit(float dx_deg, float dy_deg) {
  yaw_deg = std::fmod(yaw_deg + dx_deg, 360.0f);
  pitch_deg = std::clamp(pitch_deg + dy_deg, -89.0f, 89.0f);
}

void OrbitCamera::Pan(float dx_fraction, float dy_fraction) {
  const glm::vec3 forward = Forward();
  const glm::vec3 right = glm::normalize(glm::cross(forward, glm::vec3(0, 1, 0)));
  const glm::vec3 up = glm::cross(right, forward);
  const float height = 2.0f * distance * std::tan(glm::radians(fov_y_deg) * 0.5f);
  focus_ms += (-dx_fraction * right + dy_fraction * up) * height;
}

void OrbitCamera::Zoom(float factor) {
  distance = std::max(distance * factor, 1e-4f);
}

void OrbitCamera::LookFrom(Side side, float facing_yaw_deg) {
  pitch_deg = 0.0f;
  yaw_deg = facing_yaw_deg;
  switch (side) {
    case Side::kFront:
      break;
    case Side::kBack:
      yaw_deg += 180.0f;
      break;
    case Side::kRight:  // the character's right is to its left as seen from the front
      yaw_deg -= 90.0f;
      break;
    case Side::kLeft:
      yaw_deg += 90.0f;
      break;
    case Side::kTop:
      pitch_deg = 89.0f;
      break;
    case Side::kBottom:
      pitch_deg = -89.0f;
      break;
  }
  yaw_deg = std::fmod(yaw_deg, 360.0f);
}

OrbitCamera::Side CornerViewSide(float main_yaw_deg, float facing_yaw_deg) {
  // The main view's yaw from the character's front, in (-180, 180]: +-90 looks at a side.
  float from_front = std::fmod(main_yaw_deg - facing_yaw_deg, 360.0f);
  if (from_front > 180.0f) from_front -= 360.0f;
  if (from_front <= -180.0f) from_front += 360.0f;
  const float off_side = std::abs(std::abs(from_front) - 90.0f);
  return off_side < 45.0f ? OrbitCamera::Side::kFront : OrbitCamera::Side::kRight;
}

glm::vec3 OrbitCamera::Forward() const {
  const float yaw = glm::radians(yaw_deg);
  const float pitch = glm::radians(pitch_deg);
  // yaw 0, pitch 0: looking along -Z, at the front of a +Z-facing model.
  return glm::normalize(glm::vec3(-std::sin(yaw) * std::cos(pitch), -std::sin(pitch),
                                  -std::cos(yaw) * std::cos(pitch)));
}

glm::vec3 OrbitCamera::Up() const {
  const glm::vec3 forward = Forward();
  // As glm::lookAt builds it from world up (top and bottom views stop short of the pole).
  const glm::vec3 right = glm::normalize(glm::cross(forward, glm::vec3(0, 1, 0)));
  return glm::cross(right, forward);
}

glm::vec3 OrbitCamera::Eye() const {
  return focus_ms - Forward() * distance;
}

glm::mat4 OrbitCamera::View() const {
  return glm::lookAt(Eye(), focus_ms, glm::vec3(0, 1, 0));
}

glm::mat4 OrbitCamera::Projection(float aspect) const {
  const glm::mat4 shift =
      glm::translate(glm::mat4(1.0f), glm::vec3(shift_ndc_x, shift_ndc_y, 0.0f));
  if (orthographic) {
    const float h = distance * std::tan(glm::radians(fov_y_deg) * 0.5f);
    return shift * glm::ortho(-h * aspect, h * aspect, -h, h, NearPlane(), FarPlane());
  }
  return shift * glm::perspective(glm::radians(fov_y_deg), aspect, NearPlane(), FarPlane());
}

Ray OrbitCamera::PixelRay(float x, float y, float width, float height) const {
  const glm::mat4 inverse = glm::inverse(Projection(width / height) * View());
  const float nx = 2.0f * x / width - 1.0f;
  const float ny = 1.0f - 2.0f * y / height;
  glm::vec4 near_point = inverse * glm::vec4(nx, ny, -1.0f, 1.0f);
  glm::vec4 far_point = inverse * glm::vec4(nx, ny, 1.0f, 1.0f);
  near_point /= near_point.w;
  far_point /= far_point.w;
  return {glm::vec3(near_point), glm::normalize(glm::vec3(far_point - near_point))};
}

glm::vec3 OrbitCamera::Project(const glm::vec3& point_ms, float width, float height) const {
  const glm::vec4 clip = Projection(width / height) * View() * glm::vec4(point_ms, 1.0f);
  const glm::vec3 ndc = glm::vec3(clip) / clip.w;
  return {(ndc.x * 0.5f + 0.5f) * width, (0.5f - ndc.y * 0.5f) * height, ndc.z};
}

float RaySphere(const Ray& ray, const glm::vec3& center_ms, float radius) {
  const glm::vec3 oc = ray.origin_ms - center_ms;
  const float b = glm::dot(oc, ray.direction_ms);
  const float c = glm::dot(oc, oc) - radius * radius;
  const float disc = b * b - c;
  if (disc < 0.0f) return -1.0f;
  const float s = std::sqrt(disc);
  const float t = -b - s;
  return t >= 0.0f ? t : -b + s;
}

bool RayPlane(const Ray& ray, const glm::vec3& point_ms, const glm::vec3& normal_ms,
              glm::vec3* hit_ms) {
  const float denom = glm::dot(ray.direction_ms, normal_ms);
  if (std::abs(denom) < 1e-8f) return false;
  const float t = glm::dot(point_ms - ray.origin_ms, normal_ms) / denom;
  *hit_ms = ray.origin_ms + t * ray.direction_ms;
  return true;
}

}  // namespace ikpose::app
