#include "ui/library_panel.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdint>
#include <string>

namespace ikpose::ui {

namespace {

constexpr float kThumbPixels = 96.0f;
const ImVec4 kErrorColor(1.0f, 0.45f, 0.4f, 1.0f);

// One grid cell: the thumbnail (or a blank button) and the name; a click selects the entry.
void EntryCell(const scene::LibraryEntry& e, LibraryPanel& panel) {
  ImGui::PushID(e.name.c_str());
  ImGui::BeginGroup();
  const bool selected = panel.selected == e.name;
  if (selected) ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(0.9f, 0.6f, 0.1f, 1.0f));
  const auto texture = panel.thumbnails.find(e.name);
  bool clicked = false;
  if (texture != panel.thumbnails.end() && texture->second != nullptr) {
    clicked = ImGui::ImageButton(texture->second, ImVec2(kThumbPixels, kThumbPixels));
  } else {
    clicked = ImGui::Button(e.error.empty() ? "no picture" : "broken",
                            ImVec2(kThumbPixels + 2 * ImGui::GetStyle().FramePadding.x,
                                   kThumbPixels + 2 * ImGui::GetStyle().FramePadding.y));
  }
  if (selected) ImGui::PopStyleColor();
  if (clicked) {
    panel.selected = e.name;
    panel.rename_to = e.name;
  }
  // The name, cut to the cell's width.
  std::string label = e.name;
  while (label.size() > 3 && ImGui::CalcTextSize(label.c_str()).x > kThumbPixels) {
    label.resize(label.size() - 4);
    label += "..";
  }
  if (e.error.empty()) {
    ImGui::TextUnformatted(label.c_str());
  } else {
    ImGui::TextColored(kErrorColor, "%s", label.c_str());
  }
  ImGui::EndGroup();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", e.name.c_str());
  ImGui::PopID();
}

// What is wrong with the selected entry's files, one line each.
void EntryProblems(const scene::LibraryEntry& e, const LibraryPanel& panel) {
  if (!e.error.empty()) ImGui::TextColored(kErrorColor, "%s", e.error.c_str());
  if (!e.thumbnail_error.empty()) ImGui::TextColored(kErrorColor, "%s", e.thumbnail_error.c_str());
  const auto decode = panel.thumbnail_errors.find(e.name);
  if (decode != panel.thumbnail_errors.end()) {
    ImGui::TextColored(kErrorColor, "%s: %s", e.thumbnail_path.string().c_str(),
                       decode->second.c_str());
  }
}

}  // namespace

void DrawLibrarySection(const scene::PosingSession& session, PanelState& state) {
  LibraryPanel& panel = state.library;
  if (panel.library == nullptr) return;
  const scene::PoseLibrary& library = *panel.library;
  ImGui::TextDisabled("%s", library.folder().string().c_str());
  if (!library.folder_note().empty())
    ImGui::TextColored(kErrorColor, "%s", library.folder_note().c_str());

  // Save the current pose.
  ImGui::SetNextItemWidth(std::max(80.0f, ImGui::GetContentRegionAvail().x - 150.0f));
  ImGui::InputTextWithHint("##save name", "name of the pose", &panel.save_name);
  ImGui::SameLine();
  ImGui::BeginDisabled(panel.save_name.empty());
  if (ImGui::Button("save current pose"))
    state.commands.push_back(cmd::LibrarySave{panel.save_name});
  ImGui::EndDisabled();

  // The grid of thumbnails.
  const float cell =
      kThumbPixels + 2 * ImGui::GetStyle().FramePadding.x + ImGui::GetStyle().ItemSpacing.x;
  const int columns = std::max(1, static_cast<int>(ImGui::GetContentRegionAvail().x / cell));
  int column = 0;
  for (const scene::LibraryEntry& e : library.entries()) {
    if (column++ % columns != 0) ImGui::SameLine();
    EntryCell(e, panel);
  }
  if (library.entries().empty()) ImGui::TextDisabled("no poses yet: name the pose and save it");
  if (ImGui::Button("read the folder again")) state.commands.push_back(cmd::LibraryRefresh{});

  const scene::LibraryEntry* chosen = library.Find(panel.selected);
  if (chosen == nullptr) return;
  ImGui::Separator();
  ImGui::Text("%s", chosen->name.c_str());
  EntryProblems(*chosen, panel);
  scene::ApplyOptions& apply = panel.apply;
  ImGui::Checkbox("whole pose", &apply.whole);
  if (!apply.whole) {
    for (anim::Limb limb : anim::kLimbs) {
      const auto i = static_cast<std::size_t>(limb);
      if (i % 2 != 0) ImGui::SameLine();
      ImGui::BeginDisabled(!session.target(limb).available);
      ImGui::Checkbox(std::string(anim::LimbName(limb)).c_str(), &apply.limbs[i]);
      ImGui::EndDisabled();
    }
  }
  ImGui::SliderFloat("blend", &apply.blend, 0.0f, 1.0f, "%.2f");
  ImGui::Checkbox("flipped", &apply.flip);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("left and right swapped across the body's plane");
  ImGui::BeginDisabled(!chosen->error.empty());
  if (ImGui::Button("apply"))
    state.commands.push_back(cmd::LibraryApply{panel.selected, panel.apply});
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button("delete")) state.commands.push_back(cmd::LibraryDelete{panel.selected});
  ImGui::SetNextItemWidth(std::max(80.0f, ImGui::GetContentRegionAvail().x - 80.0f));
  ImGui::InputText("##rename", &panel.rename_to);
  ImGui::SameLine();
  ImGui::BeginDisabled(panel.rename_to.empty() || panel.rename_to == chosen->name);
  if (ImGui::Button("rename"))
    state.commands.push_back(cmd::LibraryRename{panel.selected, panel.rename_to});
  ImGui::EndDisabled();
  if (!panel.note.empty()) ImGui::TextWrapped("%s", panel.note.c_str());
  if (!panel.unmatched.empty()) {
    std::string names;
    for (const std::string& n : panel.unmatched) names += (names.empty() ? "" : ", ") + n;
    ImGui::TextColored(ImVec4(1, 0.7f, 0.1f, 1), "not in this rig (%zu):", panel.unmatched.size());
    ImGui::TextWrapped("%s", names.c_str());
  }
}

void DrawHandsSection(const scene::PosingSession& session, PanelState& state) {
  HandsPanel& hands = state.hands;
  const float h = state.model_height;
  ImGui::SetNextItemWidth(120);
  ImGui::DragFloat("grip radius", &hands.grip_radius, h * 0.0002f, h * 0.002f, h * 0.1f, "%.3f");
  for (anim::Limb arm : {anim::Limb::kLeftArm, anim::Limb::kRightArm}) {
    const std::string name(anim::LimbName(arm));
    ImGui::PushID(name.c_str());
    const std::vector<int> fingers = scene::FingerJoints(session, arm);
    if (fingers.empty()) {
      ImGui::TextDisabled("%s: %s", name.c_str(),
                          session.target(arm).available ? "this hand has no finger bones"
                                                        : "not found in this rig");
      ImGui::PopID();
      continue;
    }
    ImGui::Text("%s (%zu finger joints)", name.c_str(), fingers.size());
    scene::HandPose& shown = hands.shown[arm == anim::Limb::kLeftArm ? 0 : 1];
    bool edited = ImGui::SliderFloat("curl", &shown.curl, 0.0f, 1.0f, "%.2f");
    edited |= ImGui::SliderFloat("spread", &shown.spread, -1.0f, 1.0f, "%.2f");
    if (edited) shown.grip_radius = 0.0f;  // the sliders leave a grip for a plain curl
    const scene::HandPreset presets[] = {scene::HandPreset::kRelaxed, scene::HandPreset::kFist,
                                         scene::HandPreset::kPoint, scene::HandPreset::kGrip};
    for (scene::HandPreset preset : presets) {
      if (preset != presets[0]) ImGui::SameLine();
      if (ImGui::Button(scene::PresetName(preset))) {
        shown = scene::PresetHandPose(preset, hands.grip_radius);
        edited = true;
      }
    }
    if (edited) state.commands.push_back(cmd::PoseHand{arm, shown});
    ImGui::PopID();
  }
  if (!hands.note.empty()) ImGui::TextColored(kErrorColor, "%s", hands.note.c_str());
}

}  // namespace ikpose::ui
