#include "scene/stability.h"

#include <algorithm>
#include <cmath>

#include "scene/pop_detector.h"
#include "scene/posing_session.h"
#include "scene/trace.h"

namespace ikpose::scene {

namespace {

bool Finite(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// The largest singular value of the 3x3 matrix whose columns are `j`: the square root of
// J^T J's largest eigenvalue, by power iteration from J^T J's longest column (never orthogonal
// to the dominant eigenvector unless the matrix is zero).
float LargestSingularValue(const glm::mat3& j) {
  const glm::mat3 jtj = glm::transpose(j) * j;
  glm::vec3 v = jtj[0];
  for (int c = 1; c < 3; ++c) {
    if (glm::length(jtj[c]) > glm::length(v)) v = jtj[c];
  }
  if (!(glm::length(v) > 0.f)) return 0.f;
  v = glm::normalize(v);
  for (int i = 0; i < 32; ++i) {
    const glm::vec3 w = jtj * v;
    const float length = glm::length(w);
    if (!(length > 0.f)) return 0.f;
    v = w / length;
  }
  return std::sqrt(std::max(glm::dot(v, jtj * v), 0.f));
}

// The pop detector's verdict on moving the target from cell `a` to cell `b` in one frame: true
// when the knee pops by changing side.
bool Flips(anim::Limb limb, const LimbSample& a, const LimbSample& b,
           const std::array<float, 4>& limb_lengths) {
  std::vector<TraceFrame> frames(2);
  frames[0].limbs[static_cast<int>(limb)] = a;
  frames[1].frame = 1;
  frames[1].limbs[static_cast<int>(limb)] = b;
  for (const Pop& pop : DetectPops(frames, limb_lengths)) {
    if (pop.cause == PopCause::kKneeReferenceCrossedAxis ||
        pop.cause == PopCause::kTargetCrossedPoleLine) {
      return true;
    }
  }
  return false;
}

}  // namespace

int SensitivityBand(float sensitivity) {
  int band = 0;
  for (float bound : kSensitivityBands) {
    if (sensitivity >= bound) ++band;
  }
  return band;
}

bool MeasureStability(const PosingSession& session, anim::Limb limb,
                      const StabilityRequest& request, StabilityGrid* grid, std::string* error) {
  const std::string name(anim::LimbName(limb));
  const anim::LimbChain& chain = session.chain(limb);
  if (!chain.valid() || !session.target(limb).available) {
    *error = "stability: the model has no " + name;
    return false;
  }
  if (!Finite(request.toward_viewer_ms) || !(glm::length(request.toward_viewer_ms) > 1e-6f)) {
    *error = "stability: the view direction is not a finite, non-zero vector";
    return false;
  }
  if (!std::isfinite(request.spacing)) {
    *error = "stability: the spacing is not finite";
    return false;
  }
  const float limb_length = chain.upper_length + chain.lower_length;
  if (!(limb_length > 0.f)) {
    *error = "stability: " + name + " has no length";
    return false;
  }

  StabilityGrid g;
  g.limb = limb;
  g.limb_length = limb_length;
  g.cells = std::clamp(request.cells, kMinStabilityCells, kMaxStabilityCells) | 1;
  g.spacing = request.spacing > 0.f ? request.spacing : limb_length * kDefaultSpacingOfLimb;
  g.step = limb_length * kStepOfLimb;
  g.normal_ms = glm::normalize(request.toward_viewer_ms);
  // Screen up is the model's up unless the view looks straight down or up; then the facing.
  glm::vec3 up_hint(0.f, 1.f, 0.f);
  if (std::abs(glm::dot(up_hint, g.normal_ms)) > 0.999f) up_hint = session.chains().forward_ms;
  g.right_ms = glm::normalize(glm::cross(up_hint, g.normal_ms));
  g.up_ms = glm::cross(g.normal_ms, g.right_ms);

  PosingSession copy = session;
  LimbTarget& target = copy.target(limb);
  g.center_ms = target.target_ms;
  g.policy = target.options.policy;
  target.given = true;
  target.enabled = true;
  target.rung = -1;  // as a game's target: off any rung

  // Solves with the target at `p_ms`; false when the solve fails.
  auto solve = [&](const glm::vec3& p_ms) {
    target.target_ms = p_ms;
    copy.Evaluate();
    return copy.result(limb).ok && Finite(copy.result(limb).knee_ms);
  };

  const float half = static_cast<float>(g.cells - 1) / 2.f;
  auto point_at = [&](float column, float row) {
    return g.center_ms + (column - half) * g.spacing * g.right_ms +
           (row - half) * g.spacing * g.up_ms;
  };
  const glm::vec3 axes[3] = {g.right_ms, g.up_ms, g.normal_ms};
  std::vector<LimbSample> samples;
  samples.reserve(static_cast<std::size_t>(g.cells * g.cells));
  g.grid.reserve(samples.capacity());
  for (int row = 0; row < g.cells; ++row) {
    for (int column = 0; column < g.cells; ++column) {
      StabilityCell cell;
      cell.column = column;
      cell.row = row;
      cell.target_ms = point_at(static_cast<float>(column), static_cast<float>(row));
      glm::mat3 jacobian(0.f);
      bool solved = true;
      for (int a = 0; a < 3 && solved; ++a) {
        solved = solve(cell.target_ms + g.step * axes[a]);
        const glm::vec3 plus = copy.result(limb).knee_ms;
        solved = solved && solve(cell.target_ms - g.step * axes[a]);
        jacobian[a] = (plus - copy.result(limb).knee_ms) / (2.f * g.step);
      }
      if (!solved || !solve(cell.target_ms)) {
        *error = "stability: " + name + " cannot be solved at a cell's target";
        return false;
      }
      const TraceFrame frame = RecordFrame(copy, 0, 0.f);
      samples.push_back(frame.limbs[static_cast<int>(limb)]);
      cell.knee_ms = copy.result(limb).knee_ms;
      cell.reach = copy.result(limb).output.reach;
      cell.reach_out = glm::distance(cell.target_ms,
                                     anim::PositionMs(copy.base_pose(), chain.upper)) > limb_length;
      cell.sensitivity = LargestSingularValue(jacobian);
      if (!std::isfinite(cell.sensitivity)) {
        *error = "stability: " + name + " has no finite sensitivity at a cell";
        return false;
      }
      g.max_sensitivity = std::max(g.max_sensitivity, cell.sensitivity);
      g.grid.push_back(cell);
    }
  }

  // Edges: to the right neighbour (a vertical edge) and to the one above (a horizontal edge).
  const std::array<float, 4> lengths = LimbLengths(session.chains());
  auto index = [&](int column, int row) {
    return static_cast<std::size_t>(row * g.cells + column);
  };
  for (int row = 0; row < g.cells; ++row) {
    for (int column = 0; column < g.cells; ++column) {
      const float c = static_cast<float>(column), r = static_cast<float>(row);
      const std::size_t here = index(column, row);
      for (int dir = 0; dir < 2; ++dir) {
        const int next_column = column + (dir == 0 ? 1 : 0);
        const int next_row = row + (dir == 1 ? 1 : 0);
        if (next_column >= g.cells || next_row >= g.cells) continue;
        const std::size_t there = index(next_column, next_row);
        const StabilityEdge edge =
            dir == 0 ? StabilityEdge{point_at(c + 0.5f, r - 0.5f), point_at(c + 0.5f, r + 0.5f)}
                     : StabilityEdge{point_at(c - 0.5f, r + 0.5f), point_at(c + 0.5f, r + 0.5f)};
        if (Flips(limb, samples[here], samples[there], lengths) ||
            Flips(limb, samples[there], samples[here], lengths)) {
          g.grid[here].flip = g.grid[there].flip = true;
          g.flip_line.push_back(edge);
        }
        if (g.grid[here].reach_out != g.grid[there].reach_out) g.reach_line.push_back(edge);
      }
    }
  }
  *grid = std::move(g);
  return true;
}

}  // namespace ikpose::scene
