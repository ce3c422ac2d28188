// The C interface's cost over the C++ call it wraps: ikpose_solve_two_bone against
// ik::SolvePositions (what `ikpose solve` runs) on the same 10,000 random chains per iteration,
// and ikpose_solve_limb_natural (swivel choice + pole solve). `per_solve` is one solve's time.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "anim/knee_policy.h"
#include "ik/two_bone_positions.h"
#include "ikpose/ikpose.h"

namespace {

constexpr int kChains = 10000;

// Leg-sized chains, targets from inside the reach to a little beyond it (float[12] each).
std::vector<float> MakeChains() {
  std::mt19937 rng(42u);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<float> p;
  for (int i = 0; i < kChains; ++i) {
    const float a[3] = {0.1f * u(rng), 1.f + 0.1f * u(rng), 0.1f * u(rng)};
    const float b[3] = {a[0] + 0.05f * u(rng), a[1] - 0.45f, a[2] + 0.1f + 0.05f * u(rng)};
    const float c[3] = {b[0] + 0.05f * u(rng), b[1] - 0.45f, b[2] - 0.1f};
    const float t[3] = {a[0] + 0.6f * u(rng), a[1] - 0.5f + 0.5f * u(rng), a[2] + 0.6f * u(rng)};
    p.insert(p.end(), a, a + 3);
    p.insert(p.end(), b, b + 3);
    p.insert(p.end(), c, c + 3);
    p.insert(p.end(), t, t + 3);
  }
  return p;
}

void PerSolve(benchmark::State& state) {
  state.SetItemsProcessed(state.iterations() * kChains);
  state.counters["per_solve"] = benchmark::Counter(
      kChains, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_SolvePositions_Cpp10k(benchmark::State& state) {
  const std::vector<float> p = MakeChains();
  ikpose::ik::PositionsResult r;
  for (auto _ : state) {
    for (int i = 0; i < kChains; ++i) {
      const float* q = &p[12 * i];
      ikpose::ik::PositionsInput in;
      in.hip_ms = {q[0], q[1], q[2]};
      in.knee_ms = {q[3], q[4], q[5]};
      in.foot_ms = {q[6], q[7], q[8]};
      in.target_ms = {q[9], q[10], q[11]};
      benchmark::DoNotOptimize(ikpose::ik::SolvePositions(in, &r));
      benchmark::DoNotOptimize(r);
    }
  }
  PerSolve(state);
}
BENCHMARK(BM_SolvePositions_Cpp10k);

void BM_SolveTwoBone_C10k(benchmark::State& state) {
  const std::vector<float> p = MakeChains();
  float b_out[3], c_out[3];
  for (auto _ : state) {
    for (int i = 0; i < kChains; ++i) {
      const float* q = &p[12 * i];
      benchmark::DoNotOptimize(ikpose_solve_two_bone(q, q + 3, q + 6, q + 9, b_out, c_out));
      benchmark::DoNotOptimize(b_out);
      benchmark::DoNotOptimize(c_out);
    }
  }
  PerSolve(state);
}
BENCHMARK(BM_SolveTwoBone_C10k);

void BM_SolveLimbNatural_C10k(benchmark::State& state) {
  const std::vector<float> p = MakeChains();
  const float forward[3] = {0.f, 0.f, 1.f};
  ikpose_natural_bend bend;
  if (ikpose_natural_bend_from_rest(&p[0], &p[3], &p[6], nullptr, forward, 1, &bend) != 0) {
    state.SkipWithError("no natural bend");
    return;
  }
  float b_out[3], c_out[3];
  for (auto _ : state) {
    for (int i = 0; i < kChains; ++i) {
      const float* q = &p[12 * i];
      benchmark::DoNotOptimize(ikpose_solve_limb_natural(&bend, nullptr, q, q + 3, q + 6, q + 9,
                                                         0.f, b_out, c_out, nullptr));
      benchmark::DoNotOptimize(b_out);
    }
  }
  PerSolve(state);
}
BENCHMARK(BM_SolveLimbNatural_C10k);

}  // namespace

BENCHMARK_MAIN();
