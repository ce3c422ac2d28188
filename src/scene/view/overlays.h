// The debug overlays the viewer draws over the character, recorded into a DebugDraw: the
// skeleton; each limb's target as a sphere coloured by reach state (green reachable, red too
// far, amber too close); the pole; the knee's solution circle with the chosen knee and the point
// opposite it; the reach shells (inner and outer radius) around the hip or shoulder; and the
// hip -> target line. Sizes scale with the model so centimetre rigs look the same.
#pragma once

#include <glm/glm.hpp>

#include "anim/debug_draw.h"
#include "ik/two_bone_positions.h"
#include "scene/session/posing_session.h"

namespace ikpose::scene {

struct OverlayOptions {
  bool skeleton = true;
  bool targets = true;
  bool circles = true;
  bool reach_shells = false;
  bool ladder = true;
  int selected_bone = -1;  // drawn with its axes
};

glm::vec4 ReachColor(ik::Reach reach);
// The radius of a target handle for a model of this height.
float HandleRadius(float model_height);
// How near a click must come to a handle to grab it: a little more than the handle.
float PickRadius(float model_height);
// The body's turning ring, level around the pelvis: its radius in pick radii.
inline constexpr float kBodyRingScale = 4.0f;

void DrawOverlays(const PosingSession& session, const OverlayOptions& options, float model_height,
                  anim::DebugDraw& draw);

// A floor grid under a model `model_height` tall centred at `center_ms` standing at `floor_y`:
// lines half a power of ten apart (50 cm for people), the middle lines brighter.
void DrawFloorGrid(const glm::vec3& center_ms, float floor_y, float model_height,
                   anim::DebugDraw& draw);

}  // namespace ikpose::scene
