#include "scene/world/solid_shapes.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>

#include "ik/rotation.h"

namespace ikpose::scene {

void AppendCylinder(const glm::vec3& a_ms, const glm::vec3& b_ms, float radius, int sides,
                    std::vector<glm::vec3>* vertices_ms, std::vector<glm::vec3>* normals_ms,
                    std::vector<std::uint32_t>* indices) {
  const glm::vec3 axis = b_ms - a_ms;
  const float length = glm::length(axis);
  if (!(length > 0.0f) || !(radius > 0.0f) || sides < 3) return;
  const glm::vec3 w = axis / length;
  const glm::vec3 u = ik::AnyPerpendicular(w);
  const glm::vec3 v = glm::cross(w, u);
  const auto ring = [&](int k) {
    const float angle = 6.2831853f * static_cast<float>(k) / static_cast<float>(sides);
    return std::cos(angle) * u + std::sin(angle) * v;
  };
  const auto add = [&](const glm::vec3& p, const glm::vec3& n) {
    vertices_ms->push_back(p);
    if (normals_ms) normals_ms->push_back(n);
    return static_cast<std::uint32_t>(vertices_ms->size() - 1);
  };
  // The side: its own vertices, so the caps' normals stay sharp.
  const std::uint32_t side0 = static_cast<std::uint32_t>(vertices_ms->size());
  for (int k = 0; k < sides; ++k) {
    const glm::vec3 r = ring(k);
    add(a_ms + radius * r, r);
    add(b_ms + radius * r, r);
  }
  const auto s = static_cast<std::uint32_t>(sides);
  for (std::uint32_t k = 0; k < s; ++k) {
    const std::uint32_t k1 = (k + 1) % s;
    const std::uint32_t a0 = side0 + 2 * k, b0 = a0 + 1, a1 = side0 + 2 * k1, b1 = a1 + 1;
    // (u, v, w) is right-handed, so a0 -> a1 -> b1 runs counter-clockwise seen from outside.
    indices->insert(indices->end(), {a0, a1, b1, a0, b1, b0});
  }
  for (const bool top : {false, true}) {
    const glm::vec3 c = top ? b_ms : a_ms;
    const glm::vec3 n = top ? w : -w;
    const std::uint32_t centre = add(c, n);
    const std::uint32_t first = static_cast<std::uint32_t>(vertices_ms->size());
    for (int k = 0; k < sides; ++k) add(c + radius * ring(k), n);
    for (std::uint32_t k = 0; k < s; ++k) {
      const std::uint32_t p = first + k, q = first + (k + 1) % s;
      if (top) {
        indices->insert(indices->end(), {centre, p, q});
      } else {
        indices->insert(indices->end(), {centre, q, p});
      }
    }
  }
}

namespace {

// A flat polygon (convex, counter-clockwise seen from outside) with its own vertices.
void AppendFace(std::initializer_list<glm::vec3> corners, std::vector<glm::vec3>* vertices_ms,
                std::vector<glm::vec3>* normals_ms, std::vector<std::uint32_t>* indices) {
  const std::vector<glm::vec3> c(corners);
  const glm::vec3 n = glm::normalize(glm::cross(c[1] - c[0], c[2] - c[0]));
  const auto first = static_cast<std::uint32_t>(vertices_ms->size());
  for (const glm::vec3& p : c) {
    vertices_ms->push_back(p);
    if (normals_ms) normals_ms->push_back(n);
  }
  for (std::uint32_t k = 1; k + 1 < c.size(); ++k) {
    indices->insert(indices->end(), {first, first + k, first + k + 1});
  }
}

}  // namespace

void AppendBox(const glm::vec3& lo, const glm::vec3& hi, std::vector<glm::vec3>* v,
               std::vector<glm::vec3>* n, std::vector<std::uint32_t>* i) {
  const auto p = [&](int x, int y, int z) {
    return glm::vec3(x ? hi.x : lo.x, y ? hi.y : lo.y, z ? hi.z : lo.z);
  };
  AppendFace({p(0, 1, 0), p(0, 1, 1), p(1, 1, 1), p(1, 1, 0)}, v, n, i);  // top (+Y)
  AppendFace({p(0, 0, 0), p(1, 0, 0), p(1, 0, 1), p(0, 0, 1)}, v, n, i);  // bottom
  AppendFace({p(0, 0, 1), p(1, 0, 1), p(1, 1, 1), p(0, 1, 1)}, v, n, i);  // +Z
  AppendFace({p(0, 0, 0), p(0, 1, 0), p(1, 1, 0), p(1, 0, 0)}, v, n, i);  // -Z
  AppendFace({p(1, 0, 0), p(1, 1, 0), p(1, 1, 1), p(1, 0, 1)}, v, n, i);  // +X
  AppendFace({p(0, 0, 0), p(0, 0, 1), p(0, 1, 1), p(0, 1, 0)}, v, n, i);  // -X
}

void AppendWedge(const glm::vec3& lo, const glm::vec3& hi, std::vector<glm::vec3>* v,
                 std::vector<glm::vec3>* n, std::vector<std::uint32_t>* i) {
  const glm::vec3 a(lo.x, lo.y, lo.z), b(hi.x, lo.y, lo.z);  // the low edge
  const glm::vec3 c(lo.x, lo.y, hi.z), d(hi.x, lo.y, hi.z);  // the bottom's far edge
  const glm::vec3 e(lo.x, hi.y, hi.z), f(hi.x, hi.y, hi.z);  // the top edge
  AppendFace({a, e, f, b}, v, n, i);                         // the slope
  AppendFace({a, b, d, c}, v, n, i);                         // bottom
  AppendFace({c, d, f, e}, v, n, i);                         // the back (+Z)
  AppendFace({b, f, d}, v, n, i);                            // +X side
  AppendFace({a, c, e}, v, n, i);                            // -X side
}

void LadderTriangles(const Ladder& ladder, std::vector<glm::vec3>* vertices_ms,
                     std::vector<std::uint32_t>* indices, std::vector<glm::vec3>* normals_ms) {
  if (!ladder.Valid()) return;
  constexpr int kSides = 16;
  const float top = ladder.first_rung_height +
                    static_cast<float>(ladder.rung_count - 1) * ladder.rung_spacing +
                    0.5f * ladder.rung_spacing;
  const float rail_radius = ladder.RailRadius();
  const glm::vec3 half = 0.5f * ladder.rail_width * ladder.AlongRungsMs();
  for (float side : {-1.0f, 1.0f}) {
    const glm::vec3 foot = ladder.base_ms + side * half;
    AppendCylinder(foot, foot + glm::vec3(0.0f, top, 0.0f), rail_radius, kSides, vertices_ms,
                   normals_ms, indices);
  }
  for (int i = 0; i < ladder.rung_count; ++i) {
    const glm::vec3 c = ladder.RungCenter(i);
    AppendCylinder(c - half, c + half, ladder.rung_radius, kSides, vertices_ms, normals_ms,
                   indices);
  }
}

anim::Model StaticModel(const std::string& name, std::vector<glm::vec3> vertices_ms,
                        std::vector<glm::vec3> normals_ms, std::vector<std::uint32_t> indices,
                        const glm::vec4& color) {
  anim::Model model;
  model.source = name;
  model.format = "generated";
  model.units = "m";
  model.skeleton.names = {name};
  model.skeleton.parents = {-1};
  model.skeleton.rest_ls = {anim::Transform{}};
  model.skeleton.flags = {anim::kBoneIsJoint};
  model.skins.push_back(anim::Skin{name, {0}, {glm::mat4(1.0f)}});
  anim::Material material;
  material.name = name;
  material.base_color = color;
  model.materials.push_back(material);
  anim::Mesh mesh;
  mesh.name = name;
  mesh.node = 0;
  mesh.skin = 0;
  mesh.follow_bone = 0;
  mesh.material = 0;
  const std::size_t n = vertices_ms.size();
  mesh.positions_bs = std::move(vertices_ms);
  mesh.normals_bs = std::move(normals_ms);
  mesh.joints.assign(n, glm::uvec4(0));
  mesh.weights.assign(n, glm::vec4(1.0f, 0.0f, 0.0f, 0.0f));
  mesh.indices = std::move(indices);
  model.meshes.push_back(std::move(mesh));
  return model;
}

anim::Model LadderModel(const Ladder& ladder) {
  std::vector<glm::vec3> vertices, normals;
  std::vector<std::uint32_t> indices;
  LadderTriangles(ladder, &vertices, &indices, &normals);
  return StaticModel("ladder", std::move(vertices), std::move(normals), std::move(indices),
                     glm::vec4(0.80f, 0.62f, 0.38f, 1.0f));
}

}  // namespace ikpose::scene
