// The default character's skinned body, built from smooth swept surfaces around the bind
// skeleton: a lofted torso, neck and head (with nose, brows and ears pushed out of the head
// surface) and a hair shell; limbs as tapered tubes swept through shoulder-elbow-wrist and
// hip-knee-ankle with rounded ends; hands as a palm plus finger tubes; shoes as a loft with a
// flat sole on y = 0.
//
// Skin weights blend neighbouring bones smoothly over a band around each joint (spine, neck,
// shoulders, elbows, wrists, knuckles, hips, knees, ankles, balls of the feet), so linear-blend
// skinning bends cleanly. Parts overlap at the joints (a limb starts inside the torso) rather
// than being stitched; the overlap hides the seam in every plausible pose.
#pragma once

#include <vector>

#include "loft.h"
#include "rig.h"

namespace ikpose::character {

enum Material : int { kSkin = 0, kShirt = 1, kDark = 2, kMaterialCount = 3 };

// Parts with normals computed, in model space at bind.
std::vector<Part> BuildBody(const Rig& rig);

}  // namespace ikpose::character
