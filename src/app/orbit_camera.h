// The viewer's camera: orbits a point of interest at a distance, with yaw and pitch in
// degrees (yaw 0 looks along -Z at the model's front, which faces +Z in glTF), pans in the view
// plane, zooms by scaling the distance. Frame() fits a bounding sphere whatever its size, so
// centimetre and metre rigs open the same way.
#pragma once

#include <glm/glm.hpp>

namespace ikpose::app {

struct Ray {
  glm::vec3 origin_ms;
  glm::vec3 direction_ms;  // unit length
};

class OrbitCamera {
 public:
  float yaw_deg = 0.0f;
  float pitch_deg = 10.0f;
  float distance = 3.0f;
  glm::vec3 focus_ms{0.0f, 0.9f, 0.0f};
  float fov_y_deg = 40.0f;
  // Shifts the image sideways, in NDC units (2 = the view's width), so the model centres in the
  // part of the window that the panel leaves free.
  float shift_ndc_x = 0.0f;
  float shift_ndc_y = 0.0f;  // upward, for the timeline along the bottom
  // Orthographic: the same framing (the height the perspective view shows at the focus),
  // without perspective, as Blender's numpad 5.
  bool orthographic = false;

  void Frame(const glm::vec3& center_ms, float radius);
  void Orbit(float dx_deg, float dy_deg);
  // Moves the focus by a fraction of the view's width/height.
  void Pan(float dx_fraction, float dy_fraction);
  void Zoom(float factor);
  // Looks from a side of a character facing `facing_yaw_deg` (the yaw that looks at its face),
  // as Blender's numpad: front 1, back Ctrl+1, its right 3, its left Ctrl+3, top 7, bottom
  // Ctrl+7 (top and bottom stop a degree short of straight down or up).
  enum class Side { kFront, kBack, kRight, kLeft, kTop, kBottom };
  void LookFrom(Side side, float facing_yaw_deg);

  glm::vec3 Eye() const;
  // The direction the camera looks (eye toward focus), and its up on screen.
  glm::vec3 Forward() const;
  glm::vec3 Up() const;
  glm::mat4 View() const;
  glm::mat4 Projection(float aspect) const;
  // The ray under a pixel; (0, 0) is the top-left corner.
  Ray PixelRay(float x, float y, float width, float height) const;
  // Where a model-space point lands in pixels (top-left origin); z is NDC depth.
  glm::vec3 Project(const glm::vec3& point_ms, float width, float height) const;

 private:
  float NearPlane() const { return distance * 0.01f; }
  float FarPlane() const { return distance * 100.0f; }
};

// The side the corner view shows: the character's right side, or its front when the main view
// already looks from within 45 degrees of either of its sides (top and bottom views count by
// their yaw), so the corner always shows the depth that the main view hides.
OrbitCamera::Side CornerViewSide(float main_yaw_deg, float facing_yaw_deg);

// Distance along `ray` to the sphere, or a negative number when it misses.
float RaySphere(const Ray& ray, const glm::vec3& center_ms, float radius);
// Where `ray` meets the plane through `point_ms` with normal `normal_ms`; false if parallel.
bool RayPlane(const Ray& ray, const glm::vec3& point_ms, const glm::vec3& normal_ms,
              glm::vec3* hit_ms);

}  // namespace ikpose::app
