// Baking on a small humanoid: every baked frame is the one road's pose at that time, planted feet
// are found and held, and a foot sliding at walking speed is left alone.
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "anim/clip.h"
#include "anim/skeleton.h"
#include "anim/test_rigs.h"
#include "scene/road/posing_request.h"
#include "scene/session/foot_lock.h"
#include "scene/trace/bake.h"
#include "scene/trace/trace_replay.h"

namespace ikpose::scene {
namespace {

constexpr float kTwoPi = 2.f * std::numbers::pi_v<float>;

// The pelvis sways `sway` metres side to side once a second (the legs ride along rigidly), and
// the left arm swings, over 1 s in 21 keys.
anim::Model SwayingHumanoid(float sway) {
  anim::Model model = anim::test::MakeHumanoidModel();
  const anim::Skeleton& s = model.skeleton;
  anim::Clip clip;
  clip.name = "sway";
  clip.duration = 1.f;
  anim::BoneTrack pelvis;
  pelvis.bone = s.Find("pelvis");
  anim::BoneTrack arm;
  arm.bone = s.Find("upperarm_l");
  for (int i = 0; i <= 20; ++i) {
    const float t = static_cast<float>(i) / 20.f;
    pelvis.translation.times.push_back(t);
    pelvis.translation.values.push_back(
        s.rest_ls[static_cast<std::size_t>(pelvis.bone)].translation +
        glm::vec3(sway * std::sin(kTwoPi * t), 0.f, 0.f));
    arm.rotation.times.push_back(t);
    arm.rotation.values.push_back(glm::angleAxis(0.6f * std::sin(kTwoPi * t), glm::vec3(0, 0, 1)));
  }
  clip.tracks = {pelvis, arm};
  model.clips.push_back(clip);
  return model;
}

PosingRequest ClipRequest(const std::string& clip) {
  PosingRequest request;
  request.clip = clip;
  return request;
}

BakeResult Bake(const anim::Model& model, const PosingRequest& request, BakeSettings settings) {
  Baker baker(model, request, settings);
  std::string error;
  float last = -1.f;
  while (!baker.done()) {
    if (!baker.Step(&error)) {
      ADD_FAILURE() << error;
      break;
    }
    EXPECT_GE(baker.progress(), last);  // the progress bar never goes back
    last = baker.progress();
  }
  EXPECT_EQ(baker.progress(), 1.f);
  return baker.Finish();
}

// Every joint of `clip` at `time` over the rest pose, model space.
anim::Pose Sampled(const anim::Model& model, const anim::Clip& clip, float time) {
  anim::Pose pose = anim::RestPose(model.skeleton);
  anim::SampleClip(clip, time, pose.locals_ls);
  anim::UpdateModels(model.skeleton, pose);
  return pose;
}

TEST(Bake, EveryFrameIsTheOneRoadsPoseAtItsTime) {
  const anim::Model model = SwayingHumanoid(0.05f);
  PosingRequest request = ClipRequest("sway");
  request.targets.push_back({"right_leg", glm::vec3(-0.15f, 0.3f, 0.25f)});  // a lifted foot
  BakeSettings settings;
  settings.to = 1.0;
  settings.fps = 10.0;
  const BakeResult baked = Bake(model, request, settings);
  EXPECT_EQ(baked.frames, 11);
  EXPECT_EQ(baked.clip.name, "sway");
  for (int i = 0; i <= 10; ++i) {
    const float t = static_cast<float>(i) / 10.f;
    PosingRequest at = request;
    at.time = t;
    std::string error;
    const auto session = BuildSession(model, at, &error);
    ASSERT_TRUE(session) << error;
    const anim::Pose pose = Sampled(model, baked.clip, t);
    for (int b = 0; b < model.skeleton.size(); ++b) {
      EXPECT_LT(glm::distance(anim::PositionMs(pose, b), anim::PositionMs(session->pose(), b)),
                1e-5f)
          << model.skeleton.names[static_cast<std::size_t>(b)] << " at " << t << " s";
    }
  }
}

TEST(Bake, AnEndBetweenFramesGetsItsOwnKeySoTheLoopKeepsItsLength) {
  EXPECT_EQ(BakeFrameCount(0.0, 1.0, 30.0), 31);
  EXPECT_EQ(BakeFrameCount(0.0, 0.7083333, 30.0), 23);  // 0 .. 0.7 by 1/30, then 0.708
  EXPECT_EQ(BakeFrameCount(2.0, 1.0, 30.0), -1);
  EXPECT_EQ(BakeFrameCount(0.0, 1e9, 1000.0), -1);
  EXPECT_EQ(BakeFrameCount(0.0, 1.0, 0.5), -1);
  const anim::Model model = SwayingHumanoid(0.05f);
  BakeSettings settings;
  settings.to = 0.95;
  settings.fps = 10.0;
  const BakeResult baked = Bake(model, ClipRequest("sway"), settings);
  EXPECT_FLOAT_EQ(baked.clip.duration, 0.95f);
}

TEST(Bake, FootLockHoldsASwayingFootWhereTheClipPlantsIt) {
  const anim::Model model = SwayingHumanoid(0.02f);
  BakeSettings settings;
  settings.to = 1.0;
  settings.fps = 30.0;
  settings.lock_feet[static_cast<int>(anim::Limb::kLeftLeg)] = true;
  settings.lock_feet[static_cast<int>(anim::Limb::kRightLeg)] = true;
  const BakeResult baked = Bake(model, ClipRequest("sway"), settings);
  for (anim::Limb leg : {anim::Limb::kLeftLeg, anim::Limb::kRightLeg}) {
    const FootLockReport& foot = baked.feet[static_cast<int>(leg)];
    EXPECT_TRUE(foot.asked);
    EXPECT_EQ(foot.plants, 1);
    EXPECT_EQ(foot.locked_frames, 31);
    EXPECT_GT(foot.slide_before_ms, 0.019f);  // the clip's foot rides 2 cm with the pelvis
    EXPECT_LT(foot.slide_after_ms, 1e-4f);
    // Read from the baked clip itself: the foot stays put while the pelvis still sways.
    const int end = model.chains[leg].end;
    const glm::vec3 first = anim::PositionMs(Sampled(model, baked.clip, 0.f), end);
    for (float t : {0.25f, 0.5f, 0.75f}) {
      const anim::Pose pose = Sampled(model, baked.clip, t);
      EXPECT_LT(glm::distance(anim::PositionMs(pose, end), first), 1e-4f) << t;
    }
  }
  // The body still sways as the clip has it (at a frame's time, where the bake has a key).
  const int pelvis = model.skeleton.Find("pelvis");
  EXPECT_NEAR(anim::PositionMs(Sampled(model, baked.clip, 0.3f), pelvis).x,
              anim::PositionMs(Sampled(model, model.clips[0], 0.3f), pelvis).x, 1e-6f);
  EXPECT_FALSE(baked.feet[static_cast<int>(anim::Limb::kLeftArm)].asked);
}

TEST(Bake, KeyReductionStaysWithinItsStatedError) {
  const anim::Model model = SwayingHumanoid(0.05f);
  BakeSettings settings;
  settings.to = 1.0;
  settings.fps = 60.0;
  settings.max_error_ms = 0.001f;
  const BakeResult baked = Bake(model, ClipRequest("sway"), settings);
  EXPECT_LT(baked.keys.after, baked.keys.before / 2);
  EXPECT_GT(baked.reduction_error_ms, 0.f);
  EXPECT_LE(baked.reduction_error_ms, 0.001f);
  EXPECT_FLOAT_EQ(anim::MaxJointError(model.skeleton, baked.unreduced, baked.clip),
                  baked.reduction_error_ms);
}

TEST(FootLock, AWalkInPlaceStandsOnGroundMovingAtItsSpeed) {
  // A walk in place: the stance foot slides back at 1.2 m/s, wobbling 4 mm across it; then it
  // lifts and swings forward.
  std::vector<glm::vec3> path;
  std::vector<bool> free;
  for (int i = 0; i < 40; ++i) {
    const float t = static_cast<float>(i) / 60.f;
    const float wobble = 0.004f * std::sin(kTwoPi * t * 2.f);
    path.push_back(i < 30 ? glm::vec3(0.1f + wobble, 0.05f, 0.3f - 1.2f * t)
                          : glm::vec3(0.1f, 0.05f + 0.03f * static_cast<float>(i - 29), 0.f));
    free.push_back(true);
  }
  const std::vector<Plant> plants = FindPlants(path, free, 60.f, 1.8f);
  ASSERT_EQ(plants.size(), 1u);
  EXPECT_EQ(plants[0].first, 0);
  EXPECT_GE(plants[0].last, 27);
  EXPECT_NEAR(plants[0].ground_velocity_ms.z, -1.2f, 1e-3f);
  EXPECT_NEAR(plants[0].ground_velocity_ms.x, 0.f, 0.05f);
  // Measured against the moving ground, the foot slid by its wobble, not by the walk.
  const float slide = Slide(path, plants, 60.f);
  EXPECT_GT(slide, 0.003f);
  EXPECT_LT(slide, 0.01f);
  // The held point rides the ground: after half a second it is 0.6 m further back.
  EXPECT_NEAR(plants[0].PointAt(30, 60.f).z - plants[0].PointAt(0, 60.f).z, -0.6f, 1e-5f);
}

TEST(FootLock, AStillFootIsAPlantButNotWhenATargetPlacedIt) {
  std::vector<bool> free(30, true);
  // Nearly still (1 cm over the half second): one plant on still ground.
  std::vector<glm::vec3> planted;
  for (int i = 0; i < 30; ++i)
    planted.push_back({0.1f, 0.05f, 0.01f * static_cast<float>(i) / 30.f});
  const std::vector<Plant> plants = FindPlants(planted, free, 60.f, 1.8f);
  ASSERT_EQ(plants.size(), 1u);
  EXPECT_EQ(plants[0].first, 0);
  EXPECT_EQ(plants[0].last, 29);
  EXPECT_EQ(plants[0].ground_velocity_ms, glm::vec3(0.f));
  EXPECT_NEAR(Slide(planted, plants, 60.f), 0.01f * 29.f / 30.f, 1e-6f);
  // Frames someone else placed (a target) are never planted.
  std::vector<bool> placed(30, false);
  EXPECT_TRUE(FindPlants(planted, placed, 60.f, 1.8f).empty());
}

TEST(FootLock, AFootHighAboveItsLowestPointIsNoPlant) {
  std::vector<glm::vec3> path;
  std::vector<bool> free(40, true);
  for (int i = 0; i < 40; ++i) path.push_back({0.f, i < 20 ? 0.05f : 0.4f, 0.f});  // still, then up
  const std::vector<Plant> plants = FindPlants(path, free, 60.f, 1.8f);
  ASSERT_EQ(plants.size(), 1u);
  EXPECT_EQ(plants[0].last, 18);  // frame 19's speed already sees the lift
}

TEST(FootLock, TheLockEasesInAndOutAroundThePlant) {
  const std::vector<Plant> plants{{10, 20, glm::vec3(0.f)}};
  const std::vector<bool> free(40, true);
  const std::vector<LockWeight> w = LockWeights(plants, 40, free, 30.f);  // 0.1 s = 3 frames
  EXPECT_EQ(w[5].plant, -1);
  EXPECT_EQ(w[15].weight, 1.f);
  EXPECT_GT(w[8].weight, w[7].weight);
  EXPECT_GT(w[7].weight, 0.f);
  EXPECT_LT(w[9].weight, 1.f);
  EXPECT_GT(w[22].weight, w[23].weight);
  EXPECT_EQ(w[24].plant, -1);
}

TEST(FootLock, AHeldPointIsPulledWithinEveryFramesReach) {
  const std::vector<glm::vec3> hips{{0.f, 1.f, 0.f}, {0.05f, 1.f, 0.f}};
  const Plant plant{0, 1, glm::vec3(0.f)};
  const glm::vec3 p = ReachablePoint({0.f, 0.f, 0.f}, hips, plant, 1.f, 30.f);
  EXPECT_LE(glm::distance(p, hips[0]), 1.f + 1e-5f);
  EXPECT_LE(glm::distance(p, hips[1]), 1.f + 1e-5f);
  EXPECT_LT(glm::distance(p, glm::vec3(0.f)), 0.01f);
  // Already within reach: unchanged.
  EXPECT_EQ(ReachablePoint({0.f, 0.2f, 0.f}, hips, plant, 1.f, 30.f), glm::vec3(0.f, 0.2f, 0.f));
}

}  // namespace
}  // namespace ikpose::scene
