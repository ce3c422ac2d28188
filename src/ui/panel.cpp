#include "ui/panel.h"

#include "scene/session/ready_poses.h"
#include "scene/session/world_scale.h"
#include "ui/library_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include <glm/gtc/quaternion.hpp>

namespace ikpose::ui {

namespace {

ImVec4 ToImVec4(const glm::vec4& c) {
  return ImVec4(c.r, c.g, c.b, c.a);
}

void Vec3Row(const char* label, const glm::vec3& v) {
  ImGui::Text("%-16s %8.4f %8.4f %8.4f", label, static_cast<double>(v.x), static_cast<double>(v.y),
              static_cast<double>(v.z));
}

// A length in model units and, when the model says what they are, in centimetres.
std::string Length(float value, float meters_per_unit, const char* format = "%.4f") {
  char number[64];
  std::snprintf(number, sizeof number, format, static_cast<double>(value));
  if (meters_per_unit <= 0.0f) return std::string(number) + " units";
  const bool with_sign = std::string(format).find('+') != std::string::npos;
  char cm[64];
  std::snprintf(cm, sizeof cm, with_sign ? "%+.2f cm" : "%.2f cm",
                static_cast<double>(value * meters_per_unit * 100.0f));
  return std::string(number) + " (" + cm + ")";
}

// Puts the next button beside the last item when it fits, else on the next line, so a narrow
// panel wraps its rows of buttons rather than cutting them.
// `box`: a checkbox or radio button (its box before the label).
void SameLineIfFits(const char* label, bool box = false) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float width = ImGui::CalcTextSize(label, nullptr, true).x + 2.0f * style.FramePadding.x +
                      (box ? ImGui::GetFrameHeight() + style.ItemInnerSpacing.x : 0.0f);
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x + style.ItemSpacing.x + width <= right) ImGui::SameLine();
}

// A button placed by SameLineIfFits.
// A collapsing header whose place is noted.
bool Header(PanelState& state, const char* label, ImGuiTreeNodeFlags flags = 0) {
  const bool open = ImGui::CollapsingHeader(label, flags);
  Shown(state, label);
  return open;
}

bool FlowButton(const char* label) {
  SameLineIfFits(label);
  return ImGui::Button(label);
}

// A distance said the way people say it: centimetres (or millimetres) when the units are known.
std::string PlainLength(float value, float meters_per_unit) {
  char text[64];
  if (meters_per_unit <= 0.0f) {
    std::snprintf(text, sizeof text, "%.3g units", static_cast<double>(value));
  } else if (value * meters_per_unit < 0.01f) {
    std::snprintf(text, sizeof text, "%.0f mm",
                  static_cast<double>(value * meters_per_unit * 1e3f));
  } else {
    std::snprintf(text, sizeof text, "%.0f cm",
                  static_cast<double>(value * meters_per_unit * 1e2f));
  }
  return text;
}

const ImVec4 kGood(0.4f, 0.9f, 0.45f, 1.0f);
const ImVec4 kBad(1.0f, 0.45f, 0.4f, 1.0f);
const ImVec4 kWarn(1.0f, 0.7f, 0.1f, 1.0f);

// Where the knee goes: seed (nearest the current knee), natural (within a swivel range of the
// rig's natural bend) or pole; natural shows its range and the swivel it chose. True if edited.
bool PolicyRow(scene::LimbTarget& target, const anim::ChainSolveResult& result,
               const PanelState& state) {
  ik::TwoBoneOptions& o = target.options.solver;
  int policy = o.use_pole ? 2 : static_cast<int>(target.options.policy);
  bool edited = ImGui::Combo("knee", &policy, "seed\0natural\0pole\0");
  if (edited) {
    target.options.policy = static_cast<anim::KneePolicy>(policy);
    if (policy == 2 && !o.use_pole)
      o.pole_ms = result.ok ? 2.0f * result.knee_ms - result.hip_ms : target.target_ms;
    o.use_pole = policy == 2;
  }
  if (o.use_pole) {
    edited |= ImGui::DragFloat3("pole", &o.pole_ms.x, state.model_height * 0.002f, 0, 0, "%.3f");
  } else if (target.options.policy == anim::KneePolicy::kNatural) {
    float& range = target.options.swivel_range_deg;
    const float shown = range > 0.0f ? range : result.swivel.range_deg;
    float edit = shown;
    if (ImGui::SliderFloat("swivel range", &edit, 1.0f, 180.0f, "+-%.0f deg") && edit != shown) {
      range = edit;
      edited = true;
    }
    if (result.policy == anim::KneePolicy::kNatural) {
      ImGui::Text("swivel %+.1f deg (current knee %+.1f)%s",
                  static_cast<double>(result.swivel.swivel_deg),
                  static_cast<double>(result.swivel.reference_deg),
                  result.swivel.clamped ? ", held in range" : "");
    } else if (result.ok) {
      ImGui::TextDisabled("no natural bend on this chain: the seed's rule");
    }
  }
  return edited;
}

// The solver's mathematics for one limb, under the "details" fold.
void LimbDetails(const anim::ChainSolveResult& result, float m_per_unit) {
  const ik::PositionsReport& p = result.report.positions;
  ImGui::Text("|ab| %s", Length(p.length_ab, m_per_unit).c_str());
  ImGui::Text("|bc| %s", Length(p.length_bc, m_per_unit).c_str());
  ImGui::Text("|at| %s", Length(p.length_at, m_per_unit).c_str());
  ImGui::Text("reach margin %s", Length(p.reach_margin, m_per_unit, "%+.4f").c_str());
  ImGui::TextWrapped("theta %.2f deg (cos %.4f)  knee bend %.1f deg",
                     static_cast<double>(glm::degrees(p.theta_rad)),
                     static_cast<double>(p.cos_theta), static_cast<double>(p.knee_bend_deg));
  Vec3Row("circle center", p.circle.center_ms);
  ImGui::Text("circle radius %s", Length(p.circle.radius, m_per_unit).c_str());
  Vec3Row("knee b'", p.result.knee_ms);
  ImGui::Text("knee moved %s", Length(p.knee_displacement, m_per_unit).c_str());
  ImGui::Text("residual %s", Length(result.error_ms, m_per_unit, "%.2e").c_str());
  const float flip = p.flip_margin;
  if (flip < 0.05f) {
    ImGui::TextColored(kWarn, "flip risk HIGH: knee %.3f of limb from the hip-target axis",
                       static_cast<double>(flip));
  } else {
    ImGui::Text("flip margin %.3f of limb length", static_cast<double>(flip));
  }
  if (result.output.softened) ImGui::TextDisabled("softened near full reach");
}

void LimbSection(scene::PosingSession& session, anim::Limb limb, PanelState& state) {
  scene::LimbTarget& target = session.target(limb);
  const float m_per_unit = anim::MetersPerUnit(session.model());
  const std::string name(anim::LimbName(limb));
  if (!target.available) {
    ImGui::TextDisabled("%s: not found in this rig", name.c_str());
    return;
  }
  const anim::ChainSolveResult& result = session.result(limb);
  ImGui::PushID(name.c_str());
  const bool solved = target.enabled && result.ok;
  const glm::vec4 color =
      solved ? scene::ReachColor(result.output.reach) : glm::vec4(0.6f, 0.6f, 0.6f, 1.0f);
  ImGui::Checkbox("##enabled", &target.enabled);
  ImGui::SameLine();
  const bool open = ImGui::TreeNodeEx(name.c_str(), ImGuiTreeNodeFlags_None);
  ImGui::SameLine();
  if (session.Mirrored(limb)) {
    ImGui::TextDisabled("mirrored");
  } else if (solved) {
    ImGui::TextColored(ToImVec4(color), "%s", ReachLabel(result.output.reach));
    if (target.rung >= 0) {
      ImGui::SameLine();
      ImGui::Text("rung %d", target.rung);
    }
  } else if (target.enabled && !target.given) {
    ImGui::TextDisabled("on its %s", scene::IsLeg(limb) ? "foot" : "hand");
  } else if (target.enabled) {
    ImGui::TextColored(kBad, "not solved");
  } else {
    ImGui::TextDisabled("off");
  }
  // The plain sentence first, under the limb's name.
  ImGui::Indent();
  if (solved && !session.Mirrored(limb)) {
    const std::string sentence = PlainLimbSentence(limb, result, session.model().chains.forward_ms,
                                                   glm::vec3(0.0f, 1.0f, 0.0f), m_per_unit);
    ImGui::TextWrapped("%s", sentence.c_str());
    if (result.output.limit_clamped) ImGui::TextColored(kWarn, "at its bend limit");
    if (session.palm(limb).on) {  // the floor, or the prop's file name without its folder
      const std::string on = session.PalmSurfaceName(limb);
      ImGui::TextDisabled("lies on its palm on %s", on.substr(on.find_last_of('/') + 1).c_str());
    }
  } else if (target.enabled && !target.given && !session.Mirrored(limb)) {
    ImGui::TextDisabled("drag it to pose");
  } else if (target.enabled && !result.ok && !result.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kBad);
    ImGui::TextWrapped("%s", result.error.c_str());
    ImGui::PopStyleColor();
  }
  ImGui::Unindent();
  if (open) {
    const anim::Skeleton& skeleton = session.model().skeleton;
    const anim::LimbChain& chain = session.chain(limb);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    ImGui::TextWrapped(
        "%s > %s > %s (%s)", skeleton.names[static_cast<std::size_t>(chain.upper)].c_str(),
        skeleton.names[static_cast<std::size_t>(chain.lower)].c_str(),
        skeleton.names[static_cast<std::size_t>(chain.end)].c_str(), chain.found_by.c_str());
    ImGui::PopStyleColor();
    bool placed =
        ImGui::DragFloat3("target", &target.target_ms.x, state.model_height * 0.002f, 0, 0, "%.3f");
    // Any edit in the row places the target where it is, so the limb is solved from now on.
    ik::TwoBoneOptions& o = target.options.solver;
    placed |= PolicyRow(target, result, state);
    placed |= ImGui::Checkbox("hinge limits", &o.use_limits);
    if (o.use_limits) {
      placed |= ImGui::DragFloatRange2("bend deg", &o.limits.min_deg, &o.limits.max_deg, 0.5f, 0.0f,
                                       180.0f);
    }
    placed |= ImGui::SliderFloat("soften", &o.soften, 0.0f, 1.0f, "%.2f");
    placed |= ImGui::SliderFloat("weight", &o.weight, 0.0f, 1.0f, "%.2f");
    // level: the sole keeps its pitch and roll (a foot's default), follow: it turns with the
    // shin, keep: its whole model rotation.
    int end_rotation = target.options.end_rotation == ik::EndRotation::kKeepModel ? 2
                       : target.options.level_end                                 ? 0
                                                                                  : 1;
    placed |= ImGui::Combo("end rotation", &end_rotation, "level\0follow\0keep model rotation\0");
    target.options.level_end = end_rotation == 0;
    target.options.end_rotation =
        end_rotation == 2 ? ik::EndRotation::kKeepModel : ik::EndRotation::kFollow;
    placed |= ImGui::Checkbox("solve from rest pose", &target.from_rest);
    ImGui::Checkbox("pinned", &target.pinned);
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("pinned: stays put when the body moves; else it moves with the body");
    }
    if (target.rung >= 0) {  // on a rung: a hand grips it, a foot stands on it
      ImGui::SameLine();
      ImGui::Checkbox(scene::IsLeg(limb) ? "stand on rung" : "grip rung", &target.grip);
    }
    ImGui::SliderFloat("pull body", &target.pull_body, 0.0f, 1.0f, "%.2f");
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("beyond reach: how far the clavicle, spine and pelvis help (0: not)");
    }
    if (placed) target.given = true;
    if (solved && ImGui::TreeNode("details")) {
      LimbDetails(result, m_per_unit);
      ImGui::TreePop();
    }
    ImGui::TreePop();
  }
  ImGui::PopID();
}

void BoneTree(const anim::Skeleton& skeleton, int bone, PanelState& state,
              const scene::PosingSession& session) {
  bool moved = false;
  for (anim::Limb limb : anim::kLimbs) {
    const anim::LimbChain& chain = session.chain(limb);
    if (session.target(limb).enabled && session.result(limb).ok &&
        (bone == chain.upper || bone == chain.lower)) {
      moved = true;
    }
  }
  const auto children = skeleton.Children(bone);
  ImGuiTreeNodeFlags flags = ImGuiTreeNodeFlags_OpenOnArrow | ImGuiTreeNodeFlags_DefaultOpen;
  if (children.empty()) flags |= ImGuiTreeNodeFlags_Leaf;
  if (bone == state.selected_bone) flags |= ImGuiTreeNodeFlags_Selected;
  const std::string label =
      skeleton.names[static_cast<std::size_t>(bone)] + (moved ? "  [IK]" : "");
  const bool open = ImGui::TreeNodeEx(reinterpret_cast<void*>(static_cast<intptr_t>(bone)), flags,
                                      "%s", label.c_str());
  if (ImGui::IsItemClicked()) state.selected_bone = bone;
  if (open) {
    for (int child : children) BoneTree(skeleton, child, state, session);
    ImGui::TreePop();
  }
}

// Numeric entry for the selected bone's turn: Euler degrees (XYZ) of its local rotation, and
// swing/twist from rest (twist about the bone's own axis, see SelectedBone). The body
// bone is turned by the body ring and the rings, so its numbers are read-only here.
void BoneTurnEntry(scene::PosingSession& session, PanelState& state, const glm::quat& rest,
                   const glm::vec3& bone_axis) {
  const int bone = state.selected_bone;
  const auto b = static_cast<std::size_t>(bone);
  const glm::quat q = session.pose().locals_ls[b].rotation;
  ImGui::BeginDisabled(bone == session.body_bone());
  glm::vec3 euler = glm::degrees(glm::eulerAngles(q));
  if (ImGui::DragFloat3("euler deg", &euler.x, 0.5f, -360.0f, 360.0f, "%.2f")) {
    session.SetBoneRotation(bone, glm::quat(glm::radians(euler)));
  }
  if (glm::length(bone_axis) > 0.0f) {
    const glm::vec3 axis = glm::normalize(bone_axis);
    const ik::SwingTwist st = ik::DecomposeSwingTwist(glm::inverse(rest) * q, axis);
    float swing_deg = glm::degrees(st.swing_angle_rad);
    float twist_deg = glm::degrees(st.twist_angle_rad);
    const ik::AxisAngle swing = ik::ToAxisAngle(st.swing);
    bool edited = ImGui::DragFloat("swing deg", &swing_deg, 0.5f, 0.0f, 180.0f, "%.2f");
    edited |= ImGui::DragFloat("twist deg", &twist_deg, 0.5f, -180.0f, 180.0f, "%.2f");
    if (edited) {
      // With no swing yet its axis is undefined: start one perpendicular to the bone.
      const glm::vec3 swing_axis =
          st.swing_angle_rad > 1e-6f ? swing.axis : ik::AnyPerpendicular(axis);
      const glm::quat new_swing = glm::angleAxis(glm::radians(swing_deg), swing_axis);
      session.SetBoneRotation(bone,
                              rest * new_swing * glm::angleAxis(glm::radians(twist_deg), axis));
    }
  }
  ImGui::EndDisabled();
  ImGui::Checkbox("rings on the bone's axes (off: model axes)", &state.ring_local_axes);
  if (ImGui::Button("reset bone") && b < session.edits.bone_turns_ls.size()) {
    state.commands.push_back(cmd::ResetBoneTurn{state.selected_bone});
  }
  SameLineIfFits("reset all turns");
  ImGui::BeginDisabled(!session.HasBoneTurns());
  if (ImGui::Button("reset all turns")) state.commands.push_back(cmd::ResetBoneTurns{});
  ImGui::EndDisabled();
}

void SelectedBone(scene::PosingSession& session, PanelState& state) {
  const anim::Skeleton& skeleton = session.model().skeleton;
  if (state.selected_bone < 0 || state.selected_bone >= skeleton.size()) {
    ImGui::TextDisabled("click a joint or a bone in the tree");
    return;
  }
  const auto b = static_cast<std::size_t>(state.selected_bone);
  const glm::quat q = session.pose().locals_ls[b].rotation;
  const glm::quat rest = session.rest_pose().locals_ls[b].rotation;
  const glm::quat delta = glm::inverse(rest) * q;
  ImGui::Text("%s", skeleton.names[b].c_str());
  ImGui::Text("rotation_ls xyzw %.4f %.4f %.4f %.4f", static_cast<double>(q.x),
              static_cast<double>(q.y), static_cast<double>(q.z), static_cast<double>(q.w));
  ImGui::Text("from rest: %.2f deg", static_cast<double>(glm::degrees(glm::angle(delta))));
  const auto children = skeleton.Children(state.selected_bone);
  // The bone's own axis toward its first child; a leaf (a head, a finger tip) continues the
  // line from its parent, seen in its rest frame.
  const anim::Transform& rest_ls = session.rest_pose().locals_ls[b];
  const glm::vec3 axis =
      children.empty()
          ? glm::inverse(rest_ls.rotation) * rest_ls.translation
          : session.pose().locals_ls[static_cast<std::size_t>(children[0])].translation;
  BoneTurnEntry(session, state, rest, axis);
  Vec3Row("position_ms", anim::PositionMs(session.pose(), state.selected_bone));
}

// "undo move left_leg target" and "redo ...", greyed out when there is nothing to take back or
// re-apply; the redo button goes on the next line when both labels are long.
void UndoRow(const scene::UndoHistory& history, PanelState& state) {
  const auto steps = [](int n) { return std::to_string(n) + (n == 1 ? " step" : " steps"); };
  const std::string undo = history.CanUndo() ? "undo " + history.undo_label() : "undo";
  const std::string redo = history.CanRedo() ? "redo " + history.redo_label() : "redo";
  ImGui::BeginDisabled(!history.CanUndo());
  if (ImGui::Button((undo + "###undo").c_str())) state.commands.push_back(cmd::Undo{});
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::SetTooltip("Ctrl+Z (%s back)", steps(history.undo_steps()).c_str());
  }
  const ImGuiStyle& style = ImGui::GetStyle();
  const float redo_width = ImGui::CalcTextSize(redo.c_str()).x + 2.0f * style.FramePadding.x;
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (ImGui::GetItemRectMax().x + style.ItemSpacing.x + redo_width <= right) ImGui::SameLine();
  ImGui::BeginDisabled(!history.CanRedo());
  if (ImGui::Button((redo + "###redo").c_str())) state.commands.push_back(cmd::Redo{});
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) {
    ImGui::SetTooltip("Ctrl+Shift+Z or Ctrl+Y (%s ahead)", steps(history.redo_steps()).c_str());
  }
}

// The rest symmetry check, the live mirror (as Blender's X-axis mirror) and flip.
void MirrorSection(const scene::PosingSession& session, PanelState& state) {
  const anim::MirrorMap& map = session.mirror_map();
  const float m_per_unit = anim::MetersPerUnit(session.model());
  if (map.symmetric()) {
    ImGui::TextColored(ImVec4(0.4f, 0.9f, 0.45f, 1), "rest symmetric");
    ImGui::SameLine();
    ImGui::TextDisabled("(%d pairs by name, %d by structure, within %s)", map.pairs_by_name,
                        map.pairs_by_structure, Length(map.tolerance, m_per_unit).c_str());
  } else {
    // Mirrored anyway (see anim/mirror.h): the ends land off by about these distances.
    ImGui::TextColored(ImVec4(1, 0.75f, 0.2f, 1), "rest not symmetric: %d bone(s); mirrors anyway",
                       static_cast<int>(map.asymmetric.size()));
    const std::vector<std::string>& names = session.model().skeleton.names;
    for (const anim::AsymmetricBone& a : map.asymmetric) {
      const std::string& bone = names[static_cast<std::size_t>(a.bone)];
      const std::string pair = a.counterpart == a.bone
                                   ? bone + " (no counterpart)"
                                   : bone + " / " + names[static_cast<std::size_t>(a.counterpart)];
      ImGui::BulletText("%s off by %s", pair.c_str(), Length(a.off, m_per_unit).c_str());
    }
  }
  const anim::MirrorMode mode = session.edits.mirror;
  ImGui::TextUnformatted("mirror while editing");
  const std::pair<const char*, anim::MirrorMode> live[] = {
      {"off", anim::MirrorMode::kOff},
      {"left to right", anim::MirrorMode::kLeftToRight},
      {"right to left", anim::MirrorMode::kRightToLeft}};
  for (std::size_t i = 0; i < std::size(live); ++i) {
    if (i > 0) SameLineIfFits(live[i].first, true);
    if (ImGui::RadioButton(live[i].first, mode == live[i].second) && mode != live[i].second) {
      state.commands.push_back(cmd::SetMirror{live[i].second});
    }
    Shown(state, live[i].first);
  }
  bool flip = mode == anim::MirrorMode::kFlip;
  if (ImGui::Checkbox("flip the whole pose", &flip)) state.commands.push_back(cmd::ToggleFlip{});
  Shown(state, "flip the whole pose");
  if (mode != anim::MirrorMode::kOff) {
    ImGui::TextDisabled(mode == anim::MirrorMode::kFlip
                            ? "flipped: turn flip off to drag the targets"
                            : "the mirrored side's targets follow the mirror (not draggable)");
  }
}

// Baking the situation on screen into an animation file, with a progress bar while it runs.
void BakeSection(PanelState& state) {
  BakePanel& bake = state.bake;
  ImGui::TextDisabled("the clip as posed on screen, to a .glb");
  if (bake.progress >= 0.0f) {
    const std::string label = std::to_string(static_cast<int>(bake.progress * 100.0f)) + "% of " +
                              std::to_string(bake.frames) + " frames";
    ImGui::ProgressBar(bake.progress, ImVec2(-1.0f, 0.0f), label.c_str());
    if (ImGui::Button("cancel bake")) state.commands.push_back(cmd::CancelBake{});
    return;
  }
  ImGui::InputFloat("fps", &bake.fps, 1.0f, 10.0f, "%.0f");
  bake.fps = std::clamp(bake.fps, 1.0f, 1000.0f);
  ImGui::Checkbox("lock left foot", &bake.lock_left_foot);
  SameLineIfFits("lock right foot", true);
  ImGui::Checkbox("lock right foot", &bake.lock_right_foot);
  if (ImGui::Button("bake clip (Ctrl+B)")) state.commands.push_back(BakeCommand(bake));
}

// The ready poses as pictures with their names, flowing to the panel's width; a click applies
// one (from the rest pose).
void ReadyPosesSection(PanelState& state) {
  ImGui::TextWrapped("placed from this rig's own proportions; a click poses the character");
  constexpr float kSide = 72.0f;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  for (std::size_t i = 0; i < scene::kReadyPoses.size(); ++i) {
    const char* name = scene::ReadyPoseName(scene::kReadyPoses[i]);
    const float width = std::max(kSide, ImGui::CalcTextSize(name).x) + 2.0f * style.FramePadding.x;
    if (i > 0 && ImGui::GetItemRectMax().x + style.ItemSpacing.x + width <= right) {
      ImGui::SameLine();
    }
    ImGui::PushID(static_cast<int>(i));
    ImGui::BeginGroup();
    bool clicked = false;
    if (void* texture = state.ready.thumbnails[i]) {
      clicked = ImGui::ImageButton(texture, ImVec2(kSide, kSide));
    } else {
      clicked = ImGui::Button(
          "...", ImVec2(kSide + 2.0f * style.FramePadding.x, kSide + 2.0f * style.FramePadding.y));
    }
    ImGui::TextUnformatted(name);
    ImGui::EndGroup();
    Shown(state, name);  // the picture and its name, for the window tests
    ImGui::PopID();
    if (clicked) {
      state.ready.chosen = static_cast<int>(i);
      state.commands.push_back(cmd::ApplyReadyPose{scene::kReadyPoses[i]});
    }
  }
  if (!state.ready.note.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kBad);
    ImGui::TextWrapped("%s", state.ready.note.c_str());
    ImGui::PopStyleColor();
  }
}

// The screenshot (F12): size and background; the view's field of view.
// The slice's switch, its limb, its legend (the colours drawn) and the last grid's numbers.
void StabilitySection(const scene::PosingSession& session, PanelState& state) {
  StabilityPanel& panel = state.stability;
  ImGui::Checkbox("show around the target (U)", &panel.shown);
  if (ImGui::BeginCombo("limb", std::string(anim::LimbName(panel.limb)).c_str())) {
    for (anim::Limb limb : anim::kLimbs) {
      if (!session.target(limb).available) continue;
      if (ImGui::Selectable(std::string(anim::LimbName(limb)).c_str(), limb == panel.limb)) {
        panel.limb = limb;
      }
    }
    ImGui::EndCombo();
  }
  ImGui::TextDisabled("knee motion per unit of target motion:");
  const ImGuiColorEditFlags swatch = ImGuiColorEditFlags_NoTooltip | ImGuiColorEditFlags_NoPicker;
  char label[64];
  for (std::size_t band = 0; band < std::size(scene::kBandColors); ++band) {
    glm::vec4 color = scene::kBandColors[band];
    color.a = 1.0f;
    ImGui::ColorButton(("##band" + std::to_string(band)).c_str(), ToImVec4(color), swatch);
    ImGui::SameLine();
    if (band == 0) {
      std::snprintf(label, sizeof label, "under %g",
                    static_cast<double>(scene::kSensitivityBands[0]));
    } else if (band < std::size(scene::kSensitivityBands)) {
      std::snprintf(label, sizeof label, "%g-%g",
                    static_cast<double>(scene::kSensitivityBands[band - 1]),
                    static_cast<double>(scene::kSensitivityBands[band]));
    } else {
      std::snprintf(label, sizeof label, "%g and over (pops)",
                    static_cast<double>(scene::kSensitivityBands[band - 1]));
    }
    ImGui::TextUnformatted(label);
  }
  const std::pair<const char*, glm::vec4> lines[] = {
      {"knee flips side (line)", scene::kFlipLineColor},
      {"reach runs out (line)", scene::kReachLineColor},
      {"beyond reach", glm::vec4(glm::vec3(scene::kReachOutColor), 1.0f)}};
  for (const auto& [text, color] : lines) {
    ImGui::ColorButton(text, ToImVec4(color), swatch);
    ImGui::SameLine();
    ImGui::TextUnformatted(text);
  }
  if (!panel.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kBad);
    ImGui::TextWrapped("%s", panel.error.c_str());
    ImGui::PopStyleColor();
  }
  if (panel.measured) {
    ImGui::TextWrapped("%dx%d targets %.3f apart; max %.1f; %d flip and %d reach edges%s",
                       panel.cells, panel.cells, static_cast<double>(panel.spacing),
                       static_cast<double>(panel.max_sensitivity), panel.flip_edges,
                       panel.reach_edges, panel.measuring ? " (measuring...)" : "");
  } else if (panel.measuring) {
    ImGui::TextDisabled("measuring...");
  }
}

void PictureSection(PanelState& state) {
  PicturePanel& picture = state.picture;
  ImGui::SliderFloat("field of view", &picture.fov_y_deg, 10.0f, 100.0f, "%.0f deg");
  Shown(state, "field of view");
  ImGui::Checkbox("window size", &picture.window_size);
  Shown(state, "window size");
  if (!picture.window_size) {
    ImGui::InputInt("width", &picture.width, 16, 256);
    ImGui::InputInt("height", &picture.height, 16, 256);
    picture.width = std::clamp(picture.width, 16, 8192);
    picture.height = std::clamp(picture.height, 16, 8192);
  }
  ImGui::Checkbox("transparent background", &picture.transparent);
  if (ImGui::Button("screenshot (F12)")) state.commands.push_back(ScreenshotCommand(picture));
  ImGui::Separator();
  ImGui::TextWrapped("reference image behind the character (PNG or JPEG; or drop one here)");
  char path[1024];
  std::snprintf(path, sizeof path, "%s", picture.reference_path.c_str());
  if (ImGui::InputText("file", path, sizeof path)) picture.reference_path = path;
  if (ImGui::Button("show image"))
    state.commands.push_back(cmd::LoadReference{picture.reference_path});
  if (picture.reference_shown) {
    if (FlowButton("remove")) state.commands.push_back(cmd::ClearReference{});
    int side = picture.reference_side ? 1 : 0;
    ImGui::RadioButton("front", &side, 0);
    SameLineIfFits("side", true);
    ImGui::RadioButton("side", &side, 1);
    picture.reference_side = side == 1;
    ImGui::SliderFloat("opacity", &picture.reference_opacity, 0.05f, 1.0f, "%.2f");
  }
}

}  // namespace

cmd::BakeClip BakeCommand(const BakePanel& bake) {
  return {bake.fps, bake.lock_left_foot, bake.lock_right_foot};
}

cmd::Screenshot ScreenshotCommand(const PicturePanel& picture) {
  return {picture.window_size, picture.width, picture.height, picture.transparent};
}

const char* ReachLabel(ik::Reach reach) {
  switch (reach) {
    case ik::Reach::kReachable:
      return "reachable";
    case ik::Reach::kTooFar:
      return "too far";
    case ik::Reach::kTooClose:
      return "too close";
  }
  return "?";
}

void Shown(PanelState& state, const char* label) {
  const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
  state.shown_px[label] = {min.x, min.y, max.x, max.y};
}

void DrawMainPanel(scene::PosingSession* session, PanelState& state) {
  // Docked to the left at the window's full height; its width is the user's (dragging its
  // right edge), and the app centres the model in what it leaves free.
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  const float widest = std::max(240.0f, 0.7f * display.x);
  ImGui::SetNextWindowPos(ImVec2(0, 0), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(std::min(420.0f, std::max(240.0f, 0.45f * display.x)), display.y),
                           ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSizeConstraints(ImVec2(240.0f, display.y), ImVec2(widest, display.y));
  ImGui::Begin("ikpose", nullptr, ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoCollapse);
  state.width = ImGui::GetWindowWidth();
  state.shown_px.clear();
  // Widgets leave room for their labels, so a narrow panel shortens the widget, not the label.
  ImGui::PushItemWidth(-ImGui::GetFontSize() * 8.0f);
  ImGui::TextWrapped("%s%s", state.model_label.c_str(), state.unsaved ? "  (unsaved edits)" : "");
  if (!state.restore_offer.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kWarn);
    ImGui::TextWrapped("%s", state.restore_offer.c_str());
    ImGui::PopStyleColor();
    if (ImGui::Button("restore it")) state.commands.push_back(cmd::AnswerAutosave{true});
    Shown(state, "restore it");
    if (FlowButton("discard it")) state.commands.push_back(cmd::AnswerAutosave{false});
    Shown(state, "discard it");
  }
  if (!state.status.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, state.status_ok ? kGood : kBad);
    ImGui::TextWrapped("%s", state.status.c_str());
    ImGui::PopStyleColor();
  }
  // A prop or ladder far off the character's size, where it cannot be missed (the same lines
  // `pose` and `render` print).
  if (session != nullptr) {
    const std::vector<scene::SizeWarning> warnings = scene::SizeWarnings(*session);
    for (std::size_t i = 0; i < warnings.size(); ++i) {
      ImGui::PushStyleColor(ImGuiCol_Text, kWarn);
      ImGui::TextWrapped("%s", warnings[i].text.c_str());
      ImGui::PopStyleColor();
      Shown(state, ("size warning " + std::to_string(i)).c_str());
    }
  }
  if (session == nullptr) {
    ImGui::PopItemWidth();
    ImGui::End();
    return;
  }
  if (state.history != nullptr) UndoRow(*state.history, state);
  if (Header(state, "Limbs", ImGuiTreeNodeFlags_DefaultOpen)) {
    for (anim::Limb limb : anim::kLimbs) LimbSection(*session, limb, state);
    if (ImGui::Button("targets to hands and feet")) state.commands.push_back(cmd::ResetTargets{});
    if (FlowButton("frame model (F)")) state.commands.push_back(cmd::FrameModel{});
    if (FlowButton("save scene")) state.commands.push_back(cmd::SaveScene{});
    if (FlowButton("load scene")) state.commands.push_back(cmd::LoadScene{});
    Shown(state, "load scene");
    if (FlowButton("export pose (E)")) state.commands.push_back(cmd::ExportPose{});
  }
  if (ImGui::CollapsingHeader("Body")) {
    ImGui::TextDisabled("drag the pelvis handle; pinned targets hold");
    ImGui::Checkbox("body helps the limbs", &session->edits.body_help);
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip(
          "a limb that cannot reach draws the clavicle, spine, then pelvis; four contacts "
          "place the pelvis");
    }
    const scene::BodyHelpReport& help = session->body_help_report();
    if (help.moved_pelvis() || !help.bones.empty()) {
      ImGui::TextDisabled("helped: pelvis %.3f, tilted %.0f deg, %d bone(s)",
                          static_cast<double>(glm::length(help.pelvis_offset_ms)),
                          static_cast<double>(help.pelvis_tilt_deg),
                          static_cast<int>(help.bones.size()));
    }
    ImGui::Checkbox("joints stop at their range", &session->edits.limits);
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip(
          "FK rings, grabs and limb solves keep each joint within its natural range; a grabbed "
          "head or spine bends over its neck or spine bones");
    }
    for (const scene::JointAtLimit& joint : session->joints_at_limit()) {
      ImGui::TextColored(ImVec4(1.0f, 0.75f, 0.3f, 1.0f), "%s",
                         scene::LimitSentence(session->model(), joint).c_str());
    }
    scene::BodyMove& body = session->edits.body;
    ImGui::DragFloat3("offset", &body.offset_ms.x, state.model_height * 0.002f, 0, 0, "%.3f");
    glm::vec3 euler = glm::degrees(glm::eulerAngles(body.turn_ms));
    if (ImGui::DragFloat3("turn deg", &euler.x, 0.5f, -180.0f, 180.0f, "%.1f")) {
      body.turn_ms = glm::quat(glm::radians(euler));
    }
    if (ImGui::Button("reset body")) state.commands.push_back(cmd::ResetBody{});
  }
  if (Header(state, "Mirror")) MirrorSection(*session, state);
  if (ImGui::CollapsingHeader("Bake clip")) BakeSection(state);
  if (ImGui::CollapsingHeader("View")) {
    const std::pair<const char*, ViewSide> views[] = {
        {"front (1)", ViewSide::kFront}, {"back (^1)", ViewSide::kBack},
        {"right (3)", ViewSide::kRight}, {"left (^3)", ViewSide::kLeft},
        {"top (7)", ViewSide::kTop},     {"bottom (^7)", ViewSide::kBottom}};
    for (std::size_t i = 0; i < std::size(views); ++i) {
      if (i % 3 != 0) SameLineIfFits(views[i].first);
      if (ImGui::Button(views[i].first)) state.commands.push_back(cmd::LookFrom{views[i].second});
    }
    if (ImGui::Button("perspective / orthographic (5)")) {
      state.commands.push_back(cmd::ToggleOrthographic{});
    }
    ImGui::Checkbox("side view in the corner (0)", &state.corner_view);
  }
  if (state.stability.shown) ImGui::SetNextItemOpen(true, ImGuiCond_Once);
  if (ImGui::CollapsingHeader("Where it will pop")) StabilitySection(*session, state);
  if (ImGui::CollapsingHeader("Overlays")) {
    ImGui::Checkbox("skeleton", &state.overlays.skeleton);
    SameLineIfFits("targets", true);
    ImGui::Checkbox("targets", &state.overlays.targets);
    SameLineIfFits("knee circles", true);
    ImGui::Checkbox("knee circles", &state.overlays.circles);
    ImGui::Checkbox("reach shells", &state.overlays.reach_shells);
  }
  const anim::Model& model = session->model();
  if (ImGui::CollapsingHeader("Clip")) {
    scene::ClipPlayback& playback = session->edits.playback;
    std::string preview =
        playback.clip < 0 ? "rest pose" : model.clips[static_cast<std::size_t>(playback.clip)].name;
    if (ImGui::BeginCombo("clip", preview.c_str())) {
      if (ImGui::Selectable("rest pose", playback.clip < 0)) playback.clip = -1;
      for (std::size_t i = 0; i < model.clips.size(); ++i) {
        const std::string label =
            model.clips[i].name.empty() ? "clip " + std::to_string(i) : model.clips[i].name;
        if (ImGui::Selectable(label.c_str(), playback.clip == static_cast<int>(i))) {
          playback.clip = static_cast<int>(i);
          playback.time = 0.0f;
        }
      }
      ImGui::EndCombo();
    }
    if (playback.clip >= 0) {
      const float duration = model.clips[static_cast<std::size_t>(playback.clip)].duration;
      ImGui::Checkbox("play", &playback.playing);
      ImGui::SameLine();
      ImGui::SetNextItemWidth(120);
      ImGui::SliderFloat("speed", &playback.speed, 0.0f, 2.0f, "%.2fx");
      ImGui::SliderFloat("time", &playback.time, 0.0f, duration, "%.3f s");
    }
  }
  if (ImGui::CollapsingHeader("Ladder")) {
    scene::Ladder& ladder = session->edits.ladder;
    ImGui::Checkbox("show ladder", &session->edits.ladder_enabled);
    SameLineIfFits("follow the clip", true);
    ImGui::Checkbox("follow the clip", &session->edits.ladder_follows_clip);
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip("a clip climbing in place scrolls the rungs; hands and feet snap to them");
    }
    const float h = state.model_height;
    ImGui::DragFloat3("base", &ladder.base_ms.x, h * 0.002f, 0, 0, "%.3f");
    ImGui::DragFloat("rung spacing", &ladder.rung_spacing, h * 0.001f, h * 0.05f, h, "%.3f");
    ImGui::DragInt("rung count", &ladder.rung_count, 0.2f, 1, 100);
    ImGui::DragFloat("rail width", &ladder.rail_width, h * 0.001f, h * 0.05f, h, "%.3f");
    ImGui::DragFloat("rung radius", &ladder.rung_radius, h * 0.0002f, 0.0f, h * 0.05f, "%.4f");
    ImGui::DragFloat("first rung", &ladder.first_rung_height, h * 0.001f, 0.0f, h, "%.3f");
    ImGui::DragFloat("turn", &ladder.yaw_deg, 0.5f, -180.0f, 180.0f, "%.1f deg");
    if (ImGui::Button("snap to rungs")) state.commands.push_back(cmd::SnapToRungs{});
    if (FlowButton("fit body")) state.commands.push_back(cmd::FitBodyToLadder{});
    if (FlowButton("step up")) state.commands.push_back(cmd::StepRungs{+1});
    if (FlowButton("step down")) state.commands.push_back(cmd::StepRungs{-1});
  }
  if (Header(state, "Props")) DrawPropsSection(*session, state);
  state.ready.shown = Header(state, "Ready poses");
  if (state.ready.shown) ReadyPosesSection(state);
  state.library.shown = state.library.library != nullptr && Header(state, "Pose library");
  if (state.library.shown) DrawLibrarySection(*session, state);
  if (ImGui::CollapsingHeader("Hands")) DrawHandsSection(*session, state);
  if (ImGui::CollapsingHeader("Bones")) {
    SelectedBone(*session, state);
    ImGui::Separator();
    ImGui::BeginChild("tree", ImVec2(0, 220), true);
    for (int i = 0; i < model.skeleton.size(); ++i) {
      if (model.skeleton.parents[static_cast<std::size_t>(i)] < 0)
        BoneTree(model.skeleton, i, state, *session);
    }
    ImGui::EndChild();
  }
  if (Header(state, "Picture")) PictureSection(state);
  if (ImGui::CollapsingHeader("About")) {
    ImGui::TextWrapped("renderer: %s", state.renderer.c_str());
    ImGui::Text("frame %.2f ms CPU, %.2f ms GPU", static_cast<double>(state.frame_ms_cpu),
                static_cast<double>(state.frame_ms_gpu));
    ImGui::TextDisabled("N hides this panel; Ctrl+Q quits");
  }
  state.overlays.selected_bone = state.selected_bone;
  ImGui::PopItemWidth();
  ImGui::End();
}

void DrawQuitQuestion(PanelState& state, const std::string& scene_path) {
  constexpr const char* kTitle = "Quit ikpose?";
  if (!ImGui::IsPopupOpen(kTitle)) ImGui::OpenPopup(kTitle);
  const ImVec2 display = ImGui::GetIO().DisplaySize;
  ImGui::SetNextWindowPos(ImVec2(display.x * 0.5f, display.y * 0.5f), ImGuiCond_Always,
                          ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(std::min(460.0f, display.x - 20.0f), 0.0f));
  if (!ImGui::BeginPopupModal(kTitle, nullptr, ImGuiWindowFlags_NoResize)) return;
  ImGui::TextWrapped("The pose has edits that are not saved. Save them to %s before quitting?",
                     scene_path.c_str());
  if (ImGui::Button("save and quit (S)"))
    state.commands.push_back(cmd::AnswerQuit{QuitAnswer::kSaveAndQuit});
  if (FlowButton("quit without saving (D)"))
    state.commands.push_back(cmd::AnswerQuit{QuitAnswer::kQuitWithoutSaving});
  if (FlowButton("cancel (Esc)")) state.commands.push_back(cmd::AnswerQuit{QuitAnswer::kStayOpen});
  ImGui::EndPopup();
}

std::string PlainLimbSentence(anim::Limb limb, const anim::ChainSolveResult& result,
                              const glm::vec3& forward_ms, const glm::vec3& up_ms,
                              float meters_per_unit) {
  const bool leg = scene::IsLeg(limb);
  const bool left = limb == anim::Limb::kLeftLeg || limb == anim::Limb::kLeftArm;
  const char* joint = leg ? "knee" : "elbow";
  const ik::PositionsReport& p = result.report.positions;
  const float limb_length = p.length_ab + p.length_bc;
  std::string sentence;
  // The knee's offset from the line hip -> end, against the character's own directions seen
  // across that line: a knee bends forward naturally, an elbow backward.
  const glm::vec3 along = result.end_ms - result.hip_ms;
  const float span = glm::length(along);
  const glm::vec3 axis = span > 0.0f ? along / span : up_ms;
  const auto across = [&](const glm::vec3& v) { return v - glm::dot(v, axis) * axis; };
  const glm::vec3 bend = across(result.knee_ms - result.hip_ms);
  // The natural direction: the knee policy's own (swung with the limb: an arm raised overhead
  // bends its elbow another way than a hanging one) when the solve used it, else forward for a
  // knee and back for an elbow.
  const bool swung = result.swivel.valid && glm::length(across(result.swivel.natural_ms)) > 1e-4f;
  const glm::vec3 natural =
      swung ? across(result.swivel.natural_ms) : across(leg ? forward_ms : -forward_ms);
  const glm::vec3 outward = across(glm::cross(up_ms, forward_ms) * (left ? 1.0f : -1.0f));
  // A direction in the character's own words.
  const auto word = [&](const glm::vec3& d) {
    const float f = glm::dot(d, forward_ms), u = glm::dot(d, up_ms);
    if (std::abs(u) > std::abs(f)) return u > 0.0f ? "up" : "down";
    return f > 0.0f ? "forward" : (leg ? "backward" : "back");
  };
  if (glm::length(bend) < 0.01f * limb_length || glm::length(natural) < 1e-4f) {
    sentence = std::string(leg ? "leg" : "arm") + " straight";
  } else {
    const glm::vec3 b = glm::normalize(bend), n = glm::normalize(natural);
    const float from_natural = glm::degrees(std::acos(std::clamp(glm::dot(b, n), -1.0f, 1.0f)));
    const char* side = glm::dot(b, outward) >= 0.0f ? "out" : "in";
    const char* way = swung ? word(n) : (leg ? "forward" : "back");
    char text[128];
    if (from_natural < 2.0f) {
      std::snprintf(text, sizeof text, "%s points straight %s", joint, way);
    } else if (from_natural <= 100.0f) {
      std::snprintf(text, sizeof text, "%s points %s, %.0f deg %s", joint, way,
                    static_cast<double>(from_natural), side);
    } else {
      std::snprintf(text, sizeof text, "%s points %s, against its bend (%.0f deg %s)", joint,
                    swung ? word(b) : (leg ? "backward" : "forward"),
                    static_cast<double>(from_natural), side);
    }
    sentence = text;
  }
  const float gap = limb_length - span;
  if (result.output.reach == ik::Reach::kTooFar) {
    const float beyond = glm::length(result.end_target_ms - result.hip_ms) - limb_length;
    sentence +=
        "; target " + PlainLength(std::max(beyond, 0.0f), meters_per_unit) + " out of reach";
  } else if (gap <= 0.001f * limb_length) {
    sentence += "; fully stretched";
  } else {
    sentence += "; " + PlainLength(gap, meters_per_unit) + " from full stretch";
  }
  return sentence;
}

}  // namespace ikpose::ui
