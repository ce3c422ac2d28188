#include "scene/ladder.h"

#include <gtest/gtest.h>

namespace ikpose::scene {
namespace {

TEST(Ladder, RungsAreEvenlySpacedAboveTheBase) {
  Ladder ladder;
  ladder.base_ms = {0.0f, 0.1f, 0.4f};
  EXPECT_FLOAT_EQ(ladder.RungCenter(0).y, 0.1f + ladder.first_rung_height);
  EXPECT_FLOAT_EQ(ladder.RungCenter(3).y - ladder.RungCenter(2).y, ladder.rung_spacing);
  EXPECT_FLOAT_EQ(ladder.RungCenter(5).z, 0.4f);
}

TEST(Ladder, NearestRungRoundsToTheClosestAndClampsToTheLadder) {
  Ladder ladder;
  const glm::vec3 between = ladder.RungCenter(4) + glm::vec3(0, 0.4f * ladder.rung_spacing, 0);
  EXPECT_EQ(ladder.NearestRung(between), 4);
  EXPECT_EQ(ladder.NearestRung(between + glm::vec3(0, 0.2f * ladder.rung_spacing, 0)), 5);
  EXPECT_EQ(ladder.NearestRung({0, -5, 0}), 0);
  EXPECT_EQ(ladder.NearestRung({0, 500, 0}), ladder.rung_count - 1);
}

TEST(Ladder, GripIsOnTheRungAxisBetweenTheRails) {
  Ladder ladder;
  const glm::vec3 grip = ladder.GripPoint(3, {0.1f, 9.0f, -2.0f});
  EXPECT_FLOAT_EQ(grip.y, ladder.RungCenter(3).y);
  EXPECT_FLOAT_EQ(grip.z, ladder.base_ms.z);
  EXPECT_FLOAT_EQ(grip.x, 0.1f);
  const glm::vec3 outside = ladder.GripPoint(3, {5.0f, 0, 0});
  EXPECT_LE(outside.x, ladder.base_ms.x + 0.5f * ladder.rail_width);
}

TEST(Ladder, FeetRestOnTheRungsTop) {
  Ladder ladder;
  const glm::vec3 rest = ladder.RestPoint(2, {-0.1f, 0, 0});
  EXPECT_FLOAT_EQ(rest.y, ladder.RungCenter(2).y + ladder.rung_radius);
}

TEST(Ladder, RejectsNonsenseDimensions) {
  Ladder ladder;
  EXPECT_TRUE(ladder.Valid());
  ladder.rung_spacing = 0.0f;
  EXPECT_FALSE(ladder.Valid());
}

}  // namespace
}  // namespace ikpose::scene
