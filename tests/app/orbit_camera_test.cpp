#include "app/orbit_camera.h"

#include <gtest/gtest.h>

namespace ikpose::app {
namespace {

TEST(OrbitCamera, DefaultViewLooksAtTheModelsFront) {
  OrbitCamera camera;
  camera.pitch_deg = 0.0f;
  // glTF models face +Z, so the eye sits on the +Z side of the focus.
  EXPECT_GT(camera.Eye().z, camera.focus_ms.z);
}

TEST(OrbitCamera, FramedSphereFitsTheViewAtAnyScale) {
  for (float radius : {0.01f, 1.0f, 80.0f}) {
    OrbitCamera camera;
    camera.Frame({0, radius, 0}, radius);
    const float w = 800, h = 600;
    for (const glm::vec3& p : {glm::vec3(0, 2 * radius, 0), glm::vec3(0, 0, 0)}) {
      const glm::vec3 pixel = camera.Project(p, w, h);
      EXPECT_GT(pixel.y, 0.0f) << radius;
      EXPECT_LT(pixel.y, h) << radius;
    }
  }
}

TEST(OrbitCamera, PixelRayPassesThroughTheProjectedPoint) {
  OrbitCamera camera;
  camera.yaw_deg = 30;
  camera.pitch_deg = 20;
  const glm::vec3 point(0.3f, 1.2f, -0.2f);
  const glm::vec3 pixel = camera.Project(point, 640, 480);
  const Ray ray = camera.PixelRay(pixel.x, pixel.y, 640, 480);
  const glm::vec3 to_point = point - ray.origin_ms;
  const float off_ray =
      glm::length(to_point - glm::dot(to_point, ray.direction_ms) * ray.direction_ms);
  EXPECT_LT(off_ray, 1e-4f);
}

TEST(OrbitCamera, PitchStopsShortOfThePoles) {
  OrbitCamera camera;
  camera.Orbit(0, 500);
  EXPECT_LT(camera.pitch_deg, 90.0f);
}

TEST(Picking, RaySphereHitsFrontSurfaceAndMisses) {
  const Ray ray{{0, 0, 5}, {0, 0, -1}};
  EXPECT_NEAR(RaySphere(ray, {0, 0, 0}, 1.0f), 4.0f, 1e-5f);
  EXPECT_LT(RaySphere(ray, {3, 0, 0}, 1.0f), 0.0f);
}

TEST(Picking, RayPlaneFindsTheDragPoint) {
  const Ray ray{{0, 1, 5}, {0, 0, -1}};
  glm::vec3 hit;
  ASSERT_TRUE(RayPlane(ray, {0, 0, 2}, {0, 0, 1}, &hit));
  EXPECT_NEAR(hit.z, 2.0f, 1e-5f);
  EXPECT_NEAR(hit.y, 1.0f, 1e-5f);
}

}  // namespace
}  // namespace ikpose::app
