// Picking on the skinned surface, as the viewer does on every mouse move: a hover on a still
// pose (the skinned positions cached, a ray-box test per mesh, then its triangles), and a pick
// right after the pose changed (skinning every mesh on the CPU first). The model is
// IKPOSE_BENCH_MODEL if set, else the bundled character.
#include <benchmark/benchmark.h>

#include <glm/gtc/quaternion.hpp>

#include "anim/skinning.h"
#include "asset/load_model.h"
#include "bench_model.h"
#include "scene/world/surface_pick.h"

namespace {

using namespace ikpose;

struct Fixture {
  anim::Model model = asset::LoadModel(BenchModelPath());
  anim::Pose pose = anim::RestPose(model.skeleton);
  anim::Bounds bounds = anim::ComputeBounds(model, pose);
  // Rays from the front through a grid over the model's box: what a cursor sweeping it sees.
  glm::vec3 Origin(int i) const {
    const glm::vec3 size = bounds.max - bounds.min;
    const float u = static_cast<float>(i % 16) / 15.0f, v = static_cast<float>(i / 16 % 16) / 15.0f;
    return bounds.min + glm::vec3(u * size.x, v * size.y, 0.0f) + glm::vec3(0, 0, 10.0f * size.y);
  }
};

void BM_HoverOnAStillPose(benchmark::State& state) {
  Fixture f;
  scene::SurfacePicker picker;
  picker.Update(f.model, f.pose);
  int i = 0, hits = 0;
  for (auto _ : state) {
    const scene::SurfaceHit hit = picker.Pick(f.model, f.Origin(i++), glm::vec3(0, 0, -1));
    hits += hit.hit ? 1 : 0;
    benchmark::DoNotOptimize(hit);
  }
  state.counters["hit_share"] = static_cast<double>(hits) / static_cast<double>(i);
}
BENCHMARK(BM_HoverOnAStillPose)->Unit(benchmark::kMicrosecond);

void BM_PickAfterThePoseChanged(benchmark::State& state) {
  Fixture f;
  scene::SurfacePicker picker;
  int i = 0;
  for (auto _ : state) {
    // A new pose each time: the first joint turns a little.
    for (int b = 0; b < f.model.skeleton.size(); ++b) {
      if (!f.model.skeleton.IsJoint(b)) continue;
      f.pose.locals_ls[static_cast<std::size_t>(b)].rotation *=
          glm::angleAxis(0.001f, glm::vec3(0, 1, 0));
      break;
    }
    anim::UpdateModels(f.model.skeleton, f.pose);
    picker.Update(f.model, f.pose);
    benchmark::DoNotOptimize(picker.Pick(f.model, f.Origin(i++), glm::vec3(0, 0, -1)));
  }
}
BENCHMARK(BM_PickAfterThePoseChanged)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
