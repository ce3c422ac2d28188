// The stability grid (scene/trace/stability.h) on a hand-built two-leg rig: measured a few cells at
// a time it is the grid measured at once, a knee far from any flip follows its target about one for
// one, and what cannot be measured is one line.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "scene/road/posing_request.h"
#include "scene/trace/stability.h"
#include "support/rigs.h"

namespace ikpose::scene {
namespace {

std::unique_ptr<PosingSession> SeedSession(const anim::Model& model) {
  PosingRequest request;
  request.policies.push_back({"", anim::KneePolicy::kSeed});
  const anim::LimbChain& leg = model.chains[anim::Limb::kLeftLeg];
  // Forward of the foot and up: the knee well bent, away from the straight rest line.
  const float length = leg.upper_length + leg.lower_length;
  const glm::vec3 foot_ms = anim::PositionMs(anim::RestPose(model.skeleton), leg.end);
  request.targets.push_back({"left_leg", foot_ms + glm::vec3(0.f, 0.3f, 0.3f) * length});
  std::string error;
  std::unique_ptr<PosingSession> session = BuildSession(model, request, &error);
  EXPECT_NE(session, nullptr) << error;
  return session;
}

TEST(Stability, StepsOfAFewCellsGiveTheGridMeasuredAtOnce) {
  const anim::Model model = test::TwoLegRig();
  const std::unique_ptr<PosingSession> session = SeedSession(model);
  ASSERT_NE(session, nullptr);
  StabilityRequest request;
  request.toward_viewer_ms = glm::vec3(1.f, 0.f, 0.f);  // from the side: the flip in view
  request.cells = 9;
  StabilityGrid whole;
  std::string error;
  ASSERT_TRUE(MeasureStability(*session, anim::Limb::kLeftLeg, request, &whole, &error)) << error;
  StabilityJob job;
  ASSERT_TRUE(job.Start(*session, anim::Limb::kLeftLeg, request, &error)) << error;
  int steps = 0;
  while (!job.Step(7, &error)) {
    ASSERT_TRUE(error.empty()) << error;
    ++steps;
  }
  EXPECT_EQ(steps, 81 / 7);
  const StabilityGrid& pieces = job.grid();
  ASSERT_EQ(pieces.grid.size(), whole.grid.size());
  for (std::size_t i = 0; i < whole.grid.size(); ++i) {
    EXPECT_EQ(pieces.grid[i].knee_ms, whole.grid[i].knee_ms) << i;
    EXPECT_EQ(pieces.grid[i].sensitivity, whole.grid[i].sensitivity) << i;
    EXPECT_EQ(pieces.grid[i].flip, whole.grid[i].flip) << i;
  }
  EXPECT_EQ(pieces.flip_line.size(), whole.flip_line.size());
  EXPECT_EQ(pieces.reach_line.size(), whole.reach_line.size());
  // The session measured is untouched: the copy moved the target, not the session.
  EXPECT_EQ(session->target(anim::Limb::kLeftLeg).target_ms, whole.center_ms);
}

TEST(Stability, AKneeFarFromTheFlipFollowsItsTargetAboutOneForOne) {
  const anim::Model model = test::TwoLegRig();
  const std::unique_ptr<PosingSession> session = SeedSession(model);
  ASSERT_NE(session, nullptr);
  StabilityRequest request;
  request.toward_viewer_ms = glm::vec3(1.f, 0.f, 0.f);
  request.cells = 3;
  request.spacing = 0.01f;
  StabilityGrid grid;
  std::string error;
  ASSERT_TRUE(MeasureStability(*session, anim::Limb::kLeftLeg, request, &grid, &error)) << error;
  for (const StabilityCell& cell : grid.grid) {
    EXPECT_FALSE(cell.flip);
    EXPECT_FALSE(cell.reach_out);
    EXPECT_GT(cell.sensitivity, 0.3f);
    EXPECT_LT(cell.sensitivity, 3.f);
  }
  EXPECT_EQ(SensitivityBand(0.5f), 0);
  EXPECT_EQ(SensitivityBand(2.f), 1);
  EXPECT_EQ(SensitivityBand(50.f), 3);
}

TEST(Stability, AMissingLimbOrANonFiniteViewIsOneLine) {
  const anim::Model model = test::TwoLegRig();
  const std::unique_ptr<PosingSession> session = SeedSession(model);
  ASSERT_NE(session, nullptr);
  StabilityGrid grid;
  std::string error;
  EXPECT_FALSE(MeasureStability(*session, anim::Limb::kLeftArm, {}, &grid, &error));
  EXPECT_EQ(error, "stability: the model has no left_arm");
  StabilityRequest request;
  request.toward_viewer_ms = glm::vec3(NAN, 0.f, 1.f);
  EXPECT_FALSE(MeasureStability(*session, anim::Limb::kLeftLeg, request, &grid, &error));
  EXPECT_EQ(error.find('\n'), std::string::npos);
  EXPECT_NE(error.find("not a finite"), std::string::npos) << error;
}

}  // namespace
}  // namespace ikpose::scene
