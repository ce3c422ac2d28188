// TwoBoneJob: the orientation step on real bone transforms, under scaled and rotated parents.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include <glm/gtc/matrix_transform.hpp>

#include "ik/two_bone_job.h"
#include "support/seed_port.h"
#include "test_chains.h"

namespace ikpose::ik {
namespace {

using testing::D;
using testing::dvec3;
using dmat4 = glm::dmat4;

dmat4 LocalMatrix(const LocalTransform& x) {
  dmat4 m = glm::mat4_cast(glm::dquat(x.rotation));
  m[0] *= double(x.scale.x);
  m[1] *= double(x.scale.y);
  m[2] *= double(x.scale.z);
  m[3] = glm::dvec4(D(x.translation), 1.0);
  return m;
}

struct Joints {
  dvec3 hip, knee, foot;
  dmat4 foot_model;
};

// Forward kinematics in double: parent * hip * knee * foot.
Joints Fk(const glm::mat4& parent, const LocalTransform& hip, const LocalTransform& knee,
          const LocalTransform& foot) {
  const dmat4 mh = dmat4(parent) * LocalMatrix(hip);
  const dmat4 mk = mh * LocalMatrix(knee);
  const dmat4 mf = mk * LocalMatrix(foot);
  return {dvec3(mh[3]), dvec3(mk[3]), dvec3(mf[3]), mf};
}

glm::quat RandomRotation(testing::ChainGenerator& gen) {
  const float angle = gen.Uniform(0.f, 3.14159f);
  return glm::angleAxis(angle, gen.UnitVector());
}

struct ParentCase {
  const char* name;
  glm::vec3 scale;
};

const ParentCase kParents[] = {
    {"identity", {1.f, 1.f, 1.f}},
    {"uniform", {2.5f, 2.5f, 2.5f}},
    {"small", {0.01f, 0.01f, 0.01f}},
    {"non_uniform", {1.f, 3.f, 0.5f}},
    {"mirror", {-1.f, 1.f, 1.f}},
    {"negative_uniform", {-2.f, -2.f, -2.f}},
    {"negative_non_uniform", {2.f, -0.5f, 1.5f}},
};

// A random chain under a parent with the given scale (and a random rotation and offset).
TwoBoneJob RandomJob(testing::ChainGenerator& gen, const glm::vec3& parent_scale,
                     float reach_fraction) {
  TwoBoneJob job;
  // The parent's offset is proportional to its scale: float positions far from the limb's
  // size lose the digits the tolerance asks for.
  const float size = std::fmax(std::fabs(parent_scale.x),
                               std::fmax(std::fabs(parent_scale.y), std::fabs(parent_scale.z)));
  glm::mat4 parent =
      glm::translate(glm::mat4(1.f), gen.UnitVector() * gen.Uniform(0.f, 2.f) * size);
  parent = parent * glm::mat4_cast(RandomRotation(gen));
  parent = glm::scale(parent, parent_scale);
  job.hip_parent_ms = parent;
  job.hip_ls.translation = gen.UnitVector() * gen.Uniform(0.f, 0.5f);
  job.hip_ls.rotation = RandomRotation(gen);
  const float hip_scale = gen.Uniform(0.5f, 2.f);
  job.hip_ls.scale = glm::vec3(hip_scale);
  job.knee_ls.translation = gen.UnitVector() * gen.Uniform(0.3f, 1.f);
  job.knee_ls.rotation = RandomRotation(gen);
  job.knee_ls.scale = glm::vec3(gen.Uniform(0.5f, 2.f), gen.Uniform(0.5f, 2.f),
                                gen.Uniform(0.5f, 2.f));  // any knee scale is fine
  job.foot_ls.translation = gen.UnitVector() * gen.Uniform(0.3f, 1.f);
  job.foot_ls.rotation = RandomRotation(gen);
  // A target at a chosen fraction of the reach, measured in the hip's parent space, mapped
  // to model space.
  const Joints j = Fk(glm::mat4(1.f), job.hip_ls, job.knee_ls, job.foot_ls);
  const double l1 = glm::length(j.knee - j.hip);
  const double l2 = glm::length(j.foot - j.knee);
  const double d = reach_fraction * (l1 + l2);
  const dvec3 t_p = j.hip + D(gen.UnitVector()) * d;
  job.target_ms = glm::vec3(dmat4(parent) * glm::dvec4(t_p, 1.0));
  return job;
}

double ParentSpaceLength(const glm::mat4& parent, const dvec3& from, const dvec3& to) {
  const dmat4 inv = glm::inverse(dmat4(parent));
  return glm::length(dvec3(inv * glm::dvec4(to, 1.0)) - dvec3(inv * glm::dvec4(from, 1.0)));
}

TEST(TwoBoneJob, LandsTheFootOnAReachableTargetUnderScaledAndRotatedParents) {
  for (const ParentCase& pc : kParents) {
    testing::ChainGenerator gen(123u);
    for (int i = 0; i < 2000; ++i) {
      TwoBoneJob job = RandomJob(gen, pc.scale, gen.Uniform(0.05f, 0.98f));
      TwoBoneOutput out;
      TwoBoneReport report;
      const bool ok = job.Run(&out, &report);
      SCOPED_TRACE(::testing::Message() << pc.name << " chain " << i);
      ASSERT_TRUE(ok) << InputErrorMessage(job.Validate());
      const Joints before = Fk(job.hip_parent_ms, job.hip_ls, job.knee_ls, job.foot_ls);
      LocalTransform hip = job.hip_ls, knee = job.knee_ls, foot = job.foot_ls;
      hip.rotation = out.hip_rotation_ls;
      knee.rotation = out.knee_rotation_ls;
      foot.rotation = out.foot_rotation_ls;
      const Joints after = Fk(job.hip_parent_ms, hip, knee, foot);
      const double limb =
          glm::length(before.knee - before.hip) + glm::length(before.foot - before.knee);
      const double tol = 1e-5 * limb;
      // The hip joint does not move; bone lengths are kept in the hip's parent space.
      ASSERT_LE(glm::length(after.hip - before.hip), tol);
      const double l1_p = ParentSpaceLength(job.hip_parent_ms, before.hip, before.knee);
      const double l2_p = ParentSpaceLength(job.hip_parent_ms, before.knee, before.foot);
      ASSERT_NEAR(ParentSpaceLength(job.hip_parent_ms, after.hip, after.knee), l1_p, 1e-5 * l1_p);
      ASSERT_NEAR(ParentSpaceLength(job.hip_parent_ms, after.knee, after.foot), l2_p, 1e-5 * l2_p);
      if (out.reach == Reach::kReachable) {
        ASSERT_LE(glm::length(after.foot - D(job.target_ms)), tol);
      }
      // The outputs are the joints of the new pose: b' and c'.
      ASSERT_LE(glm::length(after.knee - D(out.knee_ms)), tol);
      ASSERT_LE(glm::length(after.foot - D(out.foot_ms)), tol);
      ASSERT_LE(glm::length(D(report.positions.result.knee_ms) - D(out.knee_ms)), tol);
      ASSERT_NEAR(out.residual_ms, glm::length(after.foot - D(job.target_ms)), tol);
    }
  }
}

TEST(TwoBoneJob, UnderASimilarityParentPlacesKneeAndFootAsThePositionsStepInModelSpace) {
  testing::ChainGenerator gen(5u);
  for (int i = 0; i < 2000; ++i) {
    const TwoBoneJob job = RandomJob(gen, glm::vec3(1.7f), gen.Uniform(0.f, 1.3f));
    TwoBoneOutput out;
    if (!job.Run(&out)) continue;
    const Joints before = Fk(job.hip_parent_ms, job.hip_ls, job.knee_ls, job.foot_ls);
    PositionsInput in;
    in.hip_ms = glm::vec3(before.hip);
    in.knee_ms = glm::vec3(before.knee);
    in.foot_ms = glm::vec3(before.foot);
    in.target_ms = job.target_ms;
    PositionsResult r;
    ASSERT_EQ(SolvePositions(in, &r), InputError::kNone);
    const double limb =
        glm::length(before.knee - before.hip) + glm::length(before.foot - before.knee);
    SCOPED_TRACE(::testing::Message() << "chain " << i);
    EXPECT_EQ(out.reach, r.reach);
    // Loose near a reach boundary, where the knee is ill-conditioned.
    const double tol = 1e-4 * limb;
    EXPECT_LE(glm::length(D(out.knee_ms) - D(r.knee_ms)),
              tol + 1e-6 * limb * limb / glm::length(D(job.target_ms) - before.hip));
    // A target next to the hip has an ill-conditioned direction: rounding in mapping it to
    // the parent's space turns it by about (rounding / |at|).
    const double d = glm::length(D(job.target_ms) - before.hip);
    EXPECT_LE(glm::length(D(out.foot_ms) - D(r.foot_ms)), 1e-5 * limb + 1e-6 * limb * limb / d);
  }
}

TEST(TwoBoneJob, TurnsTheBonesAsTheSeedsOrientationStepOnRigidChains) {
  testing::ChainGenerator gen(11u);
  int compared = 0;
  for (int i = 0; i < 2000; ++i) {
    TwoBoneJob job = RandomJob(gen, glm::vec3(1.f), gen.Uniform(0.1f, 0.95f));
    job.knee_ls.scale = glm::vec3(1.f);
    TwoBoneOutput out;
    TwoBoneReport report;
    ASSERT_TRUE(job.Run(&out, &report));
    // The seed's port snaps rotations under 1e-3 rad to the identity; compare where both
    // bones turn clearly.
    if (report.hip_delta_ls.axis_angle.angle_rad < 0.05f ||
        report.knee_delta_ls.axis_angle.angle_rad < 0.05f) {
      continue;
    }
    const seed::SeedRotations s = seed::SolveOrientations(job.hip_parent_ms, job.hip_ls,
                                                          job.knee_ls, job.foot_ls, job.target_ms);
    SCOPED_TRACE(::testing::Message() << "chain " << i);
    EXPECT_NEAR(std::abs(glm::dot(s.hip_rotation_ls, out.hip_rotation_ls)), 1.0, 1e-5);
    EXPECT_NEAR(std::abs(glm::dot(s.knee_rotation_ls, out.knee_rotation_ls)), 1.0, 1e-5);
    ++compared;
  }
  EXPECT_GT(compared, 1000);
}

TEST(TwoBoneJob, TooFarUnderNonUniformScaleStraightensTheLimbTowardTheTarget) {
  testing::ChainGenerator gen(17u);
  for (int i = 0; i < 500; ++i) {
    const TwoBoneJob job = RandomJob(gen, glm::vec3(0.5f, 2.f, -1.f), 1.2f);
    TwoBoneOutput out;
    ASSERT_TRUE(job.Run(&out));
    ASSERT_EQ(out.reach, Reach::kTooFar);
    const Joints before = Fk(job.hip_parent_ms, job.hip_ls, job.knee_ls, job.foot_ls);
    const dvec3 dir = glm::normalize(D(job.target_ms) - before.hip);
    const double limb =
        glm::length(before.knee - before.hip) + glm::length(before.foot - before.knee);
    // A straight line in parent space is straight in model space: knee and foot on the ray.
    const auto off_ray = [&](const dvec3& p) {
      const dvec3 v = p - before.hip;
      return glm::length(v - glm::dot(v, dir) * dir);
    };
    EXPECT_LE(off_ray(D(out.knee_ms)), 1e-5 * limb);
    EXPECT_LE(off_ray(D(out.foot_ms)), 1e-5 * limb);
    EXPECT_GT(glm::dot(D(out.knee_ms) - before.hip, dir), 0.0);
  }
}

TEST(TwoBoneJob, AntiParallelHipTurnIsAHalfTurnAndLandsTheFoot) {
  // A straight limb along +x whose target is behind the hip at full reach: the hip bone must
  // turn exactly around.
  TwoBoneJob job;
  job.knee_ls.translation = glm::vec3(1.f, 0.f, 0.f);
  job.foot_ls.translation = glm::vec3(1.f, 0.f, 0.f);
  job.target_ms = glm::vec3(-2.f, 0.f, 0.f);
  TwoBoneOutput out;
  TwoBoneReport report;
  ASSERT_TRUE(job.Run(&out, &report));
  EXPECT_NEAR(report.hip_delta_ls.axis_angle.angle_rad, 3.14159265f, 1e-5f);
  EXPECT_NEAR(glm::dot(report.hip_delta_ls.axis_angle.axis, glm::vec3(1.f, 0.f, 0.f)), 0.f, 1e-6f);
  EXPECT_NEAR(glm::length(out.foot_ms - job.target_ms), 0.f, 1e-5f);
  EXPECT_NEAR(glm::length(out.knee_ms - glm::vec3(-1.f, 0.f, 0.f)), 0.f, 1e-5f);
}

TEST(TwoBoneJob, MinimalRotationsHaveNoTwistAboutTheBone) {
  testing::ChainGenerator gen(23u);
  for (int i = 0; i < 500; ++i) {
    const TwoBoneJob job = RandomJob(gen, glm::vec3(1.f), gen.Uniform(0.1f, 0.95f));
    TwoBoneOutput out;
    TwoBoneReport report;
    ASSERT_TRUE(job.Run(&out, &report));
    EXPECT_NEAR(report.hip_delta_ls.swing_twist.twist_angle_rad, 0.f, 1e-4f);
    EXPECT_NEAR(report.knee_delta_ls.swing_twist.twist_angle_rad, 0.f, 1e-4f);
    EXPECT_NEAR(report.hip_delta_ls.swing_twist.swing_angle_rad,
                report.hip_delta_ls.axis_angle.angle_rad, 1e-4f);
  }
}

TEST(TwoBoneJob, WeightBlendsFromTheInputPoseToTheSolvedOne) {
  testing::ChainGenerator gen(29u);
  for (int i = 0; i < 200; ++i) {
    TwoBoneJob job = RandomJob(gen, glm::vec3(1.f, 2.f, 0.5f), gen.Uniform(0.2f, 0.9f));
    TwoBoneOutput full, none, half;
    ASSERT_TRUE(job.Run(&full));
    job.options.weight = 0.f;
    ASSERT_TRUE(job.Run(&none));
    job.options.weight = 0.5f;
    ASSERT_TRUE(job.Run(&half));
    EXPECT_NEAR(std::abs(glm::dot(none.hip_rotation_ls, job.hip_ls.rotation)), 1.f, 1e-6f);
    EXPECT_NEAR(std::abs(glm::dot(none.knee_rotation_ls, job.knee_ls.rotation)), 1.f, 1e-6f);
    // Half weight: half of each bone's turn.
    const float full_hip = glm::angle(glm::inverse(job.hip_ls.rotation) * full.hip_rotation_ls);
    const float half_hip = glm::angle(glm::inverse(job.hip_ls.rotation) * half.hip_rotation_ls);
    EXPECT_NEAR(half_hip, 0.5f * full_hip, 1e-4f);
  }
}

TEST(TwoBoneJob, KeepsOrSetsTheFootsModelRotation) {
  testing::ChainGenerator gen(31u);
  for (const ParentCase& pc : kParents) {
    for (int i = 0; i < 200; ++i) {
      TwoBoneJob job = RandomJob(gen, pc.scale, gen.Uniform(0.2f, 0.9f));
      // A non-uniform knee scale shears the foot's frame when the knee turns: no rotation
      // of the foot can keep it. Uniform here.
      job.knee_ls.scale = glm::vec3(job.knee_ls.scale.x);
      SCOPED_TRACE(::testing::Message() << pc.name << " chain " << i);
      const Joints before = Fk(job.hip_parent_ms, job.hip_ls, job.knee_ls, job.foot_ls);
      job.end_rotation = EndRotation::kKeepModel;
      TwoBoneOutput out;
      ASSERT_TRUE(job.Run(&out));
      LocalTransform hip = job.hip_ls, knee = job.knee_ls, foot = job.foot_ls;
      hip.rotation = out.hip_rotation_ls;
      knee.rotation = out.knee_rotation_ls;
      foot.rotation = out.foot_rotation_ls;
      const Joints after = Fk(job.hip_parent_ms, hip, knee, foot);
      const double size = glm::length(glm::dvec3(before.foot_model[0]));
      for (int c = 0; c < 3; ++c) {
        EXPECT_LE(glm::length(glm::dvec3(after.foot_model[c]) - glm::dvec3(before.foot_model[c])),
                  1e-5 * size);
      }
      // A target rotation: the foot's model frame turns to it (rotation part of the frame).
      if (pc.scale.x != pc.scale.y || pc.scale.y != pc.scale.z) continue;
      job.end_rotation = EndRotation::kTarget;
      job.target_rotation_ms = glm::angleAxis(0.7f, glm::normalize(glm::vec3(1.f, 2.f, 3.f)));
      ASSERT_TRUE(job.Run(&out));
      foot.rotation = out.foot_rotation_ls;
      hip.rotation = out.hip_rotation_ls;
      knee.rotation = out.knee_rotation_ls;
      const Joints posed = Fk(job.hip_parent_ms, hip, knee, foot);
      glm::mat3 frame(posed.foot_model);
      if (glm::determinant(frame) < 0.f) frame = -frame;
      const glm::quat got = glm::quat_cast(
          glm::mat3(glm::normalize(frame[0]), glm::normalize(frame[1]), glm::normalize(frame[2])));
      EXPECT_NEAR(std::abs(glm::dot(got, job.target_rotation_ms)), 1.f, 1e-5f);
    }
  }
}

TEST(TwoBoneJob, NonUniformHipScaleRunsButSaysItIsNotExact) {
  TwoBoneJob job;
  job.hip_ls.scale = glm::vec3(1.f, 2.f, 1.f);
  job.knee_ls.translation = glm::vec3(0.f, -0.5f, 0.f);
  job.knee_ls.rotation = glm::angleAxis(0.3f, glm::vec3(0.f, 0.f, 1.f));
  job.foot_ls.translation = glm::vec3(0.f, -1.f, 0.f);
  job.target_ms = glm::vec3(0.7f, -1.2f, 0.3f);
  TwoBoneOutput out;
  TwoBoneReport report;
  ASSERT_TRUE(job.Run(&out, &report));
  EXPECT_FALSE(report.exact);
  EXPECT_TRUE(std::isfinite(out.residual_ms));
  EXPECT_NEAR(out.residual_ms, glm::length(out.foot_ms - job.target_ms), 1e-6f);
  job.hip_ls.scale = glm::vec3(-2.f, 2.f, 2.f);  // equal magnitudes: exact
  ASSERT_TRUE(job.Run(&out, &report));
  EXPECT_TRUE(report.exact);
  EXPECT_LE(out.residual_ms, 1e-5f);
}

TEST(TwoBoneJob, InvalidInputIsNamedAndLeavesOutputsUntouched) {
  const auto check = [](const TwoBoneJob& job, InputError expected) {
    EXPECT_EQ(job.Validate(), expected) << InputErrorMessage(job.Validate());
    TwoBoneOutput out;
    out.residual_ms = 42.f;
    out.knee_ms = glm::vec3(7.f);
    TwoBoneReport report;
    report.positions.length_ab = 42.f;
    EXPECT_FALSE(job.Run(&out, &report));
    EXPECT_EQ(out.residual_ms, 42.f);
    EXPECT_EQ(out.knee_ms, glm::vec3(7.f));
    EXPECT_EQ(report.positions.length_ab, 42.f);
  };
  TwoBoneJob good;
  good.knee_ls.translation = glm::vec3(0.f, -1.f, 0.f);
  good.foot_ls.translation = glm::vec3(0.f, -1.f, 0.f);
  good.target_ms = glm::vec3(0.5f, -1.5f, 0.f);
  EXPECT_EQ(good.Validate(), InputError::kNone);

  TwoBoneJob j = good;
  j.hip_parent_ms[3][1] = std::nanf("");
  check(j, InputError::kNonFinite);
  j = good;
  j.target_ms.x = INFINITY;
  check(j, InputError::kNonFinite);
  j = good;
  j.hip_ls.scale = glm::vec3(1.f, 0.f, 1.f);
  check(j, InputError::kSingularTransform);
  j = good;
  j.hip_parent_ms = glm::scale(glm::mat4(1.f), glm::vec3(1.f, 1.f, 0.f));
  check(j, InputError::kSingularTransform);
  j = good;
  j.knee_ls.rotation = glm::quat(0.f, 0.f, 0.f, 0.f);
  check(j, InputError::kBadRotation);
  j = good;
  j.knee_ls.translation = glm::vec3(0.f);
  check(j, InputError::kZeroLengthUpper);
  j = good;
  j.foot_ls.translation = glm::vec3(0.f);
  check(j, InputError::kZeroLengthLower);
  j = good;
  j.target_ms = glm::vec3(0.f);
  check(j, InputError::kTargetOnHip);
  j = good;
  j.options.weight = 2.f;
  check(j, InputError::kBadWeight);
  j = good;
  j.options.use_pole = true;
  j.options.pole_ms.y = std::nanf("");
  check(j, InputError::kNonFinite);
}

// The viewer, `trace` and `pose` ask for the geometry report: the same pose and positions
// step as the full one, and each local delta's description, taken where it is written, equal
// to the full report's.
TEST(TwoBoneJob, AGeometryReportIsTheFullOneLessItsDescriptions) {
  testing::ChainGenerator gen(31u);
  for (int i = 0; i < 2000; ++i) {
    SCOPED_TRACE(::testing::Message() << "chain " << i);
    TwoBoneJob job = RandomJob(gen, glm::vec3(gen.Uniform(0.5f, 2.f)), gen.Uniform(0.05f, 1.3f));
    if (i % 2 == 1) {
      job.options.use_pole = true;
      job.options.pole_ms = job.target_ms + gen.UnitVector();
    }
    TwoBoneOutput full_out, geometry_out;
    TwoBoneReport full, geometry;
    ASSERT_TRUE(job.Run(&full_out, &full));
    ASSERT_TRUE(job.Run(&geometry_out, &geometry, ReportDetail::kGeometry));
    ASSERT_EQ(std::memcmp(&full_out, &geometry_out, sizeof full_out), 0);
    const PositionsReport& f = full.positions;
    const PositionsReport& g = geometry.positions;
    ASSERT_EQ(f.result.knee_ms, g.result.knee_ms);
    ASSERT_EQ(f.result.foot_ms, g.result.foot_ms);
    ASSERT_EQ(f.circle.center_ms, g.circle.center_ms);
    ASSERT_EQ(f.circle.radius, g.circle.radius);
    ASSERT_EQ(f.reach_margin, g.reach_margin);
    ASSERT_EQ(f.flip_margin, g.flip_margin);
    ASSERT_EQ(f.knee_bend_deg, g.knee_bend_deg);
    ASSERT_EQ(f.cos_theta, g.cos_theta);
    ASSERT_EQ(f.used_pole, g.used_pole);
    ASSERT_EQ(full.exact, geometry.exact);
    for (const auto& [fd, gd] : {std::pair{&full.hip_delta_ls, &geometry.hip_delta_ls},
                                 std::pair{&full.knee_delta_ls, &geometry.knee_delta_ls}}) {
      ASSERT_EQ(fd->rotation, gd->rotation);
      const RotationReport described = DescribeRotation(gd->rotation, gd->bone_axis);
      // To float noise: the bone axis is normalised once more where it is described.
      ASSERT_NEAR(described.axis_angle.angle_rad, fd->axis_angle.angle_rad, 1e-5f);
      ASSERT_NEAR(described.swing_twist.swing_angle_rad, fd->swing_twist.swing_angle_rad, 1e-5f);
      ASSERT_NEAR(described.swing_twist.twist_angle_rad, fd->swing_twist.twist_angle_rad, 1e-5f);
      ASSERT_LE(glm::length(described.bone_axis - fd->bone_axis), 1e-6f);
    }
  }
}

}  // namespace
}  // namespace ikpose::ik
