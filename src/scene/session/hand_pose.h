// Hand poses: curl and spread a hand's fingers, or put them in a preset (relaxed, fist, point,
// grip a cylinder), written as bone turns on the posing session.
//
// What: the fingers are found by structure as the ladder grip finds them (scene/session/grip.h: the
// hand's descendants that have a child; thumbs by name). A pose starts from straight fingers
// (the rest pose), spreads each finger's first joint sideways in the palm's plane (the outer
// fingers most, the thumb not at all), then turns every finger joint toward the palm by the
// curl (kFullCurlDeg at curl 1, thumbs half), the pointing finger excepted; a grip instead
// wraps the fingers round a cylinder of the given radius as a hand on a rung does.
// Why: hands carry much of a pose (a fist, a point, holding a sword), and there are too many
// finger joints to turn one by one.
// Limits: an arm whose hand has no finger bones cannot be posed (HandPose says why). The palm
// is taken to face down at rest (T and A poses), as for the grip. The pointing finger is the
// one named "index" (or "pointer", "fore"), else the non-thumb finger nearest the thumb.
#pragma once

#include <string>
#include <vector>

#include "scene/session/posing_session.h"

namespace ikpose::scene {

inline constexpr float kFullCurlDeg = 90.0f;    // each finger joint at curl 1 (thumbs half)
inline constexpr float kFullSpreadDeg = 15.0f;  // the outermost fingers at spread 1

enum class HandPreset { kRelaxed, kFist, kPoint, kGrip };

struct HandPose {
  float curl = 0.0f;    // 0 straight .. 1 fist
  float spread = 0.0f;  // -1 together .. 0 as at rest .. 1 fanned out
  bool point = false;   // the index finger stays straight
  // Above 0: the fingers wrap a cylinder of this radius (model units) instead of `curl`.
  float grip_radius = 0.0f;
};

// relaxed: curl 0.2, spread 0.1; fist: curl 1; point: curl 1 with the index straight; grip:
// round a cylinder of `grip_radius`.
HandPose PresetHandPose(HandPreset preset, float grip_radius);
const char* PresetName(HandPreset preset);

// The finger joints of `arm`'s hand, parents first (empty for a leg, a missing arm or a hand
// without fingers).
std::vector<int> FingerJoints(const PosingSession& session, anim::Limb arm);

// The cylinder a grip of `radius` wraps the fingers round, for the hand as it is now: its axis
// runs across the hand (little finger to index) through the point a wrap radius
// (GripWrapRadius) out of the palm from the middle of the finger roots.
struct GripCylinder {
  glm::vec3 point_ms{0.0f};
  glm::vec3 axis_ms{1.0f, 0.0f, 0.0f};  // unit
  float radius = 0.0f;
};
GripCylinder HandGripCylinder(const PosingSession& session, anim::Limb arm, float radius);

// Poses `arm`'s fingers; the rest of the skeleton is untouched. False with the reason (not an
// arm, not in this rig, no finger bones).
bool PoseHand(PosingSession& session, anim::Limb arm, const HandPose& hand, std::string* why);

}  // namespace ikpose::scene
