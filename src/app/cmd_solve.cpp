#include "app/cmd_solve.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "anim/bounded_input.h"
#include "app/error_line.h"
#include "asset/report.h"
#include "ik/two_bone_positions.h"

namespace ikpose::app {
namespace {

// Keys in the order written: reach, b, c, circle, error first.
using json = nlohmann::ordered_json;

// A failure of one input line, with the message written back.
struct LineError {
  std::string message;
};

// The float printed with the shortest digits that read back to it, as a double: 0.3f is
// written 0.3, not 0.30000001192092896.
double Short(float x) {
  if (!std::isfinite(x)) return x;
  char buf[32];
  const auto res = std::to_chars(buf, buf + sizeof buf, x);
  *res.ptr = '\0';
  return std::strtod(buf, nullptr);
}

json Vec(const glm::vec3& v) {
  return json::array({Short(v.x), Short(v.y), Short(v.z)});
}

json Quat(const glm::quat& q) {
  return json::array({Short(q.x), Short(q.y), Short(q.z), Short(q.w)});
}

float Number(const json& j, const std::string& what) {
  if (!j.is_number()) throw LineError{what + " must be a number"};
  const double d = j.get<double>();
  if (!(std::abs(d) <= double(std::numeric_limits<float>::max()))) {
    throw LineError{what + " must be finite and within float range"};
  }
  return static_cast<float>(d);
}

glm::vec3 Point(const json& line, const char* key) {
  const auto it = line.find(key);
  if (it == line.end()) throw LineError{std::string("missing field \"") + key + "\""};
  if (!it->is_array() || it->size() != 3) {
    throw LineError{std::string("\"") + key + "\" must be an array of 3 numbers"};
  }
  glm::vec3 v;
  for (int i = 0; i < 3; ++i) v[i] = Number((*it)[i], std::string("\"") + key + "\" entries");
  return v;
}

ik::PositionsInput Parse(const json& line) {
  if (!line.is_object()) throw LineError{"a line must be a JSON object"};
  ik::PositionsInput in;
  in.hip_ms = Point(line, "a");
  in.knee_ms = Point(line, "b");
  in.foot_ms = Point(line, "c");
  in.target_ms = Point(line, "t");
  if (line.contains("pole") && !line["pole"].is_null()) {
    in.options.use_pole = true;
    in.options.pole_ms = Point(line, "pole");
  }
  if (line.contains("limits") && !line["limits"].is_null()) {
    const json& limits = line["limits"];
    if (!limits.is_object()) throw LineError{"\"limits\" must be {\"min_deg\":..,\"max_deg\":..}"};
    in.options.use_limits = true;
    if (limits.contains("min_deg")) {
      in.options.limits.min_deg = Number(limits["min_deg"], "\"limits.min_deg\"");
    }
    if (limits.contains("max_deg")) {
      in.options.limits.max_deg = Number(limits["max_deg"], "\"limits.max_deg\"");
    }
  }
  if (line.contains("soften") && !line["soften"].is_null()) {
    in.options.soften = Number(line["soften"], "\"soften\"");
  }
  if (line.contains("weight") && !line["weight"].is_null()) {
    in.options.weight = Number(line["weight"], "\"weight\"");
  }
  return in;
}

json Rotation(const ik::RotationReport& r) {
  return json{{"quaternion_xyzw", Quat(r.rotation)},
              {"axis", Vec(r.axis_angle.axis)},
              {"angle_deg", Short(glm::degrees(r.axis_angle.angle_rad))},
              {"bone_axis", Vec(r.bone_axis)},
              {"swing_deg", Short(glm::degrees(r.swing_twist.swing_angle_rad))},
              {"twist_deg", Short(glm::degrees(r.swing_twist.twist_angle_rad))}};
}

json Report(const ik::PositionsReport& rep) {
  const ik::PositionsResult& r = rep.result;
  json out;
  out["reach"] = std::string(ik::ReachName(r.reach));
  out["b"] = Vec(r.knee_ms);
  out["c"] = Vec(r.foot_ms);
  asset::AddKneeGeometry(rep, &Short, out);
  out["error"] = Short(rep.residual);
  out["length_ab"] = Short(rep.length_ab);
  out["length_bc"] = Short(rep.length_bc);
  out["cos_theta"] = Short(rep.cos_theta);
  out["theta_deg"] = Short(glm::degrees(rep.theta_rad));
  out["limit_clamped"] = r.limit_clamped;
  out["softened"] = r.softened;
  out["used_pole"] = rep.used_pole;
  out["used_fallback_side"] = rep.used_fallback_side;
  out["hip_rotation"] = Rotation(rep.hip_rotation);
  out["knee_rotation"] = Rotation(rep.knee_rotation);
  return out;
}

int WriteFailed(std::ostream& err) {
  const int why = errno;
  PrintError(err, std::string("cannot write the results to standard output") +
                      (why != 0 ? std::string(": ") + std::strerror(why) : std::string()));
  return 1;
}

}  // namespace

int RunSolve(std::istream& in, std::ostream& out, std::ostream& err, bool pretty) {
  int exit_code = 0;
  std::string text;
  long line_number = 0;
  while (std::getline(in, text)) {
    ++line_number;
    if (text.find_first_not_of(" \t\r") == std::string::npos) continue;
    json result;
    json id;
    try {
      // Deep nesting is refused before parsing: the values are copied and printed recursively.
      if (!anim::JsonNestingWithin(text)) {
        throw LineError{"nested deeper than " + std::to_string(anim::kMaxJsonDepth) + " levels"};
      }
      const json line = json::parse(text, nullptr, /*allow_exceptions=*/false);
      if (line.is_discarded()) throw LineError{"malformed JSON"};
      if (line.is_object() && line.contains("id")) id = line["id"];
      const ik::PositionsInput input = Parse(line);
      ik::PositionsResult solved;
      ik::PositionsReport report;
      const ik::InputError error = ik::SolvePositions(input, &solved, &report);
      if (error != ik::InputError::kNone) {
        throw LineError{std::string(ik::InputErrorMessage(error)) + " (" +
                        std::string(ik::InputErrorName(error)) + ")"};
      }
      result = Report(report);
    } catch (const LineError& e) {
      result = json{{"error_message", e.message}, {"line", line_number}};
      PrintError(err, "line " + std::to_string(line_number) + ": " + e.message);
      exit_code = 1;
    } catch (const json::exception& e) {
      result =
          json{{"error_message", std::string("bad input: ") + e.what()}, {"line", line_number}};
      PrintError(err, "line " + std::to_string(line_number) + ": " + e.what());
      exit_code = 1;
    }
    if (!id.is_null()) result["id"] = id;
    out << (pretty ? result.dump(2) : result.dump()) << "\n";
    // A full disk or a closed reader: stop at once, the rest would be lost as well.
    if (!out) return WriteFailed(err);
  }
  out.flush();
  if (!out) return WriteFailed(err);
  return exit_code;
}

}  // namespace ikpose::app
