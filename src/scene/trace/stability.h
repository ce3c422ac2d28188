// Where a limb's solve turns unstable: how far its knee (elbow) moves per unit of target motion
// over a grid of targets around the current one.
//
// What: `MeasureStability` lays a square grid on the plane through the limb's target that faces
// a view direction, puts the target on each cell's centre in a copy of the session and solves it
// with the session's own Evaluate (same policy, clip, props, body help: the situation built by
// scene::BuildSession), and records per cell:
//   sensitivity  the knee's motion per unit of target motion in the worst direction (the largest
//                singular value of d knee / d target, by central differences of `step` along the
//                plane's two axes and its normal): 1 is a knee that moves as much as the target;
//   flip         the pop detector (scene/trace/pop_detector.h), given this cell and a neighbour as
//   two
//                frames, finds a pop whose cause is the knee changing side (the seed's or
//                natural's reference crossing the hip-target axis, or the target crossing the
//                pole line): a target moving across that edge pops;
//   reach_out    the cell is farther from the hip (of the pose before IK) than the limb's length:
//                the limb alone cannot reach it (the body help, when on, takes over there).
// The flip and reach-out lines are the cell edges between a flagged cell and its neighbour.
// Why: a game developer sees before shipping which target positions will pop and where the
// solve is touchy (issue 22); the same numbers drive the viewer's slice and `pose --stability`.
// Limits: each cell costs seven solves (about 0.1-0.4 ms on the bundled character), so grids are
// capped at kMaxStabilityCells a side; a flip narrower than the spacing between two cells that
// both keep their side is missed (the knee's turn is judged only between neighbours); only the
// four detected limbs.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "anim/chains.h"
#include "anim/debug_draw.h"
#include "anim/knee_policy.h"
#include "ik/two_bone_positions.h"

namespace ikpose::scene {

class PosingSession;
struct LimbSample;

// The grid's bounds and defaults, and the sensitivity bands the text map and the viewer's legend
// share (knee motion per unit of target motion).
inline constexpr int kMinStabilityCells = 3;
inline constexpr int kMaxStabilityCells = 101;
inline constexpr int kDefaultStabilityCells = 25;
inline constexpr float kDefaultSpacingOfLimb = 1.f / 20.f;  // spacing = limb length / 20
inline constexpr float kStepOfLimb = 1e-3f;                 // finite-difference step / limb length
inline constexpr float kSensitivityBands[] = {1.f, 3.f, 10.f};
// The band's colours: green (follows the target), yellow, orange, red (pops), translucent.
inline constexpr glm::vec4 kBandColors[] = {{0.2f, 0.8f, 0.3f, 0.2f},
                                            {0.85f, 0.85f, 0.2f, 0.22f},
                                            {1.0f, 0.55f, 0.1f, 0.32f},
                                            {0.95f, 0.1f, 0.1f, 0.4f}};

struct StabilityRequest {
  glm::vec3 toward_viewer_ms{0.f, 0.f, 1.f};  // the plane's normal (need not be unit)
  int cells = kDefaultStabilityCells;         // per side; an even count is made odd
  float spacing = 0.f;                        // between cell centres; <= 0: the default
};

struct StabilityCell {
  int column = 0;  // 0 at the left (-right_ms)
  int row = 0;     // 0 at the bottom (-up_ms)
  glm::vec3 target_ms{0.f};
  glm::vec3 knee_ms{0.f};
  float sensitivity = 0.f;
  ik::Reach reach = ik::Reach::kReachable;  // the solve's (after the body's help)
  bool reach_out = false;
  bool flip = false;
};

// One edge between two neighbouring cells, model space.
struct StabilityEdge {
  glm::vec3 a_ms{0.f};
  glm::vec3 b_ms{0.f};
};

struct StabilityGrid {
  anim::Limb limb = anim::Limb::kLeftLeg;
  anim::KneePolicy policy = anim::KneePolicy::kSeed;
  glm::vec3 center_ms{0.f};  // the limb's target
  glm::vec3 right_ms{1.f, 0.f, 0.f};
  glm::vec3 up_ms{0.f, 1.f, 0.f};
  glm::vec3 normal_ms{0.f, 0.f, 1.f};  // toward the viewer
  int cells = 0;                       // per side
  float spacing = 0.f;
  float step = 0.f;
  float limb_length = 0.f;
  float max_sensitivity = 0.f;
  std::vector<StabilityCell> grid;  // row by row from the bottom, each left to right
  std::vector<StabilityEdge> flip_line;
  std::vector<StabilityEdge> reach_line;

  // The point at (fractional) cell coordinates: cell centres at whole numbers.
  glm::vec3 PointAt(float column, float row) const;
  const StabilityCell& at(int column, int row) const {
    return grid[static_cast<std::size_t>(row * cells + column)];
  }
};

// Measures the grid around `limb`'s target (given or resting) in a copy of `session`. False with
// one line in *error for a limb the model lacks, a direction or spacing that is not finite or
// a cell whose solve fails.
bool MeasureStability(const PosingSession& session, anim::Limb limb,
                      const StabilityRequest& request, StabilityGrid* grid, std::string* error);

// The same measure a few cells at a time, so a window can spread it over frames: Start copies
// the session, Step measures up to `max_cells` more cells (then the edges), true once done.
class StabilityJob {
 public:
  StabilityJob();
  ~StabilityJob();
  StabilityJob(StabilityJob&&) noexcept;
  StabilityJob& operator=(StabilityJob&&) noexcept;

  bool Start(const PosingSession& session, anim::Limb limb, const StabilityRequest& request,
             std::string* error);
  // False with one line in *error when a cell cannot be solved (the job then stops).
  bool Step(int max_cells, std::string* error);
  bool running() const { return copy_ != nullptr; }
  bool done() const { return done_; }
  // Complete once done.
  const StabilityGrid& grid() const { return grid_; }

 private:
  void FindEdges();

  std::unique_ptr<PosingSession> copy_;
  StabilityGrid grid_;
  std::vector<LimbSample> samples_;
  bool done_ = false;
};

// Drawing the grid: each cell a translucent quad coloured by its sensitivity band (reach-out
// cells grey), then the flip line and the reach-out line.
glm::vec4 SensitivityColor(float sensitivity);
inline constexpr glm::vec4 kReachOutColor{0.45f, 0.45f, 0.5f, 0.18f};
inline constexpr glm::vec4 kFlipLineColor{1.0f, 0.2f, 1.0f, 1.0f};
inline constexpr glm::vec4 kReachLineColor{0.95f, 0.95f, 0.95f, 1.0f};
void DrawStability(const StabilityGrid& grid, anim::DebugDraw& draw);

// The band a sensitivity falls in: 0 below kSensitivityBands[0], ... 3 at or over the last.
int SensitivityBand(float sensitivity);

}  // namespace ikpose::scene
