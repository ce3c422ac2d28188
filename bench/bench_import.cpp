// Loading a model with the importer in a child process (what every command does) against the
// same import in this process, and the wire format's two ends alone. The model is
// IKPOSE_BENCH_MODEL if set, else the bundled character.
#include <benchmark/benchmark.h>

#include "asset/load_model.h"
#include "asset/model_wire.h"
#include "bench_model.h"

namespace {

using namespace ikpose;

void BM_LoadInProcess(benchmark::State& state) {
  for (auto _ : state) {
    anim::Model model = asset::LoadModelInProcess(BenchModelPath());
    benchmark::DoNotOptimize(model);
  }
}
BENCHMARK(BM_LoadInProcess)->Unit(benchmark::kMillisecond);

void BM_LoadInChild(benchmark::State& state) {
  for (auto _ : state) {
    anim::Model model = asset::LoadModel(BenchModelPath());
    benchmark::DoNotOptimize(model);
  }
}
BENCHMARK(BM_LoadInChild)->Unit(benchmark::kMillisecond);

void BM_WireEncodeDecode(benchmark::State& state) {
  const anim::Model model = asset::LoadModelInProcess(BenchModelPath());
  std::size_t bytes = 0;
  for (auto _ : state) {
    const std::string wire = asset::EncodeModel(model);
    anim::Model back;
    std::string problem;
    benchmark::DoNotOptimize(asset::DecodeAnswer(wire, &back, &problem));
    bytes = wire.size();
  }
  state.counters["wire_MB"] = static_cast<double>(bytes) / 1e6;
}
BENCHMARK(BM_WireEncodeDecode)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
