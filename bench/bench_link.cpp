// The live link into `trace --listen`: how many frames a second a game can send through
// include/ikpose_link.h over loopback and have parsed into keys (app::LinkListener feeding
// scene::TargetsStream, as `trace --listen` runs them), and how long one frame takes from
// ikpose_link_send_frame to its key.
//   build/release/bench/bench_link [--benchmark_repetitions=5]
// BM_LinkSendToSolvedFrame follows a frame into the window's path: from the game's send through
// the viewer's receiver thread and queue (app/link_receiver.h) to the session posed with it
// (the targets placed as view --listen places them, Evaluate), which is what the next drawn
// frame shows. The window polls once a frame, so on screen add up to one frame interval and the
// frame's drawing; BM_LinkSendToPicture adds the drawing (the palette uploaded, the character
// drawn, glFinish).
// Limits: loopback only (a network adds its own latency); the solve of each frame, which
// `trace` does after the connection closes, is bench_frame's and bench_ik's.
#include <benchmark/benchmark.h>
#include <glad/gl.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include <glm/gtc/matrix_transform.hpp>

#include "app/gl_window.h"
#include "app/link_listener.h"
#include "app/link_receiver.h"
#include "app/paths.h"
#include "asset/load_model.h"
#include "bench_model.h"
#include "ikpose_link.h"
#include "render/model_renderer.h"
#include "render/render_target.h"
#include "scene/files/targets_stream.h"
#include "scene/session/posing_session.h"
#include "scene/trace/timeline.h"

namespace {

using namespace ikpose;

int PortOf(const app::LinkListener& listener) {
  const std::string bound = listener.BoundAddress();
  return std::stoi(bound.substr(bound.rfind(':') + 1));
}

// A game frame: both legs and one hand with a pole, moving.
ikpose_link_frame Frame(int i) {
  ikpose_link_frame frame{};
  frame.time = i / 60.0;
  const float s = 0.001f * static_cast<float>(i % 1000);
  ikpose_link_set_target(&frame, IKPOSE_LINK_LEFT_LEG, 0.1f + s, 0.4f, -0.29f);
  ikpose_link_set_target(&frame, IKPOSE_LINK_RIGHT_LEG, -0.1f, 0.1f + s, 0.05f);
  ikpose_link_set_target(&frame, IKPOSE_LINK_LEFT_ARM, 0.3f, 1.1f + s, 0.2f);
  ikpose_link_set_pole(&frame, IKPOSE_LINK_LEFT_ARM, 0.3f, 1.1f, -1.f);
  return frame;
}

// One connection of `frames` frames a run, sent as fast as the link takes them; the time runs
// until the last key is parsed on ikpose's side.
void BM_LinkFramesPerSecond(benchmark::State& state) {
  const int frames = static_cast<int>(state.range(0));
  app::LinkListener listener;
  std::string error;
  if (!listener.Open(app::LinkAddress{"127.0.0.1", 0}, &error)) {
    state.SkipWithError(error.c_str());
    return;
  }
  const auto port = static_cast<unsigned short>(PortOf(listener));
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    std::size_t keys = 0;
    std::thread ikpose_side([&] {
      scene::TargetsStream stream("link");
      std::string peer;
      std::string what;
      const auto feed = [&](std::string_view bytes, std::string* e) {
        return stream.Feed(bytes, e);
      };
      if (listener.ServeOne(10.0, feed, &peer, &what) && stream.Finish(&what)) {
        keys = stream.keys().size();
      }
    });
    ikpose_link link;
    if (ikpose_link_connect(&link, "127.0.0.1", port) == 0) {
      for (int i = 0; i < frames; ++i) {
        const ikpose_link_frame frame = Frame(i);
        if (ikpose_link_send_frame(&link, &frame) != 0) break;
      }
      ikpose_link_close(&link);
    }
    ikpose_side.join();
    state.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (keys != static_cast<std::size_t>(frames)) {
      state.SkipWithError("not every frame arrived");
      break;
    }
  }
  state.SetItemsProcessed(state.iterations() * frames);
  state.counters["frames_per_s"] = benchmark::Counter(
      static_cast<double>(frames), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_LinkFramesPerSecond)->Arg(36000)->UseManualTime()->Unit(benchmark::kMillisecond);

// The ikpose side's share of the above: the same frames' bytes, already received, cut into
// lines and parsed (scene::TargetsStream, 64 KiB at a time as the listener reads them).
void BM_LinkParseOnly(benchmark::State& state) {
  const int frames = static_cast<int>(state.range(0));
  std::string text;
  for (int i = 0; i < frames; ++i) {
    // The bytes ikpose_link_send_frame writes, captured from a socket pair.
    text += "{\"time\": " + std::to_string(i / 60.0) +
            ", \"limbs\": {\"left_arm\": {\"target\": [0.300000012, 1.10000002, 0.200000003], "
            "\"pole\": [0.300000012, 1.10000002, -1]}, \"left_leg\": {\"target\": [0.100000001, "
            "0.400000006, -0.289999992]}, \"right_leg\": {\"target\": [-0.100000001, "
            "0.100000001, 0.0500000007]}}}\n";
  }
  for (auto _ : state) {
    scene::TargetsStream stream("link");
    std::string error;
    for (std::size_t at = 0; at < text.size(); at += 64u << 10) {
      if (!stream.Feed(std::string_view(text).substr(at, 64u << 10), &error)) break;
    }
    if (!stream.Finish(&error) || stream.keys().size() != static_cast<std::size_t>(frames)) {
      state.SkipWithError(error.c_str());
      break;
    }
  }
  state.counters["frames_per_s"] = benchmark::Counter(
      static_cast<double>(frames), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_LinkParseOnly)->Arg(36000)->Unit(benchmark::kMillisecond);

// One frame from ikpose_link_send_frame until ikpose's side has its key: the link's latency
// (a frame's bytes through loopback TCP, the read, the line parsed), one frame in flight.
void BM_LinkFrameLatency(benchmark::State& state) {
  app::LinkListener listener;
  std::string error;
  if (!listener.Open(app::LinkAddress{"127.0.0.1", 0}, &error)) {
    state.SkipWithError(error.c_str());
    return;
  }
  std::atomic<std::size_t> parsed{0};
  std::thread ikpose_side([&] {
    scene::TargetsStream stream("link");
    std::string peer;
    std::string what;
    const auto feed = [&](std::string_view bytes, std::string* e) {
      const bool ok = stream.Feed(bytes, e);
      parsed.store(stream.keys().size(), std::memory_order_release);
      return ok;
    };
    listener.ServeOne(10.0, feed, &peer, &what);
  });
  ikpose_link link;
  if (ikpose_link_connect(&link, "127.0.0.1", static_cast<unsigned short>(PortOf(listener))) != 0) {
    state.SkipWithError(link.error);
    listener.Stop();
    ikpose_side.join();
    return;
  }
  std::size_t sent = 0;
  for (auto _ : state) {
    const ikpose_link_frame frame = Frame(static_cast<int>(sent));
    if (ikpose_link_send_frame(&link, &frame) != 0) {
      state.SkipWithError(link.error);
      break;
    }
    ++sent;
    // Yielding, not spinning: on a machine with few cores the spin would slow ikpose's side.
    while (parsed.load(std::memory_order_acquire) < sent) std::this_thread::yield();
  }
  ikpose_link_close(&link);
  ikpose_side.join();
}
BENCHMARK(BM_LinkFrameLatency)->Unit(benchmark::kMicrosecond);

// One frame from ikpose_link_send_frame to the viewer's session posed with it: the receiver's
// thread reads and parses it into its queue, the window's side takes it (Poll, never waiting),
// places the targets and evaluates the pose (four limbs, the bundled character).
void BM_LinkSendToSolvedFrame(benchmark::State& state) {
  anim::Model model;
  std::string error;
  if (!asset::TryLoadModel(BenchModelPath(), &model, &error)) {
    state.SkipWithError(error.c_str());
    return;
  }
  scene::PosingSession session(model);
  app::LinkReceiver receiver;
  if (!receiver.Start(app::LinkAddress{"127.0.0.1", 0}, &error)) {
    state.SkipWithError(error.c_str());
    return;
  }
  app::LinkStatus status;
  std::vector<scene::TargetKey> keys;
  receiver.Poll(&keys, &status);
  ikpose_link link;
  const std::string& bound = status.listening;
  const int port = std::stoi(bound.substr(bound.rfind(':') + 1));
  if (ikpose_link_connect(&link, "127.0.0.1", static_cast<unsigned short>(port)) != 0) {
    state.SkipWithError(link.error);
    return;
  }
  int sent = 0;
  for (auto _ : state) {
    const ikpose_link_frame frame = Frame(sent++);
    if (ikpose_link_send_frame(&link, &frame) != 0) {
      state.SkipWithError(link.error);
      break;
    }
    keys.clear();
    while (keys.empty()) {
      receiver.Poll(&keys, &status);
      if (keys.empty()) std::this_thread::yield();
    }
    const std::array<scene::LimbInput, 4> now = scene::TargetsAt(keys, keys.back().time);
    for (anim::Limb limb : anim::kLimbs) {
      scene::LimbTarget& t = session.target(limb);
      if (t.available) scene::PlaceInput(now[static_cast<std::size_t>(limb)], t);
    }
    session.Evaluate();
    benchmark::DoNotOptimize(session.pose().models_ms.data());
  }
  ikpose_link_close(&link);
  receiver.Stop();
}
BENCHMARK(BM_LinkSendToSolvedFrame)->Unit(benchmark::kMicrosecond);

// One frame from ikpose_link_send_frame to its picture: BM_LinkSendToSolvedFrame's path, then
// what the window's frame does with the pose: the skinning palette uploaded and the character
// drawn into the window's 1280x720 multisampled target, waited for with glFinish (headless, SDL
// offscreen and EGL: llvmpipe on a machine without a GPU, the GPU where there is one). The
// window takes the link once a frame, so a frame sent at a random time also waits half a frame
// interval on average for that frame to start, and the swap to the screen adds the display's.
void BM_LinkSendToPicture(benchmark::State& state) {
  std::string error;
  auto window = app::GlWindow::Open({"bench", 64, 64, true}, &error);
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
  scene::PosingSession session(model);
  const anim::Bounds bounds = anim::ComputeBounds(model, session.pose());
  const glm::vec3 center = 0.5f * (bounds.min + bounds.max);
  const float size = glm::length(bounds.max - bounds.min);
  const glm::mat4 view_proj =
      glm::perspective(glm::radians(40.0f), 1280.0f / 720.0f, 0.01f, 100.0f) *
      glm::lookAt(center + glm::vec3(0.f, 0.f, 1.5f * size), center, glm::vec3(0, 1, 0));
  render::RenderTarget target;
  target.Resize(1280, 720, 4);
  app::LinkReceiver receiver;
  if (!receiver.Start(app::LinkAddress{"127.0.0.1", 0}, &error)) {
    state.SkipWithError(error.c_str());
    return;
  }
  app::LinkStatus status;
  std::vector<scene::TargetKey> keys;
  receiver.Poll(&keys, &status);
  const std::string& bound = status.listening;
  ikpose_link link;
  if (ikpose_link_connect(
          &link, "127.0.0.1",
          static_cast<unsigned short>(std::stoi(bound.substr(bound.rfind(':') + 1)))) != 0) {
    state.SkipWithError(link.error);
    return;
  }
  int sent = 0;
  for (auto _ : state) {
    const ikpose_link_frame frame = Frame(sent++);
    if (ikpose_link_send_frame(&link, &frame) != 0) {
      state.SkipWithError(link.error);
      break;
    }
    keys.clear();
    while (keys.empty()) {
      receiver.Poll(&keys, &status);
      if (keys.empty()) std::this_thread::yield();
    }
    for (anim::Limb limb : anim::kLimbs) {
      scene::LimbTarget& t = session.target(limb);
      if (t.available) scene::PlaceInput(keys.back().limbs[static_cast<std::size_t>(limb)], t);
    }
    session.Evaluate();
    renderer.UpdatePose(model, session.pose().models_ms);
    target.Bind();
    glClearColor(0.2f, 0.2f, 0.2f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    renderer.Draw(view_proj, render::Lighting{});
    glFinish();
  }
  ikpose_link_close(&link);
  receiver.Stop();
  state.SetLabel(window->renderer());
}
BENCHMARK(BM_LinkSendToPicture)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
