#include "ui/props_panel.h"

#include "ui/panel.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace ikpose::ui {

namespace {

// The bundled props (assets/props, made by tools/make_props), by button label.
constexpr const char* kBundled[] = {"stairs", "ramp", "box", "chair", "ladder"};

}  // namespace

bool ReplaceProp(scene::PosingSession& session, int index, const scene::PropPlacement* placement,
                 std::string* error) {
  if (!session.edits.world || index < 0 ||
      index >= static_cast<int>(session.edits.world->props().size())) {
    *error = "no such prop";
    return false;
  }
  std::vector<scene::Prop> props = session.edits.world->props();
  if (placement != nullptr) {
    props[static_cast<std::size_t>(index)].placement = *placement;
  } else {
    props.erase(props.begin() + index);
  }
  std::shared_ptr<const scene::World> world;
  if (!props.empty()) {
    world = scene::World::Build(std::move(props), error);
    if (!world) return false;
  }
  session.edits.world = std::move(world);  // the frame evaluates it
  return true;
}

void DrawPropsSection(scene::PosingSession& session, PanelState& state) {
  PropsPanel& panel = state.props;
  std::vector<Command>& commands = state.commands;
  const int count = session.edits.world ? static_cast<int>(session.edits.world->props().size()) : 0;
  if (count == 0) ImGui::TextDisabled("no props: add one below, or drop a file with Shift held");
  int remove = -1;
  for (int i = 0; i < count; ++i) {
    const scene::Prop& prop = session.edits.world->props()[static_cast<std::size_t>(i)];
    ImGui::PushID(i);
    const std::string name = std::filesystem::path(prop.placement.file).filename().string();
    if (ImGui::Selectable(name.c_str(), panel.selected == i)) panel.selected = i;
    if (panel.selected == i) {
      scene::PropPlacement placed = prop.placement;
      bool changed = ImGui::DragFloat3("position", &placed.position_ms.x, 0.01f);
      changed |= ImGui::SliderFloat("turn", &placed.yaw_deg, -180.0f, 180.0f, "%.0f deg");
      changed |= ImGui::DragFloat("scale", &placed.scale, 0.01f, 0.01f, 100.0f, "%.2f",
                                  ImGuiSliderFlags_AlwaysClamp);
      if (changed && placed.scale > 0.0f && !(placed == prop.placement)) {
        std::string error;
        if (!ReplaceProp(session, i, &placed, &error)) panel.note = error;
      }
      if (ImGui::Button("remove")) remove = i;
    }
    ImGui::PopID();
  }
  if (remove >= 0) commands.push_back(cmd::RemoveProp{remove});
  char path[1024];
  std::snprintf(path, sizeof path, "%s", panel.add_path.c_str());
  if (ImGui::InputText("prop file", path, sizeof path)) panel.add_path = path;
  if (ImGui::Button("add")) commands.push_back(cmd::AddProp{panel.add_path});
  for (const char* bundled : kBundled) {
    ImGui::SameLine();
    const bool clicked = ImGui::Button(bundled);
    Shown(state, bundled);
    if (clicked) {
      panel.add_path = (panel.bundled_folder / (std::string(bundled) + ".glb")).string();
      commands.push_back(cmd::AddProp{panel.add_path});
    }
  }
  if (!panel.note.empty()) ImGui::TextWrapped("%s", panel.note.c_str());
}

}  // namespace ikpose::ui
