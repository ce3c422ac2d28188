// The pose library: a pose saved is read back by a new library over the same folder and applies
// whole, to one limb only (the others untouched) or blended (each bone halfway by slerp); it
// applies by bone name to another rig, reporting the names that rig lacks; rename and delete
// move or remove both files; a broken file is one line on its own entry and the rest still
// load; a failed save leaves nothing behind.
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <glm/gtc/quaternion.hpp>

#include "anim/test_rigs.h"
#include "scene/files/pose_library.h"
#include "support/files.h"
#include "support/glm_expect.h"

namespace ikpose::scene {
namespace {

namespace fs = std::filesystem;
using anim::Limb;
using ikpose::test::AngleDeg;

const std::string kPng = std::string("\x89PNG\r\n\x1a\n", 8) + "thumbnail bytes";

// A pose far from rest: the chest, both arms, a leg and the head turned.
void PoseSomething(PosingSession& s) {
  const anim::Skeleton& k = s.model().skeleton;
  const auto turn = [&](const char* name, float deg, glm::vec3 axis) {
    const int b = k.Find(name);
    ASSERT_GE(b, 0) << name;
    const glm::quat q = s.pose().locals_ls[static_cast<std::size_t>(b)].rotation;
    ASSERT_TRUE(s.SetBoneRotation(b, q * glm::angleAxis(glm::radians(deg), axis)));
    s.Evaluate();  // an edit is solved by the next Evaluate
  };
  turn("spine_02", 20.0f, {1, 0, 0});
  turn("upperarm_l", 50.0f, {0, 0, 1});
  turn("lowerarm_l", 70.0f, {0, 1, 0});
  turn("upperarm_r", -40.0f, {0, 0, 1});
  turn("thigh_l", 35.0f, {1, 0, 0});
  turn("neck_01", 15.0f, {0, 1, 0});
}

class PoseLibraryTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ikpose-library-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
  }
  void TearDown() override {
    fs::permissions(dir_, fs::perms::owner_all, fs::perm_options::add);
    fs::remove_all(dir_);
  }
  // Saves a posed humanoid as `name` and returns the rotations it saved.
  anim::Pose SaveWave(const std::string& name = "wave") {
    PosingSession saved(model_);
    PoseSomething(saved);
    PoseLibrary library(dir_);
    std::string error;
    EXPECT_TRUE(library.Save(name, saved, "", kPng, &error)) << error;
    return saved.pose();
  }
  const PoseFile& Loaded(const PoseLibrary& library, const std::string& name) {
    const LibraryEntry* e = library.Find(name);
    EXPECT_NE(e, nullptr) << name;
    EXPECT_EQ(e->error, "");
    return e->pose;
  }

  fs::path dir_;
  anim::Model model_ = anim::test::MakeHumanoidModel();
};

TEST_F(PoseLibraryTest, SavedPoseReadBackByANewLibraryAppliesWhole) {
  const anim::Pose wanted = SaveWave();
  EXPECT_EQ(test::Listing(dir_), (std::vector<std::string>{"wave.json", "wave.png"}));
  const PoseLibrary reopened(dir_);  // as a new program would read the folder
  ASSERT_EQ(reopened.entries().size(), 1u);
  const LibraryEntry& e = reopened.entries()[0];
  EXPECT_EQ(e.name, "wave");
  EXPECT_EQ(e.thumbnail, kPng);
  EXPECT_EQ(e.thumbnail_error, "");

  PosingSession session(model_);
  const ApplyResult r = ApplyPose(Loaded(reopened, "wave"), {}, session);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.unmatched.empty());
  for (int b = 0; b < model_.skeleton.size(); ++b) {
    const auto i = static_cast<std::size_t>(b);
    EXPECT_LT(AngleDeg(session.pose().locals_ls[i].rotation, wanted.locals_ls[i].rotation), 0.01f)
        << model_.skeleton.names[i];
    EXPECT_LT(glm::length(session.pose().models_ms[i][3] - wanted.models_ms[i][3]), 1e-5f)
        << model_.skeleton.names[i];
  }
}

// Both arms out of reach, the body helping them: applying a pose lets both arms go at once,
// and the body keeps what the help gave it, once (the pelvis does not jump).
TEST_F(PoseLibraryTest, ApplyingWhileTheBodyHelpsBothArmsKeepsThePelvisWhereItWas) {
  SaveWave();
  const PoseLibrary library(dir_);
  PosingSession session(model_);
  session.Evaluate();
  for (Limb arm : {Limb::kLeftArm, Limb::kRightArm}) {
    LimbTarget& t = session.target(arm);
    ASSERT_TRUE(t.available);
    t.target_ms = session.resting_target(arm) + glm::vec3(0.0f, -0.6f, 0.5f);
  }
  session.Evaluate();
  ASSERT_TRUE(session.body_help_report().moved_pelvis());
  const auto pelvis = static_cast<std::size_t>(session.body_bone());
  const glm::vec3 before_ms = session.pose().models_ms[pelvis][3];
  ASSERT_TRUE(ApplyPose(Loaded(library, "wave"), {}, session).ok);
  EXPECT_FALSE(session.target(Limb::kLeftArm).given);
  EXPECT_FALSE(session.target(Limb::kRightArm).given);
  EXPECT_LT(glm::length(glm::vec3(session.pose().models_ms[pelvis][3]) - before_ms), 1e-4f);
}

TEST_F(PoseLibraryTest, OneLimbOnlyLeavesTheOtherLimbsAndTheSpine) {
  const anim::Pose wanted = SaveWave();
  const PoseLibrary library(dir_);
  PosingSession session(model_);
  const anim::Pose before = session.pose();
  ApplyOptions options;
  options.whole = false;
  options.limbs[static_cast<std::size_t>(Limb::kLeftArm)] = true;
  ASSERT_TRUE(ApplyPose(Loaded(library, "wave"), options, session).ok);
  const int upper = session.chain(Limb::kLeftArm).upper;
  int changed = 0;
  for (int b = 0; b < model_.skeleton.size(); ++b) {
    const auto i = static_cast<std::size_t>(b);
    const glm::quat now = session.pose().locals_ls[i].rotation;
    if (model_.skeleton.IsAncestorOrSelf(upper, b)) {
      EXPECT_LT(AngleDeg(now, wanted.locals_ls[i].rotation), 0.01f) << model_.skeleton.names[i];
      changed += AngleDeg(before.locals_ls[i].rotation, now) > 1.0f;
    } else {
      EXPECT_LT(AngleDeg(now, before.locals_ls[i].rotation), 1e-3f)
          << model_.skeleton.names[i] << " is not in the left arm";
    }
  }
  EXPECT_EQ(changed, 2);  // the upper arm and the forearm were turned in the saved pose
}

TEST_F(PoseLibraryTest, HalfBlendTurnsEachBoneHalfwayBySlerp) {
  const anim::Pose wanted = SaveWave();
  const PoseLibrary library(dir_);
  PosingSession session(model_);
  const anim::Pose before = session.pose();
  ApplyOptions options;
  options.blend = 0.5f;
  ASSERT_TRUE(ApplyPose(Loaded(library, "wave"), options, session).ok);
  int checked = 0;
  for (int b = 0; b < model_.skeleton.size(); ++b) {
    const auto i = static_cast<std::size_t>(b);
    const float full = AngleDeg(before.locals_ls[i].rotation, wanted.locals_ls[i].rotation);
    const glm::quat now = session.pose().locals_ls[i].rotation;
    EXPECT_NEAR(AngleDeg(before.locals_ls[i].rotation, now), 0.5f * full, 0.01f)
        << model_.skeleton.names[i];
    EXPECT_NEAR(AngleDeg(now, wanted.locals_ls[i].rotation), 0.5f * full, 0.01f)
        << model_.skeleton.names[i];
    checked += full > 10.0f;
  }
  EXPECT_GE(checked, 5);
}

TEST_F(PoseLibraryTest, AppliesByNameToAnotherRigAndReportsTheNamesItLacks) {
  const anim::Pose wanted = SaveWave();
  anim::test::HumanoidNames names = anim::test::UnrealNames();
  names.hand_l = "wrist_left";  // the other rig calls two bones differently
  names.neck = "neck_other";
  const anim::Model other = anim::test::MakeHumanoidModel(names);
  const PoseLibrary library(dir_);
  PosingSession session(other);
  const ApplyResult r = ApplyPose(Loaded(library, "wave"), {}, session);
  ASSERT_TRUE(r.ok) << r.error;
  std::vector<std::string> unmatched = r.unmatched;
  std::sort(unmatched.begin(), unmatched.end());
  EXPECT_EQ(unmatched, (std::vector<std::string>{"hand_l", "neck_01"}));
  const int forearm = other.skeleton.Find("lowerarm_l");
  const int forearm_saved = model_.skeleton.Find("lowerarm_l");
  EXPECT_LT(AngleDeg(session.pose().locals_ls[static_cast<std::size_t>(forearm)].rotation,
                     wanted.locals_ls[static_cast<std::size_t>(forearm_saved)].rotation),
            0.01f);
  EXPECT_EQ(r.applied, other.skeleton.size() - 2);
}

TEST_F(PoseLibraryTest, RenameAndDeleteMoveOrRemoveBothFiles) {
  SaveWave("wave");
  SaveWave("crouch");
  PoseLibrary library(dir_);
  std::string error;
  EXPECT_FALSE(library.Rename("wave", "crouch", &error));
  EXPECT_NE(error.find("already"), std::string::npos) << error;
  for (const std::string& bad :
       std::vector<std::string>{"", "../up", "a/b", "a\\b", ".hidden", "new\nline",
                                std::string(PoseLibrary::kMaxNameBytes + 1, 'x')}) {
    EXPECT_FALSE(library.Rename("wave", bad, &error)) << bad;
    EXPECT_FALSE(library.Save(bad, PosingSession(model_), "", kPng, &error)) << bad;
  }
  ASSERT_TRUE(library.Rename("wave", "wave two", &error)) << error;
  EXPECT_EQ(test::Listing(dir_), (std::vector<std::string>{"crouch.json", "crouch.png",
                                                           "wave two.json", "wave two.png"}));
  EXPECT_EQ(PoseLibrary(dir_).Find("wave two")->thumbnail, kPng);
  ASSERT_TRUE(library.Delete("crouch", &error)) << error;
  EXPECT_EQ(test::Listing(dir_), (std::vector<std::string>{"wave two.json", "wave two.png"}));
  ASSERT_EQ(library.entries().size(), 1u);
  EXPECT_EQ(library.entries()[0].name, "wave two");
}

TEST_F(PoseLibraryTest, ABrokenFileIsOneLineOnItsEntryAndTheRestLoad) {
  SaveWave("good");
  std::ofstream(dir_ / "bad json.json") << "{\"bones\": [";
  std::ofstream(dir_ / "wrong types.json") << "{\"bones\": [{\"name\": 3}]}";
  std::ofstream(dir_ / "huge.json") << std::string(PoseLibrary::kMaxPoseBytes + 1, ' ');
  ASSERT_EQ(::mkfifo((dir_ / "fifo.json").c_str(), 0600), 0);
  SaveWave("bad picture");
  std::ofstream(dir_ / "bad picture.png", std::ios::trunc) << "GIF89a not a png";
  const PoseLibrary library(dir_);  // must not block on the FIFO
  ASSERT_EQ(library.entries().size(), 6u);
  for (const LibraryEntry& e : library.entries()) {
    const bool broken_pose = e.name != "good" && e.name != "bad picture";
    EXPECT_EQ(e.error.empty(), !broken_pose) << e.name << ": " << e.error;
    EXPECT_EQ(e.error.find('\n'), std::string::npos) << e.error;
    if (broken_pose) {
      EXPECT_NE(e.error.find(e.name + ".json"), std::string::npos) << e.error;
    }
  }
  const LibraryEntry* picture = library.Find("bad picture");
  EXPECT_NE(picture->thumbnail_error.find("not a PNG"), std::string::npos);
  EXPECT_TRUE(picture->thumbnail.empty());
  EXPECT_EQ(library.Find("good")->thumbnail, kPng);
  PosingSession session(model_);
  EXPECT_TRUE(ApplyPose(library.Find("good")->pose, {}, session).ok);
  EXPECT_TRUE(ApplyPose(picture->pose, {}, session).ok);  // its pose still applies
}

TEST_F(PoseLibraryTest, AFailedSaveLeavesNothingBehind) {
  fs::create_directories(dir_ / "taken.json");  // the pose file's place is a directory
  PoseLibrary library(dir_);
  std::string error;
  EXPECT_FALSE(library.Save("taken", PosingSession(model_), "", kPng, &error));
  EXPECT_NE(error, "");
  EXPECT_EQ(test::Listing(dir_), (std::vector<std::string>{"taken.json"}));  // no picture, no temp
  if (::geteuid() != 0) {  // root writes into a read-only folder anyway
    fs::permissions(dir_, fs::perms::owner_read | fs::perms::owner_exec);
    EXPECT_FALSE(library.Save("other", PosingSession(model_), "", kPng, &error));
    fs::permissions(dir_, fs::perms::owner_all);
    EXPECT_EQ(test::Listing(dir_), (std::vector<std::string>{"taken.json"}));
  }
}

TEST_F(PoseLibraryTest, ASaveThatFailsMidWriteKeepsTheOldPoseAndPictureWhole) {
  SaveWave();
  const std::string old_pose = test::FileBytes(dir_ / "wave.json");
  const std::string old_png = test::FileBytes(dir_ / "wave.png");
  ASSERT_GT(old_pose.size(), 512u);
  // The disk fills after 256 bytes (a file-size limit, in a child): the new pose and its bigger
  // picture cannot be written whole, so the library must keep the old ones as they were.
  const auto save_on_a_full_disk = [&] {
    std::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{256, 256};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    PosingSession other(model_);
    PoseLibrary library(dir_);
    std::string error;
    const bool ok = library.Save("wave", other, "", kPng + std::string(4096, 'p'), &error);
    std::_Exit(!ok && !error.empty() ? 3 : 4);
  };
  EXPECT_EXIT(save_on_a_full_disk(), ::testing::ExitedWithCode(3), "");
  EXPECT_EQ(test::FileBytes(dir_ / "wave.json"), old_pose);
  EXPECT_EQ(test::FileBytes(dir_ / "wave.png"), old_png);
  EXPECT_EQ(test::Listing(dir_), (std::vector<std::string>{"wave.json", "wave.png"}));
  const PoseLibrary library(dir_);
  Loaded(library, "wave");
}

TEST_F(PoseLibraryTest, FlippedApplyPutsEveryBoneOnItsCounterpartsMirrorImage) {
  const anim::Pose saved = SaveWave();
  const PoseLibrary library(dir_);
  PosingSession session(model_);
  ApplyOptions options;
  options.flip = true;
  const ApplyResult r = ApplyPose(Loaded(library, "wave"), options, session);
  ASSERT_TRUE(r.ok) << r.error;
  const anim::MirrorMap& map = session.mirror_map();
  ASSERT_TRUE(map.symmetric());
  int sides = 0;
  for (int b = 0; b < model_.skeleton.size(); ++b) {
    const int c = map.counterpart[static_cast<std::size_t>(b)];
    if (c != b) ++sides;
    const glm::vec3 want = map.plane.Reflect(anim::PositionMs(saved, c));
    EXPECT_LT(glm::length(anim::PositionMs(session.pose(), b) - want), 1e-5f)
        << model_.skeleton.names[static_cast<std::size_t>(b)] << " is not on the mirror image of "
        << model_.skeleton.names[static_cast<std::size_t>(c)];
  }
  EXPECT_GT(sides, 10) << "the left and right bones were paired";
  // The left hand was raised in the saved pose: flipped, the right hand is.
  const int hand_r = model_.skeleton.Find("hand_r");
  const int hand_l = model_.skeleton.Find("hand_l");
  EXPECT_NEAR(anim::PositionMs(session.pose(), hand_r).y, anim::PositionMs(saved, hand_l).y, 1e-5f);
}

TEST(PoseLibraryFolder, DefaultsToTheUsersDataFolder) {
  const char* old = std::getenv("XDG_DATA_HOME");
  const std::string saved = old != nullptr ? old : "";
  ::setenv("XDG_DATA_HOME", "/data/home", 1);
  EXPECT_EQ(DefaultLibraryFolder(), fs::path("/data/home/ikpose/poses"));
  ::unsetenv("XDG_DATA_HOME");
  const char* home = std::getenv("HOME");
  if (home != nullptr && home[0] == '/') {
    EXPECT_EQ(DefaultLibraryFolder(), fs::path(home) / ".local/share/ikpose/poses");
  }
  if (old != nullptr) ::setenv("XDG_DATA_HOME", saved.c_str(), 1);
}

}  // namespace
}  // namespace ikpose::scene
