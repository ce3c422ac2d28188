#include "app/pose_plan.h"

#include <cmath>
#include <set>
#include <system_error>

#include "app/chain_point.h"
#include "app/paths.h"
#include "app/prop_option.h"

namespace ikpose::app {

namespace {

bool ParsePoints(const std::vector<std::string>& texts, const char* what,
                 std::vector<scene::ChainPoint>* out, std::string* error) {
  for (const std::string& text : texts) {
    scene::ChainPoint point;
    if (!ParseChainPoint(text, what, &point, error)) return false;
    out->push_back(point);
  }
  return true;
}

bool ParsePolicies(const std::vector<std::string>& texts,
                   std::vector<std::pair<std::string, anim::KneePolicy>>* out, std::string* error) {
  std::set<std::string> given;  // "" for the policy of every limb
  for (const std::string& text : texts) {
    const std::size_t eq = text.rfind('=');
    const std::string chain = eq == std::string::npos ? "" : text.substr(0, eq);
    const std::string name = eq == std::string::npos ? text : text.substr(eq + 1);
    anim::KneePolicy policy;
    if (!anim::ParsePolicy(name, &policy) || (eq != std::string::npos && chain.empty())) {
      *error = "--policy '" + text + "' is not CHAIN=seed|natural|pole or seed|natural|pole";
      return false;
    }
    if (!given.insert(chain).second) {
      *error = chain.empty() ? "--policy is given twice for every limb; give one"
                             : "--policy is given twice for " + chain + "; give one";
      return false;
    }
    out->emplace_back(chain, policy);
  }
  return true;
}

}  // namespace

bool PlanPose(const PoseRequest& request, PosePlan* plan, PlanError* error) {
  PosePlan out;
  scene::PosingRequest& r = out.request;
  error->exit_code = 2;
  if (!ParsePoints(request.targets, "target", &r.targets, &error->what) ||
      !ParsePoints(request.poles, "pole", &r.poles, &error->what) ||
      !ParsePolicies(request.policies, &r.policies, &error->what)) {
    return false;
  }
  r.clip = request.clip;
  if (request.mirror) {
    anim::MirrorMode mode;
    if (!anim::ParseMirrorMode(*request.mirror, &mode)) {
      error->what = "--mirror must be left-to-right, right-to-left, flip or off, got '" +
                    *request.mirror + "'";
      return false;
    }
    r.mirror = mode;
  }
  if (request.ready) {
    scene::ReadyPose ready;
    if (!scene::ParseReadyPose(*request.ready, &ready)) {
      error->what =
          "--ready must be one of " + scene::ReadyPoseChoices() + ", got '" + *request.ready + "'";
      return false;
    }
    r.ready = ready;
  }
  if (request.body_help) {
    if (*request.body_help != "on" && *request.body_help != "off") {
      error->what = "--body-help must be on or off, got '" + *request.body_help + "'";
      return false;
    }
    r.body_help = *request.body_help == "on";
  }
  if (request.limits) {
    if (*request.limits != "on" && *request.limits != "off") {
      error->what = "--limits must be on or off, got '" + *request.limits + "'";
      return false;
    }
    r.limits = *request.limits == "on";
  }
  if (request.time) {
    if (!std::isfinite(*request.time) || std::abs(*request.time) > 1e30) {
      error->what = "--time must be a finite number of seconds";
      return false;
    }
    r.time = static_cast<float>(*request.time);
  }
  std::vector<scene::PropPlacement> props;
  for (const std::string& text : request.props) {
    scene::PropPlacement prop;
    if (!ParsePropOption(text, &prop, &error->what)) return false;
    props.push_back(prop);
  }
  if (request.ground) {
    if (*request.ground != "on" && *request.ground != "off") {
      error->what = "--ground must be on or off, got '" + *request.ground + "'";
      return false;
    }
    r.ground = *request.ground == "on";
  }
  if (!request.scene.empty()) {
    scene::Scenario scenario;
    if (!scene::LoadScenario(request.scene.string(), &scenario, &error->what)) {
      error->exit_code = 1;
      return false;
    }
    out.scene_model = scenario.ModelPath();
    r.scenario = std::move(scenario);
  }
  if (!scene::CheckRequest(r, &error->what)) return false;
  // The props are read before the model too: a broken prop is one error line, exit 1.
  if (!LoadWorld(r.scenario ? &*r.scenario : nullptr, props, &r.world, &error->what)) {
    error->exit_code = 1;
    return false;
  }
  *plan = std::move(out);
  *error = {};
  return true;
}

std::filesystem::path ChooseModel(const std::filesystem::path& named,
                                  const std::filesystem::path& from_file) {
  if (!named.empty()) return named;
  if (!from_file.empty()) return from_file;
  return DefaultModelPath();
}

std::string OutputNamesAnInput(const std::string& option, const std::filesystem::path& out,
                               const std::vector<NamedInput>& inputs) {
  if (out.empty()) return "";
  for (const NamedInput& input : inputs) {
    std::error_code ec;
    if (input.path.empty() || !std::filesystem::equivalent(out, input.path, ec) || ec) continue;
    return option + " " + out.string() + " is " + input.what + " itself; choose another file";
  }
  return "";
}

}  // namespace ikpose::app
