// GPU skinning throughput: N instances of the character drawn headlessly (SDL offscreen, EGL)
// into a 1280x720 multisampled target; GPU time from timer queries. Reports skinned vertices
// per second and milliseconds per frame (wall clock around glFinish), plus what the driver's
// timer queries say (gpu_timer_ms; meaningful on real GPUs). Runs on llvmpipe and GPUs alike.
//   build/release/bench/bench_gpu_skinning
#include <benchmark/benchmark.h>
#include <glad/gl.h>

#include <chrono>
#include <cmath>
#include <memory>

#include <glm/gtc/matrix_transform.hpp>

#include "app/gl_window.h"
#include "app/paths.h"
#include "asset/load_model.h"
#include "bench_model.h"
#include "render/model_renderer.h"
#include "render/render_target.h"

namespace {

using namespace ikpose;

void BM_GpuSkinning(benchmark::State& state) {
  const int instances = static_cast<int>(state.range(0));
  std::string error;
  auto window = app::GlWindow::Open({"bench", 1280, 720, true}, &error);
  if (!window) {
    state.SkipWithError(error.c_str());
    return;
  }
  anim::Model model;
  if (!asset::TryLoadModel(BenchModelPath(), &model, &error)) {
    state.SkipWithError(error.c_str());
    return;
  }
  render::ModelRenderer renderer;
  if (!renderer.Init(app::DataDir() / "shaders", &error)) {
    state.SkipWithError(error.c_str());
    return;
  }
  std::vector<std::string> warnings;
  renderer.Load(model, &warnings);
  const anim::Pose pose = anim::RestPose(model.skeleton);
  renderer.UpdatePose(model, pose.models_ms);
  const anim::Bounds bounds = anim::ComputeBounds(model, pose);
  const float size = glm::length(bounds.max - bounds.min);
  render::RenderTarget target;
  target.Resize(1280, 720, 4);
  const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<float>(instances))));
  const glm::mat4 proj = glm::perspective(glm::radians(40.0f), 1280.0f / 720.0f, 0.1f, 1000.0f);
  const glm::vec3 center = 0.5f * (bounds.min + bounds.max);
  const glm::mat4 view =
      glm::lookAt(center + glm::vec3(0, 0, size * (1.5f + side)), center, glm::vec3(0, 1, 0));
  unsigned query = 0;
  glGenQueries(1, &query);
  double gpu_ns_total = 0.0;
  double wall_ns_total = 0.0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    glBeginQuery(GL_TIME_ELAPSED, query);
    target.Bind();
    glClearColor(0.2f, 0.2f, 0.2f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    for (int i = 0; i < instances; ++i) {
      const glm::vec3 offset((static_cast<float>(i % side) - 0.5f * side) * size * 0.6f,
                             (static_cast<float>(i / side) - 0.5f * side) * size * 0.6f, 0.0f);
      renderer.Draw(proj * view * glm::translate(glm::mat4(1.0f), offset), render::Lighting{});
    }
    glEndQuery(GL_TIME_ELAPSED);
    glFinish();
    const double wall_ns =
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
    GLuint64 ns = 0;
    glGetQueryObjectui64v(query, GL_QUERY_RESULT, &ns);
    gpu_ns_total += static_cast<double>(ns);
    wall_ns_total += wall_ns;
    // The frame's time is the wall clock around glFinish: on llvmpipe the "GPU" is the CPU and
    // its timer queries are not trustworthy. gpu_timer_ms reports what the driver's timer says.
    state.SetIterationTime(wall_ns * 1e-9);
  }
  glDeleteQueries(1, &query);
  const double vertices = static_cast<double>(renderer.vertex_count()) * instances;
  state.counters["instances"] = instances;
  state.counters["gpu_timer_ms"] =
      benchmark::Counter(gpu_ns_total * 1e-6 / static_cast<double>(state.iterations()));
  state.counters["skinned_vertices_per_s"] = benchmark::Counter(
      vertices * static_cast<double>(state.iterations()) / (wall_ns_total * 1e-9));
  state.SetLabel(window->renderer());
}
BENCHMARK(BM_GpuSkinning)->Arg(1)->Arg(16)->Arg(64)->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
