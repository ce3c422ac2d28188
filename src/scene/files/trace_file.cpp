#include "scene/files/trace_file.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <limits>
#include <sstream>
#include <utility>

#include <nlohmann/json.hpp>

#include "anim/atomic_file.h"
#include "anim/bounded_input.h"
#include "scene/world/world.h"

namespace ikpose::scene {

namespace {

using Json = nlohmann::json;

Json Vec(const glm::vec3& v) {
  return Json::array({v.x, v.y, v.z});
}

std::optional<anim::Limb> LimbNamed(std::string_view name) {
  for (anim::Limb limb : anim::kLimbs) {
    if (anim::LimbName(limb) == name) return limb;
  }
  return std::nullopt;
}

Json InputJson(const LimbInput& in) {
  Json j = {{"target", Vec(in.target_ms)}};
  if (in.pole_ms) j["pole"] = Vec(*in.pole_ms);
  return j;
}

Json LadderJson(const LadderInput& in) {
  Json j = {{"base", Vec(in.base_ms)}};
  if (in.rung_spacing) j["rung_spacing"] = *in.rung_spacing;
  if (in.rung_count) j["rung_count"] = *in.rung_count;
  if (in.rail_width) j["rail_width"] = *in.rail_width;
  if (in.rung_radius) j["rung_radius"] = *in.rung_radius;
  if (in.first_rung_height) j["first_rung_height"] = *in.first_rung_height;
  if (in.yaw_deg) j["yaw_deg"] = *in.yaw_deg;
  return j;
}

Json SampleJson(const LimbSample& s) {
  Json j = {{"solved", s.solved}};
  if (!s.solved) return j;
  j["policy"] = anim::PolicyName(s.policy);
  j["reach"] = std::string(ik::ReachName(s.reach));
  j["reach_margin"] = s.reach_margin;
  j["flip_margin"] = s.flip_margin;
  j["bend_deg"] = s.bend_deg;
  j["swivel_deg"] = s.swivel_deg;
  j["hip_swing_deg"] = s.hip_swing_deg;
  j["hip_twist_deg"] = s.hip_twist_deg;
  j["knee_swing_deg"] = s.knee_swing_deg;
  j["knee_twist_deg"] = s.knee_twist_deg;
  j["target"] = Vec(s.target_ms);
  if (s.pole_ms) j["pole"] = Vec(*s.pole_ms);
  j["hip"] = Vec(s.hip_ms);
  j["knee"] = Vec(s.knee_ms);
  j["end"] = Vec(s.end_ms);
  j["input_knee"] = Vec(s.input_knee_ms);
  j["circle"] = {{"center", Vec(s.circle.center_ms)},
                 {"radius", s.circle.radius},
                 {"normal", Vec(s.circle.normal_ms)}};
  j["natural"] = Vec(s.natural_ms);
  j["limit_clamped"] = s.limit_clamped;
  j["swivel_clamped"] = s.swivel_clamped;
  j["softened"] = s.softened;
  return j;
}

// Reads fields of one line, keeping the first problem (the field's path and what is wrong).
class LineReader {
 public:
  bool ok() const { return ok_; }
  std::string Message(const std::string& name, int line) const {
    return name + ":" + std::to_string(line) + ": " + (field_.empty() ? "" : field_ + ": ") + what_;
  }
  bool Fail(const std::string& field, const std::string& what) {
    if (ok_) {
      ok_ = false;
      field_ = field;
      what_ = what;
    }
    return false;
  }
  // The member `key` of `object`, or null (and a failure when required).
  const Json* Member(const Json& object, const std::string& key, const std::string& field,
                     bool required = true) {
    const auto it = object.find(key);
    if (it == object.end()) {
      if (required) Fail(field, "missing");
      return nullptr;
    }
    return &*it;
  }
  bool Number(const Json& object, const std::string& key, const std::string& path, float* out) {
    const std::string field = path + key;
    const Json* j = Member(object, key, field);
    return j && ToFloat(*j, field, out);
  }
  bool ToFloat(const Json& j, const std::string& field, float* out) {
    if (!j.is_number()) return Fail(field, "not a number");
    const double v = j.get<double>();
    if (!std::isfinite(v) || std::abs(v) > std::numeric_limits<float>::max()) {
      return Fail(field, "not a finite number");
    }
    *out = static_cast<float>(v);
    return true;
  }
  bool Vec3(const Json& object, const std::string& key, const std::string& path, glm::vec3* out) {
    const std::string field = path + key;
    const Json* j = Member(object, key, field);
    if (!j) return false;
    if (!j->is_array() || j->size() != 3) return Fail(field, "not an array of 3 numbers");
    for (int i = 0; i < 3; ++i) {
      if (!ToFloat((*j)[static_cast<std::size_t>(i)], field, &(*out)[i])) return false;
    }
    return true;
  }
  bool Bool(const Json& object, const std::string& key, const std::string& path, bool* out) {
    const std::string field = path + key;
    const Json* j = Member(object, key, field);
    if (!j) return false;
    if (!j->is_boolean()) return Fail(field, "not true or false");
    *out = j->get<bool>();
    return true;
  }
  bool String(const Json& object, const std::string& key, const std::string& path,
              std::string* out) {
    const std::string field = path + key;
    const Json* j = Member(object, key, field);
    if (!j) return false;
    if (!j->is_string()) return Fail(field, "not a string");
    *out = j->get<std::string>();
    return true;
  }
  bool Object(const Json& j, const std::string& field) {
    return j.is_object() || Fail(field, "not an object");
  }

 private:
  bool ok_ = true;
  std::string field_;
  std::string what_;
};

bool ReadInput(LineReader& r, const Json& j, const std::string& path, LimbInput* in) {
  if (!r.Object(j, path.substr(0, path.size() - 1))) return false;
  in->has_target = true;
  if (!r.Vec3(j, "target", path, &in->target_ms)) return false;
  if (j.contains("pole")) {
    glm::vec3 pole{0.f};
    if (!r.Vec3(j, "pole", path, &pole)) return false;
    in->pole_ms = pole;
  }
  return true;
}

bool ReadSample(LineReader& r, const Json& j, const std::string& path, LimbSample* s) {
  if (!r.Bool(j, "solved", path, &s->solved)) return false;
  if (!s->solved) return true;
  std::string word;
  if (!r.String(j, "policy", path, &word)) return false;
  if (!anim::ParsePolicy(word, &s->policy)) return r.Fail(path + "policy", "unknown policy");
  if (!r.String(j, "reach", path, &word)) return false;
  bool known = false;
  for (ik::Reach reach : {ik::Reach::kReachable, ik::Reach::kTooFar, ik::Reach::kTooClose}) {
    if (ik::ReachName(reach) == word) {
      s->reach = reach;
      known = true;
    }
  }
  if (!known) return r.Fail(path + "reach", "not reachable, too_far or too_close");
  const std::pair<const char*, float*> numbers[] = {{"reach_margin", &s->reach_margin},
                                                    {"flip_margin", &s->flip_margin},
                                                    {"bend_deg", &s->bend_deg},
                                                    {"swivel_deg", &s->swivel_deg},
                                                    {"hip_swing_deg", &s->hip_swing_deg},
                                                    {"hip_twist_deg", &s->hip_twist_deg},
                                                    {"knee_swing_deg", &s->knee_swing_deg},
                                                    {"knee_twist_deg", &s->knee_twist_deg}};
  for (const auto& [key, value] : numbers) {
    if (!r.Number(j, key, path, value)) return false;
  }
  const std::pair<const char*, glm::vec3*> points[] = {{"target", &s->target_ms},
                                                       {"hip", &s->hip_ms},
                                                       {"knee", &s->knee_ms},
                                                       {"end", &s->end_ms},
                                                       {"input_knee", &s->input_knee_ms},
                                                       {"natural", &s->natural_ms}};
  for (const auto& [key, value] : points) {
    if (!r.Vec3(j, key, path, value)) return false;
  }
  if (j.contains("pole")) {
    glm::vec3 pole{0.f};
    if (!r.Vec3(j, "pole", path, &pole)) return false;
    s->pole_ms = pole;
  }
  const std::string circle_path = path + "circle.";
  const Json* circle = r.Member(j, "circle", path + "circle");
  if (!circle || !r.Object(*circle, path + "circle") ||
      !r.Vec3(*circle, "center", circle_path, &s->circle.center_ms) ||
      !r.Number(*circle, "radius", circle_path, &s->circle.radius) ||
      !r.Vec3(*circle, "normal", circle_path, &s->circle.normal_ms)) {
    return false;
  }
  return r.Bool(j, "limit_clamped", path, &s->limit_clamped) &&
         r.Bool(j, "swivel_clamped", path, &s->swivel_clamped) &&
         r.Bool(j, "softened", path, &s->softened);
}

// Checks one line (`number` counted from 1) and calls `each(json, number, reader)` on it when it
// is a non-blank JSON object within the bounds; false with the one-line error.
template <typename Each>
bool OneLine(std::string_view line, int number, const std::string& name, std::string* error,
             Each& each) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  // Length first: a line read cut short (anim::ForEachLineOfFile) may look blank.
  if (line.size() <= kMaxTraceLineBytes &&
      line.find_first_not_of(" \t") == std::string_view::npos) {
    return true;
  }
  LineReader r;
  if (line.size() > kMaxTraceLineBytes) {
    r.Fail("", "line longer than " + std::to_string(kMaxTraceLineBytes) + " bytes");
  } else if (!anim::JsonNestingWithin(line, kMaxTraceDepth)) {
    r.Fail("", "nested deeper than " + std::to_string(kMaxTraceDepth) + " levels");
  } else {
    const Json j = Json::parse(line, nullptr, false);
    if (j.is_discarded()) {
      r.Fail("", "not valid JSON");
    } else if (r.Object(j, "line")) {
      each(j, number, r);
    }
  }
  if (!r.ok()) {
    *error = r.Message(name, number);
    return false;
  }
  return true;
}

// Calls `each(json, line_number, reader)` for every non-blank line of `text`, after the bounds.
template <typename Each>
bool ForEachLine(std::string_view text, const std::string& name, std::string* error, Each each) {
  int number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (!OneLine(line, ++number, name, error, each)) return false;
  }
  return true;
}

// The header's on|off options under their JSON names (const or not, as the header).
template <typename Header>
auto Switches(Header& header) {
  using Field = decltype(&header.limits);
  return std::array<std::pair<const char*, Field>, 3>{
      {{"limits", &header.limits}, {"body_help", &header.body_help}, {"ground", &header.ground}}};
}

// The header's "props": the command line's props as placed (files as the trace names them).
bool ReadHeaderProps(LineReader& r, const Json& j, std::vector<PropPlacement>* props) {
  if (!j.is_array()) return r.Fail("props", "not an array");
  if (j.size() > World::kMaxProps) {
    return r.Fail("props", "more than " + std::to_string(World::kMaxProps) + " props");
  }
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string path = "props[" + std::to_string(i) + "].";
    PropPlacement p;
    if (!r.Object(j[i], "props[" + std::to_string(i) + "]") ||
        !r.String(j[i], "file", path, &p.file) || !r.Vec3(j[i], "position", path, &p.position_ms) ||
        !r.Number(j[i], "yaw_deg", path, &p.yaw_deg)) {
      return false;
    }
    props->push_back(std::move(p));
  }
  return true;
}

bool ReadFileBounded(const std::filesystem::path& path, std::string* text, std::string* error) {
  return anim::ReadRegularFile(path, kMaxTraceFileBytes, text, error);
}

// "ladder": {"base": [x,y,z], "rung_spacing": s, "rung_count": n, "rail_width": w,
// "rung_radius": r, "first_rung_height": h, "yaw_deg": a}, every field but the base optional.
bool ReadLadderInput(LineReader& r, const Json& j, LadderInput* in) {
  if (!r.Object(j, "ladder")) return false;
  for (const auto& [name, value] : j.items()) {
    if (name != "base" && name != "rung_spacing" && name != "rung_count" && name != "rail_width" &&
        name != "rung_radius" && name != "first_rung_height" && name != "yaw_deg") {
      return r.Fail("ladder." + name,
                    "unknown field (base, rung_spacing, rung_count, rail_width, rung_radius, "
                    "first_rung_height, yaw_deg)");
    }
  }
  if (!r.Vec3(j, "base", "ladder.", &in->base_ms)) return false;
  // A size given must be one the ladder can have (Ladder::Valid).
  const auto size = [&](const char* name, std::optional<float>* out, bool zero_ok) {
    const Json* v = r.Member(j, name, std::string("ladder.") + name, false);
    if (!v) return true;
    float value = 0.f;
    if (!r.ToFloat(*v, std::string("ladder.") + name, &value)) return false;
    if (value < 0.f || (!zero_ok && value == 0.f)) {
      return r.Fail(std::string("ladder.") + name, zero_ok ? "negative" : "not over 0");
    }
    *out = value;
    return true;
  };
  if (!size("rung_spacing", &in->rung_spacing, false) ||
      !size("rail_width", &in->rail_width, false) || !size("rung_radius", &in->rung_radius, true) ||
      !size("first_rung_height", &in->first_rung_height, true)) {
    return false;
  }
  if (const Json* v = r.Member(j, "rung_count", "ladder.rung_count", false)) {
    if (!v->is_number_integer() || v->get<long long>() < 1 ||
        v->get<long long>() > Ladder::kMaxRungs) {
      return r.Fail("ladder.rung_count",
                    "not a whole number in 1.." + std::to_string(Ladder::kMaxRungs));
    }
    in->rung_count = static_cast<int>(v->get<long long>());
  }
  if (const Json* v = r.Member(j, "yaw_deg", "ladder.yaw_deg", false)) {
    float yaw = 0.f;
    if (!r.ToFloat(*v, "ladder.yaw_deg", &yaw)) return false;
    in->yaw_deg = yaw;
  }
  return true;
}

// "props": [{"index": i, "position": [x,y,z], "yaw_deg": a}, ...]: merged into `held` (one
// placement per index, in index order).
bool ReadPropInputs(LineReader& r, const Json& j, std::vector<PropInput>* held) {
  if (!j.is_array()) return r.Fail("props", "not an array");
  if (j.size() > World::kMaxProps) {
    return r.Fail("props", "more than " + std::to_string(World::kMaxProps) + " props");
  }
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string path = "props[" + std::to_string(i) + "].";
    const Json& p = j[i];
    if (!r.Object(p, "props[" + std::to_string(i) + "]")) return false;
    const Json* index = r.Member(p, "index", path + "index");
    if (!index) return false;
    if (!index->is_number_integer() || index->get<long long>() < 0 ||
        index->get<long long>() >= static_cast<long long>(World::kMaxProps)) {
      return r.Fail(path + "index",
                    "not a whole number in 0.." + std::to_string(World::kMaxProps - 1));
    }
    PropInput in;
    in.index = static_cast<int>(index->get<long long>());
    if (!r.Vec3(p, "position", path, &in.position_ms)) return false;
    if (r.Member(p, "yaw_deg", path + "yaw_deg", false) &&
        !r.Number(p, "yaw_deg", path, &in.yaw_deg)) {
      return false;
    }
    const auto at = std::lower_bound(held->begin(), held->end(), in.index,
                                     [](const PropInput& a, int b) { return a.index < b; });
    if (at != held->end() && at->index == in.index) {
      *at = in;
    } else {
      held->insert(at, in);
    }
  }
  return true;
}

}  // namespace

std::string TraceHeaderLine(const TraceHeader& header) {
  Json j = {{"ikpose_trace", 1},   {"model", header.model},       {"scene", header.scene},
            {"clip", header.clip}, {"policies", header.policies}, {"fps", header.fps}};
  for (const auto& [key, value] : Switches(header)) {
    if (*value) j[key] = **value;
  }
  if (!header.props.empty()) {
    Json props = Json::array();
    for (const PropPlacement& p : header.props) {
      props.push_back({{"file", p.file}, {"position", Vec(p.position_ms)}, {"yaw_deg", p.yaw_deg}});
    }
    j["props"] = std::move(props);
  }
  return j.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string TraceFrameLine(const TraceFrame& frame, const TraceFrame* previous) {
  Json limbs = Json::object();
  for (anim::Limb limb : anim::kLimbs) {
    const LimbInput& in = frame.inputs[static_cast<int>(limb)];
    const LimbSample& s = frame.limbs[static_cast<int>(limb)];
    if (!in.has_target && !s.solved) continue;
    Json j = SampleJson(s);
    if (in.has_target) j["input"] = InputJson(in);
    limbs[std::string(anim::LimbName(limb))] = std::move(j);
  }
  Json j = {{"frame", frame.frame}, {"time", frame.time}, {"limbs", std::move(limbs)}};
  if (frame.clip_time) j["clip_time"] = *frame.clip_time;
  // The ladder and props only where they change: a frame without them holds the previous one's.
  static const std::optional<LadderInput> kNoLadder;
  static const std::vector<PropInput> kNoProps;
  if (frame.ladder != (previous ? previous->ladder : kNoLadder)) {
    j["ladder"] = frame.ladder ? LadderJson(*frame.ladder) : Json(nullptr);
  }
  if (frame.props != (previous ? previous->props : kNoProps)) {
    Json props = Json::array();
    for (const PropInput& p : frame.props) {
      props.push_back(
          {{"index", p.index}, {"position", Vec(p.position_ms)}, {"yaw_deg", p.yaw_deg}});
    }
    j["props"] = std::move(props);
  }
  return j.dump();
}

bool WriteTraceFile(const std::filesystem::path& path, const TraceHeader& header,
                    const std::vector<TraceFrame>& frames, std::string* error) {
  // Line by line: a long trace is never held whole as text.
  anim::AtomicFileWriter writer;
  if (!writer.Open(path, error) || !writer.Write(TraceHeaderLine(header) + "\n", error)) {
    return false;
  }
  const TraceFrame* previous = nullptr;
  for (const TraceFrame& frame : frames) {
    if (!writer.Write(TraceFrameLine(frame, previous) + "\n", error)) return false;
    previous = &frame;
  }
  return writer.Commit(error);
}

bool ParseTrace(std::string_view text, const std::string& name, TraceHeader* header,
                std::vector<TraceFrame>* frames, std::string* error) {
  frames->clear();
  bool have_header = false;
  return ForEachLine(text, name, error,
                     [&](const Json& j, int, LineReader& r) {
                       if (!have_header) {
                         const Json* version = r.Member(j, "ikpose_trace", "ikpose_trace");
                         if (!version) return;
                         if (*version != 1) {
                           r.Fail("ikpose_trace", "not 1 (a trace file of another version)");
                           return;
                         }
                         if (!r.String(j, "model", "", &header->model) ||
                             !r.String(j, "scene", "", &header->scene) ||
                             !r.String(j, "clip", "", &header->clip) ||
                             !r.Number(j, "fps", "", &header->fps)) {
                           return;
                         }
                         if (!(header->fps > 0.f)) {
                           r.Fail("fps", "not positive");
                           return;
                         }
                         const Json* policies = r.Member(j, "policies", "policies");
                         if (!policies) return;
                         if (!policies->is_array()) {
                           r.Fail("policies", "not an array of strings");
                           return;
                         }
                         header->policies.clear();
                         for (const Json& p : *policies) {
                           if (!p.is_string()) {
                             r.Fail("policies", "not an array of strings");
                             return;
                           }
                           header->policies.push_back(p.get<std::string>());
                         }
                         for (const auto& [key, value] : Switches(*header)) {
                           value->reset();
                           if (!r.Member(j, key, key, false)) continue;
                           bool on = false;
                           if (!r.Bool(j, key, "", &on)) return;
                           *value = on;
                         }
                         header->props.clear();
                         if (const Json* props = r.Member(j, "props", "props", false)) {
                           if (!ReadHeaderProps(r, *props, &header->props)) return;
                         }
                         have_header = true;
                         return;
                       }
                       if (frames->size() >= static_cast<std::size_t>(kMaxTraceFrames)) {
                         r.Fail("", "more than " + std::to_string(kMaxTraceFrames) + " frames");
                         return;
                       }
                       TraceFrame f;
                       const Json* number = r.Member(j, "frame", "frame");
                       if (!number) return;
                       if (!number->is_number_integer() || *number < 0 ||
                           *number > kMaxTraceFrames * 1000) {
                         r.Fail("frame", "not a frame number");
                         return;
                       }
                       f.frame = number->get<int>();
                       if (!r.Number(j, "time", "", &f.time)) return;
                       if (!frames->empty() && !(f.time > frames->back().time)) {
                         r.Fail("time", "not after the previous frame's");
                         return;
                       }
                       if (j.contains("clip_time")) {
                         float clip_time = 0.f;
                         if (!r.Number(j, "clip_time", "", &clip_time)) return;
                         f.clip_time = clip_time;
                       }
                       // The ladder and props in force: held from the previous frame
                       // unless this one gives them ("ladder": null, "props": []: none).
                       if (!frames->empty()) {
                         f.ladder = frames->back().ladder;
                         f.props = frames->back().props;
                       }
                       if (const Json* ladder = r.Member(j, "ladder", "ladder", false)) {
                         f.ladder.reset();
                         if (!ladder->is_null()) {
                           LadderInput in;
                           if (!ReadLadderInput(r, *ladder, &in)) return;
                           f.ladder = in;
                         }
                       }
                       if (const Json* props = r.Member(j, "props", "props", false)) {
                         f.props.clear();
                         if (!ReadPropInputs(r, *props, &f.props)) return;
                       }
                       const Json* limbs = r.Member(j, "limbs", "limbs");
                       if (!limbs || !r.Object(*limbs, "limbs")) return;
                       for (const auto& [key, value] : limbs->items()) {
                         const std::string path = "limbs." + key + ".";
                         const std::optional<anim::Limb> limb = LimbNamed(key);
                         if (!limb) {
                           r.Fail("limbs." + key,
                                  "unknown limb (left_arm, right_arm, left_leg, right_leg)");
                           return;
                         }
                         if (!r.Object(value, "limbs." + key)) return;
                         const int l = static_cast<int>(*limb);
                         if (value.contains("input") &&
                             !ReadInput(r, value["input"], path + "input.", &f.inputs[l])) {
                           return;
                         }
                         if (!ReadSample(r, value, path, &f.limbs[l])) return;
                       }
                       frames->push_back(std::move(f));
                     }) &&
         (have_header || [&] {
           *error = name + ": empty trace file (no header line)";
           return false;
         }());
}

bool ReadTraceFile(const std::filesystem::path& path, TraceHeader* header,
                   std::vector<TraceFrame>* frames, std::string* error) {
  std::string text;
  if (!ReadFileBounded(path, &text, error)) return false;
  return ParseTrace(text, path.string(), header, frames, error);
}

namespace {

// Reads one line of a targets file into `key`, holding the previous key's targets for the limbs
// the line does not place; `last_time` is the previous line's time (NaN before the first).
bool ReadTargetKey(const Json& j, LineReader& r, const TargetKey* previous, float last_time,
                   TargetKey* key) {
  *key = previous ? *previous : TargetKey{};
  if (!r.Number(j, "time", "", &key->time)) return false;
  if (!std::isnan(last_time) && !(key->time > last_time)) {
    r.Fail("time", "not after the previous line's");
    return false;
  }
  const Json* limbs = r.Member(j, "limbs", "limbs");
  if (!limbs || !r.Object(*limbs, "limbs")) return false;
  for (const auto& [limb_name, value] : limbs->items()) {
    const std::optional<anim::Limb> limb = LimbNamed(limb_name);
    if (!limb) {
      r.Fail("limbs." + limb_name, "unknown limb (left_arm, right_arm, left_leg, right_leg)");
      return false;
    }
    LimbInput placed;
    if (!ReadInput(r, value, "limbs." + limb_name + ".", &placed)) return false;
    // A limb on a line takes that line's target and pole; an empty entry keeps what it held.
    if (placed.has_target) key->limbs[static_cast<int>(*limb)] = placed;
  }
  if (const Json* clip = r.Member(j, "clip_time", "clip_time", false)) {
    float t = 0.f;
    if (!r.ToFloat(*clip, "clip_time", &t)) return false;
    if (t < 0.f) return r.Fail("clip_time", "negative");
    key->clip_time = t;
    key->clip_time_at = key->time;
  }
  if (const Json* ladder = r.Member(j, "ladder", "ladder", false)) {
    LadderInput in;
    if (!ReadLadderInput(r, *ladder, &in)) return false;
    key->ladder = in;
  }
  if (const Json* props = r.Member(j, "props", "props", false)) {
    if (!ReadPropInputs(r, *props, &key->props)) return false;
  }
  return true;
}

std::string NoTargets(const std::string& name) {
  return name + ": no targets (one JSON object a line: {\"time\": t, \"limbs\": {...}})";
}

constexpr float kTimeSlack = 1e-4f;  // for times printed rounded

// The first frame (0, 1, ...) of a trace from `from` at `fps` whose time (as the trace computes
// it, in float) sees a key at `time`. Only for times within a few frames of the trace.
long FirstFrameSeeing(float time, double from, double fps) {
  const auto after = [&](long k) {
    return time > static_cast<float>(from + static_cast<double>(k) / fps) + kTimeSlack;
  };
  const double guess = std::ceil((static_cast<double>(time) - from) * fps);
  long i = guess > 0.0 ? static_cast<long>(guess) : 0;
  while (i > 0 && !after(i - 1)) --i;
  while (after(i)) ++i;
  return i;
}

}  // namespace

bool ParseTargets(std::string_view text, const std::string& name, std::vector<TargetKey>* keys,
                  std::string* error) {
  keys->clear();
  float last_time = std::numeric_limits<float>::quiet_NaN();
  const bool ok = ForEachLine(text, name, error, [&](const Json& j, int, LineReader& r) {
    TargetKey key;
    if (!ReadTargetKey(j, r, keys->empty() ? nullptr : &keys->back(), last_time, &key)) return;
    last_time = key.time;
    keys->push_back(key);
  });
  if (ok && keys->empty()) {
    *error = NoTargets(name);
    return false;
  }
  return ok;
}

bool ParseTargetsLine(std::string_view line, int number, const std::string& name,
                      std::vector<TargetKey>* keys, std::string* error) {
  if (line.find('\n') != std::string_view::npos) {
    *error = name + ":" + std::to_string(number) + ": more than one line";
    return false;
  }
  const auto each = [&](const Json& j, int, LineReader& r) {
    const float last_time =
        keys->empty() ? std::numeric_limits<float>::quiet_NaN() : keys->back().time;
    TargetKey key;
    if (!ReadTargetKey(j, r, keys->empty() ? nullptr : &keys->back(), last_time, &key)) return;
    keys->push_back(key);
  };
  return OneLine(line, number, name, error, each);
}

bool ReadTargetsFile(const std::filesystem::path& path, const TargetWindow& window,
                     std::vector<TargetKey>* keys, std::string* error) {
  keys->clear();
  const std::string name = path.string();
  float last_time = std::numeric_limits<float>::quiet_NaN();
  double from = window.from.value_or(0.0);
  long last_frame = -1;  // the frame the last kept key first shows in
  bool past_the_end = false;
  bool failed = false;
  int number = 0;
  const auto each = [&](const Json& j, int, LineReader& r) {
    TargetKey key;
    if (!ReadTargetKey(j, r, keys->empty() ? nullptr : &keys->back(), last_time, &key)) return;
    last_time = key.time;
    if (keys->empty()) {
      if (!window.from) from = key.time;
      keys->push_back(key);  // the first line alone: its time starts the trace
      return;
    }
    // Past the end of the trace: the rest of the file cannot matter (nor be too long).
    if (window.to && key.time > *window.to + 1.0 / window.fps) {
      past_the_end = true;
      return;
    }
    // Frames from `from` to here, counted as the trace counts them.
    const double frames = std::floor((key.time - from) * window.fps + 0.01) + 1.0;
    if (frames > kMaxTraceFrames) {
      std::ostringstream what;  // shortest digits: `from` may be any finite number
      what << key.time << " s is more than " << kMaxTraceFrames << " frames after " << from
           << " s at " << window.fps << " fps; give --from and --to to trace part of it";
      r.Fail("time", what.str());
      return;
    }
    // Keys that first show in the same frame are one key: only frame times are looked up.
    const long frame = FirstFrameSeeing(key.time, from, window.fps);
    if (keys->size() > 1 && frame == last_frame) {
      keys->back() = key;  // holds everything the merged one held, and its later time
    } else {
      keys->push_back(key);
    }
    last_frame = frame;
  };
  const bool read = anim::ForEachLineOfFile(
      path, kMaxTraceFileBytes, kMaxTraceLineBytes,
      [&](std::string_view line) {
        failed = !OneLine(line, ++number, name, error, each);
        return !failed && !past_the_end;
      },
      error);
  if (!read || failed) return false;
  if (keys->empty()) {
    *error = NoTargets(name);
    return false;
  }
  return true;
}

std::optional<float> TargetKey::ClipTimeAt(float at) const {
  if (!clip_time) return std::nullopt;
  return *clip_time + std::max(0.f, at - clip_time_at);
}

const TargetKey* KeyAt(const std::vector<TargetKey>& keys, float time) {
  const auto after = std::upper_bound(keys.begin(), keys.end(), time + kTimeSlack,
                                      [](float t, const TargetKey& key) { return t < key.time; });
  return after == keys.begin() ? nullptr : &*std::prev(after);
}

std::array<LimbInput, 4> TargetsAt(const std::vector<TargetKey>& keys, float time) {
  // Each key holds every limb's latest target: the last key at or before `time` is the answer.
  const auto after = std::upper_bound(keys.begin(), keys.end(), time + kTimeSlack,
                                      [](float t, const TargetKey& key) { return t < key.time; });
  if (after == keys.begin()) return {};
  return std::prev(after)->limbs;
}

}  // namespace ikpose::scene
