// Closed solids as triangles (counter-clockwise seen from outside): cylinders, boxes, wedges,
// and the ladder made of them, for drawing it lit (a one-pixel line hides whether a palm touches
// an 18 mm rung) and for finding a knee through a rung (ground_contact.h's penetrations); the
// bundled props (tools/make_props) and the tests' props are made of the same shapes.
// Limits: 16 sides a cylinder; the rails' radius is 1.5 rung radii (at least a fiftieth of the
// rung spacing), as tall as the ladder draws them (half a spacing above the top rung).
#pragma once

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "anim/model.h"
#include "scene/world/ladder.h"

namespace ikpose::scene {

// A closed cylinder from `a_ms` to `b_ms`, appended; normals (one a vertex) when asked.
void AppendCylinder(const glm::vec3& a_ms, const glm::vec3& b_ms, float radius, int sides,
                    std::vector<glm::vec3>* vertices_ms, std::vector<glm::vec3>* normals_ms,
                    std::vector<std::uint32_t>* indices);

// An axis-aligned box, appended (flat normals: four vertices a face).
void AppendBox(const glm::vec3& min_ms, const glm::vec3& max_ms,
               std::vector<glm::vec3>* vertices_ms, std::vector<glm::vec3>* normals_ms,
               std::vector<std::uint32_t>* indices);

// A wedge over [min.x, max.x] x [min.z, max.z]: its bottom at min.y, its top rising along +Z
// from min.y (at min.z) to max.y (at max.z): a ramp.
void AppendWedge(const glm::vec3& min_ms, const glm::vec3& max_ms,
                 std::vector<glm::vec3>* vertices_ms, std::vector<glm::vec3>* normals_ms,
                 std::vector<std::uint32_t>* indices);

// The ladder's rails and rungs, model space.
void LadderTriangles(const Ladder& ladder, std::vector<glm::vec3>* vertices_ms,
                     std::vector<std::uint32_t>* indices,
                     std::vector<glm::vec3>* normals_ms = nullptr);

// A static model (one bone at the origin, one rigid mesh) of the given triangles, for the
// renderer; `color` is the material's base colour.
anim::Model StaticModel(const std::string& name, std::vector<glm::vec3> vertices_ms,
                        std::vector<glm::vec3> normals_ms, std::vector<std::uint32_t> indices,
                        const glm::vec4& color);

// The ladder as such a model (wood coloured).
anim::Model LadderModel(const Ladder& ladder);

}  // namespace ikpose::scene
