// Props and the ladder sized to the character: a prop far off the character's size (a prop in
// centimetres beside a character in metres, a ladder made for an adult beside a doll) is named,
// with how far off it is, so the user scales one of them before posing against it.
//
// What: one line a prop whose placed height is over kPropTooTall times the character's, or
// whose largest side is under kPropTooSmall of its height; one line for a shown ladder whose
// rungs are out of the legs' reach (rungs more than kRungsApartOfLeg of a leg apart, or a first
// rung over kFirstRungOfLeg of a leg up), with the spacing as a multiple of the character's
// height; and why a prop marked (or found) to be a ladder gives no rungs
// (PosingSession::ladder_note); and that a rig's rest soles are far from y = 0, so its floor is at
// them (RigFacts::floor_note). Why: units are the commonest trap with files from elsewhere (glTF
// is in metres, FBX often in centimetres), and feet standing on a step a hundred times too big look
// like a bug rather than a size. `pose`, `render`, `view` print these lines and the panel shows
// them. Limits: a prop is judged by its placed box, not its shape; a long flat prop (a floor, a
// road) is never too big. A ladder that is itself a prop (scene/world/prop_rungs.h) is judged once,
// as the ladder.
#pragma once

#include <string>
#include <vector>

#include "scene/session/posing_session.h"

namespace ikpose::scene {

// The thresholds, as fractions of the character's rest height or leg (hip to knee to ankle).
inline constexpr float kPropTooTall = 10.0f;     // prop height / character height
inline constexpr float kPropTooSmall = 0.01f;    // prop's largest side / character height
inline constexpr float kRungsApartOfLeg = 0.5f;  // rung spacing / leg length
inline constexpr float kFirstRungOfLeg = 0.6f;   // first rung's height / leg length

struct SizeWarning {
  int prop = -1;  // index into the world's props; -1 for the ladder
  std::string text;
};

std::vector<SizeWarning> SizeWarnings(const PosingSession& session);

}  // namespace ikpose::scene
