// The viewer: one state struct driven by init / event / frame / cleanup, as a thin host over
// the render, ui and scene layers. `ikpose view` runs it in a window; `ikpose render` runs the
// very same frame through SDL's offscreen driver and saves the image.
#pragma once

#include <string>

namespace ikpose::app {

struct ViewerOptions {
  std::string model_path;
  int width = 1280;
  int height = 720;
  bool offscreen = false;
  std::string screenshot_path;  // offscreen: where the PNG goes
};

// Returns the process exit code; errors are printed as one line on stderr.
int RunViewer(const ViewerOptions& options);

}  // namespace ikpose::app
