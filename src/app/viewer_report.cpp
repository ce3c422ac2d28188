// The report `--report FILE` writes when the viewer ends: the pose report of the pose drawn
// (exactly what `ikpose pose --json` prints for the same request), and for a window also its
// own state under "viewer": every limb's target, end and where its handle is on screen (tests
// drag from there), the undo history and the start-up time.
#include "anim/atomic_file.h"
#include "app/pose_report.h"
#include "app/viewer_state.h"

namespace ikpose::app {

namespace {

asset::Json WindowState(const ViewerState& state) {
  const scene::PosingSession& session = *state.loaded.session;
  int window_w = 0, window_h = 0;
  SDL_GetWindowSize(state.window->sdl_window(), &window_w, &window_h);
  asset::Json limbs = asset::Json::object();
  for (anim::Limb limb : anim::kLimbs) {
    const scene::LimbTarget& t = session.target(limb);
    if (!t.available) continue;
    const anim::ChainSolveResult& r = session.result(limb);
    const glm::vec3 end = anim::EndPositionMs(session.chain(limb), session.pose());
    asset::Json c = {{"target", asset::ToJson(t.target_ms)},
                     {"end", asset::ToJson(end)},
                     {"enabled", t.enabled},
                     {"given", t.given},
                     {"error", glm::length(end - t.target_ms)}};
    if (r.ok) c["reach"] = std::string(ik::ReachName(r.output.reach));
    // Where the handle is on screen, in window pixels (top-left origin).
    const glm::vec3 px = state.camera.Project(t.target_ms, static_cast<float>(window_w),
                                              static_cast<float>(window_h));
    c["target_px"] = {px.x, px.y};
    limbs[std::string(anim::LimbName(limb))] = c;
  }
  // Every joint on screen, so tests can grab the body between two joints.
  const anim::Skeleton& skeleton = session.model().skeleton;
  asset::Json bones_px = asset::Json::object();
  for (int bone = 0; bone < skeleton.size(); ++bone) {
    const glm::vec3 px =
        state.camera.Project(anim::PositionMs(session.pose(), bone), static_cast<float>(window_w),
                             static_cast<float>(window_h));
    bones_px[skeleton.names[static_cast<std::size_t>(bone)]] = {px.x, px.y};
  }
  // Each prop's middle on screen (window pixels), in the scenario's order.
  asset::Json props_px = asset::Json::array();
  if (session.edits.world) {
    for (const scene::Prop& prop : session.edits.world->props()) {
      std::vector<glm::vec3> vertices_ms;
      std::vector<std::uint32_t> indices;
      scene::AppendPropTriangles(prop, &vertices_ms, &indices);
      glm::vec3 lo(1e30f), hi(-1e30f);
      for (const glm::vec3& v : vertices_ms) {
        lo = glm::min(lo, v);
        hi = glm::max(hi, v);
      }
      const glm::vec2 px = state.camera.Project(0.5f * (lo + hi), static_cast<float>(window_w),
                                                static_cast<float>(window_h));
      props_px.push_back({px.x, px.y});
    }
  }
  // The selected prop's turn ring on screen: its points at every eighth of a turn, from the
  // axis's +X round as a positive yaw turns (a drag from one to the next turns the prop 45
  // degrees).
  asset::Json prop_ring_px = asset::Json::array();
  const int selected = state.panel.props.selected;
  if (session.edits.world && selected >= 0 &&
      selected < static_cast<int>(session.edits.world->props().size())) {
    const PropRing ring = PropTurnRing(
        session.edits.world->props()[static_cast<std::size_t>(selected)], state.loaded.height);
    for (int i = 0; i < 8; ++i) {
      const glm::vec2 px =
          state.camera.Project(PropRingPoint(ring, glm::radians(45.0f * static_cast<float>(i))),
                               static_cast<float>(window_w), static_cast<float>(window_h));
      prop_ring_px.push_back({px.x, px.y});
    }
  }
  const auto bone_name = [&](int bone) {
    return bone >= 0 && bone < skeleton.size() ? skeleton.names[static_cast<std::size_t>(bone)]
                                               : std::string();
  };
  const scene::UndoHistory& history = state.history;
  asset::Json startup = asset::Json::array();
  for (const auto& [step, ms] : state.startup_ms) startup.push_back({step, ms});
  return {
      {"startup_ms", startup},
      {"model", state.loaded.path},
      {"height", state.loaded.height},
      {"first_frame_ms", state.first_frame_ms},
      {"limbs", limbs},
      {"camera",
       {{"yaw_deg", state.camera.yaw_deg},
        {"pitch_deg", state.camera.pitch_deg},
        {"orthographic", state.camera.orthographic},
        {"facing_yaw_deg", FacingYawDeg(state)}}},
      {"corner_view", state.panel.corner_view},
      {"panel_shown", !state.panel_hidden},
      {"fov_y_deg", state.camera.fov_y_deg},
      {"picture",
       {{"window_size", state.panel.picture.window_size},
        {"width", state.panel.picture.width},
        {"height", state.panel.picture.height}}},
      {"unsaved_edits", UnsavedEdits(state)},
      {"restore_offered", !state.safety.restore_offer.empty()},
      {"status", state.panel.status},
      {"status_ok", state.panel.status == state.done_status && !state.done_status.empty()},
      {"bones_px", bones_px},
      {"props_px", props_px},
      {"selected_prop", selected},
      {"prop_ring_px", prop_ring_px},
      {"panel_px", state.panel_hidden ? asset::Json::object() : asset::Json(state.panel.shown_px)},
      {"selected_bone", bone_name(state.panel.selected_bone)},
      {"hover_bone", bone_name(state.hover_bone)},
      {"history",
       {{"undo_steps", history.undo_steps()},
        {"redo_steps", history.redo_steps()},
        {"undo_label", history.undo_label()},
        {"redo_label", history.redo_label()}}}};
}

}  // namespace

bool WriteViewerReport(const ViewerState& state, std::string* error) {
  asset::Json report = SessionReport(*state.loaded.session);
  if (!state.options.offscreen) {
    report["viewer"] = WindowState(state);
    report["viewer"]["bake"] = {{"running", state.bake.baker != nullptr},
                                {"last_file", state.bake.last_file},
                                {"frames", state.bake.last_frames}};
  }
  if (state.timeline.visible) report["viewer"]["timeline"] = TimelineReport(state);
  if (state.link.receiver) report["viewer"]["link"] = LinkReport(state);
  if (asset::Json stability = StabilityReport(state); !stability.is_null()) {
    report["stability"] = std::move(stability);
  }
  return anim::WriteFileAtomically(
      state.options.report_path,
      report.dump(2, ' ', false, asset::Json::error_handler_t::replace) + "\n", error);
}

}  // namespace ikpose::app
