// Ground contact per frame on a 100,000-triangle prop (a bumpy floor under the bundled
// character): the two feet's ray casts through the BVH alone, a whole Evaluate with contact (the
// casts, the sole tilts, the pelvis drop, both legs solved, and every bone tested for
// penetration), and the same Evaluate with contact off, so the difference is contact's cost.
// Goal (issue 20): contact for two feet under 50 microseconds a frame.
#include <benchmark/benchmark.h>

#include <cmath>
#include <filesystem>
#include <memory>

#include "asset/load_model.h"
#include "scene/road/posing_request.h"
#include "scene/world/ground_contact.h"
#include "scene/world/solid_shapes.h"
#include "scene/world/world.h"

namespace {

using namespace ikpose;

// A 224 x 224 grid of quads (100,352 triangles) 4 m square, a few centimetres of bumps.
std::shared_ptr<const scene::World> BumpyFloor() {
  constexpr int kN = 224;
  std::vector<glm::vec3> v, n;
  std::vector<std::uint32_t> i;
  for (int z = 0; z <= kN; ++z) {
    for (int x = 0; x <= kN; ++x) {
      const float fx = 4.0f * static_cast<float>(x) / kN - 2.0f;
      const float fz = 4.0f * static_cast<float>(z) / kN - 2.0f;
      v.emplace_back(fx, 0.02f * std::sin(7.0f * fx) * std::cos(5.0f * fz), fz);
      n.emplace_back(0.0f, 1.0f, 0.0f);
    }
  }
  for (std::uint32_t z = 0; z < kN; ++z) {
    for (std::uint32_t x = 0; x < kN; ++x) {
      const std::uint32_t a = z * (kN + 1) + x, b = a + 1, c = a + kN + 1, d = c + 1;
      i.insert(i.end(), {a, c, d, a, d, b});
    }
  }
  scene::Prop prop;
  prop.path = "bumpy_floor";
  prop.model = std::make_shared<anim::Model>(
      scene::StaticModel("bumpy_floor", std::move(v), std::move(n), std::move(i), glm::vec4(0.6f)));
  std::string error;
  return scene::World::Build({prop}, &error);
}

struct Fixture {
  anim::Model model =
      asset::LoadModel(std::filesystem::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb");
  std::shared_ptr<const scene::World> world = BumpyFloor();
  std::unique_ptr<scene::PosingSession> Session(bool ground) const {
    scene::PosingRequest request;
    request.world = world;
    request.ground = ground;
    std::string error;
    return scene::BuildSession(model, request, &error);
  }
};

void BM_TwoFootCasts(benchmark::State& state) {
  const Fixture f;
  const glm::vec3 left(0.105f, 0.93f, -0.035f), right(-0.105f, 0.93f, -0.035f);
  int prop = -1;
  for (auto _ : state) {
    benchmark::DoNotOptimize(scene::GroundBelow(f.world.get(), true, 0.0f, left, 3.0f, &prop));
    benchmark::DoNotOptimize(scene::GroundBelow(f.world.get(), true, 0.0f, right, 3.0f, &prop));
  }
  state.counters["triangles"] = static_cast<double>(f.world->bvh().triangles());
}
BENCHMARK(BM_TwoFootCasts)->Unit(benchmark::kMicrosecond);

void BM_EvaluateWithGround(benchmark::State& state) {
  const Fixture f;
  auto session = f.Session(state.range(0) != 0);
  for (auto _ : state) {
    session->Evaluate();
    benchmark::DoNotOptimize(session->ground_report().pelvis_drop);
  }
  state.counters["feet_on_ground"] =
      session->ground_report().feet[2].contact + session->ground_report().feet[3].contact;
}
BENCHMARK(BM_EvaluateWithGround)->Arg(0)->Arg(1)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
