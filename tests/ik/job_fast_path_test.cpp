// TwoBoneJob::Run without a report takes a shorter path for the seed's case (default options
// at full weight, the foot following the knee, a hip scale uniform in magnitude). It must give
// the pose the reporting path gives, and reject what it rejects.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

#include "ik/two_bone_fast.h"
#include "ik/two_bone_job.h"
#include "test_chains.h"

namespace ikpose::ik {
namespace {

using testing::D;

glm::dvec3 Apply(const glm::mat4& m, const glm::dvec3& p) {
  return glm::dvec3(glm::dmat4(m) * glm::dvec4(p, 1.0));
}

// Joints of the chain (hip, knee, foot) in double.
struct Joints {
  glm::dvec3 hip, knee, foot;
};
Joints Fk(const TwoBoneJob& job, const glm::quat& hip_r, const glm::quat& knee_r) {
  const auto local = [](const LocalTransform& x, const glm::quat& r) {
    glm::dmat4 m = glm::mat4_cast(glm::dquat(glm::normalize(r)));
    m[0] *= double(x.scale.x);
    m[1] *= double(x.scale.y);
    m[2] *= double(x.scale.z);
    m[3] = glm::dvec4(D(x.translation), 1.0);
    return m;
  };
  const glm::dmat4 mh = glm::dmat4(job.hip_parent_ms) * local(job.hip_ls, hip_r);
  const glm::dmat4 mk = mh * local(job.knee_ls, knee_r);
  return {glm::dvec3(mh[3]), glm::dvec3(mk[3]),
          glm::dvec3(mk * glm::dvec4(D(job.foot_ls.translation), 1.0))};
}

// A random chain under a rotated, translated parent with a uniform (possibly mirrored) scale,
// a hip scale uniform in magnitude with random signs, input rotations up to 1% off unit
// length, and a target from next to the hip to beyond the reach.
TwoBoneJob RandomJob(testing::ChainGenerator& gen) {
  TwoBoneJob job;
  const float ps = gen.Uniform(0.05f, 5.f) * (gen.Uniform(0.f, 1.f) < 0.3f ? -1.f : 1.f);
  glm::mat4 parent = glm::translate(glm::mat4(1.f), gen.UnitVector() * gen.Uniform(0.f, 2.f));
  parent = parent * glm::mat4_cast(glm::angleAxis(gen.Uniform(0.f, 3.14f), gen.UnitVector()));
  job.hip_parent_ms = glm::scale(parent, glm::vec3(ps));
  const auto sign = [&] { return gen.Uniform(0.f, 1.f) < 0.25f ? -1.f : 1.f; };
  const float hs = gen.Uniform(0.5f, 2.f);
  job.hip_ls.scale = glm::vec3(hs * sign(), hs * sign(), hs * sign());
  job.knee_ls.scale =
      glm::vec3(gen.Uniform(0.5f, 2.f), gen.Uniform(0.5f, 2.f), gen.Uniform(0.5f, 2.f));
  const auto rotation = [&] {
    const glm::quat q = glm::angleAxis(gen.Uniform(0.f, 3.14f), gen.UnitVector());
    return q * gen.Uniform(0.99f, 1.01f);
  };
  job.hip_ls.translation = gen.UnitVector() * gen.Uniform(0.f, 0.5f);
  job.hip_ls.rotation = rotation();
  job.knee_ls.translation = gen.UnitVector() * gen.Uniform(0.3f, 1.f);
  job.knee_ls.rotation = rotation();
  job.foot_ls.translation = gen.UnitVector() * gen.Uniform(0.3f, 1.f);
  job.foot_ls.rotation = rotation();
  const Joints j = Fk(job, job.hip_ls.rotation, job.knee_ls.rotation);
  const double limb = glm::length(j.knee - j.hip) + glm::length(j.foot - j.knee);
  job.target_ms = glm::vec3(j.hip + D(gen.UnitVector()) * (gen.Uniform(0.02f, 1.3f) * limb));
  return job;
}

// The fast path (Run without a report) against the reporting path on one job.
void ExpectThePoseOfTheReportingPath(const TwoBoneJob& job) {
  TwoBoneOutput fast, full;
  TwoBoneReport report;
  const bool ok = job.Run(&fast);
  ASSERT_EQ(ok, job.Run(&full, &report));
  if (!ok) return;
  const Joints before = Fk(job, job.hip_ls.rotation, job.knee_ls.rotation);
  const Joints a = Fk(job, fast.hip_rotation_ls, fast.knee_rotation_ls);
  const Joints b = Fk(job, full.hip_rotation_ls, full.knee_rotation_ls);
  const double limb =
      glm::length(before.knee - before.hip) + glm::length(before.foot - before.knee);
  const double tol = 1e-5 * limb;
  ASSERT_EQ(fast.reach, full.reach);
  // Near a reach boundary the knee circle's radius sqrt((l - x)(l + x)) turns rounding
  // into about rounding / sqrt(margin): both paths are right to that.
  const double margin = std::max(double(report.positions.reach_margin) / limb, 1e-12);
  ASSERT_LE(glm::length(a.knee - b.knee), tol + 1e-6 * limb / std::sqrt(margin));
  ASSERT_LE(glm::length(a.foot - b.foot), tol);
  ASSERT_LE(glm::length(D(fast.knee_ms) - a.knee), tol);
  ASSERT_LE(glm::length(D(fast.foot_ms) - a.foot), tol);
  ASSERT_NEAR(fast.residual_ms, glm::length(a.foot - D(job.target_ms)), tol);
  // Unit rotations, the foot's passed through.
  ASSERT_NEAR(glm::length(fast.hip_rotation_ls), 1.f, 1e-6f);
  ASSERT_NEAR(glm::length(fast.knee_rotation_ls), 1.f, 1e-6f);
  ASSERT_EQ(fast.foot_rotation_ls, job.foot_ls.rotation);
  ASSERT_FALSE(fast.limit_clamped);
  ASSERT_FALSE(fast.softened);
}

// Whether the fast path itself solves `job` (not the general path behind it).
bool TakesTheFastPath(const TwoBoneJob& job) {
  TwoBoneOutput out;
  return detail::RunFast(job, &out);
}

TEST(TwoBoneJobFastPath, GivesThePoseOfTheReportingPath) {
  testing::ChainGenerator gen(77u);
  for (int i = 0; i < 20000; ++i) {
    SCOPED_TRACE(::testing::Message() << "chain " << i);
    ASSERT_NO_FATAL_FAILURE(ExpectThePoseOfTheReportingPath(RandomJob(gen)));
  }
}

// Hip scales decomposed from matrices agree in magnitude only to their last digits. The fast
// path counts them all as |s_x|: it takes those a few roundings apart, with the general path's
// pose, and leaves those further apart (UniformMagnitude admits 1e-5, which would move the foot
// by as much as 1e-5 of the limb) to the general path, which divides by each.
TEST(TwoBoneJobFastPath, GivesThePoseOfTheReportingPathForAHipScaleUniformToItsLastDigits) {
  testing::ChainGenerator gen(79u);
  int fast = 0;
  for (int i = 0; i < 5000; ++i) {
    SCOPED_TRACE(::testing::Message() << "chain " << i);
    TwoBoneJob job = RandomJob(gen);
    for (const int axis : {1, 2}) job.hip_ls.scale[axis] *= 1.f + gen.Uniform(-1.2e-7f, 1.2e-7f);
    ASSERT_NO_FATAL_FAILURE(ExpectThePoseOfTheReportingPath(job));
    fast += TakesTheFastPath(job) ? 1 : 0;
    job.hip_ls.scale.y *= 1.f + 2e-6f;
    ASSERT_TRUE(detail::UniformMagnitude(job.hip_ls.scale));
    EXPECT_FALSE(TakesTheFastPath(job));
  }
  EXPECT_GT(fast, 4950);
}

// The natural knee policy is a pole: the viewer's and the bakes' limbs take the fast path
// with one. Poles anywhere, a fifth of them on the hip-target line (no usable side: the
// knee's side is kept).
TEST(TwoBoneJobFastPath, GivesThePoseOfTheReportingPathWithAPole) {
  testing::ChainGenerator gen(78u);
  int fast = 0;
  for (int i = 0; i < 10000; ++i) {
    SCOPED_TRACE(::testing::Message() << "chain " << i);
    TwoBoneJob job = RandomJob(gen);
    job.options.use_pole = true;
    const glm::vec3 hip_ms = glm::vec3(job.hip_parent_ms * glm::vec4(job.hip_ls.translation, 1.f));
    job.options.pole_ms = gen.Uniform(0.f, 1.f) < 0.2f
                              ? hip_ms + (job.target_ms - hip_ms) * gen.Uniform(-1.f, 2.f)
                              : hip_ms + gen.UnitVector() * gen.Uniform(0.1f, 3.f);
    ASSERT_NO_FATAL_FAILURE(ExpectThePoseOfTheReportingPath(job));
    fast += TakesTheFastPath(job) ? 1 : 0;
  }
  // The fast path itself solved them (not the general path behind it).
  EXPECT_GT(fast, 9900);
}

// The old knee on the hip-target line (the target straight out through it): no side to keep,
// so both paths take the same fixed perpendicular. Under turned, scaled and mirrored hips and
// parents, so that the fast path's turn of that side into the hip's frame is checked too.
TEST(TwoBoneJobFastPath, GivesThePoseOfTheReportingPathForAKneeOnTheHipTargetLine) {
  testing::ChainGenerator gen(81u);
  int on_the_line = 0;
  for (int i = 0; i < 2000; ++i) {
    SCOPED_TRACE(::testing::Message() << "chain " << i);
    TwoBoneJob job = RandomJob(gen);
    const Joints j = Fk(job, job.hip_ls.rotation, job.knee_ls.rotation);
    const double l1 = glm::length(j.knee - j.hip), l2 = glm::length(j.foot - j.knee);
    // Reachable: between folded and straight.
    const double d = std::fabs(l1 - l2) + gen.Uniform(0.1f, 0.9f) * (l1 + l2 - std::fabs(l1 - l2));
    job.target_ms = glm::vec3(j.hip + glm::normalize(j.knee - j.hip) * d);
    TwoBoneOutput out;
    TwoBoneReport report;
    // Rounding can leave the knee off the line (or, rarely, the chain invalid): skipped.
    if (!job.Run(&out, &report) || !report.positions.used_fallback_side) continue;
    ++on_the_line;
    ASSERT_NO_FATAL_FAILURE(ExpectThePoseOfTheReportingPath(job));
    ASSERT_TRUE(TakesTheFastPath(job));
  }
  EXPECT_GT(on_the_line, 1000);
}

TEST(TwoBoneJobFastPath, HandsWhatItDoesNotCoverToTheGeneralPath) {
  // Chains scaled far from unit size are left to the general path; targets folding the limb
  // (too close) and a knee on the hip-target line the fast path solves too. Either way the
  // pose is the general path's.
  testing::ChainGenerator gen(79u);
  const TwoBoneJob base = RandomJob(gen);
  const auto run_both = [](const TwoBoneJob& job) {
    TwoBoneOutput fast, full;
    TwoBoneReport report;
    ASSERT_TRUE(job.Run(&fast));
    ASSERT_TRUE(job.Run(&full, &report));
    const double limb = report.positions.length_ab + report.positions.length_bc;
    EXPECT_EQ(fast.reach, full.reach);
    EXPECT_LE(glm::length(D(fast.knee_ms) - D(full.knee_ms)), 1e-5 * limb);
    EXPECT_LE(glm::length(D(fast.foot_ms) - D(full.foot_ms)), 1e-5 * limb);
  };
  for (const float size : {1e-7f, 1e7f}) {
    SCOPED_TRACE(::testing::Message() << "size " << size);
    TwoBoneJob job = base;
    job.hip_parent_ms[3] *= glm::vec4(size, size, size, 1.f);
    job.hip_ls.translation *= size;
    job.knee_ls.translation *= size;
    job.foot_ls.translation *= size;
    job.target_ms *= size;
    run_both(job);
    EXPECT_FALSE(TakesTheFastPath(job));
  }
  // Straight along +y, upper bone twice the lower: a target at half the upper bone's length
  // from the hip folds the limb; one straight ahead keeps the knee on the axis.
  TwoBoneJob job;
  job.knee_ls.translation = glm::vec3(0.f, 1.f, 0.f);
  job.foot_ls.translation = glm::vec3(0.f, 0.5f, 0.f);
  job.target_ms = glm::vec3(0.2f, 0.2f, 0.f);
  run_both(job);
  TwoBoneOutput out;
  ASSERT_TRUE(job.Run(&out));
  EXPECT_EQ(out.reach, Reach::kTooClose);
  EXPECT_TRUE(detail::RunFast(job, &out));
  job.target_ms = glm::vec3(0.f, 1.2f, 0.f);
  run_both(job);
  EXPECT_TRUE(detail::RunFast(job, &out));
}

// Parents sheared toward singular (two columns an angle phi apart, 1e-8 to 1e-1 radians) and
// unevenly scaled: the fast path tests their conditioning its own way, so it must decline
// every parent the general path finds singular (leaving the output alone), and still solve many
// of the sound ones. The target is placed through the parent, so that its place in parent space
// stays near the limb however close the parent is to singular (else the target's distance alone
// would send the job to the general path).
TEST(TwoBoneJobFastPath, DeclinesEveryParentTheGeneralPathFindsSingular) {
  testing::ChainGenerator gen(83u);
  int singular = 0, solved_fast = 0;
  for (int i = 0; i < 4000; ++i) {
    SCOPED_TRACE(::testing::Message() << "chain " << i);
    TwoBoneJob job = RandomJob(gen);
    glm::mat4& m = job.hip_parent_ms;
    // The limb in parent space (RandomJob's parent scales uniformly, by |c0|).
    const Joints j = Fk(job, job.hip_ls.rotation, job.knee_ls.rotation);
    const double limb_ps = (glm::length(j.knee - j.hip) + glm::length(j.foot - j.knee)) /
                           double(glm::length(glm::vec3(m[0])));
    const float phi = std::pow(10.f, gen.Uniform(-8.f, -1.f));
    const glm::vec3 c0(m[0]), c1(m[1]);
    // c1 turned to phi from c0 in their plane, its length kept.
    const glm::vec3 toward = glm::normalize(c1 - c0 * (glm::dot(c0, c1) / glm::dot(c0, c0)));
    m[1] = glm::vec4(
        (glm::normalize(c0) * std::cos(phi) + toward * std::sin(phi)) * glm::length(c1), 0.f);
    m[2] *= std::pow(10.f, gen.Uniform(-2.f, 0.f));  // an uneven scale too
    const glm::dvec3 target_ps =
        D(job.hip_ls.translation) + D(gen.UnitVector()) * (gen.Uniform(0.2f, 0.9f) * limb_ps);
    job.target_ms = glm::vec3(Apply(m, target_ps));
    const bool valid = job.Validate() == InputError::kNone;
    TwoBoneOutput out;
    out.residual_ms = 42.f;
    ASSERT_EQ(job.Run(&out), valid);
    const bool fast = TakesTheFastPath(job);
    if (!valid) {
      ++singular;
      ASSERT_FALSE(fast);
      ASSERT_EQ(out.residual_ms, 42.f);
    }
    solved_fast += fast ? 1 : 0;
  }
  EXPECT_GT(singular, 500);
  EXPECT_GT(solved_fast, 1000);
}

// The seed's options are tested inside the solve, with its other inputs: any other option, or a
// hip scale uneven past a few roundings, is declined, and Run without a report (which goes
// through the same solve) gives the reporting path's pose for it.
TEST(TwoBoneJobFastPath, DeclinesEveryOptionOutsideTheSeedsAndRunGivesTheGeneralPathsPose) {
  testing::ChainGenerator gen(83u);
  TwoBoneJob base = RandomJob(gen);
  base.hip_ls.scale = glm::vec3(1.f);
  ASSERT_TRUE(TakesTheFastPath(base));
  std::vector<std::pair<const char*, TwoBoneJob>> cases;
  const auto with = [&](const char* name, auto change) {
    TwoBoneJob job = base;
    change(job);
    cases.emplace_back(name, job);
  };
  with("soften", [](TwoBoneJob& j) { j.options.soften = 0.9f; });
  with("weight", [](TwoBoneJob& j) { j.options.weight = 0.5f; });
  with("limits", [](TwoBoneJob& j) {
    j.options.use_limits = true;
    j.options.limits = HingeLimits{10.f, 60.f};
  });
  with("keep the foot's model rotation",
       [](TwoBoneJob& j) { j.end_rotation = EndRotation::kKeepModel; });
  with("set the foot's model rotation", [](TwoBoneJob& j) {
    j.end_rotation = EndRotation::kTarget;
    j.target_rotation_ms = glm::angleAxis(0.7f, glm::vec3(0.f, 0.f, 1.f));
  });
  with("hip scale uneven in y",
       [](TwoBoneJob& j) { j.hip_ls.scale = glm::vec3(1.f, 1.001f, 1.f); });
  with("hip scale uneven in z",
       [](TwoBoneJob& j) { j.hip_ls.scale = glm::vec3(1.f, 1.f, 0.999f); });
  for (const auto& [name, job] : cases) {
    SCOPED_TRACE(name);
    EXPECT_FALSE(TakesTheFastPath(job));
    TwoBoneOutput fast, full;
    TwoBoneReport report;
    ASSERT_TRUE(job.Run(&fast));
    ASSERT_TRUE(job.Run(&full, &report));
    for (int k = 0; k < 4; ++k) {
      EXPECT_EQ(fast.hip_rotation_ls[k], full.hip_rotation_ls[k]);
      EXPECT_EQ(fast.knee_rotation_ls[k], full.knee_rotation_ls[k]);
      EXPECT_EQ(fast.foot_rotation_ls[k], full.foot_rotation_ls[k]);
    }
    EXPECT_EQ(fast.knee_ms, full.knee_ms);
    EXPECT_EQ(fast.foot_ms, full.foot_ms);
    EXPECT_EQ(fast.limit_clamped, full.limit_clamped);
    EXPECT_EQ(fast.softened, full.softened);
  }
}

TEST(TwoBoneJobFastPath, HalfTurnsOfBothBones) {
  // Straight along +x, target behind the hip at full reach: the hip turns around.
  TwoBoneJob job;
  job.knee_ls.translation = glm::vec3(1.f, 0.f, 0.f);
  job.foot_ls.translation = glm::vec3(1.f, 0.f, 0.f);
  job.target_ms = glm::vec3(-2.f, 0.f, 0.f);
  TwoBoneOutput out;
  ASSERT_TRUE(job.Run(&out));
  EXPECT_NEAR(std::fabs(out.hip_rotation_ls.w), 0.f, 1e-6f);
  EXPECT_NEAR(glm::length(out.foot_ms - job.target_ms), 0.f, 1e-5f);
  EXPECT_NEAR(glm::length(out.knee_ms - glm::vec3(-1.f, 0.f, 0.f)), 0.f, 1e-5f);
  // Folded back: the knee turns around, the hip stays.
  job.foot_ls.translation = glm::vec3(0.5f, 0.f, 0.f);
  job.target_ms = glm::vec3(0.5f, 0.f, 0.f);
  ASSERT_TRUE(job.Run(&out));
  EXPECT_NEAR(glm::length(out.knee_ms - glm::vec3(1.f, 0.f, 0.f)), 0.f, 1e-5f);
  EXPECT_NEAR(glm::length(out.foot_ms - job.target_ms), 0.f, 1e-5f);
  EXPECT_NEAR(std::fabs(out.knee_rotation_ls.w), 0.f, 1e-6f);
}

TEST(TwoBoneJobFastPath, TurnsStraightAndFoldedChainsAroundByHalfTurnsThatReachItsJoints) {
  // Chains whose solve turns a bone exactly around: the minimal-rotation kernel's half turn,
  // which an identity would silently skip. RunFast itself is called, so these are the fast
  // path's answers (Run gives the same), and forward kinematics of the returned rotations
  // must give the returned knee and foot. Under the identity parent and a rotated, translated,
  // scaled (and mirrored) one.
  struct Case {
    glm::vec3 knee_t, foot_t, target;  // knee and foot translations, target in parent space
    Reach reach;
    glm::vec3 knee, foot;  // expected, parent space
  };
  const Case cases[] = {
      // Straight along +x, the target straight behind the hip at full reach: the hip turns
      // around, the knee stays straight.
      {{1.f, 0.f, 0.f},
       {1.f, 0.f, 0.f},
       {-2.f, 0.f, 0.f},
       Reach::kReachable,
       {-1.f, 0.f, 0.f},
       {-2.f, 0.f, 0.f}},
      // ... and beyond full reach.
      {{1.f, 0.f, 0.f},
       {1.f, 0.f, 0.f},
       {-3.f, 0.f, 0.f},
       Reach::kTooFar,
       {-1.f, 0.f, 0.f},
       {-2.f, 0.f, 0.f}},
      // Straight, lower bone half the upper, the target on the chain's line at the folded
      // distance, then inside it: the hip stays, the knee turns around.
      {{1.f, 0.f, 0.f},
       {0.5f, 0.f, 0.f},
       {0.5f, 0.f, 0.f},
       Reach::kReachable,
       {1.f, 0.f, 0.f},
       {0.5f, 0.f, 0.f}},
      {{1.f, 0.f, 0.f},
       {0.5f, 0.f, 0.f},
       {0.2f, 0.f, 0.f},
       Reach::kTooClose,
       {1.f, 0.f, 0.f},
       {0.5f, 0.f, 0.f}},
      // Both at once: straight, the target behind the hip inside the fold.
      {{1.f, 0.f, 0.f},
       {0.5f, 0.f, 0.f},
       {-0.3f, 0.f, 0.f},
       Reach::kTooClose,
       {-1.f, 0.f, 0.f},
       {-0.5f, 0.f, 0.f}},
  };
  glm::mat4 moved = glm::translate(glm::mat4(1.f), glm::vec3(0.3f, -1.f, 2.f));
  moved = moved * glm::mat4_cast(glm::angleAxis(2.f, glm::normalize(glm::vec3(1.f, 2.f, 3.f))));
  const glm::mat4 parents[] = {glm::mat4(1.f), glm::scale(moved, glm::vec3(1.5f)),
                               glm::scale(moved, glm::vec3(-0.7f))};
  for (const glm::mat4& parent : parents) {
    for (const Case& c : cases) {
      SCOPED_TRACE(::testing::Message() << "target " << c.target.x << " parent " << parent[0][0]);
      TwoBoneJob job;
      job.hip_parent_ms = parent;
      job.knee_ls.translation = c.knee_t;
      job.foot_ls.translation = c.foot_t;
      job.target_ms = glm::vec3(Apply(parent, D(c.target)));
      TwoBoneOutput out;
      ASSERT_TRUE(detail::RunFast(job, &out));
      TwoBoneOutput run;
      ASSERT_TRUE(job.Run(&run));
      EXPECT_EQ(run.hip_rotation_ls, out.hip_rotation_ls);
      EXPECT_EQ(run.knee_rotation_ls, out.knee_rotation_ls);
      const double tol = 1e-5 * glm::length(glm::dvec3(glm::vec3(parent[0])));
      // The reachable cases here are on a reach boundary (full reach, folded distance). A
      // target mapped through a parent lands a rounding error to either side of it, where the
      // knee moves as the square root of that error (a few 1e-4 here); forward kinematics
      // below holds to rounding all the same.
      const bool exact = parent == glm::mat4(1.f);
      if (exact || c.reach != Reach::kReachable) {
        EXPECT_EQ(out.reach, c.reach);
      }
      const double boundary_tol = exact ? tol : 1e-3;
      EXPECT_LE(glm::length(D(out.knee_ms) - Apply(parent, D(c.knee))), boundary_tol);
      EXPECT_LE(glm::length(D(out.foot_ms) - Apply(parent, D(c.foot))), tol);
      const Joints fk = Fk(job, out.hip_rotation_ls, out.knee_rotation_ls);
      EXPECT_LE(glm::length(fk.knee - D(out.knee_ms)), tol);
      EXPECT_LE(glm::length(fk.foot - D(out.foot_ms)), tol);
    }
  }
}

// The knee turned by nearly a half turn, the hip staying (the knee already on its circle):
// the minimal rotation's common form keeps its digits to about 172 degrees when it is divided
// by the length it computed, and past that the wide form takes over. Both, near the switch and
// up to a tenth of a degree from a half turn, must put the foot on its target.
TEST(TwoBoneJobFastPath, KneeTurnsUpToAHalfTurnPutTheFootOnItsTarget) {
  glm::mat4 moved = glm::translate(glm::mat4(1.f), glm::vec3(0.3f, -1.f, 2.f));
  moved = moved * glm::mat4_cast(glm::angleAxis(2.f, glm::normalize(glm::vec3(1.f, 2.f, 3.f))));
  const glm::mat4 parents[] = {glm::mat4(1.f), glm::scale(moved, glm::vec3(1.5f)),
                               glm::scale(moved, glm::vec3(-0.7f))};
  testing::ChainGenerator gen(80u);
  int solved = 0;
  for (const glm::mat4& parent : parents) {
    for (const float deg :
         {120.f, 150.f, 165.f, 170.f, 171.5f, 172.f, 172.5f, 175.f, 178.f, 179.5f, 179.9f}) {
      for (int i = 0; i < 20; ++i) {
        SCOPED_TRACE(::testing::Message() << deg << " deg, parent " << parent[0][0] << ", " << i);
        TwoBoneJob job;
        job.hip_parent_ms = parent;
        job.hip_ls.rotation = glm::angleAxis(gen.Uniform(0.f, 3.f), gen.UnitVector());
        job.knee_ls.translation = gen.UnitVector() * gen.Uniform(0.4f, 0.6f);
        job.knee_ls.rotation = glm::angleAxis(gen.Uniform(0.f, 3.f), gen.UnitVector());
        job.foot_ls.translation = gen.UnitVector() * gen.Uniform(0.3f, 0.5f);
        // The lower bone in the hip's parent space, turned by `deg` about an axis across it.
        const glm::dvec3 knee = D(job.hip_ls.rotation * job.knee_ls.translation);
        const glm::dvec3 lower =
            D(job.hip_ls.rotation * (job.knee_ls.rotation * job.foot_ls.translation));
        const glm::dvec3 across = glm::normalize(glm::cross(lower, D(gen.UnitVector())));
        const glm::dvec3 turned =
            glm::dquat(glm::angleAxis(glm::radians(double(deg)), across)) * lower;
        job.target_ms = glm::vec3(Apply(parent, knee + turned));
        TwoBoneOutput out;
        if (!detail::RunFast(job, &out)) continue;  // a target too near the hip: general path
        ++solved;
        const Joints fk = Fk(job, out.hip_rotation_ls, out.knee_rotation_ls);
        const double scale = glm::length(glm::dvec3(glm::vec3(parent[0])));
        const double tol = 1e-5 * scale;
        EXPECT_LE(glm::length(fk.foot - D(job.target_ms)), tol) << "the foot on its target";
        EXPECT_NEAR(glm::length(out.knee_rotation_ls), 1.f, 1e-6f);
        ASSERT_NO_FATAL_FAILURE(ExpectThePoseOfTheReportingPath(job));
      }
    }
  }
  EXPECT_GT(solved, 600);
}

// Every one of the 49 input floats (the parent matrix, the three local transforms, the target)
// checked for infinities and NaNs, unused ones too (the matrix's last row, the foot's scale):
// the fast path has its own check of them.
TEST(TwoBoneJobFastPath, ANonFiniteInputAnywhereIsRejected) {
  testing::ChainGenerator gen(81u);
  const TwoBoneJob good = RandomJob(gen);
  TwoBoneOutput out;
  ASSERT_TRUE(detail::RunFast(good, &out));
  for (int i = 0; i < 49; ++i) {
    for (const float bad :
         {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
          -std::numeric_limits<float>::infinity()}) {
      SCOPED_TRACE(::testing::Message() << "float " << i << " = " << bad);
      TwoBoneJob job = good;
      (&job.hip_parent_ms[0][0])[i] = bad;
      out.residual_ms = 42.f;
      EXPECT_FALSE(detail::RunFast(job, &out));
      EXPECT_FALSE(job.Run(&out));
      EXPECT_EQ(out.residual_ms, 42.f);
      EXPECT_EQ(job.Validate(), InputError::kNonFinite);
    }
  }
}

TEST(TwoBoneJobFastPath, RejectsWhatValidateRejectsAndLeavesTheOutputAlone) {
  testing::ChainGenerator gen(78u);
  const TwoBoneJob good = RandomJob(gen);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  TwoBoneJob bad[9] = {good, good, good, good, good, good, good, good, good};
  bad[0].hip_parent_ms[3][1] = nan;
  bad[1].target_ms.z = inf;
  bad[2].foot_ls.rotation = glm::quat(2.f, 0.f, 0.f, 0.f);
  bad[3].knee_ls.rotation = glm::quat(0.f, 0.f, 0.f, 0.f);
  bad[4].hip_ls.scale = glm::vec3(0.f);
  bad[5].hip_parent_ms[1] = bad[5].hip_parent_ms[0];
  bad[6].knee_ls.translation = glm::vec3(0.f);
  bad[7].target_ms = glm::vec3(Apply(good.hip_parent_ms, D(good.hip_ls.translation)));
  bad[8].knee_ls.scale.y = nan;
  for (const TwoBoneJob& job : bad) {
    TwoBoneOutput out;
    out.residual_ms = 42.f;
    EXPECT_NE(job.Validate(), InputError::kNone);
    EXPECT_FALSE(job.Run(&out));
    EXPECT_EQ(out.residual_ms, 42.f);
  }
}

}  // namespace
}  // namespace ikpose::ik
