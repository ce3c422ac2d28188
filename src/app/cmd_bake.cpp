#include "app/cmd_bake.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include "app/error_line.h"
#include "app/prop_option.h"
#include "asset/export_gltf.h"
#include "asset/gltf_document.h"
#include "asset/load_model.h"
#include "scene/trace/bake.h"

namespace ikpose::app {

namespace {

namespace fs = std::filesystem;

// A length for people: millimetres when the model's units are known, else model units.
std::string Length(const anim::Model& model, float length) {
  const float metres = anim::MetersPerUnit(model);
  std::ostringstream text;
  text.precision(3);
  if (metres > 0.f) {
    text << std::fixed << std::setprecision(1) << length * metres * 1000.f << " mm";
  } else {
    text << length << " units";
  }
  return text.str();
}

}  // namespace

int RunBake(const ExportOptions& options, std::ostream& out, std::ostream& err) {
  const BakeOptions& bake = options.bake;
  if (!std::isfinite(bake.fps) || bake.fps < 1.0 || bake.fps > 1000.0) {
    return PrintError(err, "--fps must be a number of frames a second in 1..1000", 2);
  }
  for (const auto& [name, value] : {std::pair{"--from", bake.from}, {"--to", bake.to}}) {
    if (value && (!std::isfinite(*value) || *value < 0.0)) {
      return PrintError(err, std::string(name) + " must be a finite number of seconds, 0 or more",
                        2);
    }
  }
  if (bake.from && bake.to && *bake.from > *bake.to) {
    return PrintError(err, "--from must not be after --to", 2);
  }
  if (bake.max_error && !(std::isfinite(*bake.max_error) && *bake.max_error > 0.0)) {
    return PrintError(err, "--max-error must be a distance above 0 (model units)", 2);
  }
  if (!options.pose.empty()) {
    return PrintError(err, "--bake poses every frame from the clip and targets; --pose is one pose",
                      2);
  }
  if (options.request.time) {
    return PrintError(err, "--bake takes --from and --to, not --time", 2);
  }
  PosePlan plan;
  PlanError planned;
  if (!PlanPose(options.request, &plan, &planned)) {
    return PrintError(err, planned.what, planned.exit_code);
  }
  std::string error;
  scene::BakeSettings settings;
  if (!bake.targets.empty() && !scene::ReadTargetsFile(bake.targets, {bake.fps, bake.from, bake.to},
                                                       &settings.targets, &error)) {
    return PrintError(err, error);
  }
  const std::string clip_name = plan.request.ClipName();
  if (clip_name.empty() && settings.targets.empty() && plan.request.targets.empty() &&
      !plan.request.scenario) {
    return PrintError(err, "nothing to bake: give --scene FILE, --clip NAME or --targets FILE", 2);
  }
  const fs::path model_path = ChooseModel(options.model, plan.scene_model);
  if (const std::string problem =
          OutputProblem(options.out, {{"the model", model_path},
                                      {"the scenario file", options.request.scene},
                                      {"the targets file", bake.targets}});
      !problem.empty()) {
    return PrintError(err, problem);
  }
  anim::Model model;
  if (!asset::TryLoadModel(model_path, &model, &error)) return PrintError(err, error);
  const int clip = clip_name.empty() ? -1 : anim::FindClip(model, clip_name);
  if (!clip_name.empty() && clip < 0) {
    return PrintError(err, model_path.filename().string() + " has no clip '" + clip_name + "'");
  }

  settings.fps = bake.fps;
  const std::vector<scene::TargetKey>& keys = settings.targets;
  settings.from = bake.from.value_or(keys.empty() ? 0.0 : keys.front().time);
  settings.to = bake.to.value_or(
      !keys.empty() ? keys.back().time
                    : (clip >= 0 ? model.clips[static_cast<std::size_t>(clip)].duration : 0.0));
  settings.from = std::max(settings.from, 0.0);
  if (settings.to < settings.from) {
    return PrintError(err,
                      "--from " + std::to_string(settings.from) + " is after the end, " +
                          std::to_string(settings.to) + " s",
                      2);
  }
  if (scene::BakeFrameCount(settings.from, settings.to, settings.fps) < 0) {
    return PrintError(err,
                      "--from .. --to at --fps " + std::to_string(bake.fps) + " is over " +
                          std::to_string(scene::kMaxTraceFrames) + " frames",
                      2);
  }
  settings.max_error_ms = static_cast<float>(bake.max_error.value_or(0.0));
  if (bake.lock_feet) {
    settings.lock_feet[static_cast<int>(anim::Limb::kLeftLeg)] = true;
    settings.lock_feet[static_cast<int>(anim::Limb::kRightLeg)] = true;
  }

  scene::Baker baker(model, plan.request, settings);
  const bool terminal = &err == &std::cerr && ::isatty(STDERR_FILENO) == 1;
  int shown = -1;
  while (!baker.done()) {
    if (!baker.Step(&error)) {
      if (shown >= 0) err << "\n";
      return PrintError(err, error);
    }
    const int percent = static_cast<int>(baker.progress() * 100.f);
    if (terminal && percent != shown) {
      err << "\rikpose: baking " << percent << "% of " << baker.frames() << " frames" << std::flush;
      shown = percent;
    }
  }
  if (shown >= 0) err << "\n";
  scene::BakeResult result = baker.Finish();

  std::vector<std::string> warnings;
  const std::vector<anim::Clip> clips = scene::ClipsWithBake(model, result.clip);
  std::size_t full_bytes = 0;
  if (settings.max_error_ms > 0.f) {
    // The same file with every frame's key, for what the reduction saves.
    try {
      full_bytes = asset::PosedGlb(model, model.skeleton.rest_ls, nullptr,
                                   scene::ClipsWithBake(model, result.unreduced))
                       .size();
    } catch (const asset::ExportError& e) {
      return PrintError(err, e.what());
    }
  }
  // A glTF source's sampler modes, texture transforms, cameras and extras are kept as `export`
  // keeps them, and what is left out is listed.
  std::unique_ptr<asset::GltfDocument> source;
  try {
    source = std::make_unique<asset::GltfDocument>(asset::GltfDocument::Read(model_path));
  } catch (const std::exception&) {
    source.reset();  // not glTF
  }
  std::vector<std::string> left_out;
  // The props stand where the situation places them (a targets file's moves are not baked).
  const std::vector<asset::PlacedModel> props = options.no_props
                                                    ? std::vector<asset::PlacedModel>()
                                                    : PropsToExport(plan.request.world.get());
  if (!asset::WritePosedGlb(model, model.skeleton.rest_ls, options.out, &warnings, &error, clips,
                            {source ? &source->json : nullptr, &left_out}, props)) {
    return PrintError(err, error);
  }
  std::error_code ec;
  const auto size = fs::file_size(options.out, ec);
  out << "wrote " << options.out.string() << ": " << model_path.filename().string() << ", clip '"
      << result.clip.name << "' baked: " << result.frames << " frames at " << settings.fps
      << " fps from " << settings.from << " s to " << settings.to << " s, "
      << result.clip.tracks.size() << " bone tracks, " << result.keys.after << " keys";
  if (!ec) out << ", " << size << " bytes";
  out << "\n";
  if (settings.max_error_ms > 0.f) {
    out << "  keys reduced " << result.keys.before << " -> " << result.keys.after
        << " within --max-error " << bake.max_error.value_or(0.0) << ": largest joint error "
        << result.reduction_error_ms << " (" << Length(model, result.reduction_error_ms)
        << "); file " << full_bytes << " -> " << (ec ? 0 : size) << " bytes\n";
  }
  for (anim::Limb limb : anim::kLimbs) {
    const scene::FootLockReport& foot = result.feet[static_cast<std::size_t>(limb)];
    if (!foot.asked) continue;
    out << "  foot lock " << anim::LimbName(limb) << ": " << foot.plants << " plants, "
        << foot.locked_frames << " frames; slide " << Length(model, foot.slide_before_ms)
        << " before, " << Length(model, foot.slide_after_ms) << " after\n";
  }
  for (const std::string& warning : warnings) out << "note: " << warning << "\n";
  for (const std::string& drop : left_out) out << "left out: " << drop << "\n";
  out.flush();
  return 0;
}

}  // namespace ikpose::app
