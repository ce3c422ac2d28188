// Pose files read back: a pose report written by PoseReport gives the same pose; the model path
// resolves against the file; bones are matched by name; bad files are one line naming the file.
#include <gtest/gtest.h>

#include <unistd.h>

#include <fstream>
#include <string>

#include "anim/apply_ik.h"
#include "asset/report.h"
#include "scene/files/pose_file.h"
#include "support/rigs.h"

namespace ikpose::asset {
namespace {

using scene::PoseFile;
using scene::PoseFromFile;
using scene::ReadPoseFile;
namespace fs = std::filesystem;

class PoseFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ikpose-pose-file-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    model_ = test::TwoLegRig();
    model_.source = (dir_ / "rig.glb").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path Write(const std::string& name, const std::string& text) const {
    const fs::path file = dir_ / name;
    std::ofstream(file) << text;
    return file;
  }

  // Reads `text` as a pose file and applies it to the rig; the error when either fails.
  std::string ErrorFor(const std::string& text) const {
    PoseFile file;
    std::string error;
    const fs::path path = Write("bad.json", text);
    if (!ReadPoseFile(path, &file, &error)) return error;
    anim::Pose pose;
    if (!PoseFromFile(file, model_, &pose, nullptr, &error)) return error;
    return "";
  }

  fs::path dir_;
  anim::Model model_;
};

TEST_F(PoseFileTest, MissingFileIsOneLineNamingIt) {
  PoseFile file;
  std::string error;
  EXPECT_FALSE(ReadPoseFile(dir_ / "nope.json", &file, &error));
  EXPECT_EQ(error, (dir_ / "nope.json").string() + ": file not found");
  EXPECT_FALSE(ReadPoseFile(dir_, &file, &error));
  EXPECT_NE(error.find("is a directory"), std::string::npos) << error;
}

TEST_F(PoseFileTest, MalformedFilesAreOneLineNamingFileAndField) {
  const std::string bad = (dir_ / "bad.json").string() + ": ";
  EXPECT_EQ(ErrorFor("{\"bones\": ["), bad + "not valid JSON (byte 12)");
  EXPECT_EQ(ErrorFor("[]"), bad + "not a pose file (the top level must be an object)");
  EXPECT_EQ(ErrorFor("{}"), bad + "not a pose file (no \"bones\")");
  EXPECT_EQ(ErrorFor("{\"bones\": {}}"), bad + "\"bones\" must be an array");
  EXPECT_EQ(ErrorFor("{\"bones\": []}"), bad + "\"bones\" is empty");
  EXPECT_EQ(ErrorFor("{\"model\": 3, \"bones\": []}"), bad + "\"model\" must be a string");
  EXPECT_EQ(ErrorFor("{\"bones\": [{\"rotation_ls\": [0, 0, 0, 1]}]}"),
            bad + "bones[0]: \"name\" must be a non-empty string");
  EXPECT_EQ(ErrorFor("{\"bones\": [{\"name\": \"pelvis\"}]}"),
            bad + "bones[0] ('pelvis'): \"rotation_ls\" is missing");
  EXPECT_EQ(ErrorFor("{\"bones\": [{\"name\": \"pelvis\", \"rotation_ls\": [0, 0, 1]}]}"),
            bad + "bones[0] ('pelvis'): \"rotation_ls\" must be [x, y, z, w]");
  EXPECT_EQ(ErrorFor("{\"bones\": [{\"name\": \"pelvis\", \"rotation_ls\": [0, 0, 0, \"1\"]}]}"),
            bad + "bones[0] ('pelvis'): \"rotation_ls\" must be [x, y, z, w]");
  EXPECT_EQ(ErrorFor("{\"bones\": [{\"name\": \"pelvis\", \"rotation_ls\": [0, 0, 0, 2]}]}"),
            bad + "bones[0] ('pelvis'): \"rotation_ls\" is not a unit quaternion (length 2)");
  EXPECT_EQ(ErrorFor("{\"bones\": [{\"name\": \"pelvis\", \"rotation_ls\": [0, 0, 0, 1], "
                     "\"scale_ls\": [1, 1]}]}"),
            bad + "bones[0] ('pelvis'): \"scale_ls\" must be [x, y, z]");
}

TEST_F(PoseFileTest, NonFiniteNumbersAreRefused) {
  const std::string bad = (dir_ / "bad.json").string() + ": ";
  EXPECT_EQ(ErrorFor("{\"bones\": [{\"name\": \"pelvis\", \"rotation_ls\": [0, 0, 0, 1e999]}]}"),
            bad + "holds a non-finite number (out of a double's range)");
  EXPECT_EQ(ErrorFor("{\"bones\": [{\"name\": \"pelvis\", \"rotation_ls\": [0, 0, 0, 1], "
                     "\"translation_ls\": [0, 1e300, 0]}]}"),
            bad + "bones[0] ('pelvis'): \"translation_ls\" holds a non-finite number");
  EXPECT_EQ(ErrorFor("{\"bones\": [{\"name\": \"pelvis\", \"rotation_ls\": [0, 0, 0, NaN]}]}")
                .find("not valid JSON"),
            bad.size());
}

TEST_F(PoseFileTest, BonesTheModelLacksAreAnError) {
  const std::string bad = (dir_ / "bad.json").string() + ": ";
  EXPECT_EQ(ErrorFor("{\"bones\": [{\"name\": \"pelvis\", \"rotation_ls\": [0, 0, 0, 1]}, "
                     "{\"name\": \"tail\", \"rotation_ls\": [0, 0, 0, 1]}]}"),
            bad + "bone 'tail' is not in rig.glb");
  EXPECT_EQ(ErrorFor("{\"bones\": [{\"name\": \"Hips\", \"rotation_ls\": [0, 0, 0, 1]}, "
                     "{\"name\": \"Spine\", \"rotation_ls\": [0, 0, 0, 1]}]}"),
            bad + "none of its 2 bones is in rig.glb (a pose for another model?)");
  EXPECT_EQ(ErrorFor("{\"bones\": [{\"name\": \"pelvis\", \"rotation_ls\": [0, 0, 0, 1]}, "
                     "{\"name\": \"pelvis\", \"rotation_ls\": [0, 0, 0, 1]}]}"),
            bad + "bone 'pelvis' is listed more often than rig.glb has it");
}

TEST_F(PoseFileTest, ReportWrittenByPoseReadsBackAsThePose) {
  const anim::Pose rest = anim::RestPose(model_.skeleton);
  anim::Pose pose = rest;
  model_.chains = anim::DetectChains(model_.skeleton, rest);
  const anim::LimbChain& leg = model_.chains[anim::Limb::kLeftLeg];
  ASSERT_TRUE(leg.valid());
  ASSERT_TRUE(
      anim::SolveChainOnPose(model_.skeleton, leg, glm::vec3(0.15f, 0.4f, 0.3f), {}, pose).ok);
  pose.locals_ls[0].translation += glm::vec3(0.01f, -0.2f, 0.05f);  // a clip moves the pelvis
  pose.locals_ls[0].scale = glm::vec3(1.f, 1.1f, 1.f);
  anim::UpdateModels(model_.skeleton, pose);
  Json saved = PoseReport(model_, rest, pose, {});
  saved["model"] = "rig.glb";
  const fs::path path = Write("pose.json", saved.dump(2));

  PoseFile file;
  std::string error;
  ASSERT_TRUE(ReadPoseFile(path, &file, &error)) << error;
  EXPECT_EQ(file.ModelPath(), dir_ / "rig.glb");
  anim::Pose back;
  int unlisted = -1;
  ASSERT_TRUE(PoseFromFile(file, model_, &back, &unlisted, &error)) << error;
  EXPECT_EQ(unlisted, 0);
  for (int b = 0; b < model_.skeleton.size(); ++b) {
    SCOPED_TRACE(model_.skeleton.names[b]);
    EXPECT_LT(glm::length(back.locals_ls[b].translation - pose.locals_ls[b].translation), 1e-6f);
    EXPECT_GT(std::abs(glm::dot(back.locals_ls[b].rotation, pose.locals_ls[b].rotation)),
              1.f - 1e-6f);
    EXPECT_LT(glm::length(back.locals_ls[b].scale - pose.locals_ls[b].scale), 1e-6f);
    EXPECT_LT(glm::length(anim::PositionMs(back, b) - anim::PositionMs(pose, b)), 1e-5f);
  }
}

TEST_F(PoseFileTest, UnlistedBonesAndFieldsKeepTheRest) {
  const fs::path path = Write("partial.json",
                              "{\"model\": \"/models/rig.glb\", \"bones\": [{\"name\": "
                              "\"calf_l\", \"rotation_ls\": [0.7071068, 0, 0, 0.7071068]}]}");
  PoseFile file;
  std::string error;
  ASSERT_TRUE(ReadPoseFile(path, &file, &error)) << error;
  EXPECT_EQ(file.ModelPath(), fs::path("/models/rig.glb"));  // absolute stays absolute
  anim::Pose pose;
  int unlisted = -1;
  ASSERT_TRUE(PoseFromFile(file, model_, &pose, &unlisted, &error)) << error;
  EXPECT_EQ(unlisted, model_.skeleton.size() - 1);
  const int calf = model_.skeleton.Find("calf_l");
  EXPECT_EQ(pose.locals_ls[calf].translation, model_.skeleton.rest_ls[calf].translation);
  EXPECT_NEAR(glm::angle(pose.locals_ls[calf].rotation), glm::radians(90.f), 1e-5f);
  EXPECT_EQ(pose.locals_ls[0].translation, model_.skeleton.rest_ls[0].translation);
  // The foot follows its turned calf.
  const int foot = model_.skeleton.Find("foot_l");
  EXPECT_GT(glm::length(anim::PositionMs(pose, foot) -
                        anim::PositionMs(anim::RestPose(model_.skeleton), foot)),
            0.1f);
}

}  // namespace
}  // namespace ikpose::asset
