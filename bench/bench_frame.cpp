// The per-frame work of ikpose itself, apart from the driver's rendering: solve the four limb
// chains on top of the clip (natural knees, with the reports the panel and the overlays show),
// update the pose, build the skinning palette, record the debug overlays, and (with a GL
// context) upload the palette.
//   build/release/bench/bench_frame [--benchmark_repetitions=5]
#include <benchmark/benchmark.h>

#include <memory>

#include "anim/debug_draw.h"
#include "app/gl_window.h"
#include "asset/load_model.h"
#include "bench_model.h"
#include "render/palette_buffer.h"
#include "scene/session/posing_session.h"
#include "scene/view/overlays.h"

namespace {

using namespace ikpose;

struct Fixture {
  anim::Model model;
  std::unique_ptr<scene::PosingSession> session;
  std::vector<glm::mat4> palette;
  anim::DebugDraw draw;
  bool ok = false;
  std::string error;

  Fixture() {
    ok = asset::TryLoadModel(BenchModelPath(), &model, &error);
    if (!ok) return;
    session = std::make_unique<scene::PosingSession>(model);
    if (!model.clips.empty()) session->edits.playback.clip = 0;
    session->ResetTargets();
    // Move every target a little so each solve does real work.
    for (anim::Limb limb : anim::kLimbs) {
      if (session->target(limb).available) {
        session->target(limb).target_ms += glm::vec3(0.03f, 0.05f, 0.04f);
        session->target(limb).given = true;
      }
    }
  }

  void Frame(float t) {
    session->edits.playback.time = t;
    session->Evaluate();
    std::size_t joints = 0;
    for (const auto& skin : model.skins) joints += skin.joints.size();
    palette.resize(joints);
    std::size_t offset = 0;
    for (const auto& skin : model.skins) {
      anim::BuildPalette(skin, session->pose().models_ms,
                         std::span<glm::mat4>(palette.data() + offset, skin.joints.size()));
      offset += skin.joints.size();
    }
    draw.Clear();
    scene::DrawOverlays(*session, scene::OverlayOptions{}, 1.8f, draw);
  }
};

void BM_FrameWork(benchmark::State& state) {
  Fixture f;
  if (!f.ok) {
    state.SkipWithError(f.error.c_str());
    return;
  }
  float t = 0.0f;
  for (auto _ : state) {
    f.Frame(t);
    t += 1.0f / 60.0f;
    benchmark::DoNotOptimize(f.palette.data());
    benchmark::DoNotOptimize(f.draw.vertices().data());
  }
  state.counters["joints"] = static_cast<double>(f.palette.size());
}
BENCHMARK(BM_FrameWork)->Unit(benchmark::kMicrosecond);

// The same frame without the solves' reports (what the panel, the overlays and `trace` read;
// a bake turns them off): the reports' share of a frame.
void BM_FrameWorkWithoutReports(benchmark::State& state) {
  Fixture f;
  if (!f.ok) {
    state.SkipWithError(f.error.c_str());
    return;
  }
  f.session->reports = false;
  float t = 0.0f;
  for (auto _ : state) {
    f.Frame(t);
    t += 1.0f / 60.0f;
    benchmark::DoNotOptimize(f.palette.data());
  }
}
BENCHMARK(BM_FrameWorkWithoutReports)->Unit(benchmark::kMicrosecond);

void BM_FrameWorkWithPaletteUpload(benchmark::State& state) {
  std::string error;
  auto window = app::GlWindow::Open({"bench", 64, 64, true}, &error);
  if (!window) {
    state.SkipWithError(error.c_str());
    return;
  }
  Fixture f;
  if (!f.ok) {
    state.SkipWithError(f.error.c_str());
    return;
  }
  render::PaletteBuffer buffer;
  float t = 0.0f;
  for (auto _ : state) {
    f.Frame(t);
    buffer.Upload(f.palette);
    t += 1.0f / 60.0f;
  }
}
BENCHMARK(BM_FrameWorkWithPaletteUpload)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
