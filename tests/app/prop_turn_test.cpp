// The selected prop's turn ring driven as the viewer drives it, with mouse rays: the ring lies
// level round the prop outside it, about the vertical through its placement; a drag along it
// turns the prop by the angle swept about that axis (past half a turn when the drag goes on),
// Ctrl snaps the total to 5 degree steps, and a press away from the ring (on the prop's middle)
// grabs nothing.
#include "app/prop_turn.h"

#include <gtest/gtest.h>

#include <memory>

#include "scene/world/solid_shapes.h"

namespace ikpose::app {
namespace {

constexpr float kHeight = 1.8f;  // the character's
constexpr float kTolerance = 0.03f;

// A 40 cm box 20 cm high (the bundled box) placed at (1, 0.5, 2), turned `yaw_deg`.
scene::Prop Box(float yaw_deg) {
  std::vector<glm::vec3> v, n;
  std::vector<std::uint32_t> i;
  scene::AppendBox({-0.2f, 0.0f, -0.2f}, {0.2f, 0.2f, 0.2f}, &v, &n, &i);
  scene::Prop prop;
  prop.path = prop.placement.file = "box.glb";
  prop.placement.position_ms = glm::vec3(1.0f, 0.5f, 2.0f);
  prop.placement.yaw_deg = yaw_deg;
  prop.model = std::make_shared<anim::Model>(
      scene::StaticModel("box", std::move(v), std::move(n), std::move(i), glm::vec4(1.0f)));
  return prop;
}

// A ray looking straight down at `point_ms` (the top view).
Ray Down(const glm::vec3& point_ms) {
  return Ray{point_ms + glm::vec3(0.0f, 3.0f, 0.0f), glm::vec3(0.0f, -1.0f, 0.0f)};
}

TEST(PropTurn, TheRingLiesLevelRoundThePropOutsideIt) {
  const PropRing ring = PropTurnRing(Box(30.0f), kHeight);
  EXPECT_NEAR(ring.center_ms.x, 1.0f, 1e-5f);
  EXPECT_NEAR(ring.center_ms.y, 0.5f, 1e-5f);  // at the box's bottom
  EXPECT_NEAR(ring.center_ms.z, 2.0f, 1e-5f);
  // The box's corners reach 0.2 * sqrt(2) from the axis, whichever way it is turned.
  EXPECT_NEAR(ring.radius, kPropRingMargin * 0.2f * std::sqrt(2.0f), 1e-4f);
  EXPECT_NEAR(ring.radius, PropTurnRing(Box(0.0f), kHeight).radius, 1e-4f);
  // The point at a quarter turn is where a quarter turn about +Y carries the one at 0.
  const glm::vec3 quarter = PropRingPoint(ring, glm::radians(90.0f)) - ring.center_ms;
  EXPECT_NEAR(quarter.x, 0.0f, 1e-5f);
  EXPECT_NEAR(quarter.z, -ring.radius, 1e-5f);
}

TEST(PropTurn, DraggingAlongTheRingTurnsThePropByTheAngleSwept) {
  const PropRing ring = PropTurnRing(Box(30.0f), kHeight);
  PropTurn turn;
  ASSERT_TRUE(turn.Begin(Down(PropRingPoint(ring, 0.0f)), 0, ring, 30.0f, kTolerance));
  EXPECT_EQ(turn.prop(), 0);
  std::optional<float> yaw = turn.Update(Down(PropRingPoint(ring, glm::radians(90.0f))), false);
  ASSERT_TRUE(yaw);
  EXPECT_NEAR(*yaw, 120.0f, 1e-3f);
  // On round the ring, past half a turn: the drag's total, not the nearest angle.
  for (float a : {150.0f, 220.0f, 290.0f}) {
    yaw = turn.Update(Down(PropRingPoint(ring, glm::radians(a))), false);
  }
  ASSERT_TRUE(yaw);
  EXPECT_NEAR(*yaw, 320.0f, 1e-3f);
  // Anywhere along the arm counts, inside or outside the ring.
  const glm::vec3 outside =
      ring.center_ms + 3.0f * (PropRingPoint(ring, glm::radians(300.0f)) - ring.center_ms);
  EXPECT_NEAR(*turn.Update(Down(outside), false), 330.0f, 1e-3f);
  // Ctrl rounds the drag's total (not the yaw) to 5 degree steps.
  EXPECT_NEAR(*turn.Update(Down(PropRingPoint(ring, glm::radians(303.0f))), true), 335.0f, 1e-3f);
  // A ray level with the ring never meets its plane: the last turn stays.
  EXPECT_FALSE(turn.Update(Ray{glm::vec3(0.0f, 0.5f, 0.0f), glm::vec3(1.0f, 0.0f, 0.0f)}, false));
}

TEST(PropTurn, APressAwayFromTheRingGrabsNothing) {
  const PropRing ring = PropTurnRing(Box(0.0f), kHeight);
  PropTurn turn;
  EXPECT_FALSE(turn.Begin(Down(ring.center_ms), 0, ring, 0.0f, kTolerance));  // the box's middle
  EXPECT_FALSE(turn.active());
  // Seen nearly edge-on, from the front a little above (as the window opens), the ring's near
  // point is still taken.
  const glm::vec3 near = PropRingPoint(ring, glm::radians(-90.0f));
  const glm::vec3 eye = near + glm::vec3(0.0f, 0.7f, 4.0f);
  EXPECT_TRUE(turn.Begin(Ray{eye, glm::normalize(near - eye)}, 0, ring, 0.0f, kTolerance));
}

}  // namespace
}  // namespace ikpose::app
