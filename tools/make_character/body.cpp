#include "body.h"

#include <cmath>

namespace ikpose::character {

namespace {

double Gauss(double x, double sigma) {
  return std::exp(-(x * x) / (sigma * sigma));
}

dvec3 AxisX(const Rig& rig, int joint) {
  return rig.bind_ms[joint].rotation * dvec3(1, 0, 0);
}

// Torso: spine bones by height, with the shoulders, clavicles and hips blended in nearby.
Weights TorsoWeights(const Rig& rig, const dvec3& p) {
  const std::vector<int> spine{rig.Index("pelvis"), rig.Index("spine_01"), rig.Index("spine_02"),
                               rig.Index("spine_03"), rig.Index("neck_01")};
  const std::vector<double> starts{rig.Position(spine[1]).y, rig.Position(spine[2]).y,
                                   rig.Position(spine[3]).y, rig.Position(spine[4]).y};
  Weights w = ChainWeights(spine, starts, {0.04, 0.06, 0.06, 0.035}, p.y);
  for (const Side& side : rig.sides) {
    const double lateral = side.sign * p.x;
    const double clavicle = 0.85 * SmoothStep(0.05, 0.14, lateral) * SmoothStep(1.31, 1.40, p.y);
    Overlay(w, side.clavicle, clavicle);
    const dvec3 shoulder = rig.Position(side.upperarm);
    const double arm = 0.75 * (1.0 - SmoothStep(0.035, 0.11, glm::length(p - shoulder))) *
                       SmoothStep(0.10, 0.16, lateral);
    Overlay(w, side.upperarm, arm);
  }
  // Buttocks and groin follow the thighs part of the way; both sides at once, so the middle
  // stays symmetric.
  std::array<double, 2> thigh{};
  for (std::size_t k = 0; k < 2; ++k) {
    const Side& side = rig.sides[k];
    const dvec3 hip = rig.Position(side.thigh);
    thigh[k] = 0.7 * (1.0 - SmoothStep(0.06, 0.20, glm::length(p - hip))) *
               SmoothStep(hip.y + 0.08, hip.y - 0.05, p.y) *
               SmoothStep(-0.02, 0.06, side.sign * p.x);
  }
  const double total = thigh[0] + thigh[1];
  if (total > 0.0) {
    const double scale = total > 0.9 ? 0.9 / total : 1.0;
    for (Influence& i : w) i.weight *= 1.0 - total * scale;
    for (std::size_t k = 0; k < 2; ++k) {
      if (thigh[k] > 0.0) w.push_back({rig.sides[k].thigh, thigh[k] * scale});
    }
  }
  return w;
}

Part Torso(const Rig& rig) {
  // Height -> half width, front depth, back depth, centre z, superellipse exponent.
  const Curve shape({
      {0.880, {0.150, 0.095, 0.105, -0.015, 2.4}},
      {0.930, {0.166, 0.100, 0.118, -0.016, 2.4}},
      {0.980, {0.168, 0.098, 0.116, -0.016, 2.5}},
      {1.030, {0.158, 0.093, 0.104, -0.013, 2.5}},
      {1.090, {0.145, 0.093, 0.095, -0.009, 2.5}},
      {1.160, {0.150, 0.101, 0.096, -0.007, 2.5}},
      {1.240, {0.163, 0.112, 0.100, -0.007, 2.5}},
      {1.310, {0.172, 0.117, 0.102, -0.009, 2.6}},
      {1.370, {0.180, 0.108, 0.100, -0.013, 2.8}},
      {1.415, {0.185, 0.094, 0.092, -0.017, 3.0}},
      {1.450, {0.183, 0.080, 0.082, -0.021, 2.8}},
      {1.475, {0.165, 0.066, 0.070, -0.024, 2.6}},
      {1.495, {0.118, 0.056, 0.062, -0.026, 2.4}},
      {1.510, {0.066, 0.051, 0.057, -0.027, 2.2}},
      {1.520, {0.055, 0.048, 0.053, -0.027, 2.0}},
  });
  constexpr double kBelt = 1.02;
  std::vector<Ring> rings;
  for (double y : SweepSamples(0.88, 1.520, 60, {kBelt})) {
    const std::vector<double> v = shape(y);
    Ring r;
    r.center = dvec3(0.0, y, v[3]);
    r.u = dvec3(1.0, 0.0, 0.0);
    r.v = dvec3(0.0, 0.0, -1.0);  // u x v = +y; +v is the back
    r.section = {v[0], v[0], v[2], v[1], v[4], v[4]};
    r.s = y;
    rings.push_back(r);
  }
  Part part = BuildLoft(
      rings, 40, {5, 0.05, 0.8}, {3, 0.012, 1.0},
      [&rig](const dvec3& p, double) { return TorsoWeights(rig, p); },
      [](double y) { return y < kBelt ? kDark : kShirt; });
  ComputeNormals(part);
  return part;
}

Part Neck(const Rig& rig) {
  const int spine3 = rig.Index("spine_03"), neck = rig.Index("neck_01"), head = rig.Index("head");
  const std::vector<dvec3> points{{0.0, 1.43, -0.032}, {0.0, 1.645, -0.012}};
  const Curve shape({
      {0.00, {0.064, 0.058, 0.064}},
      {0.06, {0.059, 0.055, 0.058}},
      {0.13, {0.056, 0.053, 0.055}},
      {0.215, {0.054, 0.051, 0.054}},
  });
  const double length = ArcLengths(points).back();
  auto rings = SweepPolyline(points, {dvec3(1, 0, 0)}, SweepSamples(0.0, length, 14), 0.0,
                             [&shape](double s) {
                               const auto v = shape(s);
                               return Section{v[0], v[0], v[2], v[1], 2.0, 2.0};
                             });
  const std::vector<double> starts{rig.Position(neck).y, rig.Position(head).y};
  Part part = BuildLoft(
      rings, 20, {2, 0.02}, {2, 0.02},
      [=](const dvec3& p, double) {
        return ChainWeights({spine3, neck, head}, starts, {0.035, 0.03}, p.y);
      },
      [](double) { return kSkin; });
  ComputeNormals(part);
  return part;
}

// Head: an egg lofted by latitude, narrowed into a jaw and chin, then the face pushed out.
Part Head(const Rig& rig) {
  const int head = rig.Index("head");
  const dvec3 c(0.0, 1.685, 0.004);
  const double rx = 0.077, ry = 0.12, r_front = 0.098, r_back = 0.101;
  const int latitudes = 44;
  std::vector<Ring> rings;
  for (int k = 1; k < latitudes; ++k) {
    const double phi = -0.5 * kPi + kPi * k / latitudes;
    const double sn = std::sin(phi), cs = std::cos(phi);
    const double jaw = std::max(0.0, -sn);
    Ring r;
    r.center = c + dvec3(0.0, ry * sn, 0.015 * jaw);
    r.u = dvec3(1.0, 0.0, 0.0);
    r.v = dvec3(0.0, 0.0, -1.0);
    const double hw = rx * cs * (1.0 - 0.20 * std::pow(jaw, 1.2));
    r.section = {hw,  hw, r_back * cs * (1.0 - 0.45 * jaw), r_front * cs * (1.0 - 0.10 * jaw),
                 2.2, 2.2};
    r.s = c.y + ry * sn;
    rings.push_back(r);
  }
  const double pole = ry * (1.0 - std::cos(kPi / latitudes));
  Part part = BuildLoft(
      rings, 64, {0, pole}, {0, pole},
      [head](const dvec3&, double) {
        return Weights{{head, 1.0}};
      },
      [](double) { return kSkin; });
  for (dvec3& p : part.positions) {
    const dvec3 q = p - c;
    const double front = SmoothStep(0.045, 0.085, q.z);
    const double ax = std::abs(q.x);
    // Nose: tip and bridge.
    double dz = front * Gauss(q.x, 0.0105) *
                (0.020 * Gauss(p.y - 1.655, 0.012) + 0.009 * Gauss(p.y - 1.683, 0.018));
    // Brow ridge and eye sockets.
    dz += front * 0.004 * Gauss(p.y - 1.707, 0.009) * (1.0 - SmoothStep(0.045, 0.065, ax));
    dz -= front * 0.006 * Gauss(ax - 0.031, 0.013) * Gauss(p.y - 1.692, 0.010);
    // Lips and chin.
    dz += front * 0.004 * Gauss(q.x, 0.02) * Gauss(p.y - 1.622, 0.007);
    dz += front * 0.006 * Gauss(q.x, 0.022) * Gauss(p.y - 1.586, 0.012);
    p.z += dz;
    // Ears.
    const double side = SmoothStep(0.045, 0.068, ax);
    p.x += std::copysign(
        side * 0.013 * Gauss(p.y - 1.676, 0.024) * Gauss(p.z - (c.z - 0.014), 0.015), q.x);
  }
  ComputeNormals(part);
  return part;
}

// Short hair: a shell over the top and back of the head; the forehead and face stay bare
// where the shell dips inside the head.
Part Hair(const Rig& rig) {
  const int head = rig.Index("head");
  const dvec3 c(0.0, 1.712, -0.004);
  const double rx = 0.083, ry_top = 0.102, ry_bottom = 0.080, r_front = 0.0997, r_back = 0.100;
  const int latitudes = 30;
  std::vector<Ring> rings;
  for (int k = 1; k < latitudes; ++k) {
    const double phi = -0.5 * kPi + kPi * k / latitudes;
    const double sn = std::sin(phi), cs = std::cos(phi);
    Ring r;
    r.center = c + dvec3(0.0, (sn > 0.0 ? ry_top : ry_bottom) * sn, 0.0);
    r.u = dvec3(1.0, 0.0, 0.0);
    r.v = dvec3(0.0, 0.0, -1.0);
    r.section = {rx * cs, rx * cs, r_back * cs, r_front * cs, 2.2, 2.2};
    r.s = r.center.y;
    rings.push_back(r);
  }
  const double step = std::cos(kPi / latitudes);
  Part part = BuildLoft(
      rings, 48, {0, ry_bottom * (1.0 - step)}, {0, ry_top * (1.0 - step)},
      [head](const dvec3&, double) {
        return Weights{{head, 1.0}};
      },
      [](double) { return kDark; });
  ComputeNormals(part);
  return part;
}

Part Arm(const Rig& rig, const Side& side) {
  const dvec3 shoulder = rig.Position(side.upperarm);
  const dvec3 elbow = rig.Position(side.lowerarm);
  const dvec3 wrist = rig.Position(side.hand);
  const double l1 = glm::length(elbow - shoulder), l2 = glm::length(wrist - elbow);
  const dvec3 axis = AxisX(rig, side.upperarm);
  // Arc length -> extents along +u/-u (bend axis), +v (back of the arm) and -v (front).
  const Curve shape({
      {0.000, {0.045, 0.045, 0.045, 0.045}},
      {0.060, {0.046, 0.047, 0.045, 0.047}},
      {0.140, {0.042, 0.043, 0.041, 0.045}},
      {0.220, {0.039, 0.039, 0.037, 0.040}},
      {0.285, {0.035, 0.036, 0.038, 0.033}},
      {0.330, {0.040, 0.040, 0.035, 0.040}},
      {0.400, {0.035, 0.036, 0.031, 0.034}},
      {0.480, {0.026, 0.027, 0.024, 0.026}},
      {0.540, {0.019, 0.019, 0.027, 0.027}},
      {0.560, {0.018, 0.018, 0.026, 0.026}},
  });
  constexpr double kSleeveEnd = 0.128;
  const double end = l1 + l2 + 0.010;
  auto rings = SweepPolyline(
      {shoulder, elbow, wrist + 0.010 * side.hand_along}, {axis, axis},
      SweepSamples(0.0, end, 56, {kSleeveEnd - 0.003, kSleeveEnd, kSleeveEnd + 0.003}), 0.03,
      [&shape](double s) {
        const auto v = shape(s);
        const double cuff = s <= kSleeveEnd ? 0.006 : 0.0;
        return Section{v[0] + cuff, v[1] + cuff, v[2] + cuff, v[3] + cuff, 2.0, 2.0};
      });
  const std::vector<int> bones{side.clavicle, side.upperarm, side.lowerarm, side.hand};
  const std::vector<double> starts{0.01, l1, l1 + l2};
  Part part = BuildLoft(
      rings, 20, {5, 0.045}, {3, 0.012},
      [=](const dvec3&, double s) {
        return ChainWeights(bones, starts, {0.06, 0.045, 0.025}, s);
      },
      [](double s) { return s < kSleeveEnd + 0.0015 ? kShirt : kSkin; });
  ComputeNormals(part);
  return part;
}

Part Palm(const Rig& rig, const Side& side) {
  const dvec3 wrist = rig.Position(side.hand);
  const dvec3 a = side.hand_along, n = side.palm_normal;
  const dvec3 v = glm::cross(a, n);  // u = palm normal, u x v = along the hand
  const bool thumb_on_v = glm::dot(v, side.thumb_side) > 0.0;
  // Along the hand -> palm-side and back thickness, thumb-side and little-finger-side width,
  // exponent.
  const Curve shape({
      {-0.004, {0.016, 0.016, 0.028, 0.026, 2.4}},
      {0.020, {0.021, 0.016, 0.039, 0.033, 2.8}},
      {0.050, {0.020, 0.015, 0.041, 0.038, 3.0}},
      {0.078, {0.016, 0.014, 0.040, 0.038, 3.2}},
      {0.090, {0.013, 0.013, 0.038, 0.035, 3.0}},
  });
  std::vector<Ring> rings;
  for (double s : SweepSamples(-0.004, 0.090, 12)) {
    const auto k = shape(s);
    Ring r;
    r.center = wrist + a * s;
    r.u = n;
    r.v = v;
    r.section = {k[0], k[1], thumb_on_v ? k[2] : k[3], thumb_on_v ? k[3] : k[2], k[4], k[4]};
    r.s = s;
    rings.push_back(r);
  }
  const int lowerarm = side.lowerarm, hand = side.hand;
  Part part = BuildLoft(
      rings, 16, {3, 0.012}, {4, 0.012, 0.8},
      [=](const dvec3&, double s) {
        return ChainWeights({lowerarm, hand}, {0.0}, {0.025}, s);
      },
      [](double) { return kSkin; });
  ComputeNormals(part);
  return part;
}

Part FingerTube(const Rig& rig, const Side& side, std::size_t index) {
  const Finger& f = side.fingers[index];
  const bool thumb = index == 0;
  const std::vector<dvec3> points{f.base_ms, rig.Position(f.joints[0]), rig.Position(f.joints[1]),
                                  rig.Position(f.joints[2]), f.tip_ms};
  const std::vector<dvec3> sides{AxisX(rig, f.joints[0]), AxisX(rig, f.joints[0]),
                                 AxisX(rig, f.joints[1]), AxisX(rig, f.joints[2])};
  const std::vector<double> arc = ArcLengths(points);
  const double r0 = f.radius, tip = arc.back();
  auto radius = [=](double s) {
    if (thumb) {
      // The ball of the thumb, then the thumb itself.
      return r0 * (1.55 - 0.55 * SmoothStep(arc[1], arc[2], s)) *
             (1.0 - 0.25 * SmoothStep(arc[2], tip, s));
    }
    return r0 * (1.04 - 0.24 * SmoothStep(arc[1], tip, s));
  };
  const int count = static_cast<int>(std::ceil(tip / 0.004));
  auto rings = SweepPolyline(points, sides, SweepSamples(0.0, tip, count), 0.006, [=](double s) {
    const double r = radius(s);
    return Section{r, r, 0.88 * r, 0.92 * r, 2.0, 2.0};
  });
  const std::vector<int> bones{side.hand, f.joints[0], f.joints[1], f.joints[2]};
  const std::vector<double> starts{arc[1], arc[2], arc[3]};
  const std::vector<double> bands{thumb ? 0.015 : 0.010, 0.007, 0.006};
  Part part = BuildLoft(
      rings, 10, {2, 0.006}, {4, 0.85 * radius(tip)},
      [=](const dvec3&, double s) { return ChainWeights(bones, starts, bands, s); },
      [](double) { return kSkin; });
  ComputeNormals(part);
  return part;
}

Part Leg(const Rig& rig, const Side& side) {
  const dvec3 hip = rig.Position(side.thigh);
  const dvec3 knee = rig.Position(side.calf);
  const dvec3 ankle = rig.Position(side.foot);
  const double l1 = glm::length(knee - hip), l2 = glm::length(ankle - knee);
  const dvec3 axis = AxisX(rig, side.thigh);
  // Arc length -> extents along +u/-u (bend axis), +v (front) and -v (back).
  const Curve shape({
      {0.00, {0.084, 0.084, 0.080, 0.090}},
      {0.08, {0.082, 0.082, 0.080, 0.086}},
      {0.20, {0.073, 0.073, 0.072, 0.072}},
      {0.32, {0.063, 0.063, 0.062, 0.059}},
      {0.40, {0.055, 0.055, 0.056, 0.053}},
      {0.43, {0.052, 0.052, 0.055, 0.050}},
      {0.47, {0.050, 0.050, 0.051, 0.054}},
      {0.56, {0.052, 0.052, 0.049, 0.064}},
      {0.66, {0.048, 0.048, 0.045, 0.056}},
      {0.76, {0.045, 0.045, 0.043, 0.047}},
      {0.86, {0.045, 0.045, 0.044, 0.045}},
  });
  auto rings = SweepPolyline({hip, knee, ankle}, {axis, axis}, SweepSamples(0.0, l1 + l2, 64), 0.04,
                             [&shape](double s) {
                               const auto v = shape(s);
                               return Section{v[0], v[1], v[2], v[3], 2.0, 2.0};
                             });
  const std::vector<int> bones{rig.Index("pelvis"), side.thigh, side.calf, side.foot};
  const std::vector<double> starts{0.0, l1, l1 + l2};
  Part part = BuildLoft(
      rings, 24, {6, 0.075}, {3, 0.02},
      [=](const dvec3&, double s) {
        return ChainWeights(bones, starts, {0.075, 0.05, 0.03}, s);
      },
      [](double) { return kDark; });
  ComputeNormals(part);
  return part;
}

Part Shoe(const Rig& rig, const Side& side) {
  const dvec3 ankle = rig.Position(side.foot);
  const dvec3 ball = rig.Position(side.ball);
  const dvec3 f = side.foot_forward;
  const dvec3 u = glm::normalize(glm::cross(dvec3(0, 1, 0), f));
  const dvec3 base(ankle.x, 0.0, ankle.z);
  const double ball_at = glm::dot(ball - base, f);
  // Distance along the foot from under the ankle -> half width, height.
  const Curve shape({
      {-0.072, {0.031, 0.070}},
      {-0.055, {0.037, 0.092}},
      {-0.030, {0.041, 0.112}},
      {0.000, {0.043, 0.116}},
      {0.030, {0.046, 0.100}},
      {0.070, {0.050, 0.074}},
      {0.110, {0.052, 0.058}},
      {0.150, {0.049, 0.048}},
      {0.175, {0.042, 0.041}},
      {0.190, {0.034, 0.035}},
  });
  std::vector<Ring> rings;
  for (double s : SweepSamples(-0.072, 0.190, 36, {ball_at})) {
    const auto k = shape(s);
    Ring r;
    r.center = base + f * s + dvec3(0.0, 0.5 * k[1], 0.0);
    r.u = u;
    r.v = glm::cross(f, u);  // up
    r.section = {k[0], k[0], 0.5 * k[1], 0.5 * k[1], 2.4, 8.0};
    r.s = s;
    rings.push_back(r);
  }
  const int foot = side.foot, toes = side.ball;
  Part part = BuildLoft(
      rings, 24, {3, 0.012, 0.7}, {4, 0.016, 0.8},
      [=](const dvec3&, double s) {
        return ChainWeights({foot, toes}, {ball_at}, {0.025}, s);
      },
      [](double) { return kDark; });
  ComputeNormals(part);
  return part;
}

}  // namespace

std::vector<Part> BuildBody(const Rig& rig) {
  std::vector<Part> parts;
  parts.push_back(Torso(rig));
  parts.push_back(Neck(rig));
  parts.push_back(Head(rig));
  parts.push_back(Hair(rig));
  for (const Side& side : rig.sides) {
    parts.push_back(Arm(rig, side));
    parts.push_back(Palm(rig, side));
    for (std::size_t f = 0; f < side.fingers.size(); ++f) parts.push_back(FingerTube(rig, side, f));
    parts.push_back(Leg(rig, side));
    parts.push_back(Shoe(rig, side));
  }
  return parts;
}

}  // namespace ikpose::character
