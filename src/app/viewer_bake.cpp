// The viewer's "bake clip": the situation on screen baked over its clip, a few frames per drawn
// frame so the window stays live and the panel shows progress.
#include <chrono>
#include <cstdio>

#include "app/paths.h"
#include "app/viewer_state.h"
#include "asset/export_gltf.h"
#include "scene/files/scenario.h"

namespace ikpose::app {

namespace {

// How long one drawn frame may spend baking.
constexpr std::chrono::milliseconds kBudget{12};

void Finish(ViewerState& state) {
  ViewerBake& bake = state.bake;
  const scene::BakeResult result = bake.baker->Finish();
  bake.baker.reset();
  state.panel.bake.progress = -1.0f;
  const anim::Model& model = *state.loaded.model;
  std::vector<std::string> warnings;
  std::string error;
  if (!asset::WritePosedGlb(model, model.skeleton.rest_ls, bake.out, &warnings, &error,
                            scene::ClipsWithBake(model, result.clip))) {
    state.panel.status = error;
    return;
  }
  bake.last_file = bake.out.string();
  bake.last_frames = result.frames;
  std::string locks;
  const float mm = anim::MetersPerUnit(model) * 1000.0f;  // 0 when the units are unknown
  for (anim::Limb leg : {anim::Limb::kLeftLeg, anim::Limb::kRightLeg}) {
    const scene::FootLockReport& foot = result.feet[static_cast<std::size_t>(leg)];
    if (!foot.asked) continue;
    const std::string_view name = anim::LimbName(leg);
    char line[96];
    std::snprintf(line, sizeof(line), ", %.*s slid %.1f -> %.1f %s", static_cast<int>(name.size()),
                  name.data(),
                  static_cast<double>(mm > 0.0f ? foot.slide_before_ms * mm : foot.slide_before_ms),
                  static_cast<double>(mm > 0.0f ? foot.slide_after_ms * mm : foot.slide_after_ms),
                  mm > 0.0f ? "mm" : "units");
    locks += line;
  }
  state.panel.status = "baked " + std::to_string(result.frames) + " frames of '" +
                       result.clip.name + "' to " + bake.out.string() + locks;
}

}  // namespace

void StartBake(ViewerState& state, const ui::cmd::BakeClip& how) {
  if (state.bake.baker) return;  // one at a time
  const scene::PosingSession& session = *state.loaded.session;
  const anim::Model& model = *state.loaded.model;
  scene::PosingRequest request;
  request.scenario = scene::CaptureScenario(session, state.loaded.path);
  request.world = session.edits.world;  // the props on screen, already loaded
  const std::string clip = request.ClipName();
  const int index = clip.empty() ? -1 : anim::FindClip(model, clip);
  scene::BakeSettings settings;
  settings.fps = how.fps;
  settings.to = index >= 0 ? model.clips[static_cast<std::size_t>(index)].duration : 0.0;
  settings.lock_feet[static_cast<int>(anim::Limb::kLeftLeg)] = how.lock_left_foot;
  settings.lock_feet[static_cast<int>(anim::Limb::kRightLeg)] = how.lock_right_foot;
  if (scene::BakeFrameCount(settings.from, settings.to, settings.fps) < 0) {
    state.panel.status = "the clip is too long to bake at this rate";
    return;
  }
  state.bake.out = BakedExportPath(state.scene_path, state.loaded.path, clip);
  state.bake.baker = std::make_unique<scene::Baker>(model, std::move(request), settings);
  state.panel.bake.progress = 0.0f;
  state.panel.bake.frames = state.bake.baker->frames();
}

void StepBake(ViewerState& state) {
  ViewerBake& bake = state.bake;
  if (!bake.baker) return;
  const auto start = std::chrono::steady_clock::now();
  std::string error;
  while (!bake.baker->done() && std::chrono::steady_clock::now() - start < kBudget) {
    if (!bake.baker->Step(&error)) {
      CancelBake(state);
      state.panel.status = "bake stopped at " + error;
      return;
    }
  }
  state.panel.bake.progress = bake.baker->progress();
  if (bake.baker->done()) Finish(state);
}

void CancelBake(ViewerState& state) {
  if (!state.bake.baker) return;
  state.bake.baker.reset();
  state.panel.bake.progress = -1.0f;
  state.panel.status = "bake cancelled; nothing written";
}

}  // namespace ikpose::app
