#include "scene/world/surface_pick.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "anim/skinning.h"

namespace ikpose::scene {

namespace {

// Slab test: whether the ray meets the box at a distance below `best` (boxes behind the
// origin are missed).
bool RayHitsBox(const glm::vec3& origin, const glm::vec3& direction, const glm::vec3& min,
                const glm::vec3& max, float best) {
  float near = 0.0f, far = best;
  for (int axis = 0; axis < 3; ++axis) {
    if (std::abs(direction[axis]) < 1e-20f) {
      if (origin[axis] < min[axis] || origin[axis] > max[axis]) return false;
      continue;
    }
    const float inverse = 1.0f / direction[axis];
    float t0 = (min[axis] - origin[axis]) * inverse;
    float t1 = (max[axis] - origin[axis]) * inverse;
    if (t0 > t1) std::swap(t0, t1);
    near = std::max(near, t0);
    far = std::min(far, t1);
    if (near > far) return false;
  }
  return true;
}

// Moller & Trumbore, "Fast, minimum storage ray/triangle intersection" (1997), two-sided:
// the distance along the ray, or a negative number on a miss; *u, *v weigh b and c.
float RayTriangle(const glm::vec3& origin, const glm::vec3& direction, const glm::vec3& a,
                  const glm::vec3& b, const glm::vec3& c, float* u, float* v) {
  const glm::vec3 ab = b - a, ac = c - a;
  const glm::vec3 p = glm::cross(direction, ac);
  const float det = glm::dot(ab, p);
  if (std::abs(det) < 1e-30f) return -1.0f;  // parallel or degenerate
  const float inverse = 1.0f / det;
  const glm::vec3 s = origin - a;
  *u = glm::dot(s, p) * inverse;
  if (*u < 0.0f || *u > 1.0f) return -1.0f;
  const glm::vec3 q = glm::cross(s, ab);
  *v = glm::dot(direction, q) * inverse;
  if (*v < 0.0f || *u + *v > 1.0f) return -1.0f;
  return glm::dot(ac, q) * inverse;
}

}  // namespace

void SurfacePicker::Update(const anim::Model& model, const anim::Pose& pose) {
  if (meshes_.size() == model.meshes.size() && skinned_for_ == pose.models_ms) return;
  skinned_for_ = pose.models_ms;
  meshes_.resize(model.meshes.size());
  for (std::size_t m = 0; m < model.meshes.size(); ++m) {
    const anim::Mesh& mesh = model.meshes[m];
    SkinnedMeshCache& cache = meshes_[m];
    cache.positions_ms.resize(mesh.positions_bs.size());
    if (mesh.skin < 0 || mesh.joints.size() != mesh.positions_bs.size() ||
        mesh.weights.size() != mesh.positions_bs.size()) {
      cache.positions_ms = mesh.positions_bs;  // nothing moves it
    } else {
      palette_.resize(model.skins[static_cast<std::size_t>(mesh.skin)].joints.size());
      anim::BuildPalette(model.skins[static_cast<std::size_t>(mesh.skin)], pose.models_ms,
                         palette_);
      anim::SkinMesh(mesh, palette_, cache.positions_ms, {});
    }
    cache.min_ms = glm::vec3(std::numeric_limits<float>::max());
    cache.max_ms = glm::vec3(-std::numeric_limits<float>::max());
    for (const glm::vec3& p : cache.positions_ms) {
      cache.min_ms = glm::min(cache.min_ms, p);
      cache.max_ms = glm::max(cache.max_ms, p);
    }
  }
  ++skins_;
}

SurfaceHit SurfacePicker::Pick(const anim::Model& model, const glm::vec3& origin_ms,
                               const glm::vec3& direction_ms) const {
  SurfaceHit best;
  float nearest = std::numeric_limits<float>::max();
  for (std::size_t m = 0; m < meshes_.size() && m < model.meshes.size(); ++m) {
    const SkinnedMeshCache& cache = meshes_[m];
    if (cache.positions_ms.empty() ||
        !RayHitsBox(origin_ms, direction_ms, cache.min_ms, cache.max_ms, nearest)) {
      continue;
    }
    const std::vector<std::uint32_t>& indices = model.meshes[m].indices;
    const std::size_t n = cache.positions_ms.size();
    for (std::size_t t = 0; t + 2 < indices.size(); t += 3) {
      if (indices[t] >= n || indices[t + 1] >= n || indices[t + 2] >= n) continue;
      float u = 0.0f, v = 0.0f;
      const float distance = RayTriangle(origin_ms, direction_ms, cache.positions_ms[indices[t]],
                                         cache.positions_ms[indices[t + 1]],
                                         cache.positions_ms[indices[t + 2]], &u, &v);
      if (distance < 0.0f || distance >= nearest) continue;
      nearest = distance;
      best.hit = true;
      best.distance = distance;
      best.mesh = static_cast<int>(m);
      best.triangle = static_cast<int>(t / 3);
      best.barycentric = glm::vec3(1.0f - u - v, u, v);
    }
  }
  if (best.hit) {
    best.point_ms = origin_ms + best.distance * direction_ms;
    best.bone = DominantBone(model, best.mesh, best.triangle, best.barycentric, &best.bone_weight);
  }
  return best;
}

int DominantBone(const anim::Model& model, int mesh, int triangle, const glm::vec3& uvw,
                 float* weight) {
  const anim::Mesh& m = model.meshes[static_cast<std::size_t>(mesh)];
  if (m.skin < 0) return -1;
  const std::vector<int>& joints = model.skins[static_cast<std::size_t>(m.skin)].joints;
  // At most 12 (bone, weight) pairs: four per corner.
  std::pair<int, float> blend[12];
  int count = 0;
  for (int corner = 0; corner < 3; ++corner) {
    const std::size_t v = m.indices[static_cast<std::size_t>(triangle) * 3 + corner];
    if (v >= m.joints.size() || v >= m.weights.size()) continue;
    for (int i = 0; i < 4; ++i) {
      const float w = m.weights[v][i] * uvw[corner];
      const unsigned joint = m.joints[v][i];
      if (w <= 0.0f || joint >= joints.size()) continue;
      const int bone = joints[joint];
      int k = 0;
      while (k < count && blend[k].first != bone) ++k;
      if (k == count) blend[count++] = {bone, 0.0f};
      blend[k].second += w;
    }
  }
  int best = -1;
  float best_weight = 0.0f;
  for (int k = 0; k < count; ++k) {
    if (blend[k].second > best_weight) {
      best_weight = blend[k].second;
      best = blend[k].first;
    }
  }
  if (weight) *weight = best_weight;
  return best;
}

}  // namespace ikpose::scene
