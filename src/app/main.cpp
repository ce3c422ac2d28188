// ikpose's command line (DESIGN.md "The command line" is the contract). Every error is one
// line on stderr, `ikpose: error: <what>`, with a non-zero exit.
#include <CLI/CLI.hpp>

#include <charconv>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <iostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <glm/glm.hpp>

#include "app/chain_point.h"
#include "app/cmd_export.h"
#include "app/cmd_inspect.h"
#include "app/cmd_pose.h"
#include "app/cmd_solve.h"
#include "app/error_line.h"
#include "app/paths.h"
#include "app/viewer.h"

namespace {

int Fail(const std::string& what, int code = 1) {
  return ikpose::app::PrintError(std::cerr, what, code);
}

// "WxH" -> width, height; false for anything else (digits only, no wrap-around: each side
// is read in full and compared with the range, so 4294967360x64 is refused, not 64x64).
bool ParseSize(const std::string& text, int* width, int* height) {
  const std::size_t x = text.find_first_of("xX");
  if (x == std::string::npos) return false;
  const auto side = [](std::string_view digits, int* value) {
    if (digits.empty() || digits.size() > 5) return false;  // at most 8192
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), *value);
    return ec == std::errc() && end == digits.data() + digits.size() && *value >= 16 &&
           *value <= 8192;
  };
  int w = 0;
  int h = 0;
  const std::string_view all(text);
  if (!side(all.substr(0, x), &w) || !side(all.substr(x + 1), &h)) return false;
  *width = w;
  *height = h;
  return true;
}

// Every --target/--pole of a command, parsed; false with the first problem.
bool ParseChainPoints(const std::vector<std::string>& texts, const char* what,
                      std::vector<std::pair<std::string, glm::vec3>>* out, std::string* error) {
  for (const auto& text : texts) {
    ikpose::app::ChainPoint point;
    if (!ikpose::app::ParseChainPoint(text, what, &point, error)) return false;
    out->emplace_back(point.chain, point.point);
  }
  return true;
}

// --scene, --target, --pole, --clip and --time: what `pose` and `export` solve.
void AddPoseRequestOptions(CLI::App* command, ikpose::app::PoseRequest* request,
                           const char* target_help, const char* clip_help) {
  command->add_option("--scene", request->scene, "scenario file: its limbs, options and clip");
  command->add_option("--target", request->targets, target_help);
  command->add_option("--pole", request->poles, "CHAIN=x,y,z pole, model space");
  command->add_option("--clip", request->clip, clip_help);
  command->add_option("--time", request->time, "time in the clip, seconds");
}

// The parts of a `pose`/`export` command line that need no file: every --target and --pole
// parses, no chain is named twice, --time is finite and has a clip to move. A command line
// that fails here exits 2 on every command, as render's does.
bool CheckPoseRequest(const ikpose::app::PoseRequest& request, std::string* error) {
  std::vector<std::pair<std::string, glm::vec3>> targets, poles;
  if (!ParseChainPoints(request.targets, "target", &targets, error) ||
      !ParseChainPoints(request.poles, "pole", &poles, error)) {
    return false;
  }
  for (const auto* points : {&targets, &poles}) {
    for (std::size_t i = 0; i < points->size(); ++i) {
      for (std::size_t k = 0; k < i; ++k) {
        if ((*points)[i].first == (*points)[k].first) {
          *error = "chain " + (*points)[i].first + " has two " +
                   (points == &targets ? "targets" : "poles");
          return false;
        }
      }
    }
  }
  if (request.time && !std::isfinite(*request.time)) {
    *error = "--time must be a finite number of seconds";
    return false;
  }
  if (request.time && !request.clip && request.scene.empty()) {
    *error = "--time needs --clip";
    return false;
  }
  return true;
}

// A bare word that is not a file is a mistyped subcommand, not a model path.
bool LooksLikeUnknownCommand(const std::string& arg) {
  return !arg.empty() && !std::filesystem::exists(arg) &&
         arg.find_first_of("./\\") == std::string::npos;
}

int Run(int argc, char** argv) {
  CLI::App cli{"ikpose: pose skinned characters with closed-form two-bone IK", "ikpose"};
  cli.set_version_flag("--version", std::string("ikpose ") + IKPOSE_VERSION);
  cli.require_subcommand(0, 1);

  std::string root_model;
  cli.add_option("MODEL", root_model, "model to open (default: the bundled character)");

  ikpose::app::ViewerOptions view;
  std::string view_size = "1280x720";
  CLI::App* view_cmd = cli.add_subcommand("view", "open the viewer");
  view_cmd->add_option("MODEL", view.model_path, "model to open (default: the bundled character)");
  view_cmd->add_option("--size", view_size, "window size WxH");
  view_cmd->add_option("--scene", view.scene_path, "scenario file to open (and save back to)");
  view_cmd->add_option("--report", view.report_path,
                       "on exit, write each limb's target and end position as JSON");
  view_cmd
      ->add_option("--quit-after-frames", view.quit_after_frames,
                   "close after N frames on screen (for timing the start-up)")
      ->group("");

  ikpose::app::ViewerOptions render;
  std::string render_size = "1280x720";
  CLI::App* render_cmd =
      cli.add_subcommand("render", "draw the viewer's frame headlessly into a PNG file");
  render_cmd->add_option("MODEL", render.model_path, "model (default: the bundled character)");
  render_cmd->add_option("--out", render.screenshot_path, "PNG file to write")->required();
  render_cmd->add_option("--size", render_size, "image size WxH");
  render_cmd->add_option("--scene", render.scene_path, "scenario file to pose from");
  std::vector<std::string> render_targets, render_poles;
  std::string render_camera;
  render_cmd->add_option("--target", render_targets, "CHAIN=x,y,z: a limb target (model space)");
  render_cmd->add_option("--pole", render_poles, "CHAIN=x,y,z: a pole for that limb");
  render_cmd->add_option("--camera", render_camera,
                         "yaw,pitch,distance in degrees and model units");
  render_cmd->add_option("--clip", render.clip, "clip to pose the model from");
  render_cmd->add_option("--time", render.clip_time, "time in the clip, seconds");
  bool render_overlay = false;
  bool render_no_panel = false;
  render_cmd->add_flag("--overlay", render_overlay, "draw skeleton, targets, knee circles");
  render_cmd->add_flag("--no-panel", render_no_panel, "leave the ImGui panel out");
  bool render_no_grid = false;
  render_cmd->add_flag("--no-grid", render_no_grid, "leave the floor grid out");

  ikpose::app::InspectOptions inspect;
  std::string inspect_model;
  CLI::App* inspect_cmd = cli.add_subcommand(
      "inspect", "skeleton, meshes, skins, clips, detected limb chains and rig warnings");
  inspect_cmd->add_option("MODEL", inspect_model, "model (default: the bundled character)");
  inspect_cmd->add_flag("--json", inspect.json, "print JSON");

  ikpose::app::PoseOptions pose;
  CLI::App* pose_cmd =
      cli.add_subcommand("pose", "solve limbs on the model headlessly; report per chain and bone");
  pose_cmd->add_option("MODEL", pose.model, "model (default: the bundled character)");
  AddPoseRequestOptions(pose_cmd, &pose.request, "CHAIN=x,y,z target, model space",
                        "clip to sample first");
  pose_cmd->add_option("--out", pose.out, "write the pose as JSON to this file");
  pose_cmd->add_flag("--json", pose.json, "print JSON");

  ikpose::app::ExportOptions export_options;
  CLI::App* export_cmd = cli.add_subcommand(
      "export", "write the model in a pose as binary glTF (.glb) for Blender or a game engine");
  export_cmd->add_option("MODEL", export_options.model,
                         "model (default: the pose file's, else the bundled character)");
  export_cmd->add_option("--pose", export_options.pose, "pose file written by `ikpose pose --out`");
  export_cmd->add_option("--out", export_options.out, "the .glb file to write")->required();
  AddPoseRequestOptions(export_cmd, &export_options.request,
                        "CHAIN=x,y,z target, model space, solved on top of the pose",
                        "clip to start from (instead of --pose)");

  bool solve_json = false;
  CLI::App* solve_cmd = cli.add_subcommand(
      "solve", "JSON Lines in, JSON Lines out: the solver's position step, one chain per line");
  solve_cmd->add_flag("--json", solve_json, "(the default) one JSON object per output line");
  bool solve_pretty = false;
  solve_cmd->add_flag("--pretty", solve_pretty, "indent each output object (not JSON Lines)");

  try {
    cli.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return cli.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return cli.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return cli.exit(e);
  } catch (const CLI::ParseError& e) {
    return Fail(e.what(), 2);
  }

  if (solve_cmd->parsed())
    return ikpose::app::RunSolve(std::cin, std::cout, std::cerr, solve_pretty);
  if (inspect_cmd->parsed()) {
    inspect.model = inspect_model.empty() ? ikpose::app::DefaultModelPath()
                                          : std::filesystem::path(inspect_model);
    return ikpose::app::RunInspect(inspect, std::cout, std::cerr);
  }
  std::string error;
  if (pose_cmd->parsed()) {
    if (!CheckPoseRequest(pose.request, &error)) return Fail(error, 2);
    return ikpose::app::RunPose(pose, std::cout, std::cerr);
  }
  if (export_cmd->parsed()) {
    if (!CheckPoseRequest(export_options.request, &error)) return Fail(error, 2);
    return ikpose::app::RunExport(export_options, std::cout, std::cerr);
  }
  if (render_cmd->parsed()) {
    if (!ParseSize(render_size, &render.width, &render.height)) {
      return Fail("--size must be WxH with each side in 16..8192, got '" + render_size + "'", 2);
    }
    if (!ParseChainPoints(render_targets, "target", &render.targets, &error) ||
        !ParseChainPoints(render_poles, "pole", &render.poles, &error)) {
      return Fail(error, 2);
    }
    if (!render_camera.empty()) {
      ikpose::app::CameraSetting camera;
      char rest = 0;
      if (std::sscanf(render_camera.c_str(), "%f,%f,%f%c", &camera.yaw_deg, &camera.pitch_deg,
                      &camera.distance, &rest) != 3 ||
          !std::isfinite(camera.yaw_deg) || !std::isfinite(camera.pitch_deg) ||
          !std::isfinite(camera.distance) || camera.distance < 0) {
        return Fail("--camera must be yaw,pitch,distance, got '" + render_camera + "'", 2);
      }
      render.camera = camera;
    }
    if (!std::isfinite(render.clip_time)) return Fail("--time must be a finite number", 2);
    render.offscreen = true;
    render.overlay = render_overlay;
    render.panel = !render_no_panel;
    render.grid = !render_no_grid;
    return ikpose::app::RunViewer(render);
  }

  if (!view_cmd->parsed()) {
    if (LooksLikeUnknownCommand(root_model)) {
      return Fail("unknown command '" + root_model + "' (see ikpose --help)", 2);
    }
    view.model_path = root_model;
  }
  if (!ParseSize(view_size, &view.width, &view.height)) {
    return Fail("--size must be WxH with each side in 16..8192, got '" + view_size + "'", 2);
  }
  return ikpose::app::RunViewer(view);
}

}  // namespace

int main(int argc, char** argv) {
  // A write past the file-size limit fails with EFBIG (one error line) instead of a kill.
  std::signal(SIGXFSZ, SIG_IGN);
  // Last resort: anything not handled where it happened is still one line and exit 1.
  try {
    return Run(argc, argv);
  } catch (const std::exception& e) {
    return Fail(std::string("internal error: ") + e.what());
  } catch (...) {
    return Fail("internal error (unknown exception)");
  }
}
