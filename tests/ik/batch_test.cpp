// The structure-of-arrays batch agrees with the one-at-a-time solvers.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "ik/two_bone_batch.h"
#include "ik/two_bone_batch_isa.h"
#include "test_chains.h"

namespace ikpose::ik {
namespace {

// n chains as structure of arrays: columns 0-11 hold a, b, c, t; 12-25 the batch's output.
struct Soa {
  explicit Soa(std::size_t n) : v(n * 30), n_(n) {}
  float* Col(int i) { return v.data() + i * n_; }
  void Set(std::size_t i, const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
           const glm::vec3& t) {
    const glm::vec3 pts[4] = {a, b, c, t};
    for (int p = 0; p < 4; ++p) {
      for (int k = 0; k < 3; ++k) Col(p * 3 + k)[i] = pts[p][k];
    }
  }
  ChainBatchInput In() {
    ChainBatchInput in;
    ConstPoints3* ins[4] = {&in.hip, &in.knee, &in.foot, &in.target};
    for (int p = 0; p < 4; ++p) *ins[p] = {Col(p * 3), Col(p * 3 + 1), Col(p * 3 + 2)};
    return in;
  }
  ChainBatchOutput Out() {
    ChainBatchOutput out;
    out.knee = {Col(12), Col(13), Col(14)};
    out.foot = {Col(15), Col(16), Col(17)};
    out.hip_rotation = {Col(18), Col(19), Col(20), Col(21)};
    out.knee_rotation = {Col(22), Col(23), Col(24), Col(25)};
    return out;
  }
  // Chain i of the batch's output (reach and validity not included).
  ChainSolution Solution(std::size_t i) {
    const ChainBatchOutput out = Out();
    ChainSolution s;
    s.knee = glm::vec3(out.knee.x[i], out.knee.y[i], out.knee.z[i]);
    s.foot = glm::vec3(out.foot.x[i], out.foot.y[i], out.foot.z[i]);
    s.hip_rotation = glm::quat(out.hip_rotation.w[i], out.hip_rotation.x[i], out.hip_rotation.y[i],
                               out.hip_rotation.z[i]);
    s.knee_rotation = glm::quat(out.knee_rotation.w[i], out.knee_rotation.x[i],
                                out.knee_rotation.y[i], out.knee_rotation.z[i]);
    return s;
  }
  std::vector<float> v;
  std::size_t n_;
};

// Every kernel of the batch (the x86-64 baseline, AVX2, AVX2 with AVX-512VL's registers, and
// AVX-512's 16 lanes) is held to the one-at-a-time solver, whichever SolveChainBatch picks on
// the CPU running the tests.
class ChainBatchKernel : public ::testing::TestWithParam<detail::BatchIsa> {
 protected:
  void SetUp() override {
    if (!detail::BatchIsaAvailable(GetParam())) GTEST_SKIP() << "this CPU lacks the kernel";
  }
  void Solve(const ChainBatchInput& in, const ChainBatchOutput& out, std::size_t n) const {
    detail::SolveChainBatchOn(GetParam(), in, out, n);
  }
};
INSTANTIATE_TEST_SUITE_P(Isa, ChainBatchKernel,
                         ::testing::Values(detail::BatchIsa::kBaseline, detail::BatchIsa::kAvx2,
                                           detail::BatchIsa::kAvx2Evex, detail::BatchIsa::kAvx512),
                         [](const ::testing::TestParamInfo<detail::BatchIsa>& isa) {
                           return isa.param == detail::BatchIsa::kAvx2       ? "Avx2"
                                  : isa.param == detail::BatchIsa::kAvx2Evex ? "Avx2Evex"
                                  : isa.param == detail::BatchIsa::kAvx512   ? "Avx512"
                                                                             : "Baseline";
                         });

TEST(ChainBatch, PicksTheWidestKernelTheCpuRuns) {
  // SolveChainBatch gives exactly what the kernel it picks gives.
  testing::ChainGenerator gen(60u);
  constexpr std::size_t n = 37;
  Soa picked(n), named(n);
  for (std::size_t i = 0; i < n; ++i) {
    const testing::RandomChain ch = gen.Next();
    picked.Set(i, ch.a, ch.b, ch.c, ch.t);
    named.Set(i, ch.a, ch.b, ch.c, ch.t);
  }
  SolveChainBatch(picked.In(), picked.Out(), n);
  // The widest the CPU runs: with AVX-512 the 16-lane kernel, else AVX2, else the baseline
  // (the EVEX form of the 8-lane kernel is never picked: where it runs, the 16-lane one does).
  const detail::BatchIsa widest = detail::WidestBatchIsa();
  EXPECT_EQ(widest == detail::BatchIsa::kAvx512,
            detail::BatchIsaAvailable(detail::BatchIsa::kAvx512));
  EXPECT_NE(widest, detail::BatchIsa::kAvx2Evex);
  EXPECT_EQ(widest != detail::BatchIsa::kBaseline,
            detail::BatchIsaAvailable(detail::BatchIsa::kAvx2));
  detail::SolveChainBatchOn(widest, named.In(), named.Out(), n);
  EXPECT_EQ(picked.v, named.v);
}

TEST_P(ChainBatchKernel, MatchesTheOneAtATimeSolverOnRandomAndInvalidChains) {
  const std::size_t n = 100003;  // not a multiple of the vector width
  testing::ChainGenerator gen(61u);
  std::vector<testing::RandomChain> chains(n);
  for (std::size_t i = 0; i < n; ++i) chains[i] = gen.Next();
  // Some invalid chains: NaN, zero-length bones, a target on the hip.
  chains[5].b.x = std::numeric_limits<float>::quiet_NaN();
  chains[6].c = chains[6].b;
  chains[7].t = chains[7].a;
  chains[8].a.y = std::numeric_limits<float>::infinity();

  Soa soa(n);
  for (std::size_t i = 0; i < n; ++i)
    soa.Set(i, chains[i].a, chains[i].b, chains[i].c, chains[i].t);
  const ChainBatchInput in = soa.In();
  ChainBatchOutput out = soa.Out();
  std::vector<std::uint8_t> reach(n);
  out.reach = reach.data();
  Solve(in, out, n);

  int invalid = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const testing::RandomChain& ch = chains[i];
    const ChainSolution one = SolveChain(ch.a, ch.b, ch.c, ch.t);
    const ChainSolution batch = soa.Solution(i);
    const glm::vec3& knee = batch.knee;
    const glm::vec3& foot = batch.foot;
    const glm::quat& q1 = batch.hip_rotation;
    const glm::quat& q2 = batch.knee_rotation;
    SCOPED_TRACE(::testing::Message() << "chain " << i);
    if (!one.valid) {
      ++invalid;
      ASSERT_EQ(reach[i], kBatchInvalid);
      ASSERT_EQ(q1, glm::quat(1.f, 0.f, 0.f, 0.f));
      continue;
    }
    const float tol = 1e-5f * ch.limb;
    ASSERT_EQ(reach[i], static_cast<std::uint8_t>(one.reach));
    ASSERT_LE(glm::length(knee - one.knee), tol);
    ASSERT_LE(glm::length(foot - one.foot), tol);
    ASSERT_NEAR(std::abs(glm::dot(q1, one.hip_rotation)), 1.f, 1e-6f);
    ASSERT_NEAR(std::abs(glm::dot(q2, one.knee_rotation)), 1.f, 1e-6f);
    // The rotations do what they say: they carry the old bones onto the new ones.
    ASSERT_LE(glm::length(ch.a + q1 * (ch.b - ch.a) - knee), tol);
    ASSERT_LE(glm::length(knee + q2 * (q1 * (ch.c - ch.b)) - foot), tol);
  }
  EXPECT_EQ(invalid, 4);
}

TEST(ChainBatch, SolveChainIsThePositionsStepWithDefaultOptions) {
  testing::ChainGenerator gen(62u);
  for (int i = 0; i < 20000; ++i) {
    const testing::RandomChain ch = gen.Next();
    PositionsInput in;
    in.hip_ms = ch.a;
    in.knee_ms = ch.b;
    in.foot_ms = ch.c;
    in.target_ms = ch.t;
    PositionsResult r;
    const ChainSolution s = SolveChain(ch.a, ch.b, ch.c, ch.t);
    ASSERT_EQ(SolvePositions(in, &r) == InputError::kNone, s.valid);
    if (!s.valid) continue;
    ASSERT_EQ(r.reach, s.reach);
    ASSERT_EQ(r.knee_ms, s.knee);
    ASSERT_EQ(r.foot_ms, s.foot);
  }
}

TEST_P(ChainBatchKernel, TurnsStraightAndFoldedChainsAroundByHalfTurnsThatReachItsJoints) {
  // Chains whose solve turns a bone exactly around: the minimal-rotation kernel's half turn,
  // which an identity would silently skip. The batch and SolveChain have one path each (the
  // branch-free kernel), so every chain here takes it; 64 chains fill the vector lanes, not
  // only the scalar remainder. The returned rotations must carry the old bones onto the
  // returned knee and foot.
  struct Case {
    glm::vec3 b, c, t;  // the hip is at the origin
    glm::vec3 knee, foot;
  };
  const Case cases[] = {
      // Straight along +x, the target straight behind the hip at full reach and beyond.
      {{1.f, 0.f, 0.f}, {2.f, 0.f, 0.f}, {-2.f, 0.f, 0.f}, {-1.f, 0.f, 0.f}, {-2.f, 0.f, 0.f}},
      {{1.f, 0.f, 0.f}, {2.f, 0.f, 0.f}, {-3.f, 0.f, 0.f}, {-1.f, 0.f, 0.f}, {-2.f, 0.f, 0.f}},
      // Lower bone half the upper: the knee folds back (at the folded distance and inside it).
      {{1.f, 0.f, 0.f}, {1.5f, 0.f, 0.f}, {0.5f, 0.f, 0.f}, {1.f, 0.f, 0.f}, {0.5f, 0.f, 0.f}},
      {{1.f, 0.f, 0.f}, {1.5f, 0.f, 0.f}, {0.2f, 0.f, 0.f}, {1.f, 0.f, 0.f}, {0.5f, 0.f, 0.f}},
      // Both bones turn around.
      {{0.f, 0.f, 1.f}, {0.f, 0.f, 1.5f}, {0.f, 0.f, -0.3f}, {0.f, 0.f, -1.f}, {0.f, 0.f, -0.5f}},
  };
  constexpr std::size_t n = 64;
  Soa soa(n);
  const std::size_t kCases = sizeof cases / sizeof cases[0];
  for (std::size_t i = 0; i < n; ++i) {
    const Case& c = cases[i % kCases];
    soa.Set(i, glm::vec3(0.f), c.b, c.c, c.t);
  }
  const ChainBatchOutput out = soa.Out();
  Solve(soa.In(), out, n);
  for (std::size_t i = 0; i < n; ++i) {
    const Case& c = cases[i % kCases];
    SCOPED_TRACE(::testing::Message() << "chain " << i);
    const ChainSolution batch = soa.Solution(i);
    const ChainSolution one = SolveChain(glm::vec3(0.f), c.b, c.c, c.t);
    ASSERT_TRUE(one.valid);
    for (const ChainSolution& s : {batch, one}) {
      EXPECT_LE(glm::length(s.knee - c.knee), 1e-6f);
      EXPECT_LE(glm::length(s.foot - c.foot), 1e-6f);
      // Forward kinematics of the rotations: hip at the origin.
      const glm::vec3 knee_fk = s.hip_rotation * c.b;
      EXPECT_LE(glm::length(knee_fk - s.knee), 1e-6f);
      EXPECT_LE(glm::length(knee_fk + s.knee_rotation * (s.hip_rotation * (c.c - c.b)) - s.foot),
                1e-6f);
    }
  }
}

TEST_P(ChainBatchKernel, WritesNoReachWhenNotAskedAndHandlesAnEmptyBatch) {
  float x[3] = {0.f, 0.f, 0.f}, y[3] = {0.f, -1.f, -2.f}, z[3] = {0.f, 0.1f, 0.f};
  float t[3] = {0.5f, -1.5f, 0.f};
  float o[14][1];
  ChainBatchInput in;
  in.hip = {&x[0], &y[0], &z[0]};
  in.knee = {&x[1], &y[1], &z[1]};
  in.foot = {&x[2], &y[2], &z[2]};
  in.target = {&t[0], &t[1], &t[2]};
  ChainBatchOutput out;
  out.knee = {o[0], o[1], o[2]};
  out.foot = {o[3], o[4], o[5]};
  out.hip_rotation = {o[6], o[7], o[8], o[9]};
  out.knee_rotation = {o[10], o[11], o[12], o[13]};
  Solve(in, out, 0);
  Solve(in, out, 1);
  EXPECT_NEAR(o[3][0], 0.5f, 1e-6f);
  EXPECT_NEAR(o[4][0], -1.5f, 1e-6f);
}

}  // namespace
}  // namespace ikpose::ik
