// Replay speed: one trace frame of four limbs on the bundled character, posed through the one
// road (scene::SolveFrame -> BuildSession) as `ikpose trace` poses it, with the model's rig
// facts measured once and shared (what trace and bake do) against measured per frame (what they
// did before: the rest mesh skinned on the CPU for every frame); and a whole trace frame (as
// given and under two more policies) with its situation built once against once per solve.
// Frames a second = 1 / time.
//   build/release/bench/bench_trace [--benchmark_repetitions=5]
#include <benchmark/benchmark.h>

#include <cmath>
#include <memory>
#include <string>

#include "asset/load_model.h"
#include "scene/session/rig_facts.h"
#include "scene/trace/trace_replay.h"

namespace {

using namespace ikpose;

struct Character {
  anim::Model model;
  std::string error;
  bool ok = false;
  Character() {
    ok = asset::TryLoadModel(std::string(IKPOSE_SOURCE_DIR) + "/assets/character.glb", &model,
                             &error);
  }
};

const Character& TheCharacter() {
  static const Character character;
  return character;
}

// Frame i of a game's four moving targets, all within reach.
scene::TraceFrame Input(int i) {
  const float t = static_cast<float>(i) / 60.0f;
  const float s = std::sin(2.0f * t);
  const float c = std::cos(2.0f * t);
  scene::TraceFrame frame;
  frame.frame = i;
  frame.time = t;
  const glm::vec3 targets[4] = {{0.35f, 1.1f + 0.1f * s, 0.2f},
                                {-0.35f, 1.1f - 0.1f * s, 0.2f},
                                {0.1f, 0.15f + 0.1f * s, 0.1f * c},
                                {-0.1f, 0.15f - 0.1f * s, -0.1f * c}};
  for (int k = 0; k < 4; ++k) {
    frame.inputs[k].has_target = true;
    frame.inputs[k].target_ms = targets[k];
  }
  return frame;
}

void RunFrames(benchmark::State& state, bool share_facts) {
  const Character& character = TheCharacter();
  if (!character.ok) {
    state.SkipWithError(character.error.c_str());
    return;
  }
  const scene::PosingRequest base;
  const std::shared_ptr<const scene::RigFacts> facts =
      share_facts ? scene::MeasureRig(character.model) : nullptr;
  int i = 0;
  std::string error;
  for (auto _ : state) {
    scene::TraceFrame solved;
    const auto session =
        scene::SolveFrame(character.model, base, Input(i++), std::nullopt, &solved, &error, facts);
    if (!session) {
      state.SkipWithError(error.c_str());
      return;
    }
    benchmark::DoNotOptimize(solved);
  }
  state.counters["frames_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_TraceFrame_SharedRigFacts(benchmark::State& state) {
  RunFrames(state, true);
}
void BM_TraceFrame_FactsPerFrame(benchmark::State& state) {
  RunFrames(state, false);
}
BENCHMARK(BM_TraceFrame_SharedRigFacts)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TraceFrame_FactsPerFrame)->Unit(benchmark::kMicrosecond);

// What `ikpose trace` does per frame: the frame solved as given and again under the seed and
// natural policies (for their pop counts), over the walk clip. The frame's situation built once
// and solved three times (the clip sampled once), against built again for every solve.
void RunThreePolicies(benchmark::State& state, bool share_situation) {
  const Character& character = TheCharacter();
  if (!character.ok) {
    state.SkipWithError(character.error.c_str());
    return;
  }
  scene::PosingRequest base;
  base.clip = "walk";
  const std::shared_ptr<const scene::RigFacts> facts = scene::MeasureRig(character.model);
  const std::optional<anim::KneePolicy> policies[3] = {std::nullopt, anim::KneePolicy::kSeed,
                                                       anim::KneePolicy::kNatural};
  int i = 0;
  std::string error;
  for (auto _ : state) {
    scene::TraceFrame input = Input(i++);
    input.clip_time = input.time;
    std::unique_ptr<scene::PosingSession> situation;
    if (share_situation) {
      situation = scene::FrameSituation(character.model, base, input, &error, facts);
    }
    for (const std::optional<anim::KneePolicy>& policy : policies) {
      scene::TraceFrame solved;
      const auto session =
          share_situation
              ? scene::SolveFrame(*situation, base, input, policy, &solved, &error)
              : scene::SolveFrame(character.model, base, input, policy, &solved, &error, facts);
      if (!session) {
        state.SkipWithError(error.c_str());
        return;
      }
      benchmark::DoNotOptimize(solved);
    }
  }
  state.counters["frames_per_s"] =
      benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
void BM_TraceFrameThreePolicies_SituationOnce(benchmark::State& state) {
  RunThreePolicies(state, true);
}
void BM_TraceFrameThreePolicies_SituationPerPolicy(benchmark::State& state) {
  RunThreePolicies(state, false);
}
BENCHMARK(BM_TraceFrameThreePolicies_SituationOnce)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TraceFrameThreePolicies_SituationPerPolicy)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
