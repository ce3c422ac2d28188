#include "app/pose_plan.h"

#include <cmath>

#include "scene/scenario.h"

namespace ikpose::app {

namespace {

std::string ClipList(const anim::Model& model) {
  std::string list;
  for (std::size_t i = 0; i < model.clips.size(); ++i) {
    if (i > 0) list += ", ";
    list += model.clips[i].name.empty() ? std::to_string(i) : model.clips[i].name;
  }
  return list.empty() ? "the model has none" : "clips: " + list;
}

}  // namespace

bool PlanPose(const PoseRequest& request, PosePlan* plan, std::string* error) {
  PosePlan out;
  for (const std::string& text : request.targets) {
    ChainPoint spec;
    if (!ParseChainPoint(text, "target", &spec, error)) return false;
    for (const ChainPoint& other : out.targets) {
      if (other.chain == spec.chain) {
        *error = "chain " + spec.chain + " has two targets";
        return false;
      }
    }
    out.targets.push_back(spec);
  }
  // A scenario adds its limbs (targets with their options) and its clip, unless the command
  // line names them.
  scene::Scenario scenario;
  if (!request.scene.empty() && !scene::LoadScenario(request.scene.string(), &scenario, error)) {
    return false;
  }
  for (anim::Limb limb : anim::kLimbs) {
    const scene::LimbSetting& setting = scenario.limbs[static_cast<int>(limb)];
    const std::string name(anim::LimbName(limb));
    if (!setting.present || !setting.enabled || !setting.target_ms) continue;
    out.scene_options[name] = setting.options;
    bool given = false;
    for (const ChainPoint& t : out.targets) given = given || t.chain == name;
    if (!given) out.targets.push_back({name, *setting.target_ms});
  }
  for (const std::string& text : request.poles) {
    ChainPoint spec;
    if (!ParseChainPoint(text, "pole", &spec, error)) return false;
    if (out.poles.count(spec.chain) != 0) {
      *error = "chain " + spec.chain + " has two poles";
      return false;
    }
    bool targeted = false;
    for (const ChainPoint& t : out.targets) targeted = targeted || t.chain == spec.chain;
    if (!targeted) {
      *error = "pole given for chain " + spec.chain + ", which has no --target";
      return false;
    }
    out.poles[spec.chain] = spec.point;
  }
  // --time alone moves the scenario's clip.
  out.clip = request.clip;
  std::optional<double> time = request.time;
  if (!out.clip && !scenario.clip.empty()) {
    out.clip = scenario.clip;
    if (!time) time = scenario.time;
  }
  if (request.time && !out.clip) {
    *error = "--time needs --clip";
    return false;
  }
  if (request.time && !std::isfinite(*request.time)) {
    *error = "--time must be a finite number of seconds";
    return false;
  }
  out.time = time.value_or(0.0);
  out.scene_model = scenario.ModelPath();
  *plan = std::move(out);
  return true;
}

bool SampleClip(const PosePlan& plan, const anim::Model& model, anim::Pose* pose,
                std::string* error) {
  if (!plan.clip) return true;
  const int clip = anim::FindClip(model, *plan.clip);
  if (clip < 0) {
    *error = model.source + ": no clip named '" + *plan.clip + "' (" + ClipList(model) + ")";
    return false;
  }
  anim::SampleClip(model.clips[static_cast<std::size_t>(clip)], static_cast<float>(plan.time),
                   pose->locals_ls);
  anim::UpdateModels(model.skeleton, *pose);
  return true;
}

bool SolveTargets(const PosePlan& plan, const anim::Model& model, anim::Pose* pose,
                  std::vector<asset::SolvedChain>* solved, std::string* error) {
  const anim::Pose rest = anim::RestPose(model.skeleton);
  for (const ChainPoint& target : plan.targets) {
    asset::SolvedChain sc;
    if (!anim::ResolveChain(model.skeleton, rest, model.chains, target.chain, &sc.chain, error)) {
      *error = model.source + ": " + *error;
      return false;
    }
    sc.chain.name = target.chain;
    anim::ChainSolveOptions solve;
    if (const auto from_scene = plan.scene_options.find(target.chain);
        from_scene != plan.scene_options.end()) {
      solve = from_scene->second;
      sc.has_pole = solve.solver.use_pole;
      sc.pole_ms = solve.solver.pole_ms;
    }
    if (const auto pole = plan.poles.find(target.chain); pole != plan.poles.end()) {
      sc.has_pole = true;
      sc.pole_ms = pole->second;
      solve.solver.use_pole = true;
      solve.solver.pole_ms = pole->second;
    }
    sc.result = anim::SolveChainOnPose(model.skeleton, sc.chain, target.point, solve, *pose);
    if (!sc.result.ok) {
      *error = model.source + ": " + sc.result.error;
      return false;
    }
    solved->push_back(sc);
  }
  return true;
}

}  // namespace ikpose::app
