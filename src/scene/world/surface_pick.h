// Picking on the skinned surface: which bone a click on the character's body means.
//
// What: skins every mesh's vertices on the CPU in the current pose (anim::SkinMesh, the same
// linear blend the GPU draws), casts a ray, takes the nearest triangle it hits
// (Moller-Trumbore, both faces) and answers the bone the hit point is most weighted to: the
// three vertices' bone weights blended by the hit's barycentric coordinates (a rigid mesh
// answers the bone it follows).
// Why: artists grab the body itself, not only the handles; the pick must follow the surface
// they see, in the pose they see, on any rig (scaled roots, centimetre units, many meshes).
// Limits: morph targets are not applied (the viewer draws the base shape too). Skinning runs
// again only when the pose's model matrices changed; each mesh's box is tested before its
// triangles, so a hover pick on a still pose costs one ray-box test per missed mesh.
#pragma once

#include <vector>

#include <glm/glm.hpp>

#include "anim/model.h"

namespace ikpose::scene {

struct SurfaceHit {
  bool hit = false;
  float distance = 0.0f;  // along the ray, in ray-direction units
  glm::vec3 point_ms{0.0f};
  int mesh = -1;
  int triangle = -1;
  glm::vec3 barycentric{0.0f};  // weights of the triangle's three vertices
  int bone = -1;                // skeleton index the point is most weighted to
  float bone_weight = 0.0f;     // that bone's blended weight at the point, in [0, 1]
};

class SurfacePicker {
 public:
  // Skins `model` in `pose` unless the pose's model matrices are those of the last call.
  void Update(const anim::Model& model, const anim::Pose& pose);
  // The nearest surface point along the ray (direction need not be unit), as last skinned.
  SurfaceHit Pick(const anim::Model& model, const glm::vec3& origin_ms,
                  const glm::vec3& direction_ms) const;
  // Skinned positions of mesh `mesh` as last updated.
  const std::vector<glm::vec3>& positions_ms(int mesh) const { return meshes_[mesh].positions_ms; }
  int skin_count() const { return skins_; }  // how many times Update skinned (for tests)

 private:
  struct SkinnedMeshCache {
    std::vector<glm::vec3> positions_ms;
    glm::vec3 min_ms{0.0f};
    glm::vec3 max_ms{0.0f};
  };
  std::vector<SkinnedMeshCache> meshes_;
  std::vector<glm::mat4> skinned_for_;  // the model matrices the cache was skinned with
  std::vector<glm::mat4> palette_;
  int skins_ = 0;
};

// The bone with the largest blended weight at barycentric `uvw` of triangle `triangle` of
// mesh `mesh`; *weight gets that weight. -1 for a mesh without skin data.
int DominantBone(const anim::Model& model, int mesh, int triangle, const glm::vec3& uvw,
                 float* weight = nullptr);

}  // namespace ikpose::scene
