// Checking a posed session in tests: every bone keeps its rest length.
//
// Why one header: the ground and body-help tests both check that moving the pelvis and solving
// limbs stretches no bone, and two copies drift. Limits: the body bone is skipped (it moves as a
// whole, so its link to its parent is no bone); the tolerance is relative to the bone's length,
// absolute below one model unit.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>

#include <glm/glm.hpp>

#include "anim/skeleton.h"
#include "scene/session/posing_session.h"

namespace ikpose::test {

inline void ExpectBonesUnstretched(const scene::PosingSession& session) {
  const anim::Skeleton& skeleton = session.model().skeleton;
  for (int b = 0; b < skeleton.size(); ++b) {
    const int p = skeleton.parents[static_cast<std::size_t>(b)];
    if (p < 0 || b == session.body_bone()) continue;
    const float rest = glm::length(anim::PositionMs(session.rest_pose(), b) -
                                   anim::PositionMs(session.rest_pose(), p));
    const float now =
        glm::length(anim::PositionMs(session.pose(), b) - anim::PositionMs(session.pose(), p));
    EXPECT_NEAR(now, rest, 1e-4f * std::max(rest, 1.0f)) << skeleton.names[b];
  }
}

}  // namespace ikpose::test
