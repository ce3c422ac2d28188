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

// Views as Blender's numpad, relative to the character's facing: front, back, its right and
// left sides, top and bottom.
TEST(OrbitCameraViews, EachViewLooksFromItsSideOfTheCharacter) {
  OrbitCamera camera;
  camera.focus_ms = glm::vec3(0.0f);
  camera.distance = 2.0f;
  const auto eye_for = [&](OrbitCamera::Side side, float facing_yaw_deg) {
    camera.LookFrom(side, facing_yaw_deg);
    return glm::normalize(camera.Eye());
  };
  // A character facing +z (yaw 0): its right side is -x.
  EXPECT_NEAR(eye_for(OrbitCamera::Side::kFront, 0.0f).z, 1.0f, 1e-5f);
  EXPECT_NEAR(eye_for(OrbitCamera::Side::kBack, 0.0f).z, -1.0f, 1e-5f);
  EXPECT_NEAR(eye_for(OrbitCamera::Side::kRight, 0.0f).x, -1.0f, 1e-5f);
  EXPECT_NEAR(eye_for(OrbitCamera::Side::kLeft, 0.0f).x, 1.0f, 1e-5f);
  EXPECT_GT(eye_for(OrbitCamera::Side::kTop, 0.0f).y, 0.999f);
  EXPECT_LT(eye_for(OrbitCamera::Side::kBottom, 0.0f).y, -0.999f);
  // A character facing +x (yaw 90): the front view looks from +x, its right from +z.
  EXPECT_NEAR(eye_for(OrbitCamera::Side::kFront, 90.0f).x, 1.0f, 1e-5f);
  EXPECT_NEAR(eye_for(OrbitCamera::Side::kRight, 90.0f).z, 1.0f, 1e-5f);
}

TEST(OrbitCameraViews, OrthographicKeepsSizesAtEveryDepth) {
  OrbitCamera camera;
  camera.focus_ms = glm::vec3(0.0f);
  camera.distance = 3.0f;
  camera.yaw_deg = 0.0f;
  camera.pitch_deg = 0.0f;
  const auto width_at = [&](float z) {
    return camera.Project({0.5f, 0, z}, 800, 600).x - camera.Project({-0.5f, 0, z}, 800, 600).x;
  };
  EXPECT_GT(width_at(1.0f), 1.2f * width_at(-1.0f)) << "perspective: nearer is larger";
  camera.orthographic = true;
  EXPECT_NEAR(width_at(1.0f), width_at(-1.0f), 1e-3f) << "orthographic: the same";
  // The framing matches: at the focus, both show the same height.
  const float ortho = width_at(0.0f);
  camera.orthographic = false;
  EXPECT_NEAR(width_at(0.0f), ortho, 1e-2f);
  // Picking works through the orthographic projection: the ray under a point's pixel hits it.
  camera.orthographic = true;
  const glm::vec3 p(0.3f, 0.2f, 0.4f);
  const glm::vec3 px = camera.Project(p, 800, 600);
  const Ray ray = camera.PixelRay(px.x, px.y, 800, 600);
  EXPECT_LT(RaySphere(ray, p, 1e-3f), 10.0f);
  EXPECT_GE(RaySphere(ray, p, 1e-3f), 0.0f);
}

}  // namespace
}  // namespace ikpose::app

namespace ikpose::app {
namespace {

// The corner view shows the depth the main view hides: the character's side while the main view
// looks at its front or back (within 45 degrees), its front while the main view looks at a side.
TEST(CornerView, ShowsTheSideUnlessTheMainViewAlreadyDoes) {
  using Side = OrbitCamera::Side;
  for (float facing : {0.0f, 90.0f, -135.0f, 270.0f}) {
    EXPECT_EQ(CornerViewSide(facing, facing), Side::kRight) << facing;
    EXPECT_EQ(CornerViewSide(facing + 180.0f, facing), Side::kRight) << "from the back";
    EXPECT_EQ(CornerViewSide(facing + 44.0f, facing), Side::kRight);
    EXPECT_EQ(CornerViewSide(facing + 46.0f, facing), Side::kFront);
    EXPECT_EQ(CornerViewSide(facing - 90.0f, facing), Side::kFront) << "from its right";
    EXPECT_EQ(CornerViewSide(facing + 90.0f + 360.0f, facing), Side::kFront) << "from its left";
    EXPECT_EQ(CornerViewSide(facing + 136.0f, facing), Side::kRight);
  }
}

}  // namespace
}  // namespace ikpose::app
