// ikpose's command line (DESIGN.md "The command line" is the contract). Every error is one
// line on stderr, `ikpose: error: <what>`, with a non-zero exit.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>

#include "app/paths.h"
#include "app/viewer.h"

namespace {

int Fail(const std::string& what, int code = 1) {
  std::cerr << "ikpose: error: " << what << "\n";
  return code;
}

// "WxH" -> width, height; false for anything else.
bool ParseSize(const std::string& text, int* width, int* height) {
  int w = 0;
  int h = 0;
  char x = 0;
  char rest = 0;
  if (std::sscanf(text.c_str(), "%d%c%d%c", &w, &x, &h, &rest) != 3 || (x != 'x' && x != 'X')) {
    return false;
  }
  if (w < 16 || h < 16 || w > 8192 || h > 8192) return false;
  *width = w;
  *height = h;
  return true;
}

// A bare word that is not a file is a mistyped subcommand, not a model path.
bool LooksLikeUnknownCommand(const std::string& arg) {
  return !arg.empty() && !std::filesystem::exists(arg) &&
         arg.find_first_of("./\\") == std::string::npos;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"ikpose: pose skinned characters with closed-form two-bone IK", "ikpose"};
  cli.set_version_flag("--version", std::string("ikpose ") + IKPOSE_VERSION);
  cli.require_subcommand(0, 1);

  std::string root_model;
  cli.add_option("MODEL", root_model, "model to open (default: the bundled character)");

  ikpose::app::ViewerOptions view;
  std::string view_size = "1280x720";
  std::string view_scene;
  CLI::App* view_cmd = cli.add_subcommand("view", "open the viewer");
  view_cmd->add_option("MODEL", view.model_path, "model to open (default: the bundled character)");
  view_cmd->add_option("--scene", view_scene, "scene file to open");
  view_cmd->add_option("--size", view_size, "window size WxH");

  ikpose::app::ViewerOptions render;
  std::string render_size = "1280x720";
  CLI::App* render_cmd =
      cli.add_subcommand("render", "draw the viewer's frame headlessly into a PNG file");
  render_cmd->add_option("MODEL", render.model_path, "model (default: the bundled character)");
  render_cmd->add_option("--out", render.screenshot_path, "PNG file to write")->required();
  render_cmd->add_option("--size", render_size, "image size WxH");

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

  if (render_cmd->parsed()) {
    if (!ParseSize(render_size, &render.width, &render.height)) {
      return Fail("--size must be WxH with each side in 16..8192, got '" + render_size + "'", 2);
    }
    if (render.model_path.empty()) render.model_path = ikpose::app::DefaultModelPath();
    render.offscreen = true;
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
  if (view.model_path.empty()) view.model_path = ikpose::app::DefaultModelPath();
  return ikpose::app::RunViewer(view);
}
