#include "loft.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ikpose::character {

namespace {
constexpr double kPi = 3.14159265358979323846;

double SignedPower(double x, double p) {
  return std::copysign(std::pow(std::abs(x), p), x);
}
}  // namespace

dvec2 Section::Point(double theta) const {
  const double c = std::cos(theta), s = std::sin(theta);
  const double e = s >= 0.0 ? exponent : exponent_v_neg;
  const double p = 2.0 / e;
  return {SignedPower(c, p) * (c >= 0.0 ? u_pos : u_neg),
          SignedPower(s, p) * (s >= 0.0 ? v_pos : v_neg)};
}

Section Section::Scaled(double factor) const {
  Section out = *this;
  out.u_pos *= factor;
  out.u_neg *= factor;
  out.v_pos *= factor;
  out.v_neg *= factor;
  return out;
}

Part BuildLoft(const std::vector<Ring>& rings, int around, const Cap& start, const Cap& end,
               const WeightFunction& weights, const MaterialFunction& material) {
  if (rings.empty() || around < 3) throw std::invalid_argument("loft needs rings");
  const Ring& first = rings.front();
  const Ring& last = rings.back();
  const dvec3 t0 = glm::normalize(glm::cross(first.u, first.v));
  const dvec3 t1 = glm::normalize(glm::cross(last.u, last.v));

  std::vector<Ring> all;
  for (int k = start.rings; k >= 1; --k) {
    const double phi = 0.5 * kPi * k / (start.rings + 1);
    const double offset = start.length * std::sin(phi);
    Ring r = first;
    r.center -= t0 * offset;
    r.section = r.section.Scaled(std::pow(std::cos(phi), start.bluntness));
    r.s -= offset;
    all.push_back(r);
  }
  all.insert(all.end(), rings.begin(), rings.end());
  for (int k = 1; k <= end.rings; ++k) {
    const double phi = 0.5 * kPi * k / (end.rings + 1);
    const double offset = end.length * std::sin(phi);
    Ring r = last;
    r.center += t1 * offset;
    r.section = r.section.Scaled(std::pow(std::cos(phi), end.bluntness));
    r.s += offset;
    all.push_back(r);
  }

  Part part;
  auto add_vertex = [&](const dvec3& p, double s) {
    part.positions.push_back(p);
    part.weights.push_back(weights(p, s));
  };
  const dvec3 pole0 = first.center - t0 * start.length;
  add_vertex(pole0, first.s - start.length);
  for (const Ring& r : all) {
    for (int j = 0; j < around; ++j) {
      const double theta = 2.0 * kPi * j / around;
      const dvec2 q = r.section.Point(theta);
      add_vertex(r.center + r.u * q.x + r.v * q.y, r.s);
    }
  }
  const dvec3 pole1 = last.center + t1 * end.length;
  add_vertex(pole1, last.s + end.length);

  const auto n = static_cast<std::uint32_t>(around);
  auto at = [n](std::size_t ring, int j) {
    return 1u + static_cast<std::uint32_t>(ring) * n + static_cast<std::uint32_t>(j) % n;
  };
  auto add_triangle = [&part](std::uint32_t a, std::uint32_t b, std::uint32_t c, int m) {
    part.triangles.push_back({a, b, c});
    part.triangle_material.push_back(m);
  };
  const int m0 = material(all.front().s);
  for (int j = 0; j < around; ++j) add_triangle(0u, at(0, j + 1), at(0, j), m0);
  for (std::size_t i = 0; i + 1 < all.size(); ++i) {
    const int m = material(0.5 * (all[i].s + all[i + 1].s));
    for (int j = 0; j < around; ++j) {
      add_triangle(at(i, j), at(i, j + 1), at(i + 1, j + 1), m);
      add_triangle(at(i, j), at(i + 1, j + 1), at(i + 1, j), m);
    }
  }
  const auto pole_end = static_cast<std::uint32_t>(part.positions.size() - 1);
  const int m1 = material(all.back().s);
  for (int j = 0; j < around; ++j) {
    add_triangle(at(all.size() - 1, j), at(all.size() - 1, j + 1), pole_end, m1);
  }
  return part;
}

void ComputeNormals(Part& part) {
  part.normals.assign(part.positions.size(), dvec3(0.0));
  for (const auto& t : part.triangles) {
    const dvec3& a = part.positions[t[0]];
    const dvec3& b = part.positions[t[1]];
    const dvec3& c = part.positions[t[2]];
    const dvec3 face = glm::cross(b - a, c - a);  // length = twice the area
    for (std::uint32_t i : t) part.normals[i] += face;
  }
  for (dvec3& normal : part.normals) {
    const double length = glm::length(normal);
    normal = length > 1e-20 ? normal / length : dvec3(0.0, 1.0, 0.0);
  }
}

double SignedVolume(const Part& part) {
  double volume = 0.0;
  for (const auto& t : part.triangles) {
    volume +=
        glm::dot(part.positions[t[0]], glm::cross(part.positions[t[1]], part.positions[t[2]])) /
        6.0;
  }
  return volume;
}

double SmoothStep(double e0, double e1, double x) {
  const double t = glm::clamp((x - e0) / (e1 - e0), 0.0, 1.0);
  return t * t * (3.0 - 2.0 * t);
}

Curve::Curve(std::vector<Key> keys) : keys_(std::move(keys)) {
  if (keys_.size() < 2) throw std::invalid_argument("a curve needs two keys");
}

std::vector<double> Curve::operator()(double t) const {
  const std::size_t n = keys_.size();
  if (t <= keys_.front().t) return keys_.front().values;
  if (t >= keys_.back().t) return keys_.back().values;
  std::size_t i = 0;
  while (i + 2 < n && t > keys_[i + 1].t) ++i;
  const Key& k0 = keys_[i];
  const Key& k1 = keys_[i + 1];
  const double h = k1.t - k0.t;
  const double u = (t - k0.t) / h;
  const double h00 = 2 * u * u * u - 3 * u * u + 1, h10 = u * u * u - 2 * u * u + u;
  const double h01 = -2 * u * u * u + 3 * u * u, h11 = u * u * u - u * u;
  auto slope = [this, n](std::size_t k, std::size_t c) {
    const std::size_t a = k == 0 ? 0 : k - 1;
    const std::size_t b = k + 1 >= n ? n - 1 : k + 1;
    return (keys_[b].values[c] - keys_[a].values[c]) / (keys_[b].t - keys_[a].t);
  };
  std::vector<double> out(k0.values.size());
  for (std::size_t c = 0; c < out.size(); ++c) {
    out[c] =
        h00 * k0.values[c] + h10 * h * slope(i, c) + h01 * k1.values[c] + h11 * h * slope(i + 1, c);
  }
  return out;
}

Weights ChainWeights(const std::vector<int>& bones, const std::vector<double>& starts,
                     const std::vector<double>& bands, double s) {
  Weights out;
  double previous = 1.0;  // share not yet handed on
  for (std::size_t k = 0; k < bones.size(); ++k) {
    double next = 0.0;  // share that goes on to the following bones
    if (k < starts.size()) next = SmoothStep(starts[k] - bands[k], starts[k] + bands[k], s);
    const double w = k == 0 ? 1.0 - next : previous - next;
    if (w > 1e-9) out.push_back({bones[k], w});
    previous = next;
  }
  return out;
}

void Overlay(Weights& weights, int joint, double amount) {
  if (amount <= 0.0) return;
  bool found = false;
  for (Influence& i : weights) {
    i.weight *= 1.0 - amount;
    if (i.joint == joint) {
      i.weight += amount;
      found = true;
    }
  }
  if (!found) weights.push_back({joint, amount});
}

std::vector<double> SweepSamples(double s0, double s1, int count, std::vector<double> breaks) {
  std::vector<double> out;
  for (int i = 0; i <= count; ++i) out.push_back(s0 + (s1 - s0) * i / count);
  for (double b : breaks) {
    if (b > s0 && b < s1) out.push_back(b);
  }
  std::sort(out.begin(), out.end());
  std::vector<double> unique;
  for (double s : out) {
    if (unique.empty() || s - unique.back() > 1e-5) unique.push_back(s);
  }
  return unique;
}

std::vector<double> ArcLengths(const std::vector<dvec3>& points) {
  std::vector<double> s(points.size(), 0.0);
  for (std::size_t i = 1; i < points.size(); ++i) {
    s[i] = s[i - 1] + glm::length(points[i] - points[i - 1]);
  }
  return s;
}

std::vector<Ring> SweepPolyline(const std::vector<dvec3>& points, const std::vector<dvec3>& side,
                                const std::vector<double>& s_values, double blend,
                                const std::function<Section(double s)>& section) {
  if (points.size() < 2 || side.size() + 1 != points.size()) {
    throw std::invalid_argument("polyline needs n points and n-1 side hints");
  }
  const std::vector<double> arc = ArcLengths(points);
  std::vector<dvec3> dirs;
  for (std::size_t i = 0; i + 1 < points.size(); ++i) {
    dirs.push_back(glm::normalize(points[i + 1] - points[i]));
  }
  std::vector<Ring> rings;
  for (double s : s_values) {
    std::size_t seg = 0;
    while (seg + 1 < dirs.size() && s > arc[seg + 1]) ++seg;
    Ring r;
    r.center = points[seg] + dirs[seg] * (s - arc[seg]);
    dvec3 t = dirs[seg];
    dvec3 hint = side[seg];
    for (std::size_t m = 1; m + 1 < points.size(); ++m) {
      if (std::abs(s - arc[m]) < blend) {
        const double w = SmoothStep(arc[m] - blend, arc[m] + blend, s);
        t = glm::normalize(glm::mix(dirs[m - 1], dirs[m], w));
        hint = glm::normalize(glm::mix(side[m - 1], side[m], w));
      }
    }
    r.u = glm::normalize(hint - glm::dot(hint, t) * t);
    r.v = glm::cross(t, r.u);
    r.section = section(s);
    r.s = s;
    rings.push_back(r);
  }
  return rings;
}

}  // namespace ikpose::character
