#include "asset/load_prop.h"

#include <cmath>

#include "asset/load_model.h"

namespace ikpose::asset {

bool TryLoadProp(const std::filesystem::path& path, std::shared_ptr<const anim::Model>* prop,
                 std::string* error) {
  auto model = std::make_shared<anim::Model>();
  if (!TryLoadModel(path, model.get(), error)) return false;
  std::size_t triangles = 0;
  for (const anim::Mesh& mesh : model->meshes) {
    triangles += mesh.indices.size() / 3;
    for (const glm::vec3& p : mesh.positions_bs) {
      if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) {
        *error = path.string() + ": a vertex of mesh '" + mesh.name + "' is not a finite number";
        return false;
      }
    }
  }
  if (triangles == 0) {
    *error = path.string() + ": the prop has no triangles";
    return false;
  }
  if (triangles > kMaxPropTriangles) {
    *error = path.string() + ": " + std::to_string(triangles) + " triangles, more than the " +
             std::to_string(kMaxPropTriangles) + " a prop may have";
    return false;
  }
  model->clips.clear();  // a prop stands still
  *prop = std::move(model);
  return true;
}

}  // namespace ikpose::asset
