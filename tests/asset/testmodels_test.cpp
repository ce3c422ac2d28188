// The loader on Debian's assimp-testmodels: every file there that has a skin loads (and its
// clips sample), skeleton-only files load as skeletons, and every broken file gives one line
// naming the file and the reason. Skips, saying so, when the package is not installed.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "anim/skinning.h"
#include "asset/load_model.h"
#include "model_checks.h"

namespace ikpose::asset {
namespace {

namespace fs = std::filesystem;
using anim::Limb;

#define SKIP_WITHOUT_TESTMODELS()                                                        \
  if (test::AssimpTestModelsDir().empty()) {                                             \
    GTEST_SKIP() << "Debian's assimp-testmodels package is not installed; test skipped"; \
  }

struct Skinned {
  const char* file;
  int min_joints;
};

const Skinned kSkinned[] = {
    {"glTF2/simple_skin/simple_skin.gltf", 2},
    {"FBX/animation_with_skeleton.fbx", 14},
    {"FBX/huesitos.fbx", 9},
    {"X/BCN_Epileptic.X", 54},
    {"X/Testwuson.X", 37},
    {"X/anim_test.x", 4},
    {"X/test_cube_binary.x", 1},
    {"X/test_cube_compressed.x", 1},
    {"X/test_cube_text.x", 1},
    {"MD5/SimpleCube.md5mesh", 2},
    {"MDL/MDL (HL1)/man.mdl", 6},
    {"SMD/WusonSMD.smd", 1},
    {"SMD/holy_grailref.smd", 1},
    {"SMD/triangle.smd", 1},
};

class SkinnedTestModel : public ::testing::TestWithParam<Skinned> {};

TEST_P(SkinnedTestModel, LoadsWithItsSkinAndSamplesItsClips) {
  SKIP_WITHOUT_TESTMODELS();
  const fs::path path = test::AssimpTestModelsDir() / GetParam().file;
  if (!fs::exists(path)) GTEST_SKIP() << path << " is absent";
  anim::Model model;
  ASSERT_NO_THROW(model = LoadModel(path));
  test::ExpectWellFormed(model);
  EXPECT_TRUE(model.has_file_skin);
  EXPECT_GE(model.skeleton.JointCount(), GetParam().min_joints);
  bool any_skinned = false;
  for (const anim::Mesh& m : model.meshes) any_skinned = any_skinned || m.skinned;
  EXPECT_TRUE(any_skinned);
  for (const anim::Clip& clip : model.clips) {
    anim::Pose pose = anim::RestPose(model.skeleton);
    anim::SampleClip(clip, 0.5f * clip.duration, pose.locals_ls);
    anim::UpdateModels(model.skeleton, pose);
    for (int m = 0; m < static_cast<int>(model.meshes.size()); ++m) {
      for (const glm::vec3& p : anim::SkinnedPositions(model, m, pose)) {
        ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z));
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Files, SkinnedTestModel, ::testing::ValuesIn(kSkinned),
                         [](const ::testing::TestParamInfo<Skinned>& param_info) {
                           std::string name = param_info.param.file;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

std::string Joints(const anim::Model& m, Limb limb) {
  const anim::LimbChain& c = m.chains[limb];
  if (!c.valid()) return "";
  return m.skeleton.names[c.upper] + " " + m.skeleton.names[c.lower] + " " +
         m.skeleton.names[c.end];
}

TEST(TestModelChains, SkinnedXHumanByNames) {
  SKIP_WITHOUT_TESTMODELS();
  const anim::Model m = LoadModel(test::AssimpTestModelsDir() / "X/BCN_Epileptic.X");
  EXPECT_EQ(Joints(m, Limb::kLeftLeg), "B_Hip_Left B_Knee_Left B_Ankle_Left");
  EXPECT_EQ(Joints(m, Limb::kRightLeg), "B_Hip_Right B_Knee_Right B_Ankle_Right");
  EXPECT_EQ(Joints(m, Limb::kLeftArm), "B_UpperArm_Left B_ForeArm_Left B_Hand_Left");
  EXPECT_EQ(Joints(m, Limb::kRightArm), "B_UpperArm_Right B_ForeArm_Right B_Hand_Right");
  EXPECT_EQ(m.meshes.size(), 3u);
  const anim::Pose rest = anim::RestPose(m.skeleton);
  for (Limb limb : anim::kLimbs) {
    test::ExpectSolveKeepsTheContract(m, m.chains[limb], rest, std::string(anim::LimbName(limb)));
  }
}

TEST(TestModelChains, QuadrupedHindLegsAreLegsForeLegsAreArms) {
  SKIP_WITHOUT_TESTMODELS();
  const anim::Model m = LoadModel(test::AssimpTestModelsDir() / "X/Testwuson.X");
  EXPECT_EQ(Joints(m, Limb::kLeftLeg), "HindLeg_L_01 HindLeg_L_02 HindLeg_L_03");
  EXPECT_EQ(Joints(m, Limb::kLeftArm), "ForeLeg_L_01 ForeLeg_L_02 ForeLeg_L_03");
}

TEST(TestModelChains, MocapSkeletonsWithMixamoStyleNames) {
  SKIP_WITHOUT_TESTMODELS();
  for (const char* file : {"BVH/01_01.bvh", "BVH/01_03.bvh"}) {
    SCOPED_TRACE(file);
    const anim::Model m = LoadModel(test::AssimpTestModelsDir() / file);
    EXPECT_TRUE(m.meshes.empty());
    bool skeleton_only = false;
    for (const std::string& w : m.warnings)
      skeleton_only = skeleton_only || w.find("skeleton only") != std::string::npos;
    EXPECT_TRUE(skeleton_only);
    EXPECT_EQ(Joints(m, Limb::kLeftLeg), "LeftUpLeg LeftLeg LeftFoot");
    EXPECT_EQ(Joints(m, Limb::kRightLeg), "RightUpLeg RightLeg RightFoot");
    EXPECT_EQ(Joints(m, Limb::kLeftArm), "LeftArm LeftForeArm LeftHand");
    EXPECT_EQ(Joints(m, Limb::kRightArm), "RightArm RightForeArm RightHand");
    ASSERT_EQ(m.clips.size(), 1u);
    const anim::Pose rest = anim::RestPose(m.skeleton);
    test::ExpectSolveKeepsTheContract(m, m.chains[Limb::kLeftArm], rest, "left_arm");
  }
}

TEST(TestModelStatic, FileWithoutASkinLoadsStaticWithAWarning) {
  SKIP_WITHOUT_TESTMODELS();
  const anim::Model m =
      LoadModel(test::AssimpTestModelsDir() / "glTF2/BoxBadNormals-glTF-Binary/BoxBadNormals.glb");
  test::ExpectWellFormed(m);
  EXPECT_FALSE(m.has_file_skin);
  bool warned = false;
  for (const std::string& w : m.warnings) warned = warned || w.find("static") != std::string::npos;
  EXPECT_TRUE(warned);
  for (int i = 0; i < static_cast<int>(m.meshes.size()); ++i) {
    const anim::Mesh& mesh = m.meshes[static_cast<std::size_t>(i)];
    EXPECT_FALSE(mesh.skinned);
    // Rigid: at rest the palette is the identity, so skinned = stored positions.
    const std::vector<glm::vec3> p = anim::SkinnedPositions(m, i, anim::RestPose(m.skeleton));
    for (std::size_t v = 0; v < p.size(); ++v) {
      EXPECT_NEAR(glm::length(p[v] - mesh.positions_bs[v]), 0.f, 1e-5f);
    }
  }
}

struct Broken {
  const char* file;
  const char* reason;  // a part of the expected message
};

const Broken kBroken[] = {
    {"glTF2/IndexOutOfRange/IndexOutOfRange.gltf", "out-of-range indices"},
    {"glTF2/IndexOutOfRange/AllIndicesOutOfRange.gltf", "has no faces"},
    {"glTF2/SchemaFailures/sceneWrongType.gltf", "\"scene\" was not of type"},
    {"glTF2/wrongTypes/badArray.gltf", "\"primitives\" was not of type \"array\""},
    {"glTF2/wrongTypes/badExtension.gltf", "KHR_texture_transform"},
    {"glTF2/wrongTypes/badNumber.gltf", "\"scale\" was not of type \"number\""},
    {"glTF2/wrongTypes/badObject.gltf", "pbrMetallicRoughness"},
    {"glTF2/wrongTypes/badString.gltf", "\"name\" was not of type \"string\""},
    {"glTF2/wrongTypes/badUint.gltf", "\"index\" was not of type \"uint\""},
    {"glTF2/RecursiveNodes/RecursiveNodes.gltf", "recursive reference"},
    {"glTF2/TestNoRootNode/NoScene.gltf", "No scene"},
    {"glTF2/TestNoRootNode/SceneWithoutNodes.gltf", "no meshes"},
    {"glTF2/BoxWithInfinites-glTF-Binary/BoxWithInfinites.glb", "non-finite vertex position"},
    {"glTF2/MissingBin/BoxTextured.gltf", "BoxTextured0.bin"},
    {"glTF2/issue_3269/texcoord_crash.gltf", "TEXCOORD_1"},
    {"glTF/BoxTextured-glTF-Binary/BoxTextured.glb", "No suitable reader"},
    {"invalid/OutOfMemory.off", "OFF header claims"},
    {"invalid/empty.3ds", "empty"},
    {"invalid/empty.ase", "empty"},
    {"invalid/empty.lwo", "too small"},
    {"invalid/empty.md5mesh", "MD5"},
    {"invalid/empty.obj", "too small"},
    {"invalid/empty.off", "empty"},
    {"invalid/empty.ply", "empty"},
    {"invalid/empty.raw", "empty"},
    {"invalid/empty.smd", "empty"},
    {"invalid/empty.x", "too small"},
    {"invalid/emptyIrrMesh.xml", "IRRMESH"},
    {"invalid/malformed.obj", "Invalid face index"},
    {"invalid/readme.txt", "No suitable reader"},
};

class BrokenTestModel : public ::testing::TestWithParam<Broken> {};

TEST_P(BrokenTestModel, GivesOneLineNamingTheFileAndTheReason) {
  SKIP_WITHOUT_TESTMODELS();
  const fs::path path = test::AssimpTestModelsDir() / GetParam().file;
  if (!fs::exists(path)) GTEST_SKIP() << path << " is absent";
  try {
    LoadModel(path);
    ADD_FAILURE() << "loaded a broken file: " << path;
  } catch (const LoadError& e) {
    const std::string message = e.what();
    EXPECT_EQ(message.rfind(path.string() + ": ", 0), 0u) << message;
    EXPECT_NE(message.find(GetParam().reason), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
  anim::Model model;
  std::string error;
  EXPECT_FALSE(TryLoadModel(path, &model, &error));
  EXPECT_NE(error.find(GetParam().reason), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Files, BrokenTestModel, ::testing::ValuesIn(kBroken),
                         [](const ::testing::TestParamInfo<Broken>& param_info) {
                           std::string name = param_info.param.file;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

TEST(LoadErrors, MissingFileAndDirectory) {
  std::string error;
  anim::Model model;
  EXPECT_FALSE(TryLoadModel("/nonexistent/model.glb", &model, &error));
  EXPECT_EQ(error, "/nonexistent/model.glb: file not found");
  EXPECT_FALSE(TryLoadModel(IKPOSE_SOURCE_DIR, &model, &error));
  EXPECT_NE(error.find("is a directory"), std::string::npos);
}

}  // namespace
}  // namespace ikpose::asset
