#include "scene/world/world.h"

#include <algorithm>

#include <glm/gtc/matrix_transform.hpp>

#include "scene/world/solid_shapes.h"

namespace ikpose::scene {

glm::mat4 PropPlacement::Matrix() const {
  glm::mat4 m = glm::translate(glm::mat4(1.0f), position_ms);
  m = glm::rotate(m, glm::radians(yaw_deg), glm::vec3(0.0f, 1.0f, 0.0f));
  return glm::scale(m, glm::vec3(scale));
}

void AppendPropTriangles(const Prop& prop, std::vector<glm::vec3>* vertices_ms,
                         std::vector<std::uint32_t>* indices) {
  if (!prop.model) return;
  const glm::mat4 m = prop.placement.Matrix();
  for (const anim::Mesh& mesh : prop.model->meshes) {
    // Rigid meshes hold model-space positions at rest; a skinned
    // prop's were moved into its rest pose when it was loaded (asset/load_prop.h).
    const auto base = static_cast<std::uint32_t>(vertices_ms->size());
    for (const glm::vec3& p : mesh.positions_bs)
      vertices_ms->push_back(glm::vec3(m * glm::vec4(p, 1.0f)));
    for (std::uint32_t i : mesh.indices) {
      // An index out of its mesh stays out of range (SurfaceBvh skips that triangle).
      indices->push_back(i < mesh.positions_bs.size() ? base + i : 0xFFFFFFFFu);
    }
  }
}

std::shared_ptr<const World> World::Build(std::vector<Prop> props, std::string* error) {
  if (props.size() > kMaxProps) {
    *error = std::to_string(props.size()) + " props, more than the " + std::to_string(kMaxProps) +
             " a scene may hold";
    return nullptr;
  }
  auto world = std::make_shared<World>();
  std::vector<glm::vec3> vertices;
  std::vector<std::uint32_t> indices;
  std::size_t triangles = 0;
  for (Prop& prop : props) {
    std::size_t count = 0;
    if (prop.model) {
      for (const anim::Mesh& mesh : prop.model->meshes) count += mesh.indices.size() / 3;
    }
    if (count == 0) {
      *error = prop.path + ": the prop has no triangles";
      return nullptr;
    }
    triangles += count;
    if (triangles > SurfaceBvh::kMaxTriangles) {
      *error = prop.path + ": the props hold more than " +
               std::to_string(SurfaceBvh::kMaxTriangles) + " triangles in all";
      return nullptr;
    }
    world->first_triangle_.push_back(static_cast<std::uint32_t>(indices.size() / 3));
    // The rungs, searched once per prop and kept through moves (they are in the prop's space).
    const bool marked = prop.placement.rungs.value_or(false);
    if (prop.placement.rungs == false) {
      prop.rungs = nullptr;
    } else if (!prop.rungs || prop.rungs_marked != marked) {
      prop.rungs = std::make_shared<const PropRungs>(FindRungs(*prop.model, marked));
      prop.rungs_marked = marked;
    }
    const std::size_t first_vertex = vertices.size();
    AppendPropTriangles(prop, &vertices, &indices);
    anim::Bounds bounds;  // a prop has triangles, so vertices
    if (vertices.size() > first_vertex) bounds.min = bounds.max = vertices[first_vertex];
    for (std::size_t v = first_vertex; v < vertices.size(); ++v) {
      bounds.min = glm::min(bounds.min, vertices[v]);
      bounds.max = glm::max(bounds.max, vertices[v]);
    }
    world->bounds_ms_.push_back(bounds);
  }
  if (!world->bvh_.Build(vertices, indices, error)) return nullptr;
  world->props_ = std::move(props);
  return world;
}

int World::LadderProp() const {
  for (std::size_t i = 0; i < props_.size(); ++i) {
    if (props_[i].rungs && props_[i].rungs->found) return static_cast<int>(i);
  }
  return -1;
}

int World::PropOfTriangle(std::uint32_t triangle) const {
  const auto it = std::upper_bound(first_triangle_.begin(), first_triangle_.end(), triangle);
  return static_cast<int>(it - first_triangle_.begin()) - 1;
}

Prop BoxProp(const std::string& file, const glm::vec3& a_ms, const glm::vec3& b_ms) {
  std::vector<glm::vec3> vertices, normals;
  std::vector<std::uint32_t> indices;
  AppendBox(glm::min(a_ms, b_ms), glm::max(a_ms, b_ms), &vertices, &normals, &indices);
  Prop box;
  box.path = box.placement.file = file;
  box.model = std::make_shared<anim::Model>(StaticModel(
      file, std::move(vertices), std::move(normals), std::move(indices), glm::vec4(1.0f)));
  return box;
}

}  // namespace ikpose::scene
