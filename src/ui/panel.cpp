#include "ui/panel.h"

#include <imgui.h>

namespace ikpose::ui {

void DrawMainPanel(const PanelInfo& info) {
  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(340, 200), ImGuiCond_FirstUseEver);
  ImGui::Begin("ikpose");
  ImGui::TextUnformatted(info.renderer.c_str());
  ImGui::Text("frame %.2f ms (CPU)", static_cast<double>(info.frame_ms_cpu));
  ImGui::End();
}

}  // namespace ikpose::ui
