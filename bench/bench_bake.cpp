// Baking speed: frames a second that `ikpose export --scene assets/scenes/ladder_climb.json --bake`
// solves (scenario, clip, ladder follow, four limbs, each frame through the one road), then the
// same with --lock-feet (a second pass over the planted frames), and the glTF writing of the
// result (bundled character, 61 frames, every clip).
//   build/release/bench/bench_bake [--benchmark_repetitions=5]
#include <benchmark/benchmark.h>

#include <string>

#include "asset/export_gltf.h"
#include "asset/load_model.h"
#include "scene/files/scenario.h"
#include "scene/trace/bake.h"

namespace {

using namespace ikpose;

struct Climb {
  anim::Model model;
  scene::PosingRequest request;
  std::string error;
  bool ok = false;

  Climb() {
    const std::string root = IKPOSE_SOURCE_DIR;
    scene::Scenario scenario;
    ok = asset::TryLoadModel(root + "/assets/character.glb", &model, &error) &&
         scene::LoadScenario(root + "/assets/scenes/ladder_climb.json", &scenario, &error);
    request.scenario = scenario;
  }

  scene::BakeResult Bake(bool lock_feet) const {
    scene::BakeSettings settings;
    settings.to = 2.0;  // the clip's length
    settings.fps = 30.0;
    settings.lock_feet[static_cast<int>(anim::Limb::kLeftLeg)] = lock_feet;
    settings.lock_feet[static_cast<int>(anim::Limb::kRightLeg)] = lock_feet;
    scene::Baker baker(model, request, settings);
    std::string why;
    while (!baker.done()) {
      if (!baker.Step(&why)) break;
    }
    return baker.Finish();
  }
};

const Climb& TheClimb() {
  static const Climb climb;
  return climb;
}

void RunBake(benchmark::State& state, bool lock_feet) {
  const Climb& climb = TheClimb();
  if (!climb.ok) {
    state.SkipWithError(climb.error.c_str());
    return;
  }
  int frames = 0;
  for (auto _ : state) {
    const scene::BakeResult result = climb.Bake(lock_feet);
    frames += result.frames;
    benchmark::DoNotOptimize(result.clip.tracks.data());
  }
  state.counters["frames_per_s"] = benchmark::Counter(frames, benchmark::Counter::kIsRate);
}

void BM_BakeLadderClimb(benchmark::State& state) {
  RunBake(state, false);
}
void BM_BakeLadderClimbLockFeet(benchmark::State& state) {
  RunBake(state, true);
}

void BM_WriteBakedGlb(benchmark::State& state) {
  const Climb& climb = TheClimb();
  if (!climb.ok) {
    state.SkipWithError(climb.error.c_str());
    return;
  }
  const scene::BakeResult result = climb.Bake(false);
  const std::vector<anim::Clip> clips = scene::ClipsWithBake(climb.model, result.clip);
  for (auto _ : state) {
    const std::vector<std::uint8_t> bytes =
        asset::PosedGlb(climb.model, climb.model.skeleton.rest_ls, nullptr, clips);
    benchmark::DoNotOptimize(bytes.data());
  }
}

BENCHMARK(BM_BakeLadderClimb)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_BakeLadderClimbLockFeet)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WriteBakedGlb)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
