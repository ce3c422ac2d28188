// The loader, chain detection and solving on the real characters in ../shared/models (each
// sets a trap, see its README) and on the bundled default character. Skips, saying so, when
// the files are absent.
#include <gtest/gtest.h>

#include <array>
#include <string>

#include "anim/apply_ik.h"
#include "anim/skinning.h"
#include "asset/load_model.h"
#include "model_checks.h"

namespace ikpose::asset {
namespace {

namespace fs = std::filesystem;
using anim::Limb;

struct Expected {
  const char* file;
  // left_arm, right_arm, left_leg, right_leg: "upper lower end", "" when not detected
  std::array<const char*, 4> chains;
  float height;  // model units
  int joints;    // skin joints
};

const Expected kModels[] = {
    {"CesiumMan/CesiumMan.glb",
     {"nodes[16] nodes[17] nodes[18]", "nodes[13] nodes[14] nodes[15]",
      "nodes[7] nodes[8] nodes[9]", "nodes[3] nodes[4] nodes[5]"},
     1.51f,
     19},
    {"RiggedFigure/RiggedFigure.glb",
     {"arm_joint_L_1 arm_joint_L_2 arm_joint_L_3", "arm_joint_R_1 arm_joint_R_2 arm_joint_R_3",
      "leg_joint_L_1 leg_joint_L_2 leg_joint_L_3", "leg_joint_R_1 leg_joint_R_2 leg_joint_R_3"},
     1.45f,
     19},
    {"RiggedSimple/RiggedSimple.glb", {"", "", "", ""}, 9.15f, 2},
    {"Fox/Fox.glb",
     {"b_LeftUpperArm_09 b_LeftForeArm_010 b_LeftHand_011",
      "b_RightUpperArm_06 b_RightForeArm_07 b_RightHand_08",
      "b_LeftLeg01_015 b_LeftLeg02_016 b_LeftFoot01_017",
      "b_RightLeg01_019 b_RightLeg02_020 b_RightFoot01_021"},
     79.0f,
     24},
    {"MaleBaseMesh/male_base_mesh.glb",
     {"upper_arm.L forearm.L hand.L", "upper_arm.R forearm.R hand.R", "thigh.L shin.L foot.L",
      "thigh.R shin.R foot.R"},
     1.95f,
     56},
    {"Mesh2MotionHumanMale/human-male.glb",
     {"upperarm_l lowerarm_l hand_l", "upperarm_r lowerarm_r hand_r", "thigh_l calf_l foot_l",
      "thigh_r calf_r foot_r"},
     1.83f,
     66},
    {"QuaterniusRobot/robot.glb",
     {"UpperArm.L LowerArm.L Palm2.L", "UpperArm.R LowerArm.R Palm2.R",
      "UpperLeg.L LowerLeg.L Foot.L", "UpperLeg.R LowerLeg.R Foot.R"},
     4.56f,
     43},
    {"Greenman/greenman.glb", {"", "", "", ""}, 2.03f, 12},
};

std::string Joints(const anim::Model& m, const anim::LimbChain& c) {
  if (!c.valid()) return "";
  const auto& n = m.skeleton.names;
  return n[c.upper] + " " + n[c.lower] + " " + n[c.end];
}

bool Mentions(const anim::Model& m, const std::string& what) {
  for (const std::string& w : m.warnings) {
    if (w.find(what) != std::string::npos) return true;
  }
  return false;
}

class SharedModel : public ::testing::TestWithParam<Expected> {
 protected:
  void SetUp() override {
    if (test::SharedModelsDir().empty()) {
      GTEST_SKIP() << "../shared/models is absent beside the checkout; the real-character "
                      "tests are skipped";
    }
    path_ = test::SharedModelsDir() / GetParam().file;
    if (!fs::exists(path_)) GTEST_SKIP() << path_ << " is absent";
    model_ = LoadModel(path_);
  }
  fs::path path_;
  anim::Model model_;
};

TEST_P(SharedModel, LoadsWellFormed) {
  test::ExpectWellFormed(model_);
  EXPECT_TRUE(model_.has_file_skin);
  EXPECT_EQ(model_.skeleton.JointCount(), GetParam().joints);
}

TEST_P(SharedModel, DetectsTheExpectedChains) {
  for (Limb limb : anim::kLimbs) {
    EXPECT_EQ(Joints(model_, model_.chains[limb]), GetParam().chains[static_cast<int>(limb)])
        << anim::LimbName(limb);
  }
}

TEST_P(SharedModel, SkinnedRestPoseHasTheModelsHeightAndStandsUp) {
  const anim::Pose rest = anim::RestPose(model_.skeleton);
  const anim::Bounds bounds = anim::ComputeBounds(model_, rest);
  ASSERT_FALSE(bounds.empty());
  const float height = bounds.max.y - bounds.min.y;
  EXPECT_NEAR(height, GetParam().height, 0.03f * GetParam().height);
  // Standing: the hips are above the feet (not upside down after a Z-up root).
  const anim::LimbChain& leg = model_.chains[Limb::kLeftLeg];
  if (leg.valid()) {
    EXPECT_GT(anim::PositionMs(rest, leg.upper).y, anim::EndPositionMs(leg, rest).y);
    EXPECT_LT(anim::EndPositionMs(leg, rest).y, bounds.min.y + 0.25f * height);
  }
}

TEST_P(SharedModel, SolvesEveryChainInTheRestPose) {
  const anim::Pose rest = anim::RestPose(model_.skeleton);
  for (Limb limb : anim::kLimbs) {
    if (model_.chains[limb].valid()) {
      test::ExpectSolveKeepsTheContract(model_, model_.chains[limb], rest,
                                        std::string(anim::LimbName(limb)) + " at rest");
    }
  }
}

TEST_P(SharedModel, SolvesEveryChainOnEachClip) {
  for (const anim::Clip& clip : model_.clips) {
    anim::Pose pose = anim::RestPose(model_.skeleton);
    anim::SampleClip(clip, 0.37f * clip.duration, pose.locals_ls);
    anim::UpdateModels(model_.skeleton, pose);
    for (Limb limb : anim::kLimbs) {
      if (model_.chains[limb].valid()) {
        test::ExpectSolveKeepsTheContract(
            model_, model_.chains[limb], pose,
            std::string(anim::LimbName(limb)) + " on clip '" + clip.name + "'");
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Models, SharedModel, ::testing::ValuesIn(kModels),
                         [](const ::testing::TestParamInfo<Expected>& param_info) {
                           std::string name = fs::path(param_info.param.file).stem().string();
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

anim::Model LoadShared(const char* file) {
  if (test::SharedModelsDir().empty()) return {};
  const fs::path path = test::SharedModelsDir() / file;
  if (!fs::exists(path)) return {};
  return LoadModel(path);
}

#define SKIP_IF_ABSENT(model)                                                       \
  if ((model).skeleton.size() == 0) {                                               \
    GTEST_SKIP() << "../shared/models is absent beside the checkout; test skipped"; \
  }

TEST(SharedModelTraps, UnweightedBonesAreKept) {
  // LimitBoneWeights would drop greenman's hip_L/hip_R and robot's Body, Torso, Neck...
  const anim::Model greenman = LoadShared("Greenman/greenman.glb");
  SKIP_IF_ABSENT(greenman);
  for (const char* bone : {"hip_L", "hip_R", "socket_hand_L", "socket_hat"}) {
    const int b = greenman.skeleton.Find(bone);
    ASSERT_GE(b, 0) << bone;
    EXPECT_TRUE(greenman.skeleton.IsJoint(b)) << bone;
  }
  EXPECT_TRUE(Mentions(greenman, "shorter than 2 bones"));
  const anim::Model robot = LoadShared("QuaterniusRobot/robot.glb");
  for (const char* bone : {"Bone", "Body", "Abdomen", "Torso", "Neck", "PoleTarget.L"}) {
    const int b = robot.skeleton.Find(bone);
    ASSERT_GE(b, 0) << bone;
    EXPECT_TRUE(robot.skeleton.IsJoint(b)) << bone;
  }
}

TEST(SharedModelTraps, DuplicateNodeNamesResolveToTheBones) {
  // robot.glb: mesh nodes named Foot.L, LowerLeg.L, Head... come before the bones.
  const anim::Model robot = LoadShared("QuaterniusRobot/robot.glb");
  SKIP_IF_ABSENT(robot);
  const anim::Skeleton& s = robot.skeleton;
  const int foot = s.Find("Foot.L");
  ASSERT_GE(foot, 0);
  EXPECT_TRUE(s.IsJoint(foot));
  EXPECT_EQ(s.names[s.parents[foot]], "Bone");
  // Every skin joint is a bone node, never one of the mesh nodes with the same name.
  for (const anim::Skin& skin : robot.skins) {
    for (int j : skin.joints) EXPECT_EQ(s.flags[j] & anim::kBoneHasMesh, 0) << s.names[j];
  }
  // 19 meshes, one skin shared by all.
  EXPECT_EQ(robot.meshes.size(), 19u);
  EXPECT_EQ(robot.skins.size(), 1u);
  EXPECT_EQ(robot.clips.size(), 14u);
  const anim::LimbChain& leg = robot.chains[Limb::kLeftLeg];
  EXPECT_FALSE(leg.end_is_child);
}

TEST(SharedModelTraps, SkinnedMeshNodeTransformIsNotAppliedTwice) {
  // male_base_mesh: the armature root is 1 unit down and turned 90 degrees; the mesh node is
  // its child. Skinned correctly the feet are near y = -1.0 and the head top near 0.95.
  const anim::Model male = LoadShared("MaleBaseMesh/male_base_mesh.glb");
  SKIP_IF_ABSENT(male);
  const anim::Bounds bounds = anim::ComputeBounds(male, anim::RestPose(male.skeleton));
  EXPECT_NEAR(bounds.min.y, -1.0f, 0.05f);
  EXPECT_NEAR(bounds.max.y, 0.95f, 0.05f);
  // The mesh sits on the skeleton: the skinned vertices' x/z span contains the hip joints.
  const anim::Pose rest = anim::RestPose(male.skeleton);
  const glm::vec3 hip = anim::PositionMs(rest, male.chains[Limb::kLeftLeg].upper);
  EXPECT_GT(hip.z, bounds.min.z);
  EXPECT_LT(hip.z, bounds.max.z);
  EXPECT_GT(hip.x, bounds.min.x);
  EXPECT_LT(hip.x, bounds.max.x);
}

TEST(SharedModelTraps, ZUpRootsAreNotAppliedTwice) {
  for (const char* file : {"CesiumMan/CesiumMan.glb", "RiggedFigure/RiggedFigure.glb"}) {
    const anim::Model model = LoadShared(file);
    SKIP_IF_ABSENT(model);
    const anim::Bounds bounds = anim::ComputeBounds(model, anim::RestPose(model.skeleton));
    EXPECT_NEAR(bounds.min.y, 0.f, 0.05f) << file;  // feet on the ground, head up
    EXPECT_GT(bounds.max.y, 1.4f) << file;
  }
}

TEST(SharedModelTraps, CentimetreScaleIsReported) {
  const anim::Model fox = LoadShared("Fox/Fox.glb");
  SKIP_IF_ABSENT(fox);
  EXPECT_TRUE(Mentions(fox, "centimetres"));
  EXPECT_EQ(fox.clips.size(), 3u);
  EXPECT_EQ(fox.clips[0].name, "Survey");
}

TEST(SharedModelTraps, EmbeddedTexturesAreKeptAsEncodedBytes) {
  const anim::Model cesium = LoadShared("CesiumMan/CesiumMan.glb");
  SKIP_IF_ABSENT(cesium);
  ASSERT_EQ(cesium.textures.size(), 1u);
  EXPECT_GT(cesium.textures[0].encoded.size(), 1000u);
  EXPECT_TRUE(cesium.textures[0].path.empty());
  bool used = false;
  for (const anim::Mesh& m : cesium.meshes) {
    used = used || (m.material >= 0 && cesium.materials[m.material].base_color_texture == 0);
  }
  EXPECT_TRUE(used);
}

TEST(SharedModelTraps, UnnamedClipsAnswerToTheirIndex) {
  const anim::Model cesium = LoadShared("CesiumMan/CesiumMan.glb");
  SKIP_IF_ABSENT(cesium);
  ASSERT_EQ(cesium.clips.size(), 1u);
  EXPECT_EQ(cesium.clips[0].name, "");
  EXPECT_EQ(anim::FindClip(cesium, "0"), 0);
  EXPECT_EQ(anim::FindClip(cesium, ""), 0);
  EXPECT_NEAR(cesium.clips[0].duration, 2.0f, 1e-3f);
}

TEST(SharedModelTraps, IkMovesOnlyTheVerticesOfTheLimb) {
  const anim::Model human = LoadShared("Mesh2MotionHumanMale/human-male.glb");
  SKIP_IF_ABSENT(human);
  const anim::Pose rest = anim::RestPose(human.skeleton);
  anim::Pose pose = rest;
  const anim::LimbChain& arm = human.chains[Limb::kLeftArm];
  const glm::vec3 target = anim::PositionMs(rest, arm.upper) + glm::vec3(0.2f, -0.3f, 0.2f);
  ASSERT_TRUE(anim::SolveChainOnPose(human.skeleton, arm, target, {}, pose).ok);
  const std::vector<glm::vec3> before = anim::SkinnedPositions(human, 0, rest);
  const std::vector<glm::vec3> after = anim::SkinnedPositions(human, 0, pose);
  int moved = 0;
  float lowest_moved = 1e9f;
  for (std::size_t v = 0; v < before.size(); ++v) {
    if (glm::length(after[v] - before[v]) > 1e-4f) {
      ++moved;
      lowest_moved = std::min(lowest_moved, before[v].y);
    }
  }
  EXPECT_GT(moved, 100);
  EXPECT_LT(moved, static_cast<int>(before.size()) / 2);
  EXPECT_GT(lowest_moved, 1.0f);  // no leg vertex moved
}

TEST(DefaultCharacter, LoadsDetectsFourLimbsAndSolvesThem) {
  const fs::path file = test::DefaultCharacter();
  if (file.empty()) GTEST_SKIP() << "assets/character.glb does not exist yet; test skipped";
  const anim::Model model = LoadModel(file);
  test::ExpectWellFormed(model);
  EXPECT_TRUE(model.has_file_skin);
  const anim::Pose rest = anim::RestPose(model.skeleton);
  for (Limb limb : anim::kLimbs) {
    ASSERT_TRUE(model.chains[limb].valid()) << anim::LimbName(limb);
    test::ExpectSolveKeepsTheContract(model, model.chains[limb], rest,
                                      std::string(anim::LimbName(limb)));
  }
  for (const anim::Clip& clip : model.clips) {
    anim::Pose pose = rest;
    anim::SampleClip(clip, 0.5f * clip.duration, pose.locals_ls);
    anim::UpdateModels(model.skeleton, pose);
    for (Limb limb : anim::kLimbs) {
      test::ExpectSolveKeepsTheContract(model, model.chains[limb], pose,
                                        std::string(anim::LimbName(limb)) + " on " + clip.name);
    }
  }
}

}  // namespace
}  // namespace ikpose::asset
