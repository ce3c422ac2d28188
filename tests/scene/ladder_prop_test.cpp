// A ladder that is a prop (scene/world/prop_rungs.h) on the bundled character: its rungs are found
// as parallel horizontal cylinders (and not on stairs, a box or a shelf of square boards unless the
// scenario marks them), hands and feet snapped to them grip and stand exactly as on the built-in
// ladder of the same size, they follow the prop when it moves, and a prop turned so that its
// rungs no longer run across the character says why it gives no rungs.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "asset/load_model.h"
#include "scene/session/posing_session.h"
#include "scene/world/prop_rungs.h"
#include "scene/world/solid_shapes.h"
#include "scene/world/world.h"

namespace ikpose::scene {
namespace {

using anim::Limb;

class LadderProp : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    model_ = new anim::Model;
    std::string error;
    ASSERT_TRUE(asset::TryLoadModel(
        std::filesystem::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb", model_, &error))
        << error;
  }
  static void TearDownTestSuite() { delete model_; }
  static anim::Model* model_;
};
anim::Model* LadderProp::model_ = nullptr;

std::shared_ptr<const anim::Model> Shape(std::vector<glm::vec3> v, std::vector<glm::vec3> n,
                                         std::vector<std::uint32_t> i) {
  return std::make_shared<anim::Model>(
      StaticModel("shape", std::move(v), std::move(n), std::move(i), glm::vec4(1.0f)));
}

// A ladder made as tools/make_props makes its ladder, standing at the origin.
std::shared_ptr<const anim::Model> LadderShape(const Ladder& ladder) {
  return std::make_shared<anim::Model>(LadderModel(ladder));
}

// Boxes `count` bars of `thick` square section, 0.5 long, 0.3 apart from 0.25 up.
std::shared_ptr<const anim::Model> SquareBars(int count, float thick, float uneven = 0.0f) {
  std::vector<glm::vec3> v, n;
  std::vector<std::uint32_t> i;
  for (int k = 0; k < count; ++k) {
    const float y = 0.25f + 0.3f * static_cast<float>(k) + (k == 1 ? uneven : 0.0f);
    AppendBox({-0.25f, y - thick, -thick}, {0.25f, y + thick, thick}, &v, &n, &i);
  }
  return Shape(std::move(v), std::move(n), std::move(i));
}

std::shared_ptr<const World> WorldOf(std::shared_ptr<const anim::Model> model,
                                     const PropPlacement& placement) {
  Prop prop;
  prop.placement = placement;
  prop.path = placement.file;
  prop.model = std::move(model);
  std::string error;
  std::shared_ptr<const World> world = World::Build({prop}, &error);
  EXPECT_TRUE(world) << error;
  return world;
}

TEST(PropRungs, RoundRungsAreFoundOnALadderAndNothingOnOtherShapes) {
  Ladder made;
  made.base_ms = glm::vec3(0.0f);
  const PropRungs rungs = FindRungs(*LadderShape(made), /*marked=*/false);
  ASSERT_TRUE(rungs.found) << rungs.why_not;
  ASSERT_EQ(rungs.heights.size(), 12u);
  EXPECT_NEAR(rungs.heights.front(), 0.25f, 1e-5f);
  EXPECT_NEAR(rungs.heights[1] - rungs.heights[0], 0.3f, 1e-5f);
  EXPECT_NEAR(rungs.radius, 0.02f, 1e-5f);
  EXPECT_NEAR(rungs.length, 0.5f, 1e-5f);
  EXPECT_NEAR(std::abs(rungs.direction.x), 1.0f, 1e-5f);
  EXPECT_NEAR(rungs.floor_y, 0.0f, 1e-6f);

  std::vector<glm::vec3> v, n;
  std::vector<std::uint32_t> i;
  for (int k = 0; k < 4; ++k) {  // stairs: four boxes
    const float z = 0.28f * static_cast<float>(k);
    AppendBox({-0.45f, 0.0f, z}, {0.45f, 0.17f * static_cast<float>(k + 1), 1.12f}, &v, &n, &i);
  }
  EXPECT_FALSE(FindRungs(*Shape(v, n, i), false).found);
  EXPECT_FALSE(FindRungs(*Shape(v, n, i), true).found) << "steps are not bars";
  // Square boards: a shelf unless the scenario says they are rungs.
  EXPECT_FALSE(FindRungs(*SquareBars(5, 0.015f), false).found);
  const PropRungs marked = FindRungs(*SquareBars(5, 0.015f), true);
  ASSERT_TRUE(marked.found) << marked.why_not;
  EXPECT_EQ(marked.heights.size(), 5u);
  EXPECT_TRUE(FindRungs(*SquareBars(2, 0.015f), true).found) << "two marked rungs suffice";
  // One bar 2 cm off the even spacing: a hand snapped to it would miss it.
  const PropRungs uneven = FindRungs(*SquareBars(5, 0.015f, 0.02f), true);
  EXPECT_FALSE(uneven.found);
  EXPECT_EQ(uneven.why_not, "its bars are not evenly spaced");
}

// Hands and feet snapped to the prop's rungs end exactly where they end on the built-in ladder
// of the same size: the same grip, the same stance, the same pose.
TEST_F(LadderProp, SnappedLimbsGripThePropsRungsAsTheBuiltInLaddersAndFollowItsMoves) {
  Ladder made;
  made.base_ms = glm::vec3(0.0f);
  PropPlacement placement;
  placement.file = "ladder.glb";
  placement.position_ms = {0.05f, 0.0f, 0.4f};
  placement.yaw_deg = 180.0f;  // turned round: its rungs still run across the character

  PosingSession on_prop(*model_);
  on_prop.edits.world = WorldOf(LadderShape(made), placement);
  on_prop.edits.ground = false;
  on_prop.FitLadderToProps();
  ASSERT_EQ(on_prop.ladder_prop(), 0) << on_prop.ladder_note();
  EXPECT_TRUE(on_prop.edits.ladder_enabled);
  EXPECT_NEAR(on_prop.edits.ladder.base_ms.x, 0.05f, 1e-5f);
  EXPECT_NEAR(on_prop.edits.ladder.base_ms.z, 0.4f, 1e-5f);
  EXPECT_NEAR(on_prop.edits.ladder.rung_spacing, 0.3f, 1e-5f);
  EXPECT_EQ(on_prop.edits.ladder.rung_count, 12);

  PosingSession built_in(*model_);
  built_in.edits.ladder = on_prop.edits.ladder;
  built_in.edits.ladder_enabled = true;
  const glm::vec3 holds[4] = {
      {0.2f, 1.4f, 0.4f}, {-0.2f, 1.1f, 0.4f}, {0.15f, 0.55f, 0.4f}, {-0.15f, 0.25f, 0.4f}};
  for (PosingSession* s : {&on_prop, &built_in}) {
    for (Limb limb : anim::kLimbs) s->target(limb).target_ms = holds[static_cast<int>(limb)];
    s->SnapToRungs();
    s->Evaluate();
  }
  for (Limb limb : anim::kLimbs) {
    SCOPED_TRACE(anim::LimbName(limb));
    EXPECT_EQ(on_prop.target(limb).rung, built_in.target(limb).rung);
    EXPECT_GE(on_prop.target(limb).rung, 0);
    ASSERT_TRUE(on_prop.result(limb).ok);
    EXPECT_LT(on_prop.result(limb).error_ms, 1e-4f) << "on its rung";
  }
  const anim::Skeleton& skeleton = model_->skeleton;
  for (int b = 0; b < skeleton.size(); ++b) {
    const glm::vec3 d = anim::PositionMs(on_prop.pose(), b) - anim::PositionMs(built_in.pose(), b);
    EXPECT_LT(glm::length(d), 1e-5f) << skeleton.names[static_cast<std::size_t>(b)];
  }
  // The solid is the prop's: penetrations name it, not a second, built-in ladder.
  for (const Penetration& p : on_prop.ground_report().penetrations) EXPECT_EQ(p.prop, 0);

  // Moved 10 cm to the side and 30 cm up (a new World): each limb keeps its rung and its place.
  const glm::vec3 left_hand = on_prop.target(Limb::kLeftArm).target_ms;
  placement.position_ms += glm::vec3(0.1f, 0.3f, 0.0f);
  on_prop.edits.world = WorldOf(LadderShape(made), placement);
  on_prop.Evaluate();
  EXPECT_EQ(on_prop.target(Limb::kLeftArm).rung, built_in.target(Limb::kLeftArm).rung);
  const glm::vec3 moved = on_prop.target(Limb::kLeftArm).target_ms - left_hand;
  EXPECT_NEAR(moved.x, 0.1f, 1e-5f);
  EXPECT_NEAR(moved.y, 0.3f, 1e-5f);

  // Turned a quarter: still the ladder, turned with the prop (its rungs now run along Z); each
  // limb keeps its rung, on the turned rung's axis.
  placement.yaw_deg = 90.0f;
  on_prop.edits.world = WorldOf(LadderShape(made), placement);
  on_prop.Evaluate();
  ASSERT_EQ(on_prop.ladder_prop(), 0) << on_prop.ladder_note();
  EXPECT_TRUE(on_prop.edits.ladder_enabled);
  EXPECT_NEAR(std::abs(on_prop.edits.ladder.AlongRungsMs().z), 1.0f, 1e-5f);
  EXPECT_EQ(on_prop.target(Limb::kLeftArm).rung, built_in.target(Limb::kLeftArm).rung);
  EXPECT_NEAR(on_prop.target(Limb::kLeftArm).target_ms.x, on_prop.edits.ladder.base_ms.x, 1e-5f);
  // "rungs": false: not searched, so not a ladder and nothing to say.
  placement.yaw_deg = 0.0f;
  placement.rungs = false;
  on_prop.edits.world = WorldOf(LadderShape(made), placement);
  on_prop.Evaluate();
  EXPECT_EQ(on_prop.ladder_prop(), -1);
  EXPECT_EQ(on_prop.ladder_note(), "");
}

}  // namespace
}  // namespace ikpose::scene
