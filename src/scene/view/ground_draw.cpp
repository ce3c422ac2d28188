#include "scene/view/ground_draw.h"

namespace ikpose::scene {

void DrawGroundContacts(const PosingSession& session, float model_height, anim::DebugDraw& draw) {
  const GroundReport& ground = session.ground_report();
  const float size = 0.03f * model_height;
  // On the bare floor, where every foot stands by default, a ring says nothing.
  const bool props = session.edits.world && !session.edits.world->props().empty();
  for (const FootContact& foot : ground.feet) {
    if (!foot.contact || !props) continue;
    const glm::vec4 color =
        foot.tilt_clamped ? glm::vec4(1.0f, 0.7f, 0.1f, 1.0f) : glm::vec4(0.2f, 0.95f, 0.35f, 1.0f);
    // A little above the surface, so the ring is not hidden in it.
    const glm::vec3 at = foot.hit_ms + 0.002f * model_height * foot.normal_ms;
    draw.Circle(at, foot.normal_ms, size, color, 24);
    draw.Cross(at, 0.5f * size, color);
  }
  const anim::Pose& pose = session.pose();
  const glm::vec4 red(1.0f, 0.15f, 0.1f, 1.0f);
  for (const Penetration& p : ground.penetrations) {
    draw.Line(anim::PositionMs(pose, p.bone), anim::PositionMs(pose, p.child), red);
    draw.Sphere(p.point_ms, 0.6f * size, red, 16);
  }
}

}  // namespace ikpose::scene
