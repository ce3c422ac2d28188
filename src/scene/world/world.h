// The world the character stands in: the floor and the props (static meshes: stairs, a box, a
// ramp, a chair, a ladder) placed by a scenario, the command line (--prop) or the viewer.
//
// What: a prop is a loaded static model with a placement (position, turn about +Y, uniform
// scale) in the character's model space; a World is the props of a situation with their
// triangles in one BVH (surface_bvh.h), built once and shared read-only (every frame of a trace
// or bake, the viewer's undo steps). Why: ground contact (ground_contact.h) and penetrations
// cast rays against the props, and the renderer draws the same placed models.
// Limits: props do not move while a World lives; a moved prop makes a new World. At most
// kMaxProps props and SurfaceBvh::kMaxTriangles triangles in all.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "anim/model.h"
#include "scene/world/prop_rungs.h"
#include "scene/world/surface_bvh.h"

namespace ikpose::scene {

struct PropPlacement {
  std::string file;  // as written (scenario: relative to its folder; command line: as given)
  glm::vec3 position_ms{0.0f};
  float yaw_deg = 0.0f;  // about +Y
  float scale = 1.0f;    // uniform, > 0
  // Its bars are a ladder's rungs (scene/world/prop_rungs.h): true marks them (square bars count),
  // false turns the search off; unset, round bars are found.
  std::optional<bool> rungs;

  bool operator==(const PropPlacement&) const = default;
  // Prop space (the file's model space at rest) to the character's model space.
  glm::mat4 Matrix() const;
};

struct Prop {
  PropPlacement placement;
  std::string path;  // the file that was read (resolved)
  std::shared_ptr<const anim::Model> model;
  // Its rungs, found once by World::Build (null when searched for none: "rungs": false).
  std::shared_ptr<const PropRungs> rungs;
  bool rungs_marked = false;  // what they were searched with
};

class World {
 public:
  static constexpr std::size_t kMaxProps = 64;

  // Null with one line in *error (too many props or triangles, a prop without triangles).
  static std::shared_ptr<const World> Build(std::vector<Prop> props, std::string* error);

  const std::vector<Prop>& props() const { return props_; }
  const SurfaceBvh& bvh() const { return bvh_; }
  // The prop a triangle of bvh() belongs to.
  int PropOfTriangle(std::uint32_t triangle) const;
  // The first prop whose rungs were found (the ladder), -1 for none.
  int LadderProp() const;
  // A prop's box as placed (model space): what "sized to the character" compares.
  const anim::Bounds& PropBounds(std::size_t prop) const { return bounds_ms_[prop]; }

 private:
  std::vector<Prop> props_;
  std::vector<std::uint32_t> first_triangle_;  // per prop
  std::vector<anim::Bounds> bounds_ms_;        // per prop, placed
  SurfaceBvh bvh_;
};

// A prop that is an axis-aligned box with opposite corners `a_ms` and `b_ms` (any two), read
// as if from `file`, placed where it is made: what tests and benchmarks lean a body on.
Prop BoxProp(const std::string& file, const glm::vec3& a_ms, const glm::vec3& b_ms);

// A placed prop's triangles in model space (appended), three indices a triangle.
void AppendPropTriangles(const Prop& prop, std::vector<glm::vec3>* vertices_ms,
                         std::vector<std::uint32_t>* indices);

}  // namespace ikpose::scene
