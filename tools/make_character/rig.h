// The default character's skeleton: joint names, parents and the bind (rest) pose, plus the
// landmarks (hand axes, finger tips, heels, toes) that the mesh and the clips are built from.
//
// Conventions (glTF): Y up, metres, the character faces +Z and its left is +X; feet on y = 0.
// Every joint's bind frame has its local +Y along the bone, towards its main child. Limb bones
// (upper/lower arm, thigh, calf, hand, fingers, foot, ball) have their local +X on the bend
// axis, oriented so that a positive rotation about local +X bends the joint the natural way:
// knee and elbow flexion, finger curl, toes down. Spine, neck and head have +X = model +X, so a
// positive rotation about +X leans forward. Clavicles: positive about +X raises the shoulder.
//
// The rest pose is an A-pose (upper arms 45 degrees down) with slightly bent elbows (10
// degrees, the forearm forward) and knees (5 degrees, the knee forward): every limb has a
// natural bend plane.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

namespace ikpose::character {

using glm::dquat;
using glm::dvec3;

// A rigid transform: p_parent = rotation * p_local + translation.
struct Rigid {
  dvec3 translation{0.0};
  dquat rotation{1.0, 0.0, 0.0, 0.0};
};
dvec3 Apply(const Rigid& t, const dvec3& p);
Rigid Compose(const Rigid& parent, const Rigid& child);
Rigid Inverse(const Rigid& t);

struct Joint {
  std::string name;
  int parent = -1;  // parents come before their children
  Rigid local;      // the node's TRS at bind, rounded to 1e-6 (what the file stores)
};

// The two-bone limbs and the hand of one side, as joint indices and bind landmarks.
struct Finger {
  std::array<int, 3> joints{};  // _01, _02, _03
  dvec3 base_ms{0.0};           // where its tube starts, inside the palm
  dvec3 tip_ms{0.0};            // the finger tip
  double radius = 0.0;          // at the first joint
};

struct Side {
  double sign = 1.0;  // +1 left (+X), -1 right
  int clavicle = -1, upperarm = -1, lowerarm = -1, hand = -1;
  int thigh = -1, calf = -1, foot = -1, ball = -1;
  // Hand axes at bind: along the hand, palm normal (out of the palm), thumb side.
  dvec3 hand_along{0.0}, palm_normal{0.0}, thumb_side{0.0};
  double palm_length = 0.0;       // wrist to knuckles of the middle finger
  std::array<Finger, 5> fingers;  // thumb, index, middle, ring, pinky
  // Foot at bind: forward direction on the floor (toe-out included), heel and toe tips on y=0.
  dvec3 foot_forward{0.0};
  dvec3 heel_ms{0.0}, toe_ms{0.0};
};

struct Rig {
  std::vector<Joint> joints;
  std::vector<Rigid> bind_ms;  // model-space bind transforms, from the rounded local TRS
  std::array<Side, 2> sides;   // [0] left, [1] right

  int Index(std::string_view name) const;  // throws std::out_of_range when absent
  dvec3 Position(int joint) const { return bind_ms[joint].translation; }
  int size() const { return static_cast<int>(joints.size()); }
};

Rig BuildRig();

// Model-space transforms of a pose given as local rotations and translations (one per joint).
std::vector<Rigid> ModelSpace(const Rig& rig, const std::vector<Rigid>& local);

// The middle joint of a two-bone chain from `a` reaching for `c` with bone lengths l1 and l2,
// bending towards `pole` (a direction). The distance is clamped into the reachable range.
dvec3 SolveTwoBoneMiddle(const dvec3& a, const dvec3& c, double l1, double l2, const dvec3& pole);

// A rotation whose columns are x, y = normalize(along) and z = x cross y, with x the part of
// `side` orthogonal to y.
dquat FrameAlongSide(const dvec3& along, const dvec3& side);

constexpr double kPi = 3.14159265358979323846;
inline double Radians(double degrees) {
  return degrees * kPi / 180.0;
}

}  // namespace ikpose::character
