// SurfaceBvh: the static triangles of the props the character stands on and touches, in a
// bounding volume hierarchy (Embree), for ray casts.
//
// What: built once from model-space triangles; answers "what is the first surface along this
// ray" (point, unit normal facing the ray's origin, distance, which triangle) and "does this
// segment cross a surface" and "which surface point is nearest". Why: a foot is placed by a ray
// cast from above its ankle, and a knee through a rung is found by casting along the bone; a BVH
// keeps either at a few microseconds on a 100,000-triangle prop (bench/bench_ground.cpp) where a
// loop over triangles is milliseconds. Limits: a copy of the triangles is kept (the winding of a
// hit). Triangles with a vertex that is not finite or an index out of range are left out (and
// counted); at most kMaxTriangles. Queries with a non-finite origin or direction miss. Read-only
// after Build, so it can be shared between sessions and threads.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

namespace ikpose::scene {

struct RayHit {
  glm::vec3 point_ms{0.0f};
  glm::vec3 normal_ms{0.0f, 1.0f, 0.0f};  // unit, on the side the ray came from
  float distance = 0.0f;                  // along the ray, model units
  std::uint32_t triangle = 0;             // index into the triangles given to Build
  // The ray met the triangle's outside (counter-clockwise seen from the ray's origin): it
  // enters a closed surface; false: it leaves one.
  bool front = true;
};

struct SurfacePoint {
  glm::vec3 point_ms{0.0f};    // the nearest point of the surface
  float distance = 0.0f;       // from the query point, model units
  std::uint32_t triangle = 0;  // index into the triangles given to Build
  // The triangle's unit normal on its outside (counter-clockwise seen from there): which side of
  // the surface the query point is on.
  glm::vec3 normal_ms{0.0f, 1.0f, 0.0f};
};

class SurfaceBvh {
 public:
  // A prop larger than this is refused when loaded: 5 million triangles is some 250 MB of BVH.
  static constexpr std::size_t kMaxTriangles = 5'000'000;

  SurfaceBvh() = default;
  ~SurfaceBvh();
  SurfaceBvh(const SurfaceBvh&) = delete;
  SurfaceBvh& operator=(const SurfaceBvh&) = delete;
  SurfaceBvh(SurfaceBvh&& other) noexcept;
  SurfaceBvh& operator=(SurfaceBvh&& other) noexcept;

  // Three indices a triangle. False with one line in *error (too many triangles, Embree failed);
  // broken triangles are skipped, not errors (see skipped()).
  bool Build(const std::vector<glm::vec3>& vertices_ms, const std::vector<std::uint32_t>& indices,
             std::string* error);

  // The first surface from `origin_ms` along `direction_ms` (need not be unit) within
  // `max_distance`; none for a miss or a non-finite query.
  std::optional<RayHit> Cast(const glm::vec3& origin_ms, const glm::vec3& direction_ms,
                             float max_distance) const;
  // Straight down (-Y).
  std::optional<RayHit> CastDown(const glm::vec3& origin_ms, float max_distance) const {
    return Cast(origin_ms, glm::vec3(0.0f, -1.0f, 0.0f), max_distance);
  }

  // The surface point nearest `point_ms` within `max_distance` (may be infinite); none when
  // nothing is that near or the query is not finite. Why: a limb has a thickness, and how far
  // its axis is from a prop's surface says whether the limb's skin is inside it.
  std::optional<SurfacePoint> Nearest(const glm::vec3& point_ms, float max_distance) const;

  bool empty() const { return triangles_ == 0; }
  std::size_t triangles() const { return triangles_; }
  std::size_t skipped() const { return skipped_; }

 private:
  void Release();

  void* scene_ = nullptr;  // RTCScene, kept opaque so Embree stays out of the headers
  std::size_t triangles_ = 0;
  std::size_t skipped_ = 0;
  std::vector<std::uint32_t> original_;  // Embree's primitive id -> index given to Build
  std::vector<glm::vec3> vertices_;      // as given, for the winding of a hit
  std::vector<std::uint32_t> kept_;      // three a primitive, in Embree's order
};

}  // namespace ikpose::scene
