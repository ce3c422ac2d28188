#include "scene/trace/stability.h"

#include <algorithm>
#include <cmath>

#include "scene/session/posing_session.h"
#include "scene/session/trace.h"
#include "scene/trace/pop_detector.h"

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

StabilityJob::StabilityJob() = default;
StabilityJob::~StabilityJob() = default;
StabilityJob::StabilityJob(StabilityJob&&) noexcept = default;
StabilityJob& StabilityJob::operator=(StabilityJob&&) noexcept = default;

bool StabilityJob::Start(const PosingSession& session, anim::Limb limb,
                         const StabilityRequest& request, std::string* error) {
  copy_.reset();
  done_ = false;
  samples_.clear();
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

  copy_ = std::make_unique<PosingSession>(session);
  LimbTarget& target = copy_->target(limb);
  g.center_ms = target.target_ms;
  g.policy = target.options.policy;
  target.given = true;
  target.enabled = true;
  target.rung = -1;  // as a game's target: off any rung
  g.grid.reserve(static_cast<std::size_t>(g.cells * g.cells));
  samples_.reserve(g.grid.capacity());
  grid_ = std::move(g);
  return true;
}

glm::vec3 StabilityGrid::PointAt(float column, float row) const {
  const float half = static_cast<float>(cells - 1) / 2.f;
  return center_ms + (column - half) * spacing * right_ms + (row - half) * spacing * up_ms;
}

bool StabilityJob::Step(int max_cells, std::string* error) {
  if (done_) return true;
  if (!copy_) {
    *error = "stability: nothing to measure";
    return false;
  }
  StabilityGrid& g = grid_;
  const anim::Limb limb = g.limb;
  const std::string name(anim::LimbName(limb));
  const anim::LimbChain& chain = copy_->chain(limb);
  LimbTarget& target = copy_->target(limb);
  // Solves with the target at `p_ms`; false when the solve fails.
  auto solve = [&](const glm::vec3& p_ms) {
    target.target_ms = p_ms;
    copy_->Evaluate();
    return copy_->result(limb).ok && Finite(copy_->result(limb).knee_ms);
  };
  const glm::vec3 axes[3] = {g.right_ms, g.up_ms, g.normal_ms};
  const int total = g.cells * g.cells;
  for (int n = 0; n < max_cells && static_cast<int>(g.grid.size()) < total; ++n) {
    StabilityCell cell;
    const int index = static_cast<int>(g.grid.size());
    cell.column = index % g.cells;
    cell.row = index / g.cells;
    cell.target_ms = g.PointAt(static_cast<float>(cell.column), static_cast<float>(cell.row));
    glm::mat3 jacobian(0.f);
    bool solved = true;
    for (int a = 0; a < 3 && solved; ++a) {
      solved = solve(cell.target_ms + g.step * axes[a]);
      const glm::vec3 plus = copy_->result(limb).knee_ms;
      solved = solved && solve(cell.target_ms - g.step * axes[a]);
      jacobian[a] = (plus - copy_->result(limb).knee_ms) / (2.f * g.step);
    }
    if (!solved || !solve(cell.target_ms)) {
      *error = "stability: " + name + " cannot be solved at a cell's target";
      copy_.reset();
      return false;
    }
    samples_.push_back(RecordFrame(*copy_, 0, 0.f).limbs[static_cast<int>(limb)]);
    cell.knee_ms = copy_->result(limb).knee_ms;
    cell.reach = copy_->result(limb).output.reach;
    cell.reach_out = glm::distance(cell.target_ms, anim::PositionMs(copy_->base_pose(),
                                                                    chain.upper)) > g.limb_length;
    cell.sensitivity = LargestSingularValue(jacobian);
    if (!std::isfinite(cell.sensitivity)) {
      *error = "stability: " + name + " has no finite sensitivity at a cell";
      copy_.reset();
      return false;
    }
    g.max_sensitivity = std::max(g.max_sensitivity, cell.sensitivity);
    g.grid.push_back(cell);
  }
  if (static_cast<int>(g.grid.size()) < total) return false;
  FindEdges();
  copy_.reset();
  samples_.clear();
  done_ = true;
  return true;
}

// Edges: to the right neighbour (a vertical edge) and to the one above (a horizontal edge).
void StabilityJob::FindEdges() {
  StabilityGrid& g = grid_;
  const std::array<float, 4> lengths = LimbLengths(copy_->chains());
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
            dir == 0 ? StabilityEdge{g.PointAt(c + 0.5f, r - 0.5f), g.PointAt(c + 0.5f, r + 0.5f)}
                     : StabilityEdge{g.PointAt(c - 0.5f, r + 0.5f), g.PointAt(c + 0.5f, r + 0.5f)};
        if (Flips(g.limb, samples_[here], samples_[there], lengths) ||
            Flips(g.limb, samples_[there], samples_[here], lengths)) {
          g.grid[here].flip = g.grid[there].flip = true;
          g.flip_line.push_back(edge);
        }
        if (g.grid[here].reach_out != g.grid[there].reach_out) g.reach_line.push_back(edge);
      }
    }
  }
}

bool MeasureStability(const PosingSession& session, anim::Limb limb,
                      const StabilityRequest& request, StabilityGrid* grid, std::string* error) {
  StabilityJob job;
  if (!job.Start(session, limb, request, error)) return false;
  if (!job.Step(kMaxStabilityCells * kMaxStabilityCells, error)) return false;
  *grid = job.grid();
  return true;
}

glm::vec4 SensitivityColor(float sensitivity) {
  return kBandColors[SensitivityBand(sensitivity)];
}

void DrawStability(const StabilityGrid& grid, anim::DebugDraw& draw) {
  for (const StabilityCell& cell : grid.grid) {
    const float c = static_cast<float>(cell.column), r = static_cast<float>(cell.row);
    const glm::vec4 color = cell.reach_out ? kReachOutColor : SensitivityColor(cell.sensitivity);
    draw.Quad(grid.PointAt(c - 0.5f, r - 0.5f), grid.PointAt(c + 0.5f, r - 0.5f),
              grid.PointAt(c + 0.5f, r + 0.5f), grid.PointAt(c - 0.5f, r + 0.5f), color);
  }
  for (const StabilityEdge& e : grid.flip_line) draw.Line(e.a_ms, e.b_ms, kFlipLineColor);
  for (const StabilityEdge& e : grid.reach_line) draw.Line(e.a_ms, e.b_ms, kReachLineColor);
}

}  // namespace ikpose::scene
