// ikpose's command line (docs/DESIGN.md, "The command line", is the contract). Every error is one
// line on stderr, `ikpose: error: <what>`, with a non-zero exit.
#include <CLI/CLI.hpp>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <iostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <glm/glm.hpp>

#include "app/cmd_export.h"
#include "app/cmd_inspect.h"
#include "app/cmd_pose.h"
#include "app/cmd_solve.h"
#include "app/cmd_trace.h"
#include "app/error_line.h"
#include "app/paths.h"
#include "app/viewer.h"
#include "scene/session/ready_poses.h"

namespace {

int Fail(const std::string& what, int code = 1) {
  return ikpose::app::PrintError(std::cerr, what, code);
}

// A file option given an empty name ("--out ''") would silently mean "none": a usage error.
const CLI::Validator kFileName(
    [](std::string& name) {
      return name.empty() ? std::string("needs a file name") : std::string();
    },
    "FILE", "file name");

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

// --scene, --target, --pole, --policy, --clip, --time and --mirror: what every posing command
// solves, one road.
void AddPoseRequestOptions(CLI::App* command, ikpose::app::PoseRequest* request,
                           const char* target_help, const char* clip_help) {
  command
      ->add_option("--scene", request->scene, "scenario file: its limbs, options, ladder and clip")
      ->check(kFileName);
  command->add_option("--target", request->targets, target_help);
  command->add_option("--pole", request->poles, "CHAIN=x,y,z pole, model space");
  command->add_option("--policy", request->policies,
                      "CHAIN=seed|natural|pole, or one policy for every limb: where the knee "
                      "(elbow) goes (default natural)");
  command->add_option("--clip", request->clip, clip_help);
  command->add_option("--time", request->time, "time in the clip, seconds");
  command->add_option("--mirror", request->mirror,
                      "left-to-right|right-to-left|flip: mirror the solved pose across the "
                      "character's own left/right plane (an asymmetric rest is mirrored anyway, "
                      "with a warning); off overrides a scenario's");
  // Every ready pose by name, from the one list (ready_poses.h).
  std::string ready_names = ikpose::scene::ReadyPoseChoices();
  for (std::size_t at = ready_names.find(", "); at != std::string::npos;
       at = ready_names.find(", ", at))
    ready_names.replace(at, 2, "|");
  command->add_option("--ready", request->ready,
                      ready_names +
                          ": a ready pose from the rig's own measures, placed first (the "
                          "scenario's and these options go over it)");
  command->add_option("--prop", request->props,
                      "FILE@x,y,z[,yaw_deg]: a static mesh placed in model space (glTF, OBJ, "
                      "FBX...); feet stand on it");
  command->add_option("--ground", request->ground,
                      "on|off: feet stand on the floor and the props (default on)");
  command->add_option("--body-help", request->body_help,
                      "on|off: the clavicles, spine and pelvis help a limb that cannot reach, "
                      "and four contacts place the pelvis (default on; over a scenario's)");
  command->add_option("--limits", request->limits,
                      "on|off: joints stop at their natural range in FK turns, grabs and limb "
                      "solves (default on; over a scenario's)");
}

// --trace and --frame: a trace file on the timeline (view and render).
void AddTraceOptions(CLI::App* command, ikpose::app::ViewerOptions* options) {
  command
      ->add_option("--trace", options->trace_path,
                   "trace file (ikpose trace --out) to scrub on the timeline; its model, scene, "
                   "clip and policies unless given")
      ->check(kFileName);
  command
      ->add_option("--frame", options->trace_frame,
                   "with --trace: the frame shown first, counted from 0 (a pop there is "
                   "selected and explained)")
      ->check(CLI::NonNegativeNumber);
}

// --stability CHAIN and its grid (pose, view, render); `with_view`: pose's --stability-view (the
// window's slice faces its camera).
void AddStabilityOptions(CLI::App* command, ikpose::app::StabilityOptions* options,
                         bool with_view) {
  command->add_option("--stability", options->chain,
                      "CHAIN: how far its knee moves per unit of target motion, on a grid around "
                      "its target (where it will pop)");
  if (with_view) {
    command->add_option("--stability-view", options->view,
                        "yaw,pitch in degrees from the character's front: the grid faces it "
                        "(default 0,10)");
  }
  command->add_option("--stability-cells", options->cells,
                      "cells per side of the stability grid, odd (default 25)");
  command->add_option("--stability-spacing", options->spacing,
                      "between the stability grid's cell centres, model units (default: the "
                      "limb's length / 20)");
}

// What `view` and `render` share: the model, the size, the situation, a trace on the
// timeline, the stability grid, the library, the reference picture and the report. `render`
// is the window drawn headlessly, so its words are the window's, its help says what they do
// in a picture.
struct WindowCommand {
  ikpose::app::ViewerOptions options;
  std::string size = "1280x720";
};

void AddWindowOptions(CLI::App* command, WindowCommand* window, bool headless) {
  ikpose::app::ViewerOptions& o = window->options;
  command->add_option("MODEL", o.model_path,
                      headless ? "model (default: the bundled character)"
                               : "model to open (default: the bundled character)");
  if (headless) {
    command->add_option("--out", o.screenshot_path, "PNG file to write")
        ->required()
        ->check(kFileName);
  }
  command->add_option("--size", window->size, headless ? "image size WxH" : "window size WxH");
  AddPoseRequestOptions(command, &o.request, "CHAIN=x,y,z: a limb target (model space)",
                        "clip to pose the model from");
  AddTraceOptions(command, &o);
  AddStabilityOptions(command, &o.stability, false);
  command->add_option("--library", o.library_dir,
                      headless ? "pose library folder shown in the panel (default: as view)"
                               : "pose library folder (default: $XDG_DATA_HOME/ikpose/poses)");
  command->add_option("--reference", o.reference_path,
                      headless ? "PNG or JPEG drawn behind the character, facing the front view"
                               : "PNG or JPEG shown behind the character, facing the front view");
  command
      ->add_option("--report", o.report_path,
                   headless ? "write the pose report of the image (what pose --json prints)"
                            : "on exit, write the pose report (as pose --json) and the "
                              "window's state")
      ->check(kFileName);
}

// --size into the options; false after the one error line (exit 2).
bool ReadWindowSize(WindowCommand& window) {
  ikpose::app::ViewerOptions& o = window.options;
  if (ParseSize(window.size, &o.width, &o.height)) return true;
  Fail("--size must be WxH with each side in 16..8192, got '" + window.size + "'", 2);
  return false;
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

  WindowCommand view_window;
  ikpose::app::ViewerOptions& view = view_window.options;
  CLI::App* view_cmd = cli.add_subcommand("view", "open the viewer");
  AddWindowOptions(view_cmd, &view_window, /*headless=*/false);
  view_cmd
      ->add_option("--listen", view.listen,
                   "[HOST:]PORT (HOST default 127.0.0.1, loopback): a running game connects and "
                   "sends its targets (include/ikpose_link.h); shown live and recorded on the "
                   "timeline. Port 0: any free port, printed on stderr")
      ->excludes("--trace");
  view_cmd
      ->add_option("--autosave", view.autosave_seconds,
                   "seconds between autosaves of an edited session (0: never); the autosave is "
                   "offered back after a crash")
      ->check(CLI::Range(0.0f, 86400.0f));
  view_cmd
      ->add_option("--quit-after-frames", view.quit_after_frames,
                   "close after N frames on screen (for timing the start-up)")
      ->group("");

  WindowCommand render_window;
  ikpose::app::ViewerOptions& render = render_window.options;
  CLI::App* render_cmd =
      cli.add_subcommand("render", "draw the viewer's frame headlessly into a PNG file");
  AddWindowOptions(render_cmd, &render_window, /*headless=*/true);
  std::string render_camera;
  render_cmd->add_option("--camera", render_camera,
                         "yaw,pitch,distance in degrees and model units");
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
  pose_cmd->add_option("--out", pose.out, "write the pose as JSON to this file")->check(kFileName);
  pose_cmd->add_flag("--json", pose.json, "print JSON");
  AddStabilityOptions(pose_cmd, &pose.stability, true);

  ikpose::app::ExportOptions export_options;
  CLI::App* export_cmd = cli.add_subcommand(
      "export", "write the model in a pose as binary glTF (.glb) for Blender or a game engine");
  export_cmd->add_option("MODEL", export_options.model,
                         "model (default: the pose file's, else the bundled character)");
  export_cmd->add_option("--pose", export_options.pose, "pose file written by `ikpose pose --out`")
      ->check(kFileName);
  export_cmd->add_option("--out", export_options.out, "the .glb file to write")
      ->required()
      ->check(kFileName);
  AddPoseRequestOptions(export_cmd, &export_options.request,
                        "CHAIN=x,y,z target, model space, solved on top of the pose",
                        "clip to start from (instead of --pose)");
  export_cmd->add_flag("--no-props", export_options.no_props,
                       "leave the props out of the file (by default each is a node beside the "
                       "character)");
  export_cmd->add_flag("--bake", export_options.bake.bake,
                       "write every frame from --from to --to as a glTF animation (the clip's "
                       "name, or 'ik'), the model's other clips kept");
  export_cmd->add_option("--fps", export_options.bake.fps,
                         "with --bake: keys a second, 1..1000 (default 30)");
  export_cmd->add_option("--from", export_options.bake.from,
                         "with --bake: first time, seconds (default: the first target's, else 0)");
  export_cmd->add_option(
      "--to", export_options.bake.to,
      "with --bake: last time, seconds (default: the last target's, else the clip's end)");
  export_cmd->add_option("--targets", export_options.bake.targets,
                         "with --bake: targets over time, JSON Lines as `ikpose trace --targets`");
  export_cmd->add_option("--max-error", export_options.bake.max_error,
                         "with --bake: drop keys while every joint stays within this distance "
                         "(model units) of the full bake");
  export_cmd->add_flag("--lock-feet", export_options.bake.lock_feet,
                       "with --bake: hold each foot still where the clip plants it");

  ikpose::app::TraceOptions trace;
  CLI::App* trace_cmd = cli.add_subcommand(
      "trace", "replay a situation frame by frame headlessly: per-frame values and pops");
  trace_cmd->add_option("MODEL", trace.model, "model (default: the scene's, else the bundled one)");
  trace_cmd
      ->add_option("--scene", trace.request.scene,
                   "scenario file: its limbs, options, ladder and clip")
      ->check(kFileName);
  CLI::Option* trace_targets =
      trace_cmd
          ->add_option("--targets", trace.targets,
                       "JSON Lines of {\"time\": t, \"limbs\": {\"left_arm\": {\"target\": "
                       "[x,y,z], \"pole\": [x,y,z]}}}, times increasing; a limb's target holds "
                       "until a later line moves it (no interpolation)")
          ->check(kFileName);
  trace_cmd->add_option("--clip", trace.request.clip, "clip to play under the targets");
  trace_cmd->add_option("--prop", trace.request.props,
                        "FILE@x,y,z[,yaw_deg]: a static mesh the feet stand on");
  trace_cmd->add_option("--ground", trace.request.ground, "on|off: feet on the floor and props");
  trace_cmd->add_option("--body-help", trace.request.body_help,
                        "on|off: the body helps a limb that cannot reach (default on)");
  trace_cmd->add_option("--limits", trace.request.limits,
                        "on|off: joints stop at their natural range (default on)");
  trace_cmd->add_option("--from", trace.from,
                        "first time, seconds (default: the first target's, else 0)");
  trace_cmd->add_option("--to", trace.to,
                        "last time, seconds (default: the last target's, else the clip's end)");
  trace_cmd->add_option("--fps", trace.fps, "frames a second, 1..1000 (default 60)");
  trace_cmd->add_option("--policy", trace.request.policies,
                        "CHAIN=seed|natural|pole, or one policy for every limb (default natural)");
  trace_cmd->add_option("--out", trace.out, "write the trace, one JSON line per frame")
      ->check(kFileName);
  trace_cmd->add_flag("--json", trace.json, "print the summary as JSON");
  trace_cmd->add_flag("--fail-on-pop", trace.fail_on_pop, "exit 1 when a pop is found");
  CLI::Option* trace_listen =
      trace_cmd
          ->add_option("--listen", trace.link.listen,
                       "instead of --targets: [HOST:]PORT (HOST default 127.0.0.1, loopback) where "
                       "a running game connects and sends the same lines (include/ikpose_link.h); "
                       "read until it closes the connection. Port 0: any free port, printed as "
                       "'ikpose: listening on HOST:PORT' on stderr")
          ->excludes(trace_targets);
  trace_cmd
      ->add_option("--idle-timeout", trace.link.idle_timeout_s,
                   "with --listen: give up (exit 1) after this many seconds with no game "
                   "connected, or with a connected game sending nothing (default 60)")
      ->needs(trace_listen);

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
  // The situation options of pose, export, render and view are checked by PlanPose (exit 2
  // for a command line that cannot be used), before any file is read.
  if (pose_cmd->parsed()) return ikpose::app::RunPose(pose, std::cout, std::cerr);
  if (trace_cmd->parsed()) return ikpose::app::RunTrace(trace, std::cout, std::cerr);
  if (export_cmd->parsed()) return ikpose::app::RunExport(export_options, std::cout, std::cerr);
  if (render_cmd->parsed()) {
    if (!ReadWindowSize(render_window)) return 2;
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
  if (!ReadWindowSize(view_window)) return 2;
  return ikpose::app::RunViewer(view);
}

}  // namespace

int main(int argc, char** argv) {
  // A write past the file-size limit fails with EFBIG (one error line) instead of a kill.
  std::signal(SIGXFSZ, SIG_IGN);
  // Last resort: anything not handled where it happened is still one line and exit 1.
  try {
    const int code = Run(argc, argv);
    // What a command printed must have arrived: a full disk or a closed file behind stdout is
    // an error, not a silent success.
    errno = 0;
    std::cout.flush();
    if (code == 0 && !std::cout) {
      const int why = errno;
      return Fail(std::string("cannot write to standard output") +
                  (why != 0 ? std::string(": ") + std::strerror(why) : std::string()));
    }
    return code;
  } catch (const std::exception& e) {
    return Fail(std::string("internal error: ") + e.what());
  } catch (...) {
    return Fail("internal error (unknown exception)");
  }
}
