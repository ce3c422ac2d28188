#include "app/cmd_inspect.h"

#include <iomanip>
#include <string>

#include "app/error_line.h"
#include "asset/load_model.h"
#include "asset/report.h"

namespace ikpose::app {

namespace {

std::string Vec(const asset::Json& v) {
  std::string s = "(";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i > 0) s += ", ";
    s += asset::Json(v[i].get<double>()).dump();
  }
  return s + ")";
}

void PrintText(const asset::Json& j, std::ostream& out) {
  out << "file: " << j["file"].get<std::string>() << " (" << j["format"].get<std::string>()
      << ")\n";
  out << "units: " << j["units"].get<std::string>() << ", height " << j["height"].dump()
      << ", bounds " << Vec(j["bounds"]["min"]) << " to " << Vec(j["bounds"]["max"]) << "\n";
  out << "meshes: " << j["meshes"].size() << " (" << j["vertex_count"].dump() << " vertices, "
      << j["triangle_count"].dump() << " triangles)\n";
  for (const auto& m : j["meshes"]) {
    out << "  " << m["name"].get<std::string>() << ": " << m["vertices"].dump() << " vertices, "
        << m["triangles"].dump() << " triangles, "
        << (m["skinned"].get<bool>() ? "skinned (skin " + m["skin"].dump() + ")"
                                     : "rigid, follows " + m["follows"].get<std::string>())
        << "\n";
  }
  out << "skins: " << j["skins"].size() << "\n";
  for (const auto& s : j["skins"]) {
    out << "  " << s["name"].get<std::string>() << ": " << s["joints"].dump() << " joints\n";
  }
  out << "bones: " << j["bones"].size() << " (" << j["joint_count"].dump() << " skin joints)\n";
  for (std::size_t i = 0; i < j["bones"].size(); ++i) {
    const auto& b = j["bones"][i];
    const int parent = b["parent"].get<int>();
    out << "  " << std::setw(3) << i << " " << b["name"].get<std::string>()
        << (b["joint"].get<bool>() ? "" : " (node)") << "  parent "
        << (parent < 0 ? std::string("-")
                       : j["bones"][static_cast<std::size_t>(parent)]["name"].get<std::string>())
        << "  rest " << Vec(b["rest_position_ms"]) << "\n";
  }
  out << "clips: " << j["clips"].size() << "\n";
  for (std::size_t i = 0; i < j["clips"].size(); ++i) {
    const auto& c = j["clips"][i];
    const std::string name = c["name"].get<std::string>();
    out << "  " << (name.empty() ? "(unnamed, use " + std::to_string(i) + ")" : name) << ": "
        << c["duration"].dump() << " s\n";
  }
  out << "chains: " << j["chains"].size() << " (forward " << Vec(j["forward"]) << ")\n";
  for (const auto& [name, c] : j["chains"].items()) {
    out << "  " << name << ": " << c["joints"][0].get<std::string>() << " -> "
        << c["joints"][1].get<std::string>() << " -> " << c["joints"][2].get<std::string>()
        << "  lengths " << c["lengths"][0].dump() << ", " << c["lengths"][1].dump() << "  (by "
        << c["found_by"].get<std::string>()
        << (c["end_is_child"].get<bool>() ? "" : "; end bone hangs elsewhere") << ")\n";
  }
  const auto& body = j["humanoid"];
  const auto bone = [](const asset::Json& name) {
    return name.is_null() ? std::string("-") : name.get<std::string>();
  };
  if (!body["pelvis"].is_null() || !body["chest"].is_null()) {
    out << "body: pelvis " << bone(body["pelvis"]) << ", spine " << body["spine"].size()
        << " bones to chest " << bone(body["chest"]) << ", neck " << bone(body["neck"]) << ", head "
        << bone(body["head"]) << ", clavicles " << bone(body["clavicles"]["left"]) << " / "
        << bone(body["clavicles"]["right"]) << ", toes " << bone(body["toes"]["left"]) << " / "
        << bone(body["toes"]["right"]) << "\n";
  }
  out << "warnings: " << j["warnings"].size() << "\n";
  for (const auto& w : j["warnings"]) out << "  " << w.get<std::string>() << "\n";
}

}  // namespace

int RunInspect(const InspectOptions& options, std::ostream& out, std::ostream& err) {
  anim::Model model;
  std::string error;
  if (!asset::TryLoadModel(options.model, &model, &error)) {
    return PrintError(err, error);
  }
  const asset::Json report = asset::InspectReport(model);
  if (options.json) {
    // Names come from the file: invalid UTF-8 is written as U+FFFD rather than thrown.
    out << report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    PrintText(report, out);
  }
  out.flush();
  if (!out) {
    return PrintError(err, "cannot write the report to standard output");
  }
  return 0;
}

}  // namespace ikpose::app
