#include "app/stability_report.h"

#include <cmath>
#include <cstdio>

#include "app/orbit_camera.h"

namespace ikpose::app {

namespace {

// The text map's characters: one per sensitivity band (scene::kSensitivityBands), then flags.
constexpr char kBandChars[] = {'.', 'o', 'O', '#'};
constexpr char kFlipChar = 'F';
constexpr char kReachOutChar = 'x';
constexpr char kCenterChar = '+';

asset::Json Edges(const std::vector<scene::StabilityEdge>& edges) {
  asset::Json out = asset::Json::array();
  for (const scene::StabilityEdge& e : edges) {
    out.push_back({asset::ToJson(e.a_ms), asset::ToJson(e.b_ms)});
  }
  return out;
}

std::string Format(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

}  // namespace

bool CheckStabilityOptions(const StabilityOptions& options, StabilityPlan* plan,
                           std::string* error) {
  const bool any_detail = options.view || options.cells || options.spacing;
  if (!options.chain) {
    if (any_detail) {
      *error = "--stability-view, --stability-cells and --stability-spacing need --stability CHAIN";
      return false;
    }
    return true;
  }
  plan->chain = *options.chain;
  if (options.view) {
    float yaw = 0.f, pitch = 0.f;
    char rest = 0;
    if (std::sscanf(options.view->c_str(), "%f,%f%c", &yaw, &pitch, &rest) != 2 ||
        !std::isfinite(yaw) || !std::isfinite(pitch)) {
      *error = "--stability-view must be yaw,pitch in degrees, got '" + *options.view + "'";
      return false;
    }
    plan->yaw_deg = yaw;
    plan->pitch_deg = pitch;
    plan->view_given = true;
  }
  if (options.cells) {
    if (*options.cells < scene::kMinStabilityCells || *options.cells > scene::kMaxStabilityCells ||
        *options.cells % 2 == 0) {
      *error = "--stability-cells must be odd, " + std::to_string(scene::kMinStabilityCells) +
               ".." + std::to_string(scene::kMaxStabilityCells) + ", got " +
               std::to_string(*options.cells);
      return false;
    }
    plan->cells = *options.cells;
  }
  if (options.spacing) {
    if (!std::isfinite(*options.spacing) || !(*options.spacing > 0.0) ||
        !std::isfinite(static_cast<float>(*options.spacing))) {
      *error = "--stability-spacing must be a finite distance over 0";
      return false;
    }
    plan->spacing = static_cast<float>(*options.spacing);
  }
  return true;
}

glm::vec3 TowardViewerMs(const anim::ChainSet& chains, float yaw_deg, float pitch_deg) {
  OrbitCamera camera;
  camera.yaw_deg = glm::degrees(std::atan2(chains.forward_ms.x, chains.forward_ms.z)) + yaw_deg;
  camera.pitch_deg = pitch_deg;
  return -camera.Forward();
}

bool FindStabilityLimb(const scene::PosingSession& session, const std::string& name,
                       anim::Limb* limb, std::string* error) {
  const anim::Skeleton& skeleton = session.model().skeleton;
  for (anim::Limb l : anim::kLimbs) {
    const anim::LimbChain& chain = session.chain(l);
    if (!chain.valid()) continue;
    if (name == anim::LimbName(l) || name == skeleton.names[static_cast<std::size_t>(chain.end)]) {
      *limb = l;
      return true;
    }
  }
  *error = "--stability: '" + name +
           "' is not a limb of the model (left_arm, right_arm, left_leg, right_leg or a limb's "
           "end bone)";
  return false;
}

asset::Json StabilityJson(const scene::StabilityGrid& grid, const StabilityPlan& plan) {
  using asset::Json;
  using asset::ToJson;
  Json j;
  j["chain"] = std::string(anim::LimbName(grid.limb));
  j["policy"] = anim::PolicyName(grid.policy);
  j["target"] = ToJson(grid.center_ms);
  j["view"] = {{"yaw_deg", plan.yaw_deg},
               {"pitch_deg", plan.pitch_deg},
               {"given", plan.view_given},
               {"toward_viewer", ToJson(grid.normal_ms)}};
  j["plane"] = {{"center", ToJson(grid.center_ms)},
                {"right", ToJson(grid.right_ms)},
                {"up", ToJson(grid.up_ms)},
                {"normal", ToJson(grid.normal_ms)}};
  j["cells_per_side"] = grid.cells;
  j["spacing"] = grid.spacing;
  j["extent"] = grid.spacing * static_cast<float>(grid.cells - 1) / 2.f;
  j["step"] = grid.step;
  j["limb_length"] = grid.limb_length;
  j["max_sensitivity"] = grid.max_sensitivity;
  j["bands"] = Json::array();
  for (float b : scene::kSensitivityBands) j["bands"].push_back(b);
  Json cells = Json::array();
  for (const scene::StabilityCell& c : grid.grid) {
    cells.push_back({{"column", c.column},
                     {"row", c.row},
                     {"target", ToJson(c.target_ms)},
                     {"knee", ToJson(c.knee_ms)},
                     {"sensitivity", c.sensitivity},
                     {"reach", std::string(ik::ReachName(c.reach))},
                     {"reach_out", c.reach_out},
                     {"flip", c.flip}});
  }
  j["cells"] = std::move(cells);
  j["flip_line"] = Edges(grid.flip_line);
  j["reach_line"] = Edges(grid.reach_line);
  return j;
}

void PrintStabilityMap(const scene::StabilityGrid& grid, const StabilityPlan& plan,
                       std::ostream& out) {
  const float extent = grid.spacing * static_cast<float>(grid.cells - 1) / 2.f;
  out << "stability of " << anim::LimbName(grid.limb) << " (" << anim::PolicyName(grid.policy)
      << " policy): " << grid.cells << "x" << grid.cells << " targets "
      << Format("%.4g", grid.spacing) << " apart (+-" << Format("%.4g", extent)
      << ") on the plane through the target facing the view yaw " << plan.yaw_deg << " pitch "
      << plan.pitch_deg << (plan.view_given ? "" : " (default)") << "\n";
  out << "  knee motion per unit of target motion: max " << Format("%.3g", grid.max_sensitivity)
      << "; " << kBandChars[0] << " under " << scene::kSensitivityBands[0];
  for (std::size_t i = 1; i < std::size(kBandChars); ++i) {
    out << ", " << kBandChars[i] << " " << scene::kSensitivityBands[i - 1]
        << (i < std::size(scene::kSensitivityBands)
                ? "-" + Format("%g", scene::kSensitivityBands[i])
                : "+");
  }
  out << "; " << kFlipChar << " knee flips side, " << kReachOutChar << " beyond the limb's reach, "
      << kCenterChar << " the target; screen up is up\n";
  const int center = (grid.cells - 1) / 2;
  for (int row = grid.cells - 1; row >= 0; --row) {
    out << "  ";
    for (int column = 0; column < grid.cells; ++column) {
      const scene::StabilityCell& c = grid.at(column, row);
      char ch = kBandChars[scene::SensitivityBand(c.sensitivity)];
      if (c.reach_out) ch = kReachOutChar;
      if (c.flip) ch = kFlipChar;
      if (row == center && column == center) ch = kCenterChar;
      out << ch;
    }
    out << "\n";
  }
  out << "  flip edges " << grid.flip_line.size() << ", reach edges " << grid.reach_line.size()
      << "\n";
}

}  // namespace ikpose::app
