#include "app/cmd_pose.h"

#include <memory>
#include <sstream>

#include "anim/atomic_file.h"
#include "anim/file_paths.h"
#include "app/error_line.h"
#include "app/ground_report.h"
#include "app/paths.h"
#include "app/pose_plan.h"
#include "app/pose_report.h"
#include "asset/load_model.h"
#include "asset/report.h"

namespace ikpose::app {

namespace {

namespace fs = std::filesystem;

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
        << (c["policy"] == "pole" ? ", bent toward the pole" : "")
        << (c["used_fallback_side"].get<bool>() ? ", bend side arbitrary (straight chain)" : "")
        << (c["limit_clamped"].get<bool>() ? ", limited" : "")
        << (c["softened"].get<bool>() ? ", softened" : "") << "\n";
    out << "  knee policy " << c["policy"].get<std::string>();
    if (c.contains("swivel_deg")) {
      out << ": swivel " << c["swivel_deg"].dump() << " deg of +-" << c["swivel_range_deg"].dump()
          << " from the natural bend " << Vec(c["natural_ms"]) << " (the current knee's "
          << c["swivel_reference_deg"].dump() << " deg"
          << (c["swivel_clamped"].get<bool>() ? ", held in range)" : ")");
      if (c.contains("knee_turned_out_deg")) {
        out << ", turned " << c["knee_turned_out_deg"].dump()
            << " deg to keep the knee behind the rungs";
      }
    }
    out << "\n";
    out << "  hip turned " << c["hip_delta_ls"]["angle_deg"].dump() << " deg about "
        << Vec(c["hip_delta_ls"]["axis"]) << ", knee turned "
        << c["knee_delta_ls"]["angle_deg"].dump() << " deg about "
        << Vec(c["knee_delta_ls"]["axis"]) << "\n";
  }
  if (j.contains("limits")) {
    const asset::Json& limits = j["limits"];
    out << "joint limits " << (limits["enabled"].get<bool>() ? "on" : "off");
    if (limits["at_limit"].empty()) out << ", no joint at its limit";
    out << "\n";
    for (const auto& joint : limits["at_limit"])
      out << "  " << joint["text"].get<std::string>() << "\n";
  }
  out << "bones (local rotation x,y,z,w; Euler x,y,z degrees; model-space position):\n";
  for (const auto& b : j["bones"]) {
    out << (b["changed"].get<bool>() ? "* " : "  ") << b["name"].get<std::string>() << "  "
        << Vec(b["rotation_ls"]) << "  " << Vec(b["euler_deg"]) << "  " << Vec(b["position_ms"])
        << "\n";
  }
}

int Fail(std::ostream& err, const std::string& what, int exit_code = 1) {
  return PrintError(err, what, exit_code);
}

}  // namespace

int RunPose(const PoseOptions& options, std::ostream& out, std::ostream& err) {
  // Check the arguments before the (slow) load.
  PosePlan plan;
  PlanError planned;
  if (!PlanPose(options.request, &plan, &planned)) {
    return Fail(err, planned.what, planned.exit_code);
  }
  StabilityPlan stability;
  std::string stability_error;
  if (!CheckStabilityOptions(options.stability, &stability, &stability_error)) {
    return Fail(err, stability_error, 2);
  }
  const fs::path model_path = ChooseModel(options.model, plan.scene_model);
  if (const std::string named = OutputNamesAnInput(
          "--out", options.out,
          {{"the model", model_path}, {"the scenario file", options.request.scene}});
      !named.empty()) {
    return Fail(err, named);
  }
  anim::Model model;
  std::string error;
  if (!asset::TryLoadModel(model_path, &model, &error)) return Fail(err, error);
  const std::unique_ptr<scene::PosingSession> session =
      scene::BuildSession(model, plan.request, &error);
  if (!session) return Fail(err, error);

  if (const std::string warning = MirrorWarning(*session); !warning.empty()) {
    PrintWarning(err, warning);
  }
  for (const std::string& warning : WorldWarnings(*session)) PrintWarning(err, warning);
  asset::Json report = SessionReport(*session);
  if (!options.out.empty()) {
    asset::Json saved;
    saved["model"] = anim::RelativeToFolderOf(model_path, options.out).string();
    const std::string clip = plan.request.ClipName();
    if (!clip.empty()) {
      saved["clip"] = clip;
      saved["time"] = session->edits.playback.time;
    }
    for (auto& [key, value] : report.items()) saved[key] = value;
    if (!anim::WriteFileAtomically(
            options.out, saved.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n",
            &error))
      return Fail(err, error);
  }
  scene::StabilityGrid grid;
  if (!stability.chain.empty()) {
    anim::Limb limb{};
    scene::StabilityRequest request;
    request.toward_viewer_ms =
        TowardViewerMs(session->chains(), stability.yaw_deg, stability.pitch_deg);
    request.cells = stability.cells;
    request.spacing = stability.spacing;
    if (!FindStabilityLimb(*session, stability.chain, &limb, &error) ||
        !scene::MeasureStability(*session, limb, request, &grid, &error)) {
      return Fail(err, error);
    }
    if (options.json) report["stability"] = StabilityJson(grid, stability);
  }
  if (options.json) {
    // Bone names come from the file: invalid UTF-8 is written as U+FFFD rather than thrown.
    out << report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  } else {
    PrintText(report, out);
    if (!stability.chain.empty()) PrintStabilityMap(grid, stability, out);
  }
  out.flush();
  if (!out) return Fail(err, "cannot write the report to standard output");
  return 0;
}

}  // namespace ikpose::app
