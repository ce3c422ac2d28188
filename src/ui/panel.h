// The main ImGui panel: what the user sees beside the character. It reads plain state that the
// app fills in and never calls GL or SDL itself.
#pragma once

#include <string>

namespace ikpose::ui {

struct PanelInfo {
  std::string renderer;    // GL renderer string, shown so users know what draws the frame
  float frame_ms_cpu = 0;  // CPU time of the last frame
};

void DrawMainPanel(const PanelInfo& info);

}  // namespace ikpose::ui
