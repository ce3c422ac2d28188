#include "anim/clip.h"

#include <gtest/gtest.h>

#include <cmath>

#include "support/glm_expect.h"

namespace ikpose::anim {
namespace {

using ikpose::test::ExpectNear;
using ikpose::test::ExpectSameRotation;

constexpr float kPi = 3.14159265358979f;

Vec3Track Track(Interpolation mode, std::vector<float> times, std::vector<glm::vec3> values) {
  Vec3Track t;
  t.interpolation = mode;
  t.times = std::move(times);
  t.values = std::move(values);
  return t;
}

TEST(ClipSampling, EmptyTrackGivesTheFallback) {
  const Vec3Track empty;
  ExpectNear(Sample(empty, 1.f, {1, 2, 3}), {1, 2, 3});
  const QuatTrack none;
  ExpectSameRotation(Sample(none, 1.f, glm::quat(1, 0, 0, 0)), glm::quat(1, 0, 0, 0));
}

TEST(ClipSampling, SingleKeyHoldsEverywhere) {
  const Vec3Track t = Track(Interpolation::kLinear, {0.5f}, {{1, 2, 3}});
  for (float time : {-1.f, 0.f, 0.5f, 9.f}) ExpectNear(Sample(t, time, {}), {1, 2, 3});
}

TEST(ClipSampling, BeforeFirstAndAfterLastKeyHoldTheEndValues) {
  const Vec3Track t = Track(Interpolation::kLinear, {1.f, 2.f}, {{0, 0, 0}, {10, 0, 0}});
  ExpectNear(Sample(t, 0.f, {}), {0, 0, 0});
  ExpectNear(Sample(t, 3.f, {}), {10, 0, 0});
}

TEST(ClipSampling, StepHoldsThePreviousKey) {
  const Vec3Track t =
      Track(Interpolation::kStep, {0.f, 1.f, 2.f}, {{0, 0, 0}, {5, 0, 0}, {7, 0, 0}});
  ExpectNear(Sample(t, 0.99f, {}), {0, 0, 0});
  ExpectNear(Sample(t, 1.f, {}), {5, 0, 0});
  ExpectNear(Sample(t, 1.5f, {}), {5, 0, 0});
  ExpectNear(Sample(t, 2.5f, {}), {7, 0, 0});
}

TEST(ClipSampling, LinearInterpolatesBetweenKeys) {
  const Vec3Track t = Track(Interpolation::kLinear, {0.f, 2.f}, {{0, 0, 0}, {4, -2, 8}});
  ExpectNear(Sample(t, 0.5f, {}), {1, -0.5f, 2});  // a quarter of the way
}

TEST(ClipSampling, LinearRotationIsASlerp) {
  QuatTrack t;
  t.times = {0.f, 1.f};
  t.values = {glm::quat(1, 0, 0, 0), glm::angleAxis(kPi / 2.f, glm::vec3(0, 0, 1))};
  // Halfway: 45 degrees about z; a quarter: 22.5 degrees (a lerp would not give equal angles).
  ExpectSameRotation(Sample(t, 0.5f, {}), glm::angleAxis(kPi / 4.f, glm::vec3(0, 0, 1)));
  ExpectSameRotation(Sample(t, 0.25f, {}), glm::angleAxis(kPi / 8.f, glm::vec3(0, 0, 1)));
}

TEST(ClipSampling, SlerpTakesTheShortestPath) {
  QuatTrack t;
  t.times = {0.f, 1.f};
  // -q is the same rotation as q: going from q to -q must not turn a full circle.
  const glm::quat q = glm::angleAxis(0.4f, glm::vec3(1, 0, 0));
  t.values = {q, -glm::angleAxis(0.6f, glm::vec3(1, 0, 0))};
  ExpectSameRotation(Sample(t, 0.5f, {}), glm::angleAxis(0.5f, glm::vec3(1, 0, 0)));
}

TEST(ClipSampling, CubicSplineMatchesHandComputedHermite) {
  // Keys at t=1 (value 0, out-tangent 2) and t=3 (value 1, in-tangent -1): dt = 2.
  // At s = 0.5: h00 = 0.5, h10 = 0.125, h01 = 0.5, h11 = -0.125.
  // p = 0.5*0 + 0.125*2*2 + 0.5*1 + (-0.125)*2*(-1) = 0.5 + 0.5 + 0.25 = 1.25.
  Vec3Track t = Track(Interpolation::kCubicSpline, {1.f, 3.f},
                      {{9, 9, 9},
                       {0, 0, 0},
                       {2, 0, 0},  // in, value, out of key 0
                       {-1, 0, 0},
                       {1, 0, 0},
                       {9, 9, 9}});  // in, value, out of key 1
  ExpectNear(Sample(t, 2.f, {}), {1.25f, 0, 0});
  // At s = 0.25: h00 = 0.84375, h10 = 0.140625, h01 = 0.15625, h11 = -0.046875.
  // p = 0 + 0.140625*2*2 + 0.15625*1 + (-0.046875)*2*(-1) = 0.5625 + 0.15625 + 0.09375 = 0.8125.
  ExpectNear(Sample(t, 1.5f, {}), {0.8125f, 0, 0});
  // On the keys: the values, not the tangents.
  ExpectNear(Sample(t, 1.f, {}), {0, 0, 0});
  ExpectNear(Sample(t, 3.f, {}), {1, 0, 0});
}

TEST(ClipSampling, CubicSplineRotationIsNormalised) {
  QuatTrack t;
  t.interpolation = Interpolation::kCubicSpline;
  t.times = {0.f, 1.f};
  const glm::quat zero(0, 0, 0, 0);
  t.values = {
      zero, glm::quat(1, 0, 0, 0), zero, zero, glm::angleAxis(kPi / 2.f, glm::vec3(0, 1, 0)), zero};
  const glm::quat q = Sample(t, 0.5f, {});
  EXPECT_NEAR(glm::length(q), 1.f, 1e-6f);
  // Zero tangents, symmetric: halfway is the normalised average, 45 degrees about y.
  ExpectSameRotation(q, glm::angleAxis(kPi / 4.f, glm::vec3(0, 1, 0)));
}

TEST(ClipTime, LoopingWrapsAndNonLoopingClamps) {
  EXPECT_FLOAT_EQ(ClipTime(2.f, true, 2.5f), 0.5f);
  EXPECT_FLOAT_EQ(ClipTime(2.f, true, -0.5f), 1.5f);
  EXPECT_FLOAT_EQ(ClipTime(2.f, true, 4.f), 0.f);
  EXPECT_FLOAT_EQ(ClipTime(2.f, false, 2.5f), 2.f);
  EXPECT_FLOAT_EQ(ClipTime(2.f, false, -1.f), 0.f);
  EXPECT_FLOAT_EQ(ClipTime(0.f, true, 3.f), 0.f);
  EXPECT_FLOAT_EQ(ClipTime(2.f, true, std::nanf("")), 0.f);
}

TEST(SampleClip, WritesOnlyAnimatedBonesAndChannels) {
  Clip clip;
  clip.duration = 2.f;
  BoneTrack track;
  track.bone = 1;
  track.translation = Track(Interpolation::kLinear, {0.f, 2.f}, {{0, 0, 0}, {2, 0, 0}});
  clip.tracks.push_back(track);
  std::vector<Transform> locals(2);
  locals[0].translation = {7, 7, 7};
  locals[1].rotation = glm::angleAxis(0.3f, glm::vec3(0, 1, 0));
  SampleClip(clip, 3.f, locals);  // loops: 3 s -> 1 s
  ExpectNear(locals[1].translation, {1, 0, 0});
  ExpectSameRotation(locals[1].rotation, glm::angleAxis(0.3f, glm::vec3(0, 1, 0)));
  ExpectNear(locals[0].translation, {7, 7, 7});
}

TEST(ValidateClip, RejectsMismatchedCountsDecreasingTimesAndBadBones) {
  Clip clip;
  clip.name = "c";
  BoneTrack track;
  track.bone = 0;
  track.translation = Track(Interpolation::kCubicSpline, {0.f, 1.f}, {{0, 0, 0}, {1, 1, 1}});
  clip.tracks = {track};
  EXPECT_NE(ValidateClip(clip, 1), "");
  clip.tracks[0].translation = Track(Interpolation::kLinear, {1.f, 0.f}, {{0, 0, 0}, {1, 1, 1}});
  EXPECT_NE(ValidateClip(clip, 1), "");
  clip.tracks[0].translation = Track(Interpolation::kLinear, {0.f, 1.f}, {{0, 0, 0}, {1, 1, 1}});
  EXPECT_EQ(ValidateClip(clip, 1), "");
  EXPECT_NE(ValidateClip(clip, 0), "");
}

}  // namespace
}  // namespace ikpose::anim
