// Swept surfaces ("lofts") for the character's body parts, with skin weights.
//
// A loft is a sequence of rings, each a superellipse-like cross-section placed in its own
// plane; consecutive rings are joined by quads (two triangles each) and both ends are closed
// by rounded caps that shrink to a pole. Rings go around counter-clockwise seen from the end the
// sweep goes towards (u x v points along the sweep), which makes the triangles counter-clockwise
// seen from outside: glTF's front faces. Normals are the area-weighted average of the faces
// around each vertex, so they point outward and the surface shades smoothly, seam included
// (the ring seam shares its vertices).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include <glm/glm.hpp>

namespace ikpose::character {

using glm::dvec2;
using glm::dvec3;

struct Influence {
  int joint = 0;
  double weight = 0.0;
};
using Weights = std::vector<Influence>;

// One closed surface (or several), with a material per triangle.
struct Part {
  std::vector<dvec3> positions;
  std::vector<dvec3> normals;
  std::vector<Weights> weights;
  std::vector<std::array<std::uint32_t, 3>> triangles;
  std::vector<int> triangle_material;
};

// A cross-section: extents along +u, -u, +v and -v, and superellipse exponents (2: ellipse;
// larger: boxier) for the +v and the -v half (a large one makes a flat sole).
struct Section {
  double u_pos = 0.0, u_neg = 0.0, v_pos = 0.0, v_neg = 0.0;
  double exponent = 2.0;
  double exponent_v_neg = 2.0;

  dvec2 Point(double theta) const;
  Section Scaled(double factor) const;
};

struct Ring {
  dvec3 center{0.0};
  dvec3 u{1.0, 0.0, 0.0}, v{0.0, 1.0, 0.0};  // unit, orthogonal; u x v is the sweep direction
  Section section;
  double s = 0.0;  // the sweep parameter the weight and material functions receive
};

// A rounded end: `rings` extra rings, shrinking as (cos phi)^bluntness over `length`, then the
// pole. rings = 0 puts the pole straight after the end ring.
struct Cap {
  int rings = 4;
  double length = 0.0;
  double bluntness = 1.0;
};

using WeightFunction = std::function<Weights(const dvec3& position, double s)>;
using MaterialFunction = std::function<int(double s)>;

// A closed tube through `rings`, `around` vertices per ring. Normals are left empty: displace
// positions if wanted, then call ComputeNormals.
Part BuildLoft(const std::vector<Ring>& rings, int around, const Cap& start, const Cap& end,
               const WeightFunction& weights, const MaterialFunction& material);
void ComputeNormals(Part& part);

// Signed volume enclosed by the part's triangles (positive when they face outward).
double SignedVolume(const Part& part);

// Smooth 0 -> 1 between e0 and e1 (e0 > e1 gives 1 -> 0).
double SmoothStep(double e0, double e1, double x);

// Piecewise cubic Hermite (Catmull-Rom tangents, non-uniform knots) through rows of values
// keyed by an increasing parameter; clamps outside the keys.
class Curve {
 public:
  struct Key {
    double t;
    std::vector<double> values;
  };
  explicit Curve(std::vector<Key> keys);
  std::vector<double> operator()(double t) const;

 private:
  std::vector<Key> keys_;
};

// Weights along a chain of bones: `bones[0]` up to `starts[0]`, then `bones[k+1]` from
// `starts[k]`, each hand-over blended smoothly over starts[k] +- bands[k].
Weights ChainWeights(const std::vector<int>& bones, const std::vector<double>& starts,
                     const std::vector<double>& bands, double s);
// Blends `joint` in with weight `amount` (0..1), scaling the others by 1 - amount.
void Overlay(Weights& weights, int joint, double amount);

// Parameters for sampling a sweep: `count` even steps over [s0, s1] plus the given breaks.
std::vector<double> SweepSamples(double s0, double s1, int count, std::vector<double> breaks = {});

// Rings along the polyline `points`; s is the arc length from the first point. Near each
// inner point the ring direction turns smoothly over +- `blend`. `side[k]` is the u-axis hint
// of segment k (made orthogonal to the direction).
std::vector<Ring> SweepPolyline(const std::vector<dvec3>& points, const std::vector<dvec3>& side,
                                const std::vector<double>& s_values, double blend,
                                const std::function<Section(double s)>& section);
// Arc length of each point of a polyline from the first.
std::vector<double> ArcLengths(const std::vector<dvec3>& points);

}  // namespace ikpose::character
