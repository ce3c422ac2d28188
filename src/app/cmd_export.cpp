#include "app/cmd_export.h"

#include <algorithm>
#include <cctype>
#include <exception>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "app/cmd_bake.h"
#include "app/error_line.h"
#include "app/paths.h"
#include "app/pose_report.h"
#include "app/prop_option.h"
#include "asset/export_drops.h"
#include "asset/export_gltf.h"
#include "asset/gltf_document.h"
#include "asset/load_model.h"
#include "scene/files/pose_file.h"

namespace ikpose::app {

namespace {

namespace fs = std::filesystem;

int Fail(std::ostream& err, const std::string& what, int exit_code = 1) {
  return PrintError(err, what, exit_code);
}

std::string Lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// The glTF 2.0 source's JSON, whose sampler modes, texture transforms, cameras and extras the
// export keeps where it can and lists where it cannot; null for other formats (the loader said
// what it could not use).
std::unique_ptr<asset::GltfDocument> GltfSource(const fs::path& model_path) {
  try {
    return std::make_unique<asset::GltfDocument>(asset::GltfDocument::Read(model_path));
  } catch (const std::exception&) {
    return nullptr;
  }
}

}  // namespace

std::string OutputProblem(const fs::path& out, const std::vector<NamedInput>& inputs) {
  std::error_code ec;
  const fs::path folder = out.has_parent_path() ? out.parent_path() : ".";
  if (!fs::is_directory(folder, ec)) {
    return "cannot write " + out.string() + ": folder " + folder.string() + " does not exist";
  }
  return OutputNamesAnInput("--out", out, inputs);
}

int RunExport(const ExportOptions& options, std::ostream& out, std::ostream& err) {
  // Everything that can be checked before the (slow) load.
  if (options.out.empty()) return Fail(err, "--out FILE.glb is required", 2);
  if (Lower(options.out.extension().string()) != ".glb") {
    return Fail(err,
                "--out must name a .glb file (binary glTF), got '" + options.out.string() + "'", 2);
  }
  const PoseRequest& request = options.request;
  if (options.bake.bake) return RunBake(options, out, err);
  if (options.bake.lock_feet || options.bake.max_error || !options.bake.targets.empty() ||
      options.bake.from || options.bake.to) {
    return Fail(err, "--from, --to, --targets, --max-error and --lock-feet need --bake", 2);
  }
  if (options.pose.empty() && request.targets.empty() && request.scene.empty() && !request.clip &&
      !request.ready) {
    return Fail(err,
                "nothing to pose: give --pose FILE, --target CHAIN=x,y,z, --scene FILE, "
                "--clip NAME or --ready POSE",
                2);
  }
  if (!options.pose.empty() && request.clip) {
    return Fail(err, "--pose and --clip both give the starting pose; use one", 2);
  }
  std::string error;
  scene::PoseFile pose_file;
  if (!options.pose.empty() && !scene::ReadPoseFile(options.pose, &pose_file, &error)) {
    return Fail(err, error);
  }
  PosePlan plan;
  PlanError planned;
  if (!PlanPose(request, &plan, &planned)) return Fail(err, planned.what, planned.exit_code);
  const std::string clip = plan.request.ClipName();
  if (!options.pose.empty() && !clip.empty()) {
    return Fail(err, "--pose and a clip (from " + request.scene.string() +
                         ") both give the starting pose; use one");
  }
  const fs::path model_path = ChooseModel(
      options.model, pose_file.ModelPath().empty() ? plan.scene_model : pose_file.ModelPath());
  if (const std::string problem =
          OutputProblem(options.out, {{"the model", model_path},
                                      {"the pose file", options.pose},
                                      {"the scenario file", request.scene}});
      !problem.empty()) {
    return Fail(err, problem);
  }

  anim::Model model;
  if (!asset::TryLoadModel(model_path, &model, &error)) return Fail(err, error);
  int unlisted = 0;
  if (!options.pose.empty()) {
    anim::Pose start = anim::RestPose(model.skeleton);
    if (!scene::PoseFromFile(pose_file, model, &start, &unlisted, &error)) return Fail(err, error);
    plan.request.start_pose_ls = std::move(start.locals_ls);
  }
  const std::unique_ptr<scene::PosingSession> session =
      scene::BuildSession(model, plan.request, &error);
  if (!session) return Fail(err, error);

  std::vector<std::string> warnings;
  std::vector<std::string> left_out;
  const std::unique_ptr<asset::GltfDocument> source = GltfSource(model_path);
  const std::vector<asset::PlacedModel> props = options.no_props
                                                    ? std::vector<asset::PlacedModel>()
                                                    : PropsToExport(session->edits.world.get());
  if (!asset::WritePosedGlb(model, session->pose().locals_ls, options.out, &warnings, &error, {},
                            {source ? &source->json : nullptr, &left_out}, props)) {
    return Fail(err, error);
  }

  std::ostringstream from;
  if (!options.pose.empty()) from << " from " << options.pose.string();
  if (!clip.empty())
    from << " from clip '" << clip << "' at " << session->edits.playback.time << " s";
  out << "wrote " << options.out.string() << ": " << model_path.filename().string() << " posed"
      << from.str() << "\n";
  for (const asset::PlacedModel& prop : props) {
    out << "  prop " << prop.name << " beside it, at " << prop.position_ms.x << ","
        << prop.position_ms.y << "," << prop.position_ms.z << "\n";
  }
  if (unlisted > 0) {
    out << "note: " << unlisted << " bones not in " << options.pose.string()
        << " keep their rest transform\n";
  }
  for (const asset::SolvedChain& sc : SolvedChains(*session)) {
    out << "  " << sc.chain.name << ": " << ik::ReachName(sc.result.output.reach) << ", end "
        << sc.result.error_ms << " from the target\n";
  }
  if (session->edits.mirror != anim::MirrorMode::kOff) {
    out << "  mirrored " << anim::MirrorModeName(session->edits.mirror) << "\n";
    if (const std::string warning = MirrorWarning(*session); !warning.empty()) {
      PrintWarning(err, warning);
    }
  }
  for (const std::string& warning : warnings) out << "note: " << warning << "\n";
  for (const std::string& drop : left_out) out << "left out: " << drop << "\n";
  out.flush();
  return 0;
}

}  // namespace ikpose::app
