// Props and the ladder sized to the character (scene/session/world_scale.h): a character 0.2 units
// tall gets one line for a ladder spaced for an adult and none for one sized to it; a prop made in
// metres beside a character in centimetres is far too small, the same prop a hundred times too
// big beside a character in metres far too tall, and "scale" puts either right.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "anim/test_rigs.h"
#include "scene/session/world_scale.h"
#include "scene/world/solid_shapes.h"

namespace ikpose::scene {
namespace {

// The test humanoid scaled to `height` model units tall (rest joints).
anim::Model HumanoidOfHeight(float height) {
  anim::Model model;
  model.skeleton = anim::test::MakeHumanoid(anim::test::UnrealNames());
  const anim::Pose rest = anim::RestPose(model.skeleton);
  float lo = 1e30f, hi = -1e30f;
  for (const glm::mat4& m : rest.models_ms) {
    lo = std::min(lo, m[3].y);
    hi = std::max(hi, m[3].y);
  }
  for (anim::Transform& t : model.skeleton.rest_ls) t.translation *= height / (hi - lo);
  anim::DetectRig(model);
  return model;
}

// A 40 cm box 20 cm high (tools/make_props' box), in metres, placed at `scale`.
std::shared_ptr<const World> BoxWorld(float scale) {
  std::vector<glm::vec3> v, n;
  std::vector<std::uint32_t> i;
  AppendBox({-0.2f, 0.0f, -0.2f}, {0.2f, 0.2f, 0.2f}, &v, &n, &i);
  Prop prop;
  prop.path = prop.placement.file = "props/box.glb";
  prop.placement.scale = scale;
  prop.model = std::make_shared<anim::Model>(
      StaticModel("box", std::move(v), std::move(n), std::move(i), glm::vec4(1.0f)));
  std::string error;
  std::shared_ptr<const World> world = World::Build({prop}, &error);
  EXPECT_TRUE(world) << error;
  return world;
}

TEST(WorldScale, ALadderSpacedForAnAdultIsWarnedAboutBesideASmallCharacter) {
  const anim::Model doll = HumanoidOfHeight(0.2f);
  PosingSession session(doll);
  ASSERT_NEAR(session.facts()->height, 0.2f, 1e-4f);
  session.edits.ladder = Ladder{};  // 30 cm between rungs: an adult's ladder
  session.edits.ladder_enabled = true;
  std::vector<SizeWarning> lines = SizeWarnings(session);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].prop, -1);
  EXPECT_NE(lines[0].text.find("the ladder's rungs are out of the character's reach: 1.5x its "
                               "height apart"),
            std::string::npos)
      << lines[0].text;
  // The first rung within the doll's reach, the rungs still an adult's 30 cm apart.
  session.edits.ladder.first_rung_height = 0.02f;
  lines = SizeWarnings(session);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].text.find("1.5x its height apart (spacing 0.3, first rung 0.02"),
            std::string::npos)
      << lines[0].text;
  // Sized to the doll (as BuildSession sizes the ladder it puts in front): nothing to say.
  session.edits.ladder = LadderFor(0.2f, glm::vec3(0.0f), glm::vec3(0, 0, 1));
  EXPECT_TRUE(SizeWarnings(session).empty()) << SizeWarnings(session)[0].text;
  session.edits.ladder = Ladder{};
  session.edits.ladder_enabled = false;  // a hidden ladder is not judged
  EXPECT_TRUE(SizeWarnings(session).empty());
}

TEST(WorldScale, APropInOtherUnitsIsWarnedAboutUntilScaled) {
  const anim::Model centimetres = HumanoidOfHeight(180.0f);
  PosingSession small(centimetres);
  small.edits.world = BoxWorld(1.0f);
  std::vector<SizeWarning> lines = SizeWarnings(small);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].prop, 0);
  EXPECT_EQ(lines[0].text,
            "prop box.glb is 450x smaller than the character (0.4 model units across for a "
            "character 180 tall): in other units? its \"scale\" sizes it");
  small.edits.world = BoxWorld(100.0f);
  EXPECT_TRUE(SizeWarnings(small).empty());

  const anim::Model metres = HumanoidOfHeight(1.8f);
  PosingSession tall(metres);
  tall.edits.world = BoxWorld(100.0f);  // 20 m high
  lines = SizeWarnings(tall);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].text.find("prop box.glb is 11x the character's height (20 model units tall"),
            std::string::npos)
      << lines[0].text;
  tall.edits.world = BoxWorld(1.0f);
  EXPECT_TRUE(SizeWarnings(tall).empty());
}

}  // namespace
}  // namespace ikpose::scene
