#include "app/prop_option.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>

#include "anim/file_paths.h"
#include "asset/load_prop.h"

namespace ikpose::app {

bool ParsePropOption(const std::string& text, scene::PropPlacement* prop, std::string* error) {
  const std::size_t at = text.rfind('@');
  const auto fail = [&] {
    *error = "--prop '" + text + "' is not FILE@x,y,z or FILE@x,y,z,yaw_deg (finite numbers)";
    return false;
  };
  if (at == std::string::npos || at == 0) return fail();
  scene::PropPlacement out;
  out.file = text.substr(0, at);
  const std::string numbers = text.substr(at + 1);
  const char* p = numbers.c_str();
  float values[4] = {0.0f, 0.0f, 0.0f, 0.0f};
  int count = 0;
  while (count < 4) {
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(p, &end);
    if (end == p || errno == ERANGE || !std::isfinite(v) || std::abs(v) > 1e30) return fail();
    values[count++] = static_cast<float>(v);
    p = end;
    if (*p == '\0') break;
    if (*p != ',') return fail();
    ++p;
  }
  if (*p != '\0' || count < 3) return fail();
  out.position_ms = glm::vec3(values[0], values[1], values[2]);
  out.yaw_deg = values[3];
  *prop = std::move(out);
  return true;
}

std::vector<scene::PropPlacement> HeaderProps(const std::vector<std::string>& texts,
                                              const std::filesystem::path& file) {
  std::vector<scene::PropPlacement> props;
  for (const std::string& text : texts) {
    scene::PropPlacement prop;
    std::string error;
    if (!ParsePropOption(text, &prop, &error)) continue;
    prop.file = anim::RelativeToFolderOf(prop.file, file).string();
    props.push_back(std::move(prop));
  }
  return props;
}

std::vector<std::string> PropOptions(const std::vector<scene::PropPlacement>& props,
                                     const std::filesystem::path& file) {
  std::vector<std::string> texts;
  for (const scene::PropPlacement& prop : props) {
    std::ostringstream text;
    text.precision(9);  // reads back to the same float
    text << anim::ResolveFromFolderOf(prop.file, file).string() << "@" << prop.position_ms.x << ","
         << prop.position_ms.y << "," << prop.position_ms.z << "," << prop.yaw_deg;
    texts.push_back(text.str());
  }
  return texts;
}

bool LoadWorld(const scene::Scenario* scenario, const std::vector<scene::PropPlacement>& extra,
               std::shared_ptr<const scene::World>* world, std::string* error) {
  std::vector<std::pair<scene::PropPlacement, std::string>> wanted;  // placement, path
  if (scenario) {
    for (const scene::PropPlacement& p : scenario->props)
      wanted.emplace_back(p, scenario->PropPath(p));
  }
  for (const scene::PropPlacement& p : extra) wanted.emplace_back(p, p.file);
  if (wanted.empty()) return true;
  if (wanted.size() > scene::World::kMaxProps) {
    *error = std::to_string(wanted.size()) + " props, more than the " +
             std::to_string(scene::World::kMaxProps) + " a scene may hold";
    return false;
  }
  std::vector<scene::Prop> props;
  for (const auto& [placement, path] : wanted) {
    scene::Prop prop;
    prop.placement = placement;
    prop.path = path;
    // The same file placed twice is read once.
    for (const scene::Prop& loaded : props) {
      if (loaded.path == path) prop.model = loaded.model;
    }
    if (!prop.model && !asset::TryLoadProp(path, &prop.model, error)) {
      *error = "prop " + *error;
      return false;
    }
    props.push_back(std::move(prop));
  }
  std::shared_ptr<const scene::World> built = scene::World::Build(std::move(props), error);
  if (!built) {
    *error = "prop " + *error;
    return false;
  }
  *world = std::move(built);
  return true;
}

std::vector<asset::PlacedModel> PropsToExport(const scene::World* world) {
  std::vector<asset::PlacedModel> out;
  if (world == nullptr) return out;
  std::map<std::string, int> seen;
  for (const scene::Prop& prop : world->props()) {
    std::string name = std::filesystem::path(prop.path).stem().string();
    if (name.empty()) name = "prop";
    if (const int n = ++seen[name]; n > 1) name += "_" + std::to_string(n);
    out.push_back({name, prop.model.get(), prop.placement.position_ms, prop.placement.yaw_deg,
                   prop.placement.scale});
  }
  return out;
}

}  // namespace ikpose::app
