#include "asset/load_prop.h"

#include <cmath>
#include <vector>

#include "anim/skeleton.h"
#include "anim/skinning.h"
#include "asset/load_model.h"

namespace ikpose::asset {

namespace {

// The window draws a prop in its rest pose (its bones' rest transforms), which for a rigged
// file is not its bind pose (CesiumMan, bound lying down and stood up by its root; a posed
// export). Its skinned meshes are skinned into that pose once here and its skins rebound to it,
// so the ground, the rungs, the picking and an export see what the window draws. A skin whose
// rest has a singular bone is left bound as it was (its meshes then stand in their bind pose).
void StandInRestPose(anim::Model* model) {
  const anim::Pose rest = anim::RestPose(model->skeleton);
  std::vector<bool> rebind(model->skins.size(), false);
  for (std::size_t s = 0; s < model->skins.size(); ++s) {
    const anim::Skin& skin = model->skins[s];
    bool invertible = skin.inverse_bind.size() == skin.joints.size();
    for (int joint : skin.joints) {
      if (joint < 0 || static_cast<std::size_t>(joint) >= rest.models_ms.size()) {
        invertible = false;
        break;
      }
      const float det = glm::determinant(rest.models_ms[static_cast<std::size_t>(joint)]);
      invertible = invertible && std::isfinite(det) && std::abs(det) > 1e-12f;
    }
    rebind[s] = invertible;
  }
  for (anim::Mesh& mesh : model->meshes) {
    if (!mesh.skinned || mesh.skin < 0 || !rebind[static_cast<std::size_t>(mesh.skin)]) continue;
    const anim::Skin& skin = model->skins[static_cast<std::size_t>(mesh.skin)];
    const std::vector<glm::mat4> palette = anim::BuildPalette(skin, rest.models_ms);
    const std::size_t n = mesh.positions_bs.size();
    std::vector<glm::vec3> positions(n);
    std::vector<glm::vec3> normals(mesh.normals_bs.size() == n ? n : 0);
    anim::SkinMesh(mesh, palette, positions, normals);
    if (mesh.tangents_bs.size() == n) {
      for (std::size_t v = 0; v < n; ++v) {
        glm::mat3 blend(0.f);
        for (int i = 0; i < 4; ++i)
          blend += mesh.weights[v][i] * glm::mat3(palette[mesh.joints[v][i]]);
        const glm::vec3 t = blend * glm::vec3(mesh.tangents_bs[v]);
        const float length = glm::length(t);
        if (length > 0.f && std::isfinite(length))
          mesh.tangents_bs[v] = glm::vec4(t / length, mesh.tangents_bs[v].w);
      }
    }
    mesh.positions_bs = std::move(positions);
    if (!normals.empty()) mesh.normals_bs = std::move(normals);
  }
  for (std::size_t s = 0; s < model->skins.size(); ++s) {
    if (!rebind[s]) continue;
    anim::Skin& skin = model->skins[s];
    for (std::size_t k = 0; k < skin.joints.size(); ++k)
      skin.inverse_bind[k] = glm::inverse(rest.models_ms[static_cast<std::size_t>(skin.joints[k])]);
  }
}

}  // namespace

bool TryLoadProp(const std::filesystem::path& path, std::shared_ptr<const anim::Model>* prop,
                 std::string* error) {
  auto model = std::make_shared<anim::Model>();
  if (!TryLoadModel(path, model.get(), error)) return false;
  StandInRestPose(model.get());
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
