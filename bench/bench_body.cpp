// A whole-body solve per frame on the bundled character: both hands placed beyond their reach
// (the clavicles, spine and pelvis help) and both feet placed (four contacts place the pelvis
// and spine), then the four limbs solved and held to their joint ranges; beside it the same
// frame with the limits off, with the help off, and both hands' over-reach. The session's
// Evaluate is the frame (clip sampled, help, limbs). And leaning on a low box: feet where they
// stand, hands on its top, the body kept out of it (a ball query per body point and try).
//   build/release/bench/bench_body [--benchmark_repetitions=5]
#include <benchmark/benchmark.h>

#include <memory>

#include "asset/load_model.h"
#include "bench_model.h"
#include "scene/session/posing_session.h"
#include "scene/world/world.h"

namespace {

using namespace ikpose;

struct Fixture {
  anim::Model model;
  std::unique_ptr<scene::PosingSession> session;
  bool ok = false;
  std::string error;

  explicit Fixture(bool four_limbs) {
    ok = asset::TryLoadModel(BenchModelPath(), &model, &error);
    if (!ok) return;
    session = std::make_unique<scene::PosingSession>(model);
    session->ResetTargets();
    for (anim::Limb limb : anim::kLimbs) {
      scene::LimbTarget& t = session->target(limb);
      if (!t.available) continue;
      const anim::LimbChain& chain = session->chain(limb);
      const float length = chain.upper_length + chain.lower_length;
      const glm::vec3 root = anim::PositionMs(session->rest_pose(), chain.upper);
      if (!scene::IsLeg(limb)) {
        // 1.2 arm lengths forward of the shoulder, a little down.
        t.target_ms = root + 1.2f * length * glm::normalize(glm::vec3(0.f, -0.2f, 1.f));
        t.given = true;
      } else if (four_limbs) {
        t.target_ms += glm::vec3(0.f, 0.05f, 0.1f * length);  // a small step forward
        t.given = true;
      }
    }
  }
};

void Run(benchmark::State& state, bool four_limbs, bool help, bool limits = true) {
  Fixture f(four_limbs);
  if (!f.ok) {
    state.SkipWithError(f.error.c_str());
    return;
  }
  f.session->edits.body_help = help;
  f.session->edits.limits = limits;
  for (auto _ : state) {
    f.session->Evaluate();
    benchmark::DoNotOptimize(f.session->pose().models_ms.data());
  }
  state.counters["pelvis_offset"] = glm::length(f.session->body_help_report().pelvis_offset_ms);
  state.counters["bones_turned"] = static_cast<double>(f.session->body_help_report().bones.size());
  state.counters["at_limit"] = static_cast<double>(f.session->joints_at_limit().size());
}

// Four contacts with both hands beyond reach: the whole-body solve.
void BM_BodyFourLimbs(benchmark::State& state) {
  Run(state, true, true);
}
BENCHMARK(BM_BodyFourLimbs)->Unit(benchmark::kMicrosecond);

// The same frame with the joint limits off (the help still within the ranges; no limb held to
// its ranges, nothing listed at a limit).
void BM_BodyFourLimbsLimitsOff(benchmark::State& state) {
  Run(state, true, true, false);
}
BENCHMARK(BM_BodyFourLimbsLimitsOff)->Unit(benchmark::kMicrosecond);

// The same frame with the body help off (the limbs alone).
void BM_BodyFourLimbsHelpOff(benchmark::State& state) {
  Run(state, true, false);
}
BENCHMARK(BM_BodyFourLimbsHelpOff)->Unit(benchmark::kMicrosecond);

// Both hands beyond reach, feet standing: clavicle, spine, then pelvis.
void BM_BodyTwoHandsOverReach(benchmark::State& state) {
  Run(state, false, true);
}
BENCHMARK(BM_BodyTwoHandsOverReach)->Unit(benchmark::kMicrosecond);

// Hands on the top of a box half a metre high in front of the feet (as
// `PropsCli.ABodyLeaningOnALowBoxBendsOverIt`): the body bends over it, kept out of it.
void LeanOnABox(benchmark::State& state, bool feet_placed) {
  Fixture f(false);
  if (!f.ok) {
    state.SkipWithError(f.error.c_str());
    return;
  }
  scene::PosingSession& s = *f.session;
  const scene::Prop box = scene::BoxProp("box.glb", {-0.5f, 0.0f, 0.3f}, {0.5f, 0.5f, 1.3f});
  std::string error;
  s.edits.world = scene::World::Build({box}, &error);
  if (!s.edits.world) {
    state.SkipWithError(error.c_str());
    return;
  }
  for (anim::Limb limb : anim::kLimbs) {
    scene::LimbTarget& t = s.target(limb);
    if (!t.available || (scene::IsLeg(limb) && !feet_placed)) continue;
    const glm::vec3 root = anim::PositionMs(s.rest_pose(), s.chain(limb).upper);
    if (!scene::IsLeg(limb)) t.target_ms = glm::vec3(root.x, 0.52f, 0.6f);
    t.given = true;
  }
  for (auto _ : state) {
    s.Evaluate();
    benchmark::DoNotOptimize(s.pose().models_ms.data());
  }
  state.counters["pelvis_tilt_deg"] = s.body_help_report().pelvis_tilt_deg;
  state.counters["penetrations"] = static_cast<double>(s.ground_report().penetrations.size());
}

// The feet placed where they stand: four contacts.
void BM_BodyLeanOnABox(benchmark::State& state) {
  LeanOnABox(state, true);
}
BENCHMARK(BM_BodyLeanOnABox)->Unit(benchmark::kMicrosecond);

// The feet left standing: the arms' help first, then (it sinks the knees into the box) four
// contacts with the feet held where they stand.
void BM_BodyLeanOnABoxHandsOnly(benchmark::State& state) {
  LeanOnABox(state, false);
}
BENCHMARK(BM_BodyLeanOnABoxHandsOnly)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
