// The humanoid map on real characters, checked against the bones their makers named (see
// the notes in ../shared/models, beside the checkout; skipped, saying so, when that folder is
// absent): pelvis, spine, chest, neck, head, clavicles and toes, and a facing the hips and
// shoulders agree on.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "asset/load_model.h"
#include "model_checks.h"

namespace ikpose::asset {
namespace {

namespace fs = std::filesystem;
using anim::Side;

struct Expected {
  const char* file;  // under ../shared/models; nullptr: the bundled character
  std::string pelvis, chest, neck, head, clavicle_l, toe_l;
  std::size_t spine_bones;
  glm::vec3 facing_ms;
};

void PrintTo(const Expected& e, std::ostream* os) {
  *os << (e.file ? e.file : "bundled");
}

std::string Name(const anim::Model& m, int bone) {
  return bone >= 0 ? m.skeleton.names[static_cast<std::size_t>(bone)] : "";
}

class HumanoidModels : public ::testing::TestWithParam<Expected> {};

TEST_P(HumanoidModels, MapsTheBonesItsMakerNamed) {
  const Expected& e = GetParam();
  fs::path path;
  if (e.file == nullptr) {
    path = test::DefaultCharacter();
    ASSERT_FALSE(path.empty());
  } else {
    if (test::SharedModelsDir().empty()) GTEST_SKIP() << "../shared/models is absent";
    path = test::SharedModelsDir() / e.file;
    if (!fs::exists(path)) GTEST_SKIP() << path << " is absent";
  }
  const anim::Model model = LoadModel(path);
  const anim::HumanoidMap& map = model.humanoid;
  EXPECT_EQ(Name(model, map.pelvis), e.pelvis);
  EXPECT_EQ(Name(model, map.chest), e.chest);
  EXPECT_EQ(map.spine.size(), e.spine_bones);
  EXPECT_EQ(Name(model, map.neck), e.neck);
  EXPECT_EQ(Name(model, map.head), e.head);
  EXPECT_EQ(Name(model, map.clavicle(Side::kLeft)), e.clavicle_l);
  EXPECT_EQ(Name(model, map.toe(Side::kLeft)), e.toe_l);
  ASSERT_TRUE(map.facing_valid);
  EXPECT_GT(glm::dot(map.facing_ms, e.facing_ms), 0.999f);
}

const glm::vec3 kZ{0.f, 0.f, 1.f};
const glm::vec3 kX{1.f, 0.f, 0.f};

INSTANTIATE_TEST_SUITE_P(
    Characters, HumanoidModels,
    ::testing::Values(
        Expected{nullptr, "pelvis", "spine_03", "neck_01", "head", "clavicle_l", "ball_l", 3, kZ},
        // Unnamed joints: structure alone.
        Expected{"CesiumMan/CesiumMan.glb", "nodes[2]", "nodes[12]", "nodes[19]", "nodes[20]", "",
                 "nodes[10]", 2, kX},
        Expected{"RiggedFigure/RiggedFigure.glb", "torso_joint_1", "torso_joint_3", "neck_joint_1",
                 "neck_joint_2", "", "leg_joint_L_5", 2, kZ},
        // Rigify: the hips bone is called "spine".
        Expected{"MaleBaseMesh/male_base_mesh.glb", "spine", "spine.003", "spine.004", "spine.005",
                 "shoulder.L", "toe.L", 3, kX},
        Expected{"Mesh2MotionHumanMale/human-male.glb", "pelvis", "spine_03", "neck_01", "head",
                 "clavicle_l", "ball_l", 3, kZ},
        // Legs hang from "Body" above "Hips"; the feet are IK-target bones with no toes.
        Expected{"QuaterniusRobot/robot.glb", "Body", "Torso", "Neck", "Head", "Shoulder.L", "", 3,
                 kZ}));

}  // namespace
}  // namespace ikpose::asset
