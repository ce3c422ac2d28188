#include "ui/timeline_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <utility>
#include <variant>

#include <glm/glm.hpp>

namespace ikpose::ui {

namespace {

constexpr float kPanelHeight = 250.f;
// Left arm, right arm, left leg, right leg.
constexpr ImU32 kLimbColors[4] = {IM_COL32(90, 200, 255, 255), IM_COL32(255, 200, 60, 255),
                                  IM_COL32(120, 230, 120, 255), IM_COL32(230, 120, 230, 255)};
constexpr ImU32 kPopColor = IM_COL32(255, 50, 50, 255);

std::size_t FrameAtX(float x, float x0, float width, std::size_t frames) {
  const float u = std::clamp((x - x0) / std::max(width, 1.f), 0.f, 1.f);
  return std::min(frames - 1, static_cast<std::size_t>(std::lround(u * (frames - 1))));
}

float XOfFrame(std::size_t i, float x0, float width, std::size_t frames) {
  return frames <= 1 ? x0 : x0 + width * static_cast<float>(i) / static_cast<float>(frames - 1);
}

// Appends one command, built in place: g++ 12 with the sanitizers warns (wrongly,
// maybe-uninitialized) when a temporary command holding a string is moved into the list.
template <typename Command, typename... Args>
void Ask(TimelinePanelState& state, Args&&... args) {
  state.commands.emplace_back(std::in_place_type<Command>, std::forward<Args>(args)...);
}

void Controls(const TimelineView& view, TimelinePanelState& state) {
  if (ImGui::Button(view.recording ? "pause recording" : "record")) {
    Ask<timeline_cmd::ToggleRecord>(state);
  }
  ImGui::SameLine();
  if (ImGui::Button("clear")) Ask<timeline_cmd::Clear>(state);
  ImGui::SameLine();
  const int n = static_cast<int>(view.frames->size());
  if (ImGui::ArrowButton("##previous", ImGuiDir_Left) && view.shown > 0) {
    Ask<timeline_cmd::ShowFrame>(state, view.shown - 1);
  }
  ImGui::SameLine();
  if (ImGui::ArrowButton("##next", ImGuiDir_Right) && view.shown + 1 < n) {
    Ask<timeline_cmd::ShowFrame>(state, view.shown + 1);
  }
  ImGui::SameLine();
  ImGui::Text("frame %d / %d  %s", view.shown, n, view.source.c_str());
  ImGui::SameLine();
  ImGui::SetNextItemWidth(220.f);
  char path[512];
  std::snprintf(path, sizeof path, "%s", state.path.c_str());
  if (ImGui::InputText("##path", path, sizeof path)) state.path = path;
  ImGui::SameLine();
  if (ImGui::Button("save")) Ask<timeline_cmd::Save>(state, state.path);
  ImGui::SameLine();
  if (ImGui::Button("load")) Ask<timeline_cmd::Load>(state, state.path);

  int value = static_cast<int>(state.value);
  ImGui::SetNextItemWidth(150.f);
  if (ImGui::BeginCombo("##value", TimelineValueName(state.value))) {
    for (int v = 0; v < kTimelineValues; ++v) {
      if (ImGui::Selectable(TimelineValueName(static_cast<TimelineValue>(v)), v == value)) {
        state.value = static_cast<TimelineValue>(v);
      }
    }
    ImGui::EndCombo();
  }
  for (anim::Limb limb : anim::kLimbs) {
    const int l = static_cast<int>(limb);
    ImGui::SameLine();
    ImGui::PushStyleColor(ImGuiCol_Text, kLimbColors[l]);
    ImGui::Checkbox(std::string(anim::LimbName(limb)).c_str(),
                    &state.limbs[static_cast<std::size_t>(l)]);
    ImGui::PopStyleColor();
  }
  ImGui::SameLine();
  ImGui::TextUnformatted("| ghosts:");
  for (const KneePolicyEntry& entry : kKneePolicies) {
    ImGui::SameLine();
    const char* name = anim::PolicyName(entry.policy);
    const std::optional<int>& pops = view.policy_pops[entry.policy];
    char label[64];
    if (pops) {
      std::snprintf(label, sizeof label, "%s (%d pops)", name, *pops);
    } else {
      std::snprintf(label, sizeof label, "%s", name);
    }
    ImGui::Checkbox(label, &state.ghosts[entry.policy]);
  }
  ImGui::SameLine();
  if (ImGui::Button("count pops per policy")) {
    Ask<timeline_cmd::CountPolicies>(state);
  }
}

// The plot: values per limb, zero line, pops as red ticks, the playhead. Dragging scrubs.
void Plot(const TimelineView& view, TimelinePanelState& state, float height) {
  const scene::TraceRecorder& frames = *view.frames;
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const float width = std::max(ImGui::GetContentRegionAvail().x, 10.f);
  ImGui::InvisibleButton("##plot", ImVec2(width, height));
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 p1(p0.x + width, p0.y + height);
  draw->AddRectFilled(p0, p1, IM_COL32(25, 25, 30, 255));
  if (frames.empty()) {
    draw->AddText(ImVec2(p0.x + 8, p0.y + 8), IM_COL32(160, 160, 160, 255),
                  "nothing recorded yet: play a clip or drag a target");
    return;
  }
  const std::size_t n = frames.size();
  const float x0 = p0.x + 4.f;
  const float w = width - 8.f;
  const float tick_h = 10.f;
  const float y_top = p0.y + tick_h + 4.f;
  const float y_bottom = p1.y - 4.f;

  // Range over the limbs shown, always including zero.
  const std::size_t columns = std::max<std::size_t>(1, static_cast<std::size_t>(w));
  const std::size_t stride = std::max<std::size_t>(1, n / columns);
  float lo = 0.f, hi = 0.f;
  for (anim::Limb limb : anim::kLimbs) {
    if (!state.limbs[static_cast<std::size_t>(limb)]) continue;
    for (std::size_t i = 0; i < n; i += stride) {
      const float v = TimelineValueAt(frames, i, limb, state.value);
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  if (hi - lo < 1e-6f) hi = lo + 1.f;
  const auto y_of = [&](float v) { return y_bottom - (v - lo) / (hi - lo) * (y_bottom - y_top); };
  draw->AddLine(ImVec2(x0, y_of(0.f)), ImVec2(x0 + w, y_of(0.f)), IM_COL32(90, 90, 90, 255));
  char range[64];
  std::snprintf(range, sizeof range, "%.3g", static_cast<double>(hi));
  draw->AddText(ImVec2(x0 + 2, y_top), IM_COL32(150, 150, 150, 255), range);
  std::snprintf(range, sizeof range, "%.3g", static_cast<double>(lo));
  draw->AddText(ImVec2(x0 + 2, y_bottom - ImGui::GetTextLineHeight()), IM_COL32(150, 150, 150, 255),
                range);

  for (anim::Limb limb : anim::kLimbs) {
    const int l = static_cast<int>(limb);
    if (!state.limbs[static_cast<std::size_t>(l)]) continue;
    bool drawing = false;
    ImVec2 previous;
    for (std::size_t i = 0; i < n; i += stride) {
      if (!frames[i].limbs[static_cast<std::size_t>(l)].solved) {
        drawing = false;
        continue;
      }
      const ImVec2 point(XOfFrame(i, x0, w, n),
                         y_of(TimelineValueAt(frames, i, limb, state.value)));
      if (drawing) draw->AddLine(previous, point, kLimbColors[l], 1.5f);
      previous = point;
      drawing = true;
    }
  }

  // Pops: red ticks along the top; the selected one is taller.
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  int clicked_pop = -1;
  const std::vector<scene::Pop>& pops = *view.pops;
  for (std::size_t k = 0; k < pops.size(); ++k) {
    const std::size_t index = static_cast<std::size_t>(std::max(pops[k].index, 0));
    if (index >= n) continue;
    const float x = XOfFrame(index, x0, w, n);
    const bool selected = static_cast<int>(k) == state.selected_pop;
    draw->AddLine(ImVec2(x, p0.y + 2.f), ImVec2(x, selected ? y_bottom : p0.y + 2.f + tick_h),
                  kPopColor, selected ? 2.f : 3.f);
    if (std::abs(mouse.x - x) <= 4.f && mouse.y >= p0.y && mouse.y <= p0.y + tick_h + 4.f) {
      clicked_pop = static_cast<int>(k);
    }
  }

  // Playhead.
  if (view.shown >= 0 && static_cast<std::size_t>(view.shown) < n) {
    const float x = XOfFrame(static_cast<std::size_t>(view.shown), x0, w, n);
    draw->AddLine(ImVec2(x, p0.y), ImVec2(x, p1.y), IM_COL32(255, 255, 255, 220), 1.f);
  }

  if (ImGui::IsItemActivated() && clicked_pop >= 0) {
    state.selected_pop = clicked_pop;
    Ask<timeline_cmd::ShowFrame>(state, pops[static_cast<std::size_t>(clicked_pop)].index);
  } else if (ImGui::IsItemActive()) {
    const int frame = static_cast<int>(FrameAtX(mouse.x, x0, w, n));
    if (frame != view.shown) Ask<timeline_cmd::ShowFrame>(state, frame);
  }
}

void Explanation(const TimelineView& view, const TimelinePanelState& state) {
  const std::vector<scene::Pop>& pops = *view.pops;
  if (state.selected_pop >= 0 && static_cast<std::size_t>(state.selected_pop) < pops.size()) {
    const scene::Pop& p = pops[static_cast<std::size_t>(state.selected_pop)];
    ImGui::PushStyleColor(ImGuiCol_Text, kPopColor);
    ImGui::Text(
        "pop %d of %zu: %s at frame %d (%.3f s): knee jumped %.4f (%.4f unexplained), "
        "turned %.0f deg about the hip-target axis",
        state.selected_pop + 1, pops.size(), std::string(anim::LimbName(p.limb)).c_str(), p.frame,
        static_cast<double>(p.time), static_cast<double>(p.knee_jump),
        static_cast<double>(p.excess), static_cast<double>(p.side_turn_deg));
    ImGui::PopStyleColor();
    ImGui::Text("cause: %s", std::string(scene::PopCauseName(p.cause)).c_str());
    ImGui::TextDisabled(
        "viewport: chosen knee (red), the other candidate (orange), hip-target axis (white), "
        "reference direction (cyan), previous knee (grey)");
  } else if (!pops.empty()) {
    ImGui::Text("%zu pop%s: click a red tick to see why", pops.size(), pops.size() == 1 ? "" : "s");
  } else if (!view.frames->empty()) {
    ImGui::TextDisabled("no pops in this recording");
  }
  if (!state.status.empty())
    ImGui::TextColored(ImVec4(1.f, 0.8f, 0.3f, 1.f), "%s", state.status.c_str());
}

}  // namespace

const char* TimelineValueName(TimelineValue value) {
  switch (value) {
    case TimelineValue::kReachMargin:
      return "reach margin";
    case TimelineValue::kKneeJump:
      return "knee jump";
    case TimelineValue::kBend:
      return "bend (deg)";
    case TimelineValue::kSwivel:
      return "swivel (deg)";
    case TimelineValue::kFlipMargin:
      return "flip margin";
    case TimelineValue::kHipSwing:
      return "hip swing (deg)";
    case TimelineValue::kHipTwist:
      return "hip twist (deg)";
    case TimelineValue::kKneeSwing:
      return "knee swing (deg)";
    case TimelineValue::kKneeTwist:
      return "knee twist (deg)";
  }
  return "?";
}

float TimelineValueAt(const scene::TraceRecorder& frames, std::size_t i, anim::Limb limb,
                      TimelineValue value) {
  const std::size_t l = static_cast<std::size_t>(limb);
  const scene::LimbSample& s = frames[i].limbs[l];
  if (!s.solved) return 0.f;
  switch (value) {
    case TimelineValue::kReachMargin:
      return s.reach_margin;
    case TimelineValue::kKneeJump: {
      if (i == 0 || !frames[i - 1].limbs[l].solved) return 0.f;
      return glm::length(s.knee_ms - frames[i - 1].limbs[l].knee_ms);
    }
    case TimelineValue::kBend:
      return s.bend_deg;
    case TimelineValue::kSwivel:
      return s.swivel_deg;
    case TimelineValue::kFlipMargin:
      return s.flip_margin;
    case TimelineValue::kHipSwing:
      return s.hip_swing_deg;
    case TimelineValue::kHipTwist:
      return s.hip_twist_deg;
    case TimelineValue::kKneeSwing:
      return s.knee_swing_deg;
    case TimelineValue::kKneeTwist:
      return s.knee_twist_deg;
  }
  return 0.f;
}

void DrawTimelinePanel(const TimelineView& view, float left_px, TimelinePanelState& state) {
  if (!view.frames || !view.pops) return;
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  // Closed: one bar along the bottom, so the viewport keeps the character's feet.
  const float bar = ImGui::GetFrameHeightWithSpacing() + 2.f * ImGui::GetStyle().WindowPadding.y;
  const float height = state.open ? std::min(kPanelHeight, 0.45f * display.y) : bar;
  ImGui::SetNextWindowPos(ImVec2(left_px, display.y - height), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(std::max(display.x - left_px, 100.f), height), ImGuiCond_Always);
  ImGui::Begin("timeline", nullptr,
               ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                   ImGuiWindowFlags_NoCollapse);
  state.height = height;
  if (ImGui::SmallButton(state.open ? "hide timeline" : "timeline")) state.open = !state.open;
  if (!state.open) {
    ImGui::SameLine();
    ImGui::Text("%zu frames, %zu pop%s%s", view.frames->size(), view.pops->size(),
                view.pops->size() == 1 ? "" : "s", view.recording ? ", recording" : "");
    ImGui::End();
    return;
  }
  ImGui::SameLine();
  Controls(view, state);
  const float below = 3.f * ImGui::GetTextLineHeightWithSpacing();
  Plot(view, state, std::max(ImGui::GetContentRegionAvail().y - below, 40.f));
  Explanation(view, state);
  ImGui::End();
}

}  // namespace ikpose::ui
