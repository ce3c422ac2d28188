#include "scene/world/prop_rungs.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <string>
#include <tuple>
#include <unordered_map>

#include "scene/world/ladder.h"
#include "scene/world/world.h"

namespace ikpose::scene {

namespace {

// Disjoint sets over welded corners: a piece is what its triangles join.
struct Pieces {
  std::vector<std::uint32_t> parent;
  std::uint32_t Find(std::uint32_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  }
  void Join(std::uint32_t a, std::uint32_t b) { parent[Find(a)] = Find(b); }
};

struct Bar {
  glm::vec3 direction{0.0f};  // along it, horizontal, unit
  glm::vec3 middle{0.0f};     // its axis midpoint
  float length = 0.0f;
  float radius = 0.0f;
  bool round = false;
};

// A piece as a horizontal bar, if it is one.
bool AsBar(const std::vector<glm::vec3>& corners, Bar* bar) {
  if (corners.size() < 4) return false;
  glm::dvec2 mean(0.0);
  for (const glm::vec3& p : corners) mean += glm::dvec2(p.x, p.z);
  mean /= static_cast<double>(corners.size());
  double xx = 0.0, xz = 0.0, zz = 0.0;
  for (const glm::vec3& p : corners) {
    const glm::dvec2 d = glm::dvec2(p.x, p.z) - mean;
    xx += d.x * d.x;
    xz += d.x * d.y;
    zz += d.y * d.y;
  }
  const double angle = 0.5 * std::atan2(2.0 * xz, xx - zz);  // the main horizontal direction
  glm::vec3 along(static_cast<float>(std::cos(angle)), 0.0f, static_cast<float>(std::sin(angle)));
  if (along.x < 0.0f || (along.x == 0.0f && along.z < 0.0f)) along = -along;
  const glm::vec3 across(-along.z, 0.0f, along.x);
  glm::vec3 lo(1e30f), hi(-1e30f);  // along, across, up
  for (const glm::vec3& p : corners) {
    const glm::vec3 q(glm::dot(p, along), glm::dot(p, across), p.y);
    lo = glm::min(lo, q);
    hi = glm::max(hi, q);
  }
  const glm::vec3 size = hi - lo;
  const float thick = std::max(size.y, size.z), thin = std::min(size.y, size.z);
  if (!(thin > 0.0f) || size.x < kBarLengthOverThickness * thick ||
      thin < kCrossSectionRatio * thick) {
    return false;
  }
  const glm::vec3 mid = 0.5f * (lo + hi);
  bar->direction = along;
  bar->middle = mid.x * along + mid.y * across + glm::vec3(0.0f, mid.z, 0.0f);
  bar->length = size.x;
  bar->radius = 0.5f * thick;
  // Round: the side's corners all at one distance from the axis, all round it (a square bar's
  // four corners are at one distance too, but in four directions only).
  float near = 1e30f, far = 0.0f;
  std::uint32_t sectors = 0;  // 16 directions round the axis, a bit each
  for (const glm::vec3& p : corners) {
    const glm::vec2 off(glm::dot(p, across) - mid.y, p.y - mid.z);
    const float r = glm::length(off);
    far = std::max(far, r);
    if (r < 0.5f * bar->radius) continue;  // a cap's centre
    near = std::min(near, r);
    const float turn = std::atan2(off.y, off.x) / 6.2831853f + 1.0f;
    sectors |= 1u << (static_cast<int>(turn * 16.0f + 0.5f) % 16);
  }
  bar->round = far > 0.0f && near >= (1.0f - kRoundTolerance) * far && std::popcount(sectors) >= 6;
  return true;
}

bool SameRungs(const Bar& a, const Bar& b) {
  const glm::vec3 offset = b.middle - a.middle;
  return std::abs(glm::dot(a.direction, b.direction)) >= std::cos(glm::radians(kParallelDeg)) &&
         std::abs(a.length - b.length) <= kSameSize * a.length &&
         std::abs(a.radius - b.radius) <= kSameSize * a.radius &&
         std::abs(glm::dot(offset, glm::vec3(-a.direction.z, 0.0f, a.direction.x))) <= a.radius &&
         std::abs(glm::dot(offset, a.direction)) <= kSameSize * a.length;
}

}  // namespace

PropRungs FindRungs(const anim::Model& prop, bool marked) {
  PropRungs out;
  std::size_t vertex_count = 0;
  for (const anim::Mesh& mesh : prop.meshes) vertex_count += mesh.positions_bs.size();
  if (vertex_count > kMaxSearchedVertices) {
    out.why_not = "more than " + std::to_string(kMaxSearchedVertices) + " vertices to search";
    return out;
  }
  // Every corner, welded by position (a cylinder's caps often have their own corners).
  std::vector<glm::vec3> corners;
  std::vector<std::uint32_t> triangles;
  std::unordered_map<std::uint64_t, std::uint32_t> welded;
  float floor_y = 1e30f;
  const auto key = [](const glm::vec3& p) {
    std::uint64_t h = 1469598103934665603ull;
    for (float c : {p.x, p.y, p.z}) {
      std::uint32_t bits = 0;
      const float q = c == 0.0f ? 0.0f : c;  // -0 and +0 are one corner
      std::memcpy(&bits, &q, sizeof bits);
      h = (h ^ bits) * 1099511628211ull;
    }
    return h;
  };
  for (const anim::Mesh& mesh : prop.meshes) {
    std::vector<std::uint32_t> id(mesh.positions_bs.size());
    for (std::size_t v = 0; v < mesh.positions_bs.size(); ++v) {
      const glm::vec3& p = mesh.positions_bs[v];
      floor_y = std::min(floor_y, p.y);
      const auto [it, added] = welded.emplace(key(p), static_cast<std::uint32_t>(corners.size()));
      if (added) corners.push_back(p);
      id[v] = it->second;
    }
    for (std::size_t i = 0; i + 2 < mesh.indices.size(); i += 3) {
      if (mesh.indices[i] >= id.size() || mesh.indices[i + 1] >= id.size() ||
          mesh.indices[i + 2] >= id.size()) {
        continue;
      }
      for (int k = 0; k < 3; ++k) triangles.push_back(id[mesh.indices[i + k]]);
    }
  }
  out.floor_y = floor_y;
  Pieces pieces{std::vector<std::uint32_t>(corners.size())};
  std::iota(pieces.parent.begin(), pieces.parent.end(), 0u);
  for (std::size_t i = 0; i < triangles.size(); i += 3) {
    pieces.Join(triangles[i], triangles[i + 1]);
    pieces.Join(triangles[i], triangles[i + 2]);
  }
  std::unordered_map<std::uint32_t, std::vector<glm::vec3>> by_piece;
  for (std::uint32_t c = 0; c < corners.size(); ++c) {
    by_piece[pieces.Find(c)].push_back(corners[c]);
    if (by_piece.size() > kMaxPieces) {
      out.why_not = "more than " + std::to_string(kMaxPieces) + " pieces";
      return out;
    }
  }
  std::vector<Bar> bars;
  for (const auto& [root, piece] : by_piece) {
    Bar bar;
    if (AsBar(piece, &bar) && (marked || bar.round)) bars.push_back(bar);
  }
  // The same pieces in any order give the same rungs.
  std::sort(bars.begin(), bars.end(), [](const Bar& a, const Bar& b) {
    return std::tie(a.middle.y, a.middle.x, a.middle.z) <
           std::tie(b.middle.y, b.middle.x, b.middle.z);
  });
  if (bars.size() > static_cast<std::size_t>(2 * Ladder::kMaxRungs)) bars.clear();
  std::vector<const Bar*> best;
  for (const Bar& seed : bars) {
    std::vector<const Bar*> set;
    for (const Bar& other : bars) {
      if (SameRungs(seed, other)) set.push_back(&other);
    }
    if (set.size() > best.size()) best = std::move(set);
  }
  const std::size_t least = marked ? 2 : static_cast<std::size_t>(kMinRungs);
  if (best.size() < least || best.size() > static_cast<std::size_t>(Ladder::kMaxRungs)) {
    out.why_not = "no " + std::to_string(least) +
                  " parallel horizontal bars of one size in one plane (each a piece of its own)";
    return out;
  }
  // Evenly spaced: the least-squares line through the heights, every rung within a quarter of
  // its radius of it (a snapped hand then misses its rung's axis by at most that).
  const std::size_t n = best.size();
  double mean_i = 0.5 * static_cast<double>(n - 1), mean_h = 0.0;
  for (const Bar* b : best) mean_h += b->middle.y;
  mean_h /= static_cast<double>(n);
  double num = 0.0, den = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    num += (static_cast<double>(i) - mean_i) * (best[i]->middle.y - mean_h);
    den += (static_cast<double>(i) - mean_i) * (static_cast<double>(i) - mean_i);
  }
  const double spacing = num / den;
  const double first = mean_h - spacing * mean_i;
  float length = 0.0f, radius = 0.0f;
  for (std::size_t i = 0; i < n; ++i) {
    length += best[i]->length / static_cast<float>(n);
    radius += best[i]->radius / static_cast<float>(n);
  }
  for (std::size_t i = 0; i < n; ++i) {
    const double off = best[i]->middle.y - (first + spacing * static_cast<double>(i));
    if (!(spacing > 0.0) || std::abs(off) > 0.25 * radius) {
      out.why_not = "its bars are not evenly spaced";
      return out;
    }
  }
  out.found = true;
  out.direction = best[0]->direction;
  out.middle = best[0]->middle;
  out.middle.y = static_cast<float>(first);
  for (std::size_t i = 0; i < n; ++i)
    out.heights.push_back(static_cast<float>(first + spacing * static_cast<double>(i)));
  out.length = length;
  out.radius = radius;
  return out;
}

bool LadderFromRungs(const PropRungs& rungs, const PropPlacement& placement, Ladder* ladder,
                     std::string* why) {
  if (!rungs.found || rungs.heights.size() < 2) {
    *why = rungs.why_not;
    return false;
  }
  const glm::mat4 m = placement.Matrix();
  // The rungs' direction once placed, level (FindRungs keeps only horizontal bars): the
  // ladder's turn about +Y, whatever way the prop was turned.
  const glm::vec3 along = glm::vec3(m * glm::vec4(rungs.direction, 0.0f));
  if (!(std::hypot(along.x, along.z) > 1e-6f)) {
    *why = "its rungs do not run level once placed";
    return false;
  }
  const glm::vec3 middle = glm::vec3(m * glm::vec4(rungs.middle, 1.0f));
  const glm::vec3 floor =
      glm::vec3(m * glm::vec4(rungs.middle.x, rungs.floor_y, rungs.middle.z, 1.0f));
  const float s = placement.scale;
  Ladder l;
  l.base_ms = glm::vec3(middle.x, floor.y, middle.z);
  l.first_rung_height = middle.y - floor.y;
  l.rung_spacing = s * (rungs.heights.back() - rungs.heights.front()) /
                   static_cast<float>(rungs.heights.size() - 1);
  l.rung_count = static_cast<int>(rungs.heights.size());
  l.rung_radius = s * rungs.radius;
  l.rail_width = s * rungs.length;
  l.yaw_deg = glm::degrees(std::atan2(-along.z, along.x));
  if (!l.Valid()) {
    *why = "its rungs do not make a ladder";
    return false;
  }
  *ladder = l;
  return true;
}

}  // namespace ikpose::scene
