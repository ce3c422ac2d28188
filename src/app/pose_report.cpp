#include "app/pose_report.h"

#include "app/ground_report.h"

#include <sstream>

namespace ikpose::app {

namespace {

void AddSolved(const anim::LimbChain& chain, const scene::LimbTarget& target,
               const anim::ChainSolveResult& result, std::vector<asset::SolvedChain>* out) {
  if (!target.available || !target.enabled || !result.ok) return;  // solved: placed or held
  asset::SolvedChain sc;
  sc.chain = chain;
  sc.result = result;
  sc.has_pole = target.options.solver.use_pole;
  sc.pole_ms = target.options.solver.pole_ms;
  out->push_back(std::move(sc));
}

// The other side's limb: left_arm <-> right_arm, left_leg <-> right_leg.
anim::Limb OtherSide(anim::Limb limb) {
  return static_cast<anim::Limb>(static_cast<int>(limb) ^ 1);
}

asset::Json MirrorReport(const scene::PosingSession& session) {
  const anim::MirrorMap& map = session.mirror_map();
  const anim::Skeleton& s = session.model().skeleton;
  asset::Json j;
  j["mode"] = std::string(anim::MirrorModeName(session.edits.mirror));
  j["plane"] = {{"point", asset::ToJson(map.plane.point_ms)},
                {"normal", asset::ToJson(map.plane.normal_ms)}};
  j["pairs_by_name"] = map.pairs_by_name;
  j["pairs_by_structure"] = map.pairs_by_structure;
  j["rest_symmetric"] = map.symmetric();
  j["tolerance"] = asset::Clean(map.tolerance);
  asset::Json off = asset::Json::array();
  for (const anim::AsymmetricBone& a : map.asymmetric) {
    off.push_back({{"bone", s.names[static_cast<std::size_t>(a.bone)]},
                   {"counterpart", s.names[static_cast<std::size_t>(a.counterpart)]},
                   {"off", asset::Clean(a.off)}});
  }
  j["asymmetric_bones"] = off;
  asset::Json chains = asset::Json::object();
  for (anim::Limb limb : anim::kLimbs) {
    if (!session.Mirrored(limb)) continue;
    const anim::Limb from = OtherSide(limb);
    asset::Json c;
    c["from"] = std::string(anim::LimbName(from));
    const glm::vec3 end_ms = anim::EndPositionMs(session.chain(limb), session.pose());
    c["end"] = asset::ToJson(end_ms);
    const scene::LimbTarget& source = session.target(from);
    if (source.available && source.given && source.enabled && session.result(from).ok) {
      const glm::vec3 target_ms = map.plane.Reflect(source.target_ms);
      c["target"] = asset::ToJson(target_ms);  // the source's target, mirrored
      c["error"] = asset::Clean(glm::length(end_ms - target_ms));
    }
    chains[std::string(anim::LimbName(limb))] = c;
  }
  j["chains"] = chains;
  return j;
}

// How much the body helped the limbs (scene/session/body_solve.h): per bone its turn, the pelvis
// offset, and each limb's pull.
asset::Json BodyHelpJson(const scene::PosingSession& session) {
  const scene::BodyHelpReport& help = session.body_help_report();
  asset::Json bones = asset::Json::array();
  for (const scene::BodyHelpReport::BoneTurn& turn : help.bones) {
    bones.push_back({{"name", session.model().skeleton.names[static_cast<std::size_t>(turn.bone)]},
                     {"deg", asset::Clean(turn.deg)}});
  }
  asset::Json pull = asset::Json::object();
  for (anim::Limb limb : anim::kLimbs) {
    if (session.target(limb).available)
      pull[std::string(anim::LimbName(limb))] = session.target(limb).pull_body;
  }
  return {{"enabled", session.edits.body_help},
          {"four_contacts", help.four_contacts},
          {"pelvis_offset", asset::ToJson(help.pelvis_offset_ms)},
          {"pelvis_tilt_deg", asset::Clean(help.pelvis_tilt_deg)},
          {"bones", bones},
          {"pull", pull}};
}

// The joint limits (scene/session/joint_limits.h): on or off, and every joint at (or past) its
// limit, with the sentence the panel shows.
asset::Json LimitsJson(const scene::PosingSession& session) {
  asset::Json at = asset::Json::array();
  for (const scene::JointAtLimit& joint : session.joints_at_limit()) {
    at.push_back({{"name", session.model().skeleton.names[static_cast<std::size_t>(joint.bone)]},
                  {"part", anim::JointPartName(joint.part)},
                  {"kind", joint.twist ? "twist" : "bend"},
                  {"deg", asset::Clean(joint.deg)},
                  {"limit_deg", asset::Clean(joint.limit_deg)},
                  {"past", joint.past()},
                  {"text", scene::LimitSentence(session.model(), joint, " deg")}});
  }
  return {{"enabled", session.edits.limits}, {"at_limit", at}};
}

}  // namespace

std::vector<asset::SolvedChain> SolvedChains(const scene::PosingSession& session) {
  std::vector<asset::SolvedChain> solved;
  for (anim::Limb limb : anim::kLimbs) {
    anim::LimbChain chain = session.chain(limb);
    chain.name = anim::LimbName(limb);
    AddSolved(chain, session.target(limb), session.result(limb), &solved);
  }
  for (const scene::ChainTarget& extra : session.extra_chains()) {
    AddSolved(extra.chain, extra.target, extra.result, &solved);
  }
  return solved;
}

asset::Json LadderInputReport(const scene::LadderInput& l) {
  asset::Json j = {{"base", asset::ToJson(l.base_ms)}};
  if (l.rung_spacing) j["rung_spacing"] = *l.rung_spacing;
  if (l.rung_count) j["rung_count"] = *l.rung_count;
  if (l.rail_width) j["rail_width"] = *l.rail_width;
  if (l.rung_radius) j["rung_radius"] = *l.rung_radius;
  if (l.first_rung_height) j["first_rung_height"] = *l.first_rung_height;
  if (l.yaw_deg) j["yaw_deg"] = *l.yaw_deg;
  return j;
}

asset::Json SessionReport(const scene::PosingSession& session) {
  asset::Json report = asset::PoseReport(session.model(), session.base_pose(), session.pose(),
                                         SolvedChains(session));
  if (session.edits.mirror != anim::MirrorMode::kOff) report["mirror"] = MirrorReport(session);
  // A hand lying on its palm says on what: why its wrist is a palm's thickness over the surface
  // rather than on its target.
  for (anim::Limb limb : {anim::Limb::kLeftArm, anim::Limb::kRightArm}) {
    const scene::PosingSession::PalmContact& palm = session.palm(limb);
    const std::string& name = session.chain(limb).name;
    if (!palm.on || !report["chains"].contains(name)) continue;
    report["chains"][name]["palm_on"] = session.PalmSurfaceName(limb);
  }
  if (session.edits.ladder_enabled) {
    // The ladder as drawn this frame (scrolled when it follows a climbing clip), so a script can
    // draw or check rungs where the window has them.
    const scene::Ladder& ladder = session.shown_ladder();
    report["ladder"] = {{"base_ms", asset::ToJson(ladder.base_ms)},
                        {"rung_spacing", ladder.rung_spacing},
                        {"rung_count", ladder.rung_count},
                        {"rail_width", ladder.rail_width},
                        {"rung_radius", ladder.rung_radius},
                        {"first_rung_height", ladder.first_rung_height},
                        {"yaw_deg", ladder.yaw_deg},
                        {"follows_clip", session.edits.ladder_follows_clip}};
    if (session.ladder_prop() >= 0) {  // the rungs of a prop (scene/world/prop_rungs.h)
      report["ladder"]["prop"] =
          session.edits.world->props()[static_cast<std::size_t>(session.ladder_prop())].path;
    }
  }
  AddWorldReport(session, report);
  report["body_help"] = BodyHelpJson(session);
  report["limits"] = LimitsJson(session);
  return report;
}

std::string MirrorWarning(const scene::PosingSession& session) {
  const anim::MirrorMap& map = session.mirror_map();
  if (session.edits.mirror == anim::MirrorMode::kOff) return "";
  if (map.pairs_by_name + map.pairs_by_structure == 0) {
    return "mirror " + std::string(anim::MirrorModeName(session.edits.mirror)) +
           " did nothing: this rig has no left/right pairs";
  }
  if (map.symmetric()) return "";
  const anim::AsymmetricBone* worst = &map.asymmetric.front();
  for (const anim::AsymmetricBone& a : map.asymmetric) {
    if (a.off > worst->off) worst = &a;
  }
  const std::vector<std::string>& names = session.model().skeleton.names;
  std::ostringstream line;
  line << "the rest pose is not symmetric: " << map.asymmetric.size()
       << " bone(s) miss their counterpart's mirror image by more than " << map.tolerance
       << " (worst " << names[static_cast<std::size_t>(worst->bone)] << ", " << worst->off
       << " model units); mirrored anyway, mirrored ends may be off by about that much";
  return line.str();
}

}  // namespace ikpose::app
