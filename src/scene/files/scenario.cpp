#include "scene/files/scenario.h"

#include <cmath>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "anim/atomic_file.h"
#include "anim/bounded_input.h"
#include "anim/file_paths.h"

namespace ikpose::scene {

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

// Parse errors carry the field's path; the caller prefixes the file name.
struct FieldError {
  std::string what;
};

float Number(const Json& j, const std::string& field) {
  if (!j.is_number()) throw FieldError{field + " must be a number"};
  const float v = j.get<float>();
  if (!std::isfinite(v)) throw FieldError{field + " must be finite"};
  return v;
}

glm::vec3 Vec3(const Json& j, const std::string& field) {
  if (!j.is_array() || j.size() != 3) throw FieldError{field + " must be [x, y, z]"};
  return {Number(j[0], field + "[0]"), Number(j[1], field + "[1]"), Number(j[2], field + "[2]")};
}

bool Bool(const Json& j, const std::string& field) {
  if (!j.is_boolean()) throw FieldError{field + " must be true or false"};
  return j.get<bool>();
}

float Unit(const Json& j, const std::string& field) {
  const float v = Number(j, field);
  if (v < 0.0f || v > 1.0f) throw FieldError{field + " must be in [0, 1]"};
  return v;
}

LimbSetting ParseLimb(const Json& j, const std::string& field, bool leg) {
  if (!j.is_object()) throw FieldError{field + " must be an object"};
  LimbSetting limb;
  limb.present = true;
  limb.options.level_end = leg;  // the session's default: a lifted foot lands flat
  bool policy_given = false;
  for (const auto& [key, value] : j.items()) {
    const std::string f = field + "." + key;
    ik::TwoBoneOptions& o = limb.options.solver;
    if (key == "enabled") {
      limb.enabled = Bool(value, f);
    } else if (key == "target") {
      limb.target_ms = Vec3(value, f);
    } else if (key == "pole") {
      o.use_pole = true;
      o.pole_ms = Vec3(value, f);
    } else if (key == "limits") {
      if (!value.is_object() || !value.contains("min_deg") || !value.contains("max_deg")) {
        throw FieldError{f + " must be {\"min_deg\": a, \"max_deg\": b}"};
      }
      o.use_limits = true;
      o.limits.min_deg = Number(value["min_deg"], f + ".min_deg");
      o.limits.max_deg = Number(value["max_deg"], f + ".max_deg");
      if (o.limits.min_deg < 0.0f || o.limits.min_deg > o.limits.max_deg ||
          o.limits.max_deg > 180.0f) {
        throw FieldError{f + " must have 0 <= min_deg <= max_deg <= 180"};
      }
    } else if (key == "soften") {
      o.soften = Unit(value, f);
    } else if (key == "weight") {
      o.weight = Unit(value, f);
    } else if (key == "end_rotation") {
      const std::string mode = value.is_string() ? value.get<std::string>() : "";
      limb.options.level_end = mode == "level";
      if (mode == "follow" || mode == "level") {
        limb.options.end_rotation = ik::EndRotation::kFollow;
      } else if (mode == "keep_model") {
        limb.options.end_rotation = ik::EndRotation::kKeepModel;
      } else {
        throw FieldError{f + " must be \"level\", \"follow\" or \"keep_model\""};
      }
    } else if (key == "from_rest") {
      limb.from_rest = Bool(value, f);
    } else if (key == "pinned") {
      limb.pinned = Bool(value, f);
    } else if (key == "grip") {
      limb.grip = Bool(value, f);
    } else if (key == "pull_body") {
      limb.pull_body = Unit(value, f);
    } else if (key == "policy") {
      if (!value.is_string() || !anim::ParsePolicy(value.get<std::string>(), &limb.options.policy))
        throw FieldError{f + " must be \"seed\", \"natural\" or \"pole\""};
      policy_given = true;
    } else if (key == "swivel_deg") {
      limb.options.swivel_range_deg = Number(value, f);
      if (limb.options.swivel_range_deg <= 0.0f || limb.options.swivel_range_deg > 180.0f)
        throw FieldError{f + " must be in (0, 180]"};
    } else {
      throw FieldError{"unknown field " + f};
    }
  }
  // A pole is the pole policy; naming another policy beside it is a contradiction.
  const ik::TwoBoneOptions& o = limb.options.solver;
  if (o.use_pole && policy_given && limb.options.policy != anim::KneePolicy::kPole)
    throw FieldError{field + ": a pole is given with policy \"" +
                     anim::PolicyName(limb.options.policy) + "\""};
  if (!o.use_pole && limb.options.policy == anim::KneePolicy::kPole)
    throw FieldError{field + ".policy is \"pole\" but no pole is given"};
  if (o.use_pole) limb.options.policy = anim::KneePolicy::kPole;
  return limb;
}

BodyMove ParseBody(const Json& j) {
  if (!j.is_object()) throw FieldError{"body must be an object"};
  BodyMove body;
  for (const auto& [key, value] : j.items()) {
    if (key == "offset") {
      body.offset_ms = Vec3(value, "body.offset");
    } else if (key == "turn") {
      if (!value.is_array() || value.size() != 4)
        throw FieldError{"body.turn must be [x, y, z, w]"};
      const glm::quat q(Number(value[3], "body.turn[3]"), Number(value[0], "body.turn[0]"),
                        Number(value[1], "body.turn[1]"), Number(value[2], "body.turn[2]"));
      const float n = glm::length(q);
      if (!(n > 0.5f && n < 2.0f)) throw FieldError{"body.turn must be a unit quaternion"};
      body.turn_ms = q / n;
    } else {
      throw FieldError{"unknown field body." + key};
    }
  }
  return body;
}

std::vector<std::pair<std::string, glm::quat>> ParseBoneTurns(const Json& j) {
  if (!j.is_object()) throw FieldError{"bone_turns must be an object"};
  std::vector<std::pair<std::string, glm::quat>> turns;
  for (const auto& [name, value] : j.items()) {
    const std::string f = "bone_turns." + name;
    if (!value.is_array() || value.size() != 4) throw FieldError{f + " must be [x, y, z, w]"};
    const glm::quat q(Number(value[3], f + "[3]"), Number(value[0], f + "[0]"),
                      Number(value[1], f + "[1]"), Number(value[2], f + "[2]"));
    const float n = glm::length(q);
    if (!(n > 0.5f && n < 2.0f)) throw FieldError{f + " must be a unit quaternion"};
    turns.emplace_back(name, q / n);
  }
  return turns;
}

Ladder ParseLadder(const Json& j, bool* enabled, bool* snap, bool* fit_body, bool* follow) {
  if (!j.is_object()) throw FieldError{"ladder must be an object"};
  Ladder ladder;
  for (const auto& [key, value] : j.items()) {
    const std::string f = "ladder." + key;
    if (key == "enabled") {
      *enabled = Bool(value, f);
    } else if (key == "snap") {
      *snap = Bool(value, f);
    } else if (key == "fit_body") {
      *fit_body = Bool(value, f);
    } else if (key == "follow_clip") {
      *follow = Bool(value, f);
    } else if (key == "base") {
      ladder.base_ms = Vec3(value, f);
    } else if (key == "rung_spacing") {
      ladder.rung_spacing = Number(value, f);
    } else if (key == "rung_count") {
      const float count = Number(value, f);
      // Checked as a float: converting 1e30 to int first would be undefined.
      if (!(count >= 1.0f && count <= static_cast<float>(Ladder::kMaxRungs)) ||
          count != std::floor(count)) {
        throw FieldError{f + " must be a whole number from 1 to " +
                         std::to_string(Ladder::kMaxRungs)};
      }
      ladder.rung_count = static_cast<int>(count);
    } else if (key == "rail_width") {
      ladder.rail_width = Number(value, f);
    } else if (key == "rung_radius") {
      ladder.rung_radius = Number(value, f);
    } else if (key == "first_rung_height") {
      ladder.first_rung_height = Number(value, f);
    } else if (key == "yaw_deg") {
      ladder.yaw_deg = Number(value, f);
    } else {
      throw FieldError{"unknown field " + f};
    }
  }
  if (!ladder.Valid()) throw FieldError{"ladder has a non-positive size or count"};
  return ladder;
}

Json ToJson(const glm::vec3& v) {
  return Json::array({v.x, v.y, v.z});
}

std::vector<PropPlacement> ParseProps(const Json& j);

}  // namespace

std::string Scenario::ModelPath() const {
  return anim::ResolveFromFolderOf(model, file).string();
}

namespace {

std::vector<PropPlacement> ParseProps(const Json& j) {
  if (!j.is_array()) throw FieldError{"props must be an array"};
  if (j.size() > World::kMaxProps) {
    throw FieldError{"props holds more than " + std::to_string(World::kMaxProps) + " props"};
  }
  std::vector<PropPlacement> props;
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string field = "props[" + std::to_string(i) + "]";
    if (!j[i].is_object()) throw FieldError{field + " must be an object"};
    PropPlacement prop;
    bool has_file = false;
    for (const auto& [key, value] : j[i].items()) {
      const std::string f = field + "." + key;
      if (key == "file") {
        if (!value.is_string() || value.get<std::string>().empty())
          throw FieldError{f + " must be a file name"};
        prop.file = value.get<std::string>();
        has_file = true;
      } else if (key == "position") {
        prop.position_ms = Vec3(value, f);
      } else if (key == "yaw_deg") {
        prop.yaw_deg = Number(value, f);
      } else if (key == "scale") {
        prop.scale = Number(value, f);
        if (!(prop.scale > 0.0f && prop.scale <= 1e6f))
          throw FieldError{f + " must be in (0, 1e6]"};
      } else if (key == "rungs") {
        prop.rungs = Bool(value, f);
      } else {
        throw FieldError{"unknown field " + f};
      }
    }
    if (!has_file) throw FieldError{field + ".file is missing"};
    props.push_back(std::move(prop));
  }
  return props;
}

}  // namespace

std::string Scenario::PropPath(const PropPlacement& prop) const {
  return anim::ResolveFromFolderOf(prop.file, file).string();
}

bool LoadScenario(const std::string& path, Scenario* scenario, std::string* error) {
  std::string text;
  if (!anim::ReadRegularFile(path, anim::kMaxJsonFileBytes, &text, error)) {
    *error = "cannot read scenario " + *error;
    return false;
  }
  return ParseScenario(text, path, scenario, error);
}

bool ParseScenario(std::string_view text, const std::string& path, Scenario* scenario,
                   std::string* error) {
  if (!anim::JsonNestingWithin(text)) {
    *error = path + ": nested deeper than " + std::to_string(anim::kMaxJsonDepth) + " levels";
    return false;
  }
  Json j;
  try {
    j = Json::parse(text);
  } catch (const Json::parse_error& e) {
    *error = path + ": not valid JSON (byte " + std::to_string(e.byte) + ")";
    return false;
  } catch (const Json::exception&) {  // e.g. a number too large for a double
    *error = path + ": not valid JSON (a number out of range)";
    return false;
  }
  Scenario s;
  s.file = path;
  try {
    if (!j.is_object()) throw FieldError{"the top level must be an object"};
    for (const auto& [key, value] : j.items()) {
      if (key == "model") {
        if (!value.is_string()) throw FieldError{"model must be a string"};
        s.model = value.get<std::string>();
      } else if (key == "clip") {
        if (!value.is_string()) throw FieldError{"clip must be a string"};
        s.clip = value.get<std::string>();
      } else if (key == "time") {
        s.time = Number(value, "time");
      } else if (key == "limbs") {
        if (!value.is_object()) throw FieldError{"limbs must be an object"};
        for (const auto& [name, limb] : value.items()) {
          bool known = false;
          for (anim::Limb l : anim::kLimbs) {
            if (name == anim::LimbName(l)) {
              s.limbs[static_cast<int>(l)] = ParseLimb(
                  limb, "limbs." + name, l == anim::Limb::kLeftLeg || l == anim::Limb::kRightLeg);
              known = true;
            }
          }
          if (!known) {
            throw FieldError{"unknown limb '" + name +
                             "' (left_arm, right_arm, left_leg, right_leg)"};
          }
        }
      } else if (key == "body") {
        s.body = ParseBody(value);
      } else if (key == "body_help") {
        s.body_help = Bool(value, "body_help");
      } else if (key == "limits") {
        s.limits = Bool(value, "limits");
      } else if (key == "bone_turns") {
        s.bone_turns = ParseBoneTurns(value);
      } else if (key == "mirror") {
        if (!value.is_string() || !anim::ParseMirrorMode(value.get<std::string>(), &s.mirror)) {
          throw FieldError{
              "mirror must be \"off\", \"left-to-right\", \"right-to-left\" or "
              "\"flip\""};
        }
      } else if (key == "ready") {
        ReadyPose ready;
        if (!value.is_string() || !ParseReadyPose(value.get<std::string>(), &ready))
          throw FieldError{"ready must be one of " + ReadyPoseChoices()};
        s.ready = ready;
      } else if (key == "props") {
        s.props = ParseProps(value);
      } else if (key == "floor") {
        s.floor = Bool(value, "floor");
      } else if (key == "ground") {
        s.ground = Bool(value, "ground");
      } else if (key == "ladder") {
        s.ladder = ParseLadder(value, &s.ladder_enabled, &s.ladder_snap, &s.ladder_fit_body,
                               &s.ladder_follows_clip);
      } else {
        throw FieldError{"unknown field " + key};
      }
    }
  } catch (const FieldError& e) {
    *error = path + ": " + e.what;
    return false;
  }
  *scenario = std::move(s);
  return true;
}

bool SaveScenario(const std::string& path, const Scenario& scenario, std::string* error) {
  Json j = Json::object();
  if (!scenario.model.empty()) j["model"] = scenario.model;
  if (!scenario.clip.empty()) {
    j["clip"] = scenario.clip;
    j["time"] = scenario.time;
  }
  Json limbs = Json::object();
  for (anim::Limb l : anim::kLimbs) {
    const LimbSetting& limb = scenario.limbs[static_cast<int>(l)];
    if (!limb.present) continue;
    const ik::TwoBoneOptions& o = limb.options.solver;
    Json out = {
        {"enabled", limb.enabled},
        {"soften", o.soften},
        {"weight", o.weight},
        {"from_rest", limb.from_rest},
        {"policy", o.use_pole ? "pole" : anim::PolicyName(limb.options.policy)},
        {"end_rotation", limb.options.end_rotation == ik::EndRotation::kKeepModel ? "keep_model"
                         : limb.options.level_end                                 ? "level"
                                                                                  : "follow"}};
    if (limb.target_ms) out["target"] = ToJson(*limb.target_ms);
    if (o.use_pole) out["pole"] = ToJson(o.pole_ms);
    if (limb.options.swivel_range_deg > 0.0f) out["swivel_deg"] = limb.options.swivel_range_deg;
    if (limb.pinned) out["pinned"] = *limb.pinned;
    if (!limb.grip) out["grip"] = false;
    if (limb.pull_body != 1.0f) out["pull_body"] = limb.pull_body;
    if (o.use_limits)
      out["limits"] = {{"min_deg", o.limits.min_deg}, {"max_deg", o.limits.max_deg}};
    limbs[std::string(anim::LimbName(l))] = out;
  }
  j["limbs"] = limbs;
  if (scenario.body) {
    const glm::quat& q = scenario.body->turn_ms;
    j["body"] = {{"offset", ToJson(scenario.body->offset_ms)}, {"turn", {q.x, q.y, q.z, q.w}}};
  }
  if (!scenario.bone_turns.empty()) {
    Json turns = Json::object();
    for (const auto& [name, q] : scenario.bone_turns) turns[name] = {q.x, q.y, q.z, q.w};
    j["bone_turns"] = turns;
  }
  if (scenario.body_help) j["body_help"] = *scenario.body_help;
  if (scenario.limits) j["limits"] = *scenario.limits;
  if (scenario.mirror != anim::MirrorMode::kOff) {
    j["mirror"] = std::string(anim::MirrorModeName(scenario.mirror));
  }
  if (scenario.ladder) {
    const Ladder& l = *scenario.ladder;
    j["ladder"] = {{"enabled", scenario.ladder_enabled},
                   {"follow_clip", scenario.ladder_follows_clip},
                   {"base", ToJson(l.base_ms)},
                   {"rung_spacing", l.rung_spacing},
                   {"rung_count", l.rung_count},
                   {"rail_width", l.rail_width},
                   {"rung_radius", l.rung_radius},
                   {"first_rung_height", l.first_rung_height},
                   {"yaw_deg", l.yaw_deg}};
  }
  if (!scenario.props.empty()) {
    Json props = Json::array();
    for (const PropPlacement& p : scenario.props) {
      props.push_back({{"file", p.file},
                       {"position", ToJson(p.position_ms)},
                       {"yaw_deg", p.yaw_deg},
                       {"scale", p.scale}});
      if (p.rungs) props.back()["rungs"] = *p.rungs;
    }
    j["props"] = props;
  }
  if (scenario.floor) j["floor"] = *scenario.floor;
  if (scenario.ground) j["ground"] = *scenario.ground;
  return anim::WriteFileAtomically(
      path, j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n", error);
}

bool ApplyScenarioEdits(const Scenario& scenario, const anim::Model& model, bool ladder_prop,
                        PosingEdits* edits, std::string* error) {
  for (anim::Limb l : anim::kLimbs) {
    const LimbSetting& limb = scenario.limbs[static_cast<int>(l)];
    if (!limb.present) continue;
    LimbTarget& target = edits->target(l);
    if (!target.available) {
      *error = scenario.file + ": the model has no " + std::string(anim::LimbName(l)) + " chain";
      return false;
    }
    target.enabled = limb.enabled;
    if (limb.target_ms) {
      target.target_ms = *limb.target_ms;
      target.given = true;
    }
    target.options = limb.options;
    target.from_rest = limb.from_rest;
    if (limb.pinned) target.pinned = *limb.pinned;
    target.grip = limb.grip;
    target.pull_body = limb.pull_body;
  }
  if (scenario.body) edits->body = *scenario.body;
  for (const auto& [name, turn] : scenario.bone_turns) {
    const int bone = model.skeleton.Find(name);
    if (bone < 0 || static_cast<std::size_t>(bone) >= edits->bone_turns_ls.size()) {
      *error = scenario.file + ": bone_turns names '" + name + "', which the model does not have";
      return false;
    }
    edits->bone_turns_ls[static_cast<std::size_t>(bone)] = turn;
  }
  edits->mirror = scenario.mirror;
  if (scenario.body_help) edits->body_help = *scenario.body_help;
  if (scenario.limits) edits->limits = *scenario.limits;
  if (scenario.ladder) {
    // A ladder prop keeps its own rungs; the scenario's ladder options apply to it.
    if (!ladder_prop) edits->ladder = *scenario.ladder;
    edits->ladder_enabled = scenario.ladder_enabled || ladder_prop;
    edits->ladder_follows_clip = scenario.ladder_follows_clip;
  }
  return true;
}

Scenario ScenarioFromEdits(const PosingEdits& edits, const anim::Model& model,
                           const std::string& model_path) {
  Scenario s;
  s.model = model_path;
  if (edits.playback.clip >= 0) {
    const std::string& name = model.clips[static_cast<std::size_t>(edits.playback.clip)].name;
    // Unnamed clips (common in exported files) answer to their index.
    s.clip = name.empty() ? std::to_string(edits.playback.clip) : name;
    s.time = edits.playback.time;
  }
  for (anim::Limb l : anim::kLimbs) {
    const LimbTarget& target = edits.target(l);
    if (!target.available) continue;
    LimbSetting& limb = s.limbs[static_cast<int>(l)];
    limb.present = true;
    limb.enabled = target.enabled;
    if (target.given) limb.target_ms = target.target_ms;
    limb.options = target.options;
    limb.from_rest = target.from_rest;
    limb.pinned = target.pinned;
    limb.grip = target.grip;
    limb.pull_body = target.pull_body;
  }
  s.ladder = edits.ladder;
  s.ladder_enabled = edits.ladder_enabled;
  s.ladder_follows_clip = edits.ladder_follows_clip;
  if (edits.body != BodyMove{}) s.body = edits.body;
  const anim::Skeleton& skeleton = model.skeleton;
  for (std::size_t i = 0; i < edits.bone_turns_ls.size() && i < skeleton.names.size(); ++i) {
    const glm::quat& q = edits.bone_turns_ls[i];
    if (q != glm::quat(1.0f, 0.0f, 0.0f, 0.0f)) s.bone_turns.emplace_back(skeleton.names[i], q);
  }
  s.mirror = edits.mirror;
  if (edits.world) {
    for (const Prop& prop : edits.world->props()) {
      PropPlacement placement = prop.placement;
      placement.file = prop.path;  // the caller makes it relative to where it saves
      s.props.push_back(placement);
    }
  }
  if (!edits.floor) s.floor = false;
  if (!edits.ground) s.ground = false;  // on unless told
  if (!edits.body_help) s.body_help = false;
  if (!edits.limits) s.limits = false;
  return s;
}

Scenario CaptureScenario(const PosingSession& session, const std::string& model) {
  return ScenarioFromEdits(session.edits, session.model(), model);
}

}  // namespace ikpose::scene
