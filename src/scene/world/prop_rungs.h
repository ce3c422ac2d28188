// A ladder that is a prop: its rungs found on the mesh, so hands grip them and feet stand on
// them as on the built-in solid ladder (scene/world/ladder.h, scene/session/grip.h).
//
// What: `FindRungs` looks at a prop's pieces (triangles joined by shared corners) for horizontal
// bars: a piece at least kBarLengthOverThickness times longer than it is thick, its cross-section
// about as wide as high. Rungs are the largest set of parallel bars of one length and thickness
// in one vertical plane, kMinRungs or more, evenly spaced (each gap within kSpacingTolerance of
// the mean). Unmarked, a bar must also be round (every corner of its side the same distance from
// its axis, within kRoundTolerance), so a shelf of boards is not taken for a ladder; a scenario
// marks a prop's bars as rungs with `"rungs": true` (square rungs then count, and two suffice)
// and turns the search off with `"rungs": false`. `LadderFromRungs` places them as the session's
// Ladder: base on the prop's lowest point below the rungs' middle, spacing, count, rung radius,
// the rungs' length as the rail width.
// Why: a game's own ladder, loaded as a prop, is the situation a game developer reproduces; it
// must give the grip the built-in ladder gives, through the same code.
// Limits: a rung must be a piece of its own (not welded to the rails); a prop turned any way
// about +Y gives a ladder turned the same way; the first ladder prop is the ladder.
#pragma once

#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "anim/model.h"

namespace ikpose::scene {

struct PropPlacement;
struct Ladder;

// The numbers the search uses (fractions and counts; see the header's comment).
inline constexpr float kBarLengthOverThickness = 3.0f;
inline constexpr float kCrossSectionRatio = 0.65f;  // narrower side over wider, at least
inline constexpr float kRoundTolerance = 0.15f;     // 1 - nearest corner / farthest, at most
inline constexpr float kParallelDeg = 3.0f;
inline constexpr float kSameSize = 0.1f;            // relative length and thickness difference
inline constexpr float kSpacingTolerance = 0.15f;   // a gap's difference from the mean, relative
inline constexpr int kMinRungs = 3;                 // unmarked; marked: 2
inline constexpr std::size_t kMaxPieces = 100'000;  // more pieces: not searched (too fine)
// More corners: not searched (a ladder is a small mesh; a scan of millions would cost the load
// hundreds of megabytes for the welding).
inline constexpr std::size_t kMaxSearchedVertices = 1'000'000;

// The rungs in the prop's own model space (before its placement).
struct PropRungs {
  bool found = false;
  std::string why_not;                    // when not found, for a marked prop's warning
  glm::vec3 direction{1.0f, 0.0f, 0.0f};  // unit, horizontal: along the rungs
  glm::vec3 middle{0.0f};                 // the lowest rung's axis midpoint
  std::vector<float> heights;             // each rung's axis height, ascending
  float length = 0.0f;                    // of a rung
  float radius = 0.0f;                    // half its thickness
  float floor_y = 0.0f;                   // the prop's lowest point
};

// `marked`: the scenario's "rungs": true (square bars count, two rungs suffice).
PropRungs FindRungs(const anim::Model& prop, bool marked);

// The session's ladder for rungs placed by `placement`; false with the reason in *why (the
// rungs do not run across the character once turned).
bool LadderFromRungs(const PropRungs& rungs, const PropPlacement& placement, Ladder* ladder,
                     std::string* why);

}  // namespace ikpose::scene
