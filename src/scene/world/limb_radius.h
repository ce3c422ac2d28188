// Limb radii: how thick each bone of the body is, so a limb is inside a prop by its skin, not
// only by its axis (ground_contact.h's penetrations).
//
// What: one radius a bone (joint to child joint), measured once on the rest mesh: the median
// distance from the bone's axis of the vertices its joint moves most (each on the nearest bone
// leaving that joint, or the bone ending at a joint no bone leaves); a bone no vertex follows
// gets a fixed part of its length. Never more than the axis's rest height over the floor, so a
// foot standing as it stands at rest touches a surface but is not inside it. Why: a shin
// brushing a rung with its skin while its axis passes 3 cm off went unreported when bones were
// lines. Limits: a capsule round the axis: a flat part (a foot's sole, a palm) is measured as
// round, by its median thickness.
#pragma once

#include <vector>

#include "anim/model.h"

namespace ikpose::scene {

// The numbers of the limbs' thickness, in one place.
struct LimbRadiusTable {
  float vertex_quantile = 0.5f;  // which of a bone's vertex distances is its radius (median)
  float of_length = 0.1f;        // a bone no vertex follows: this part of its length
  float max_of_length = 1.0f;    // never thicker than this part of its length (a stray weight)
  // A limb this little inside (m for a 1.8 m body; scaled by height / 1.8) is touching, not
  // inside: a foot's sole on a step, measured with float rounding.
  float contact_slack = 0.002f;
};
inline constexpr LimbRadiusTable kLimbRadius{};

// Radius of each bone, indexed by its child joint (0 for a root), in model units. `soles_y` is
// the height of the rest pose's soles.
std::vector<float> MeasureLimbRadii(const anim::Model& model, const anim::Pose& rest,
                                    float soles_y);

}  // namespace ikpose::scene
