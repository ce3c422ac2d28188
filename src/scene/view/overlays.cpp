#include "scene/view/overlays.h"

#include <algorithm>
#include <cmath>

namespace ikpose::scene {

glm::vec4 ReachColor(ik::Reach reach) {
  switch (reach) {
    case ik::Reach::kReachable:
      return {0.25f, 0.90f, 0.35f, 1.0f};
    case ik::Reach::kTooFar:
      return {0.95f, 0.25f, 0.20f, 1.0f};
    case ik::Reach::kTooClose:
      return {1.00f, 0.70f, 0.10f, 1.0f};
  }
  return {1, 1, 1, 1};
}

float HandleRadius(float model_height) {
  return std::max(model_height, 1e-3f) * 0.025f;
}

float PickRadius(float model_height) {
  return 1.6f * HandleRadius(model_height);
}

void DrawOverlays(const PosingSession& session, const OverlayOptions& options, float model_height,
                  anim::DebugDraw& draw) {
  const anim::Skeleton& skeleton = session.model().skeleton;
  const anim::Pose& pose = session.pose();
  const float handle = HandleRadius(model_height);
  if (options.skeleton) {
    const glm::vec4 bone_color(0.85f, 0.85f, 0.95f, 0.9f);
    for (int i = 0; i < skeleton.size(); ++i) {
      const int parent = skeleton.parents[static_cast<std::size_t>(i)];
      if (parent < 0 || !skeleton.IsJoint(i) || !skeleton.IsJoint(parent)) continue;
      draw.Line(anim::PositionMs(pose, parent), anim::PositionMs(pose, i), bone_color);
    }
  }
  if (options.selected_bone >= 0 && options.selected_bone < skeleton.size()) {
    draw.Axes(pose.models_ms[static_cast<std::size_t>(options.selected_bone)], handle * 3.0f);
  }
  if (options.targets && session.body_bone() >= 0) {  // the body handle at the pelvis
    const glm::vec4 body_color(0.85f, 0.45f, 0.95f, 1.0f);
    draw.Sphere(session.BodyPositionMs(), handle * 2.0f, body_color);
    draw.Cross(session.BodyPositionMs(), handle * 1.2f, body_color);
    draw.Circle(session.BodyPositionMs(), {0.0f, 1.0f, 0.0f},
                kBodyRingScale * PickRadius(model_height), body_color, 48);
  }
  for (anim::Limb limb : anim::kLimbs) {
    const LimbTarget& target = session.target(limb);
    if (!target.available) continue;
    const anim::ChainSolveResult& result = session.result(limb);
    const bool solved = target.enabled && result.ok;
    // A target resting on its hand (not placed yet) is on it: reachable, drawn fainter.
    const glm::vec4 color = solved ? ReachColor(result.output.reach)
                            : target.enabled && !target.given
                                ? glm::vec4(glm::vec3(ReachColor(ik::Reach::kReachable)), 0.55f)
                                : glm::vec4(0.6f, 0.6f, 0.6f, 1.0f);
    if (session.Mirrored(limb)) continue;  // its end follows the mirror, not its handle
    if (options.targets) {
      draw.Sphere(target.target_ms, handle, color);
      if (target.pinned) {  // a pin: a short stake down through the target
        draw.Line(target.target_ms + glm::vec3(0, handle * 2.5f, 0), target.target_ms,
                  {0.95f, 0.95f, 0.95f, 0.9f});
      }
      if (target.options.solver.use_pole) {
        draw.Cross(target.options.solver.pole_ms, handle, {0.4f, 0.7f, 1.0f, 1.0f});
        draw.Sphere(target.options.solver.pole_ms, handle * 0.6f, {0.4f, 0.7f, 1.0f, 1.0f});
      }
    }
    if (!solved) continue;
    const ik::PositionsReport& positions = result.report.positions;
    if (options.targets) {
      draw.Line(result.hip_ms, target.target_ms, glm::vec4(glm::vec3(color), 0.6f));
    }
    if (options.circles && positions.circle.radius > 0.0f) {
      const ik::KneeCircle& circle = positions.circle;
      draw.Circle(circle.center_ms, circle.normal_ms, circle.radius, {0.9f, 0.9f, 0.3f, 0.9f});
      const glm::vec3 knee = positions.result.knee_ms;
      draw.Sphere(knee, handle * 0.5f, {1.0f, 1.0f, 0.3f, 1.0f});
      draw.Sphere(2.0f * circle.center_ms - knee, handle * 0.35f, {0.6f, 0.6f, 0.6f, 0.8f});
      draw.Line(circle.center_ms, knee, {0.9f, 0.9f, 0.3f, 0.6f});
    }
    if (options.reach_shells) {
      const float outer = positions.length_ab + positions.length_bc;
      const float inner = std::abs(positions.length_ab - positions.length_bc);
      draw.Sphere(result.hip_ms, outer, {0.5f, 0.8f, 1.0f, 0.35f}, 48);
      if (inner > 0.0f) draw.Sphere(result.hip_ms, inner, {1.0f, 0.6f, 0.2f, 0.35f}, 32);
    }
  }
}

void DrawFloorGrid(const glm::vec3& center_ms, float floor_y, float model_height,
                   anim::DebugDraw& draw) {
  const float step = std::pow(10.0f, std::floor(std::log10(std::max(model_height, 1e-3f) * 0.5f)));
  const int lines = 10;
  const glm::vec3 c(std::round(center_ms.x / step) * step, floor_y,
                    std::round(center_ms.z / step) * step);
  const float e = static_cast<float>(lines) * step * 0.5f;
  for (int i = -lines; i <= lines; ++i) {
    const float o = static_cast<float>(i) * step * 0.5f;
    const glm::vec4 color =
        i == 0 ? glm::vec4(0.55f, 0.55f, 0.6f, 0.8f) : glm::vec4(0.4f, 0.42f, 0.46f, 0.55f);
    draw.Line(c + glm::vec3(-e, 0, o), c + glm::vec3(e, 0, o), color);
    draw.Line(c + glm::vec3(o, 0, -e), c + glm::vec3(o, 0, e), color);
  }
}

}  // namespace ikpose::scene
