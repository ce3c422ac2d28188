#include "asset/report.h"

#include <cmath>

#include <glm/gtc/quaternion.hpp>

namespace ikpose::asset {

// Rounds away float noise so reports diff cleanly (7 significant digits of a float).
double Clean(float value) {
  if (!std::isfinite(value)) return 0.0;
  if (value == 0.f) return 0.0;
  const double v = static_cast<double>(value);
  const double magnitude =
      std::pow(10.0, 6 - static_cast<int>(std::floor(std::log10(std::abs(v)))));
  return std::round(v * magnitude) / magnitude;
}

namespace {

Json Names(const anim::Skeleton& skeleton, std::initializer_list<int> bones) {
  Json names = Json::array();
  for (int b : bones) names.push_back(skeleton.names[static_cast<std::size_t>(b)]);
  return names;
}

// The bones a report lists (Skeleton::ReportedBones), each skeleton bone's index in that list
// (-1 when not listed), and parents mapped to the nearest listed ancestor. Every index a report
// writes ("parent", a chain's "bone_indices") is an index into this list, never a skeleton index.
struct Listing {
  std::vector<int> bones;
  std::vector<int> position;
  std::vector<int> parent;
  explicit Listing(const anim::Skeleton& s) : bones(s.ReportedBones()) {
    position.assign(static_cast<std::size_t>(s.size()), -1);
    for (std::size_t i = 0; i < bones.size(); ++i)
      position[static_cast<std::size_t>(bones[i])] = static_cast<int>(i);
    for (int b : bones) {
      int p = s.parents[static_cast<std::size_t>(b)];
      while (p >= 0 && position[static_cast<std::size_t>(p)] < 0)
        p = s.parents[static_cast<std::size_t>(p)];
      parent.push_back(p >= 0 ? position[static_cast<std::size_t>(p)] : -1);
    }
  }
};

Json ChainJson(const anim::Skeleton& skeleton, const Listing& listing,
               const anim::LimbChain& chain) {
  Json j;
  j["joints"] = Names(skeleton, {chain.upper, chain.lower, chain.end});
  j["lengths"] = Json::array({Clean(chain.upper_length), Clean(chain.lower_length)});
  j["bone_indices"] = Json::array({listing.position[static_cast<std::size_t>(chain.upper)],
                                   listing.position[static_cast<std::size_t>(chain.lower)],
                                   listing.position[static_cast<std::size_t>(chain.end)]});
  j["found_by"] = chain.found_by;
  j["end_is_child"] = chain.end_is_child;
  return j;
}

// The humanoid map by bone name; a bone not found is null.
Json HumanoidJson(const anim::Skeleton& skeleton, const anim::HumanoidMap& map) {
  const auto name = [&skeleton](int bone) -> Json {
    return bone >= 0 ? Json(skeleton.names[static_cast<std::size_t>(bone)]) : Json(nullptr);
  };
  Json j;
  j["pelvis"] = name(map.pelvis);
  Json spine = Json::array();
  for (int bone : map.spine) spine.push_back(name(bone));
  j["spine"] = spine;
  j["chest"] = name(map.chest);
  j["neck"] = name(map.neck);
  j["head"] = name(map.head);
  j["clavicles"] = {{"left", name(map.clavicle(anim::Side::kLeft))},
                    {"right", name(map.clavicle(anim::Side::kRight))}};
  j["toes"] = {{"left", name(map.toe(anim::Side::kLeft))},
               {"right", name(map.toe(anim::Side::kRight))}};
  j["facing"] = map.facing_valid ? ToJson(map.facing_ms) : Json(nullptr);
  j["hips_facing"] = ToJson(map.hips_facing_ms);
  j["shoulders_facing"] = ToJson(map.shoulders_facing_ms);
  return j;
}

// A local delta as the solve keeps it (ik::ReportDetail::kGeometry), described here.
Json RotationJson(const ik::RotationReport& delta) {
  const ik::RotationReport r = ik::DescribeRotation(delta.rotation, delta.bone_axis);
  Json j;
  j["rotation"] = ToJson(r.rotation);
  j["axis"] = ToJson(r.axis_angle.axis);
  j["angle_deg"] = Clean(glm::degrees(r.axis_angle.angle_rad));
  j["swing_deg"] = Clean(glm::degrees(r.swing_twist.swing_angle_rad));
  j["twist_deg"] = Clean(glm::degrees(r.swing_twist.twist_angle_rad));
  return j;
}

}  // namespace

Json ToJson(const glm::vec3& v) {
  return Json::array({Clean(v.x), Clean(v.y), Clean(v.z)});
}
Json ToJson(const glm::quat& q) {
  return Json::array({Clean(q.x), Clean(q.y), Clean(q.z), Clean(q.w)});
}

float ModelHeight(const anim::Model& model, const anim::Pose& rest) {
  const anim::Bounds bounds = anim::ComputeBounds(model, rest);
  return bounds.empty() ? 0.f : bounds.max.y - bounds.min.y;
}

Json InspectReport(const anim::Model& model) {
  const anim::Skeleton& s = model.skeleton;
  const anim::Pose rest = anim::RestPose(s);
  const anim::Bounds bounds = anim::ComputeBounds(model, rest);
  Json j;
  j["file"] = model.source;
  j["format"] = model.format;
  j["units"] = model.units.empty() ? "unknown" : model.units;
  j["height"] = Clean(bounds.empty() ? 0.f : bounds.max.y - bounds.min.y);
  j["bounds"] = {{"min", ToJson(bounds.empty() ? glm::vec3(0.f) : bounds.min)},
                 {"max", ToJson(bounds.empty() ? glm::vec3(0.f) : bounds.max)}};
  j["up"] = Json::array({0, 1, 0});
  j["forward"] = ToJson(model.chains.forward_ms);
  j["static"] = !model.has_file_skin;

  int vertices = 0;
  int triangles = 0;
  Json meshes = Json::array();
  for (const anim::Mesh& m : model.meshes) {
    vertices += m.vertex_count();
    triangles += m.triangle_count();
    Json mesh;
    mesh["name"] = m.name;
    mesh["vertices"] = m.vertex_count();
    mesh["triangles"] = m.triangle_count();
    mesh["skinned"] = m.skinned;
    mesh["skin"] = m.skin;
    mesh["node"] = s.names[static_cast<std::size_t>(m.node)];
    if (!m.skinned) mesh["follows"] = s.names[static_cast<std::size_t>(m.follow_bone)];
    mesh["material"] = m.material;
    meshes.push_back(mesh);
  }
  j["vertex_count"] = vertices;
  j["triangle_count"] = triangles;

  const Listing listing(s);
  Json bones = Json::array();
  for (std::size_t i = 0; i < listing.bones.size(); ++i) {
    const int b = listing.bones[i];
    Json bone;
    bone["name"] = s.names[static_cast<std::size_t>(b)];
    bone["parent"] = listing.parent[i];
    bone["rest_position_ms"] = ToJson(anim::PositionMs(rest, b));
    bone["joint"] = s.IsJoint(b);
    bones.push_back(bone);
  }
  j["joint_count"] = s.JointCount();
  j["bones"] = bones;
  j["meshes"] = meshes;

  Json skins = Json::array();
  for (const anim::Skin& skin : model.skins) {
    skins.push_back({{"name", skin.name}, {"joints", skin.joints.size()}});
  }
  j["skins"] = skins;
  Json materials = Json::array();
  for (const anim::Material& m : model.materials) {
    Json material;
    material["name"] = m.name;
    material["base_color"] = Json::array({Clean(m.base_color.r), Clean(m.base_color.g),
                                          Clean(m.base_color.b), Clean(m.base_color.a)});
    if (m.base_color_texture >= 0) {
      const anim::Texture& t = model.textures[static_cast<std::size_t>(m.base_color_texture)];
      material["texture"] = t.path.empty() ? "embedded:" + t.name : t.path;
    }
    materials.push_back(material);
  }
  j["materials"] = materials;

  Json clips = Json::array();
  for (std::size_t i = 0; i < model.clips.size(); ++i) {
    const anim::Clip& c = model.clips[i];
    clips.push_back(
        {{"name", c.name}, {"duration", Clean(c.duration)}, {"tracks", c.tracks.size()}});
  }
  j["clips"] = clips;

  Json chains = Json::object();
  for (anim::Limb limb : anim::kLimbs) {
    const anim::LimbChain& chain = model.chains[limb];
    if (chain.valid()) chains[std::string(anim::LimbName(limb))] = ChainJson(s, listing, chain);
  }
  j["chains"] = chains;
  j["humanoid"] = HumanoidJson(s, model.humanoid);
  j["warnings"] = model.warnings;
  return j;
}

Json PoseReport(const anim::Model& model, const anim::Pose& before, const anim::Pose& after,
                const std::vector<SolvedChain>& solved) {
  const anim::Skeleton& s = model.skeleton;
  const Listing listing(s);
  Json j;
  Json chains = Json::object();
  for (const SolvedChain& sc : solved) {
    const anim::ChainSolveResult& r = sc.result;
    const ik::PositionsReport& p = r.report.positions;
    Json c = ChainJson(s, listing, sc.chain);
    c["target"] = ToJson(r.target_ms);
    if (r.end_target_ms != r.target_ms) c["end_target"] = ToJson(r.end_target_ms);
    if (r.grip_weight < 1.0f) c["grip_weight"] = Clean(r.grip_weight);
    if (sc.has_pole) c["pole"] = ToJson(sc.pole_ms);
    c["reach"] = std::string(ik::ReachName(r.output.reach));
    c["error"] = Clean(r.error_ms);
    c["a"] = ToJson(r.hip_ms);
    c["b"] = ToJson(r.knee_ms);
    c["c"] = ToJson(r.end_ms);
    c["b_solver"] = ToJson(p.result.knee_ms);
    c["c_solver"] = ToJson(p.result.foot_ms);
    AddKneeGeometry(p, &Clean, c);
    c["policy"] = anim::PolicyName(r.policy);
    if (r.policy == anim::KneePolicy::kNatural) {
      c["swivel_deg"] = Clean(r.swivel.swivel_deg);
      c["swivel_range_deg"] = Clean(r.swivel.range_deg);
      c["swivel_reference_deg"] = Clean(r.swivel.reference_deg);
      c["swivel_clamped"] = r.swivel.clamped;
      // Turned out to keep the knee behind a ladder's rungs (anim::KeepKneeBehind).
      if (r.swivel.cleared_deg != 0.f) c["knee_turned_out_deg"] = Clean(r.swivel.cleared_deg);
      c["natural_ms"] = ToJson(r.swivel.natural_ms);
    }
    c["used_pole"] = p.used_pole;
    c["used_fallback_side"] = p.used_fallback_side;
    c["limit_clamped"] = r.output.limit_clamped;
    c["softened"] = r.output.softened;
    c["exact"] = r.report.exact;
    c["hip_delta_ls"] = RotationJson(r.report.hip_delta_ls);
    c["knee_delta_ls"] = RotationJson(r.report.knee_delta_ls);
    chains[sc.chain.name] = c;
  }
  j["chains"] = chains;

  Json bones = Json::array();
  for (std::size_t i = 0; i < listing.bones.size(); ++i) {
    const std::size_t b = static_cast<std::size_t>(listing.bones[i]);
    const anim::Transform& local = after.locals_ls[b];
    Json bone;
    bone["name"] = s.names[b];
    bone["parent"] = listing.parent[i];
    bone["rotation_ls"] = ToJson(local.rotation);
    bone["euler_deg"] = ToJson(glm::degrees(glm::eulerAngles(local.rotation)));
    bone["position_ms"] = ToJson(anim::PositionMs(after, static_cast<int>(b)));
    bone["translation_ls"] = ToJson(local.translation);
    bone["scale_ls"] = ToJson(local.scale);
    const glm::vec3 moved = anim::PositionMs(after, static_cast<int>(b)) -
                            anim::PositionMs(before, static_cast<int>(b));
    const float turned = std::abs(glm::dot(local.rotation, before.locals_ls[b].rotation));
    bone["changed"] = glm::length(moved) > 1e-6f || turned < 1.f - 1e-7f ||
                      local.translation != before.locals_ls[b].translation;
    bones.push_back(bone);
  }
  j["bones"] = bones;
  return j;
}

}  // namespace ikpose::asset
