#include "app/cmd_pose.h"

#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <map>
#include <sstream>

#include "anim/apply_ik.h"
#include "anim/atomic_file.h"
#include "app/chain_point.h"
#include "app/paths.h"
#include "asset/load_model.h"
#include "asset/report.h"
#include "scene/scenario.h"

namespace ikpose::app {

namespace {

namespace fs = std::filesystem;

std::string ClipList(const anim::Model& model) {
  std::string list;
  for (std::size_t i = 0; i < model.clips.size(); ++i) {
    if (i > 0) list += ", ";
    list += model.clips[i].name.empty() ? std::to_string(i) : model.clips[i].name;
  }
  return list.empty() ? "the model has none" : "clips: " + list;
}

std::string Vec(const asset::Json& v) {
  std::ostringstream s;
  s << "(";
  for (std::size_t i = 0; i < v.size(); ++i) s << (i > 0 ? ", " : "") << v[i].dump();
  s << ")";
  return s.str();
}

void PrintText(const asset::Json& j, std::ostream& out) {
  for (const auto& [name, c] : j["chains"].items()) {
    out << name << " (" << c["joints"][0].get<std::string>() << " -> "
        << c["joints"][1].get<std::string>() << " -> " << c["joints"][2].get<std::string>()
        << "): " << c["reach"].get<std::string>() << ", error " << c["error"].dump() << "\n";
    out << "  target " << Vec(c["target"]) << (c.contains("pole") ? "  pole " + Vec(c["pole"]) : "")
        << "\n";
    out << "  knee b' " << Vec(c["b"]) << "  foot c' " << Vec(c["c"]) << "\n";
    out << "  knee circle: center " << Vec(c["circle"]["center"]) << ", radius "
        << c["circle"]["radius"].dump() << ", normal " << Vec(c["circle"]["normal"]) << "\n";
    out << "  knee bend " << c["knee_bend_deg"].dump() << " deg, knee moved "
        << c["knee_displacement"].dump() << ", reach margin " << c["reach_margin"].dump()
        << (c["used_pole"].get<bool>() ? ", bent toward the pole" : "")
        << (c["used_fallback_side"].get<bool>() ? ", bend side arbitrary (straight chain)" : "")
        << (c["limit_clamped"].get<bool>() ? ", limited" : "")
        << (c["softened"].get<bool>() ? ", softened" : "") << "\n";
    out << "  hip turned " << c["hip_delta_ls"]["angle_deg"].dump() << " deg about "
        << Vec(c["hip_delta_ls"]["axis"]) << ", knee turned "
        << c["knee_delta_ls"]["angle_deg"].dump() << " deg about "
        << Vec(c["knee_delta_ls"]["axis"]) << "\n";
  }
  out << "bones (local rotation x,y,z,w; Euler x,y,z degrees; model-space position):\n";
  for (const auto& b : j["bones"]) {
    out << (b["changed"].get<bool>() ? "* " : "  ") << b["name"].get<std::string>() << "  "
        << Vec(b["rotation_ls"]) << "  " << Vec(b["euler_deg"]) << "  " << Vec(b["position_ms"])
        << "\n";
  }
}

int Fail(std::ostream& err, const std::string& what) {
  err << "ikpose: error: " << what << "\n";
  return 1;
}

}  // namespace

int RunPose(const PoseOptions& options, std::ostream& out, std::ostream& err) {
  // Check the arguments before the (slow) load.
  std::vector<ChainPoint> targets;
  std::map<std::string, glm::vec3> poles;
  std::string error;
  for (const std::string& text : options.targets) {
    ChainPoint spec;
    if (!ParseChainPoint(text, "target", &spec, &error)) return Fail(err, error);
    for (const ChainPoint& other : targets) {
      if (other.chain == spec.chain) return Fail(err, "chain " + spec.chain + " has two targets");
    }
    targets.push_back(spec);
  }
  // A scenario adds its limbs (targets with their options) and its clip, unless the command
  // line names them.
  scene::Scenario scenario;
  if (!options.scene.empty() && !scene::LoadScenario(options.scene.string(), &scenario, &error)) {
    return Fail(err, error);
  }
  std::map<std::string, anim::ChainSolveOptions> scene_options;
  for (anim::Limb limb : anim::kLimbs) {
    const scene::LimbSetting& setting = scenario.limbs[static_cast<int>(limb)];
    const std::string name(anim::LimbName(limb));
    if (!setting.present || !setting.enabled || !setting.target_ms) continue;
    scene_options[name] = setting.options;
    bool given = false;
    for (const ChainPoint& t : targets) given = given || t.chain == name;
    if (!given) targets.push_back({name, *setting.target_ms});
  }
  for (const std::string& text : options.poles) {
    ChainPoint spec;
    if (!ParseChainPoint(text, "pole", &spec, &error)) return Fail(err, error);
    if (poles.count(spec.chain) != 0) return Fail(err, "chain " + spec.chain + " has two poles");
    bool targeted = false;
    for (const ChainPoint& t : targets) targeted = targeted || t.chain == spec.chain;
    if (!targeted)
      return Fail(err, "pole given for chain " + spec.chain + ", which has no --target");
    poles[spec.chain] = spec.point;
  }
  std::optional<std::string> clip_name = options.clip;
  std::optional<double> clip_time = options.time;
  if (!clip_name && !scenario.clip.empty()) {
    clip_name = scenario.clip;
    if (!clip_time) clip_time = scenario.time;
  }
  fs::path model_path = options.model;
  if (model_path.empty()) model_path = scenario.ModelPath();
  if (model_path.empty()) model_path = DefaultModelPath();
  if (options.time && !clip_name) return Fail(err, "--time needs --clip");
  if (options.time && !std::isfinite(*options.time)) {
    return Fail(err, "--time must be a finite number of seconds");
  }

  anim::Model model;
  if (!asset::TryLoadModel(model_path, &model, &error)) return Fail(err, error);

  anim::Pose pose = anim::RestPose(model.skeleton);
  if (clip_name) {
    const int clip = anim::FindClip(model, *clip_name);
    if (clip < 0) {
      return Fail(err, model_path.string() + ": no clip named '" + *clip_name + "' (" +
                           ClipList(model) + ")");
    }
    anim::SampleClip(model.clips[static_cast<std::size_t>(clip)],
                     static_cast<float>(clip_time.value_or(0.0)), pose.locals_ls);
    anim::UpdateModels(model.skeleton, pose);
  }
  const anim::Pose before = pose;
  const anim::Pose rest = anim::RestPose(model.skeleton);

  std::vector<asset::SolvedChain> solved;
  for (const ChainPoint& target : targets) {
    asset::SolvedChain sc;
    if (!anim::ResolveChain(model.skeleton, rest, model.chains, target.chain, &sc.chain, &error)) {
      return Fail(err, model_path.string() + ": " + error);
    }
    sc.chain.name = target.chain;
    anim::ChainSolveOptions solve;
    if (const auto from_scene = scene_options.find(target.chain);
        from_scene != scene_options.end()) {
      solve = from_scene->second;
      sc.has_pole = solve.solver.use_pole;
      sc.pole_ms = solve.solver.pole_ms;
    }
    const auto pole = poles.find(target.chain);
    if (pole != poles.end()) {
      sc.has_pole = true;
      sc.pole_ms = pole->second;
      solve.solver.use_pole = true;
      solve.solver.pole_ms = pole->second;
    }
    sc.result = anim::SolveChainOnPose(model.skeleton, sc.chain, target.point, solve, pose);
    if (!sc.result.ok) return Fail(err, model_path.string() + ": " + sc.result.error);
    solved.push_back(sc);
  }

  asset::Json report = asset::PoseReport(model, before, pose, solved);
  if (!options.out.empty()) {
    asset::Json saved;
    saved["model"] = model_path.string();
    if (clip_name) {
      saved["clip"] = *clip_name;
      saved["time"] = clip_time.value_or(0.0);
    }
    for (auto& [key, value] : report.items()) saved[key] = value;
    if (!anim::WriteFileAtomically(options.out, saved.dump(2) + "\n", &error))
      return Fail(err, error);
  }
  if (options.json) {
    out << report.dump(2) << "\n";
  } else {
    PrintText(report, out);
  }
  out.flush();
  if (!out) return Fail(err, "cannot write the report to standard output");
  return 0;
}

}  // namespace ikpose::app
