// Benchmarks of the two-bone solver against a straightforward port of the post's code.
//
// ns per solve, positions and orientations: one chain solved over and over ("OneAtATime"),
// and 10,000 independent chains per iteration ("Batch10k"). The seed port builds 4x4 model
// matrices, inverts them with glm::inverse and turns bones with acos/angleAxis; TwoBoneJob
// solves in the hip's parent space with an affine inverse and no trigonometry;
// SolveChainBatch is the vectorised structure-of-arrays entry point (with each of its kernels,
// the x86-64 baseline's 4 lanes and AVX2's 8, by name). "Legs" solves 1,000
// random legs of one reach case (or a 70/20/10 mix) with the port and with the job, so each
// case's time can be compared with the port's on the same legs. The `per_solve` counter is
// the time of one solve; with repetitions, a "min" statistic gives the fastest. Figures and the
// command that reproduces them are in README.md.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

#include "ik/two_bone_batch.h"
#include "ik/two_bone_batch_isa.h"
#include "ik/two_bone_job.h"
#include "support/seed_port.h"

namespace {

using namespace ikpose::ik;

constexpr int kBatch = 10000;

glm::vec3 UnitVector(std::mt19937& rng) {
  std::normal_distribution<float> n(0.f, 1.f);
  for (;;) {
    const glm::vec3 v(n(rng), n(rng), n(rng));
    if (glm::length(v) > 1e-3f) return glm::normalize(v);
  }
}

// Leg-like chains under a rotated, uniformly scaled parent, with targets from well inside
// the reach to beyond it.
std::vector<TwoBoneJob> MakeJobs(int count) {
  std::mt19937 rng(1234u);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  std::vector<TwoBoneJob> jobs(count);
  for (TwoBoneJob& job : jobs) {
    glm::mat4 parent = glm::translate(glm::mat4(1.f), UnitVector(rng));
    parent = parent * glm::mat4_cast(glm::angleAxis(3.f * u(rng), UnitVector(rng)));
    job.hip_parent_ms = glm::scale(parent, glm::vec3(0.5f + u(rng)));
    job.hip_ls.translation = UnitVector(rng) * 0.2f;
    job.hip_ls.rotation = glm::angleAxis(3.f * u(rng), UnitVector(rng));
    job.knee_ls.translation = glm::vec3(0.f, -0.4f - 0.2f * u(rng), 0.f);
    job.knee_ls.rotation = glm::angleAxis(1.5f * u(rng), glm::vec3(1.f, 0.f, 0.f));
    job.foot_ls.translation = glm::vec3(0.f, -0.4f - 0.2f * u(rng), 0.f);
    const glm::vec3 hip_ms = glm::vec3(job.hip_parent_ms * glm::vec4(job.hip_ls.translation, 1.f));
    job.target_ms = hip_ms + UnitVector(rng) * (1.4f * u(rng));
  }
  return jobs;
}

// The same chains as rigid model-space points (hip, knee, foot) for SolveChain and the batch.
struct Points {
  std::vector<glm::vec3> a, b, c, t;
};
Points MakePoints(const std::vector<TwoBoneJob>& jobs) {
  Points p;
  for (const TwoBoneJob& job : jobs) {
    const Affine hip = Compose(AffineFromMat4(job.hip_parent_ms), AffineFromLocal(job.hip_ls));
    const Affine knee = Compose(hip, AffineFromLocal(job.knee_ls));
    p.a.push_back(hip.translation);
    p.b.push_back(knee.translation);
    p.c.push_back(TransformPoint(knee, job.foot_ls.translation));
    p.t.push_back(job.target_ms);
  }
  return p;
}

// The fastest of the repetitions, as a statistic beside mean and median: on a shared machine
// the slower repetitions measure its other tenants (README, "The solver").
double Fastest(const std::vector<double>& v) {
  return *std::min_element(v.begin(), v.end());
}

void PerSolve(benchmark::State& state, int solves_per_iteration) {
  state.SetItemsProcessed(state.iterations() * solves_per_iteration);
  state.counters["per_solve"] =
      benchmark::Counter(solves_per_iteration, benchmark::Counter::kIsIterationInvariantRate |
                                                   benchmark::Counter::kInvert);
}

// --- One chain at a time ---

void BM_SeedPort_OneAtATime(benchmark::State& state) {
  const std::vector<TwoBoneJob> jobs = MakeJobs(1);
  TwoBoneJob job = jobs[0];
  for (auto _ : state) {
    benchmark::DoNotOptimize(job);
    seed::SeedRotations r = seed::SolveOrientations(job.hip_parent_ms, job.hip_ls, job.knee_ls,
                                                    job.foot_ls, job.target_ms);
    benchmark::DoNotOptimize(r);
  }
  PerSolve(state, 1);
}
BENCHMARK(BM_SeedPort_OneAtATime);

void BM_TwoBoneJob_OneAtATime(benchmark::State& state) {
  const std::vector<TwoBoneJob> jobs = MakeJobs(1);
  TwoBoneJob job = jobs[0];
  TwoBoneOutput out;
  for (auto _ : state) {
    benchmark::DoNotOptimize(job);
    benchmark::DoNotOptimize(job.Run(&out));
    benchmark::DoNotOptimize(out);
  }
  PerSolve(state, 1);
}
BENCHMARK(BM_TwoBoneJob_OneAtATime);

void BM_TwoBoneJobWithReport_OneAtATime(benchmark::State& state) {
  const std::vector<TwoBoneJob> jobs = MakeJobs(1);
  TwoBoneJob job = jobs[0];
  TwoBoneOutput out;
  TwoBoneReport report;
  for (auto _ : state) {
    benchmark::DoNotOptimize(job);
    benchmark::DoNotOptimize(job.Run(&out, &report));
    benchmark::DoNotOptimize(report);
  }
  PerSolve(state, 1);
}
BENCHMARK(BM_TwoBoneJobWithReport_OneAtATime);

// The report the viewer, `trace` and `pose` ask for: the descriptions left to the writer.
void BM_TwoBoneJobWithGeometryReport_OneAtATime(benchmark::State& state) {
  const std::vector<TwoBoneJob> jobs = MakeJobs(1);
  TwoBoneJob job = jobs[0];
  TwoBoneOutput out;
  TwoBoneReport report;
  for (auto _ : state) {
    benchmark::DoNotOptimize(job);
    benchmark::DoNotOptimize(job.Run(&out, &report, ReportDetail::kGeometry));
    benchmark::DoNotOptimize(report);
  }
  PerSolve(state, 1);
}
BENCHMARK(BM_TwoBoneJobWithGeometryReport_OneAtATime);

void BM_SolveChain_OneAtATime(benchmark::State& state) {
  const Points p = MakePoints(MakeJobs(1));
  glm::vec3 a = p.a[0], b = p.b[0], c = p.c[0], t = p.t[0];
  for (auto _ : state) {
    benchmark::DoNotOptimize(a);
    benchmark::DoNotOptimize(t);
    ChainSolution s = SolveChain(a, b, c, t);
    benchmark::DoNotOptimize(s);
  }
  PerSolve(state, 1);
}
BENCHMARK(BM_SolveChain_OneAtATime);

// --- 10,000 independent chains ---

void BM_SeedPort_Batch10k(benchmark::State& state) {
  const std::vector<TwoBoneJob> jobs = MakeJobs(kBatch);
  std::vector<seed::SeedRotations> out(kBatch);
  for (auto _ : state) {
    for (int i = 0; i < kBatch; ++i) {
      const TwoBoneJob& job = jobs[i];
      out[i] = seed::SolveOrientations(job.hip_parent_ms, job.hip_ls, job.knee_ls, job.foot_ls,
                                       job.target_ms);
    }
    benchmark::ClobberMemory();
  }
  PerSolve(state, kBatch);
}
BENCHMARK(BM_SeedPort_Batch10k)->ComputeStatistics("min", Fastest);

void BM_TwoBoneJob_Batch10k(benchmark::State& state) {
  const std::vector<TwoBoneJob> jobs = MakeJobs(kBatch);
  std::vector<TwoBoneOutput> out(kBatch);
  for (auto _ : state) {
    for (int i = 0; i < kBatch; ++i) jobs[i].Run(&out[i]);
    benchmark::ClobberMemory();
  }
  PerSolve(state, kBatch);
}
BENCHMARK(BM_TwoBoneJob_Batch10k);

void BM_SolveChain_Batch10k(benchmark::State& state) {
  const Points p = MakePoints(MakeJobs(kBatch));
  std::vector<ChainSolution> out(kBatch);
  for (auto _ : state) {
    for (int i = 0; i < kBatch; ++i) out[i] = SolveChain(p.a[i], p.b[i], p.c[i], p.t[i]);
    benchmark::ClobberMemory();
  }
  PerSolve(state, kBatch);
}
BENCHMARK(BM_SolveChain_Batch10k);

// `kernel`: SolveChainBatch (the kernel it picks on this CPU) or a kernel by name.
enum BatchKernel { kPicked, kBaselineSse2, kAvx2, kAvx2Evex, kAvx512 };
void BM_SolveChainBatch_SoA10k(benchmark::State& state, BatchKernel kernel) {
  const detail::BatchIsa isa = kernel == kAvx2       ? detail::BatchIsa::kAvx2
                               : kernel == kAvx2Evex ? detail::BatchIsa::kAvx2Evex
                               : kernel == kAvx512   ? detail::BatchIsa::kAvx512
                                                     : detail::BatchIsa::kBaseline;
  if (!detail::BatchIsaAvailable(isa)) {
    state.SkipWithError("this CPU lacks the instruction set");
    return;
  }
  const int n = kBatch;
  const Points p = MakePoints(MakeJobs(n));
  std::vector<float> in(12 * n), out(14 * n);
  std::vector<std::uint8_t> reach(n);
  const std::vector<glm::vec3>* src[4] = {&p.a, &p.b, &p.c, &p.t};
  for (int s = 0; s < 4; ++s) {
    for (int i = 0; i < n; ++i) {
      for (int k = 0; k < 3; ++k) in[(s * 3 + k) * n + i] = (*src[s])[i][k];
    }
  }
  const auto col = [&](std::vector<float>& v, int j) { return v.data() + j * n; };
  ChainBatchInput bi;
  bi.hip = {col(in, 0), col(in, 1), col(in, 2)};
  bi.knee = {col(in, 3), col(in, 4), col(in, 5)};
  bi.foot = {col(in, 6), col(in, 7), col(in, 8)};
  bi.target = {col(in, 9), col(in, 10), col(in, 11)};
  ChainBatchOutput bo;
  bo.knee = {col(out, 0), col(out, 1), col(out, 2)};
  bo.foot = {col(out, 3), col(out, 4), col(out, 5)};
  bo.hip_rotation = {col(out, 6), col(out, 7), col(out, 8), col(out, 9)};
  bo.knee_rotation = {col(out, 10), col(out, 11), col(out, 12), col(out, 13)};
  bo.reach = reach.data();
  for (auto _ : state) {
    if (kernel == kPicked) {
      SolveChainBatch(bi, bo, std::size_t(n));
    } else {
      detail::SolveChainBatchOn(isa, bi, bo, std::size_t(n));
    }
    benchmark::ClobberMemory();
  }
  PerSolve(state, n);
}
BENCHMARK_CAPTURE(BM_SolveChainBatch_SoA10k, picked, kPicked)->ComputeStatistics("min", Fastest);
BENCHMARK_CAPTURE(BM_SolveChainBatch_SoA10k, baseline_sse2, kBaselineSse2)
    ->ComputeStatistics("min", Fastest);
BENCHMARK_CAPTURE(BM_SolveChainBatch_SoA10k, avx2, kAvx2)->ComputeStatistics("min", Fastest);
BENCHMARK_CAPTURE(BM_SolveChainBatch_SoA10k, avx2_evex, kAvx2Evex)
    ->ComputeStatistics("min", Fastest);
BENCHMARK_CAPTURE(BM_SolveChainBatch_SoA10k, avx512, kAvx512)->ComputeStatistics("min", Fastest);

// --- Random legs by reach case, the seed port and the job on the same legs ---

// 1,000 leg-like chains (thigh 0.5..0.6, shin 0.6..0.9 of it, under a rotated, uniformly
// scaled parent) with targets of one reach case: reachable (strictly between the folded and
// the straight distance), too far (up to 1.5x the reach), too close (within the fold), or a
// shuffled 70/20/10 mix of the three. The same seed gives the same legs to both solvers.
enum LegCase { kReachableLegs, kTooFarLegs, kTooCloseLegs, kMixedLegs };
std::vector<TwoBoneJob> MakeLegs(int which) {
  constexpr int kLegs = 1000;
  std::mt19937 rng(4321u);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  std::vector<TwoBoneJob> jobs(kLegs);
  for (int i = 0; i < kLegs; ++i) {
    TwoBoneJob& job = jobs[i];
    glm::mat4 parent = glm::translate(glm::mat4(1.f), UnitVector(rng));
    parent = parent * glm::mat4_cast(glm::angleAxis(3.f * u(rng), UnitVector(rng)));
    const float scale = 0.5f + u(rng);
    job.hip_parent_ms = glm::scale(parent, glm::vec3(scale));
    job.hip_ls.translation = UnitVector(rng) * 0.2f;
    job.hip_ls.rotation = glm::angleAxis(3.f * u(rng), UnitVector(rng));
    const float thigh = 0.5f + 0.1f * u(rng);
    const float shin = thigh * (0.6f + 0.3f * u(rng));
    job.knee_ls.translation = glm::vec3(0.f, -thigh, 0.f);
    job.knee_ls.rotation = glm::angleAxis(0.2f + 1.3f * u(rng), glm::vec3(1.f, 0.f, 0.f));
    job.foot_ls.translation = glm::vec3(0.f, -shin, 0.f);
    const int k = which != kMixedLegs
                      ? which
                      : (i % 10 < 7 ? kReachableLegs : (i % 10 < 9 ? kTooFarLegs : kTooCloseLegs));
    const float folded = thigh - shin, straight = thigh + shin;
    const float d = k == kReachableLegs ? folded + (0.02f + 0.96f * u(rng)) * (straight - folded)
                    : k == kTooFarLegs  ? straight * (1.02f + 0.48f * u(rng))
                                        : folded * (0.1f + 0.88f * u(rng));
    const glm::vec3 hip_ms = glm::vec3(job.hip_parent_ms * glm::vec4(job.hip_ls.translation, 1.f));
    job.target_ms = hip_ms + UnitVector(rng) * (scale * d);
  }
  if (which == kMixedLegs) std::shuffle(jobs.begin(), jobs.end(), rng);
  return jobs;
}
#define IKPOSE_LEG_CASES(bm)                                                           \
  BENCHMARK_CAPTURE(bm, reachable, kReachableLegs)->ComputeStatistics("min", Fastest); \
  BENCHMARK_CAPTURE(bm, too_far, kTooFarLegs)->ComputeStatistics("min", Fastest);      \
  BENCHMARK_CAPTURE(bm, too_close, kTooCloseLegs)->ComputeStatistics("min", Fastest);  \
  BENCHMARK_CAPTURE(bm, mixed_70_20_10, kMixedLegs)->ComputeStatistics("min", Fastest)

void BM_SeedPort_Legs(benchmark::State& state, int which) {
  const std::vector<TwoBoneJob> jobs = MakeLegs(which);
  std::vector<seed::SeedRotations> out(jobs.size());
  for (auto _ : state) {
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      const TwoBoneJob& job = jobs[i];
      out[i] = seed::SolveOrientations(job.hip_parent_ms, job.hip_ls, job.knee_ls, job.foot_ls,
                                       job.target_ms);
    }
    benchmark::ClobberMemory();
  }
  PerSolve(state, int(jobs.size()));
}
IKPOSE_LEG_CASES(BM_SeedPort_Legs);

void BM_TwoBoneJob_Legs(benchmark::State& state, int which) {
  const std::vector<TwoBoneJob> jobs = MakeLegs(which);
  std::vector<TwoBoneOutput> out(jobs.size());
  for (auto _ : state) {
    for (std::size_t i = 0; i < jobs.size(); ++i) jobs[i].Run(&out[i]);
    benchmark::ClobberMemory();
  }
  PerSolve(state, int(jobs.size()));
}
IKPOSE_LEG_CASES(BM_TwoBoneJob_Legs);

}  // namespace

BENCHMARK_MAIN();
