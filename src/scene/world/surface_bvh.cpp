#include "scene/world/surface_bvh.h"

#include <embree3/rtcore.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace ikpose::scene {

namespace {

// One device for the process: creating one starts Embree's threads (milliseconds).
RTCDevice Device() {
  static RTCDevice device = rtcNewDevice("threads=1");
  return device;
}

bool Finite(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// The point of triangle (a, b, c) nearest p, by the region of the triangle's plane p projects
// into (a vertex, an edge or the face), told apart by the barycentric coordinates' signs: six
// dot products, no cross product (the face's and each edge's projections computed only for the
// region that holds it). Why: the nearest-point queries of the body solve and the penetration
// report spend most of their time here.
glm::vec3 NearestOnTriangle(const glm::vec3& p, const glm::vec3& a, const glm::vec3& b,
                            const glm::vec3& c) {
  const glm::vec3 ab = b - a, ac = c - a, ap = p - a;
  const float d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
  if (d1 <= 0.0f && d2 <= 0.0f) return a;
  const glm::vec3 bp = p - b;
  const float d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
  if (d3 >= 0.0f && d4 <= d3) return b;
  const float vc = d1 * d4 - d3 * d2;
  // (Each edge's division is by its squared length: a zero-length edge falls through to the
  // degenerate case below.)
  if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f && d1 - d3 > 0.0f) return a + (d1 / (d1 - d3)) * ab;
  const glm::vec3 cp = p - c;
  const float d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
  if (d6 >= 0.0f && d5 <= d6) return c;
  const float vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f && d2 - d6 > 0.0f) return a + (d2 / (d2 - d6)) * ac;
  const float va = d3 * d6 - d5 * d4;
  if (va <= 0.0f && d4 - d3 >= 0.0f && d5 - d6 >= 0.0f && (d4 - d3) + (d5 - d6) > 0.0f)
    return b + ((d4 - d3) / ((d4 - d3) + (d5 - d6))) * (c - b);
  const float sum = va + vb + vc;
  if (!(sum > 0.0f)) {  // a degenerate triangle (its vertices on a line): its nearest edge
    glm::vec3 best = a;
    for (const auto& [e0, e1] : {std::pair{a, b}, std::pair{b, c}, std::pair{c, a}}) {
      const glm::vec3 e = e1 - e0;
      const float len2 = glm::dot(e, e);
      const float t = len2 > 0.0f ? std::clamp(glm::dot(p - e0, e) / len2, 0.0f, 1.0f) : 0.0f;
      const glm::vec3 q = e0 + t * e;
      if (glm::dot(q - p, q - p) < glm::dot(best - p, best - p)) best = q;
    }
    return best;
  }
  return a + (vb / sum) * ab + (vc / sum) * ac;
}

struct NearestSearch {
  const std::vector<glm::vec3>* vertices;
  const std::vector<std::uint32_t>* kept;
  glm::vec3 point;
  bool found = false;
  SurfacePoint best;
};

bool VisitNearest(RTCPointQueryFunctionArguments* args) {
  auto* search = static_cast<NearestSearch*>(args->userPtr);
  const std::size_t prim = args->primID;
  if (3 * prim + 2 >= search->kept->size()) return false;
  const std::vector<glm::vec3>& v = *search->vertices;
  const std::vector<std::uint32_t>& k = *search->kept;
  const glm::vec3 q =
      NearestOnTriangle(search->point, v[k[3 * prim]], v[k[3 * prim + 1]], v[k[3 * prim + 2]]);
  const float d = glm::length(q - search->point);
  if (!(d <= args->query->radius)) return false;
  // Shrinking the radius lets Embree skip what is farther.
  args->query->radius = d;
  search->found = true;
  search->best.point_ms = q;
  search->best.distance = d;
  search->best.triangle = static_cast<std::uint32_t>(prim);
  return true;
}

}  // namespace

SurfaceBvh::~SurfaceBvh() {
  Release();
}

SurfaceBvh::SurfaceBvh(SurfaceBvh&& other) noexcept {
  *this = std::move(other);
}

SurfaceBvh& SurfaceBvh::operator=(SurfaceBvh&& other) noexcept {
  if (this != &other) {
    Release();
    scene_ = other.scene_;
    triangles_ = other.triangles_;
    skipped_ = other.skipped_;
    original_ = std::move(other.original_);
    vertices_ = std::move(other.vertices_);
    kept_ = std::move(other.kept_);
    other.scene_ = nullptr;
    other.triangles_ = 0;
    other.skipped_ = 0;
  }
  return *this;
}

void SurfaceBvh::Release() {
  if (scene_) rtcReleaseScene(static_cast<RTCScene>(scene_));
  scene_ = nullptr;
  triangles_ = 0;
  skipped_ = 0;
  original_.clear();
  vertices_.clear();
  kept_.clear();
}

bool SurfaceBvh::Build(const std::vector<glm::vec3>& vertices_ms,
                       const std::vector<std::uint32_t>& indices, std::string* error) {
  Release();
  const std::size_t given = indices.size() / 3;
  if (given > kMaxTriangles) {
    *error = std::to_string(given) + " triangles, more than the " + std::to_string(kMaxTriangles) +
             " a scene may hold";
    return false;
  }
  // Keep the triangles Embree can use; a NaN vertex would otherwise be silently dropped by it.
  std::vector<std::uint32_t> kept;
  kept.reserve(given * 3);
  for (std::size_t t = 0; t < given; ++t) {
    bool ok = true;
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t i = indices[3 * t + static_cast<std::size_t>(k)];
      ok = ok && i < vertices_ms.size() && Finite(vertices_ms[i]);
    }
    if (!ok) {
      ++skipped_;
      continue;
    }
    kept.insert(kept.end(), indices.begin() + static_cast<long>(3 * t),
                indices.begin() + static_cast<long>(3 * t + 3));
    original_.push_back(static_cast<std::uint32_t>(t));
  }
  if (original_.empty()) return true;
  RTCDevice device = Device();
  if (!device) {
    *error = "the ray-casting library (Embree) could not start";
    return false;
  }
  RTCScene scene = rtcNewScene(device);
  RTCGeometry geometry = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_TRIANGLE);
  auto* vb = static_cast<float*>(rtcSetNewGeometryBuffer(geometry, RTC_BUFFER_TYPE_VERTEX, 0,
                                                         RTC_FORMAT_FLOAT3, 3 * sizeof(float),
                                                         vertices_ms.size()));
  auto* ib = static_cast<std::uint32_t*>(
      rtcSetNewGeometryBuffer(geometry, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3,
                              3 * sizeof(std::uint32_t), original_.size()));
  if (!vb || !ib) {
    rtcReleaseGeometry(geometry);
    rtcReleaseScene(scene);
    original_.clear();
    *error = "out of memory for the props' ray-casting structure";
    return false;
  }
  for (std::size_t i = 0; i < vertices_ms.size(); ++i) {
    const glm::vec3 v = Finite(vertices_ms[i]) ? vertices_ms[i] : glm::vec3(0.0f);
    vb[3 * i] = v.x;
    vb[3 * i + 1] = v.y;
    vb[3 * i + 2] = v.z;
  }
  std::copy(kept.begin(), kept.end(), ib);
  rtcCommitGeometry(geometry);
  rtcAttachGeometry(scene, geometry);
  rtcReleaseGeometry(geometry);
  rtcSetSceneFlags(scene, RTC_SCENE_FLAG_ROBUST);
  rtcCommitScene(scene);
  if (rtcGetDeviceError(device) != RTC_ERROR_NONE) {
    rtcReleaseScene(scene);
    original_.clear();
    *error = "the ray-casting library (Embree) could not build the props' surfaces";
    return false;
  }
  scene_ = scene;
  triangles_ = original_.size();
  vertices_ = vertices_ms;
  kept_ = std::move(kept);
  return true;
}

std::optional<RayHit> SurfaceBvh::Cast(const glm::vec3& origin_ms, const glm::vec3& direction_ms,
                                       float max_distance) const {
  if (!scene_ || !Finite(origin_ms) || !Finite(direction_ms) || !(max_distance > 0.0f)) {
    return std::nullopt;
  }
  const float length = glm::length(direction_ms);
  if (!(length > 0.0f) || !std::isfinite(length)) return std::nullopt;
  const glm::vec3 dir = direction_ms / length;
  RTCIntersectContext context;
  rtcInitIntersectContext(&context);
  RTCRayHit rh{};
  rh.ray.org_x = origin_ms.x;
  rh.ray.org_y = origin_ms.y;
  rh.ray.org_z = origin_ms.z;
  rh.ray.dir_x = dir.x;
  rh.ray.dir_y = dir.y;
  rh.ray.dir_z = dir.z;
  rh.ray.tnear = 0.0f;
  rh.ray.tfar = std::isfinite(max_distance) ? max_distance : std::numeric_limits<float>::max();
  rh.ray.mask = 0xFFFFFFFFu;
  rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
  rtcIntersect1(static_cast<RTCScene>(scene_), &context, &rh);
  if (rh.hit.geomID == RTC_INVALID_GEOMETRY_ID) return std::nullopt;
  RayHit hit;
  hit.distance = rh.ray.tfar;
  hit.point_ms = origin_ms + dir * rh.ray.tfar;
  // Embree's geometric normal is the unnormalised cross product of the triangle's edges.
  glm::vec3 n(rh.hit.Ng_x, rh.hit.Ng_y, rh.hit.Ng_z);
  const float n_length = glm::length(n);
  n = n_length > 0.0f ? n / n_length : glm::vec3(0.0f, 1.0f, 0.0f);
  if (glm::dot(n, dir) > 0.0f) n = -n;  // face the ray's origin whatever the winding
  hit.normal_ms = n;
  const std::size_t prim = rh.hit.primID;
  hit.triangle = prim < original_.size() ? original_[prim] : 0u;
  if (3 * prim + 2 < kept_.size()) {
    const glm::vec3& v0 = vertices_[kept_[3 * prim]];
    const glm::vec3 face =
        glm::cross(vertices_[kept_[3 * prim + 1]] - v0, vertices_[kept_[3 * prim + 2]] - v0);
    hit.front = glm::dot(face, dir) < 0.0f;
  }
  return hit;
}

std::optional<SurfacePoint> SurfaceBvh::Nearest(const glm::vec3& point_ms,
                                                float max_distance) const {
  if (!scene_ || !Finite(point_ms) || !(max_distance > 0.0f)) return std::nullopt;
  RTCPointQuery query{};
  query.x = point_ms.x;
  query.y = point_ms.y;
  query.z = point_ms.z;
  query.radius = std::isfinite(max_distance) ? max_distance : std::numeric_limits<float>::max();
  RTCPointQueryContext context;
  rtcInitPointQueryContext(&context);
  NearestSearch search{&vertices_, &kept_, point_ms, false, SurfacePoint{}};
  rtcPointQuery(static_cast<RTCScene>(scene_), &query, &context, VisitNearest, &search);
  if (!search.found) return std::nullopt;
  SurfacePoint nearest = search.best;
  const std::size_t prim = nearest.triangle;
  const glm::vec3 normal = glm::cross(vertices_[kept_[3 * prim + 1]] - vertices_[kept_[3 * prim]],
                                      vertices_[kept_[3 * prim + 2]] - vertices_[kept_[3 * prim]]);
  const float area = glm::length(normal);
  if (area > 0.0f && std::isfinite(area)) nearest.normal_ms = normal / area;
  nearest.triangle = nearest.triangle < original_.size() ? original_[nearest.triangle] : 0u;
  return nearest;
}

}  // namespace ikpose::scene
