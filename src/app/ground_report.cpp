#include "app/ground_report.h"

#include <cstdio>

#include "scene/session/world_scale.h"

namespace ikpose::app {

namespace {

// What a penetration's or a foot's prop index names: a prop's file, else the ladder.
std::string PropName(const scene::PosingSession& session, int prop) {
  const std::string path = session.PropPath(prop);
  return path.empty() ? "ladder" : path;
}

}  // namespace

void AddWorldReport(const scene::PosingSession& session, asset::Json& report) {
  const scene::GroundReport& ground = session.ground_report();
  const anim::Skeleton& skeleton = session.model().skeleton;
  if (session.edits.world) {
    asset::Json props = asset::Json::array();
    for (const scene::Prop& prop : session.edits.world->props()) {
      props.push_back({{"file", prop.path},
                       {"position_ms", asset::ToJson(prop.placement.position_ms)},
                       {"yaw_deg", asset::Clean(prop.placement.yaw_deg)},
                       {"scale", asset::Clean(prop.placement.scale)}});
    }
    report["props"] = props;
  }
  if (ground.active) {
    asset::Json feet = asset::Json::object();
    for (anim::Limb limb : {anim::Limb::kLeftLeg, anim::Limb::kRightLeg}) {
      const scene::FootContact& f = ground.feet[static_cast<std::size_t>(limb)];
      asset::Json foot = {{"contact", f.contact}};
      if (f.lifted > 0.0f) foot["lifted"] = asset::Clean(f.lifted);
      if (f.contact) {
        foot["surface"] = f.prop < 0 ? std::string("floor") : PropName(session, f.prop);
        foot["hit_ms"] = asset::ToJson(f.hit_ms);
        foot["normal_ms"] = asset::ToJson(f.normal_ms);
        foot["tilt_deg"] = asset::Clean(f.tilt_deg);
        foot["tilt_clamped"] = f.tilt_clamped;
        foot["ankle_height"] = asset::Clean(f.ankle_height);
        foot["toe_height"] = asset::Clean(f.toe_height);
        foot["rest_ankle_height"] = asset::Clean(f.rest_ankle_height);
        foot["rest_toe_height"] = asset::Clean(f.rest_toe_height);
        foot["height_error"] = asset::Clean(f.height_error);
        foot["heel_hit_ms"] = asset::ToJson(f.heel_hit_ms);
        foot["on_heel_surface"] = f.on_heel_surface;
      }
      feet[std::string(anim::LimbName(limb))] = foot;
    }
    report["ground"] = {{"floor", session.edits.floor},
                        {"floor_y", asset::Clean(session.floor_y())},
                        {"pelvis_drop", asset::Clean(ground.pelvis_drop)},
                        {"pelvis_drop_limited", ground.pelvis_drop_limited},
                        {"feet", feet}};
  }
  if (session.edits.world || session.edits.ladder_enabled) {
    asset::Json list = asset::Json::array();
    for (const scene::Penetration& p : ground.penetrations) {
      list.push_back({{"bone", skeleton.names[static_cast<std::size_t>(p.bone)]},
                      {"child", skeleton.names[static_cast<std::size_t>(p.child)]},
                      {"prop", PropName(session, p.prop)},
                      {"depth", asset::Clean(p.depth)},
                      {"radius", asset::Clean(p.radius)},
                      {"inside_length", asset::Clean(p.inside_length)},
                      {"point_ms", asset::ToJson(p.point_ms)}});
    }
    report["penetrations"] = list;
  }
}

std::vector<std::string> WorldWarnings(const scene::PosingSession& session) {
  std::vector<std::string> lines;
  const anim::Skeleton& skeleton = session.model().skeleton;
  for (const scene::Penetration& p : session.ground_report().penetrations) {
    char depth[32];
    std::snprintf(depth, sizeof depth, "%.3g", static_cast<double>(p.depth));
    lines.push_back("bone " + skeleton.names[static_cast<std::size_t>(p.bone)] + " -> " +
                    skeleton.names[static_cast<std::size_t>(p.child)] + " is " + depth +
                    " model units inside " + PropName(session, p.prop));
  }
  for (const scene::SizeWarning& w : scene::SizeWarnings(session)) lines.push_back(w.text);
  return lines;
}

}  // namespace ikpose::app
