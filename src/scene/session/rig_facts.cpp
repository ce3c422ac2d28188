#include "scene/session/rig_facts.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "scene/world/ground_contact.h"
#include "scene/world/limb_radius.h"

namespace ikpose::scene {

std::shared_ptr<const RigFacts> MeasureRig(const anim::Model& model) {
  auto facts = std::make_shared<RigFacts>();
  facts->bone_count = model.skeleton.size();
  facts->rest = anim::RestPose(model.skeleton);
  facts->rest_bounds = anim::ComputeBounds(model, facts->rest);
  const anim::Bounds& bounds = facts->rest_bounds;
  facts->lowest_y = bounds.empty() ? 0.0f : bounds.min.y;
  facts->height = bounds.empty() ? 1.0f : std::max(bounds.max.y - bounds.min.y, 1e-6f);
  // The floor is y = 0, where a scenario's props stand; a rig whose rest soles are off it by
  // more than a planted foot's band would float over it or sink through it, so its floor is
  // at its soles instead, and said.
  facts->floor_y = 0.0f;
  if (std::abs(facts->lowest_y) > kPlantedLift * facts->height / 1.8f) {
    facts->floor_y = facts->lowest_y;
    char text[160];
    std::snprintf(text, sizeof text,
                  "the rest pose's soles are at y = %.3g, not on the floor at 0: the floor is "
                  "at their height",
                  static_cast<double>(facts->lowest_y));
    facts->floor_note = text;
  }
  facts->mirror_map = anim::BuildMirrorMap(model.skeleton, facts->rest, model.chains,
                                           bounds.empty() ? 1.0f : bounds.max.y - bounds.min.y);
  for (anim::Limb limb : anim::kLimbs) {
    const anim::LimbChain& chain = model.chains[limb];
    if (!chain.valid()) continue;
    const int i = static_cast<int>(limb);
    if (limb == anim::Limb::kLeftLeg || limb == anim::Limb::kRightLeg) {
      facts->feet[i] = MeasureFoot(model.skeleton, facts->rest, chain.end, facts->lowest_y);
    } else {
      facts->hands[i] = MeasureHand(model.skeleton, facts->rest, chain.end);
    }
  }
  facts->limb_radius = MeasureLimbRadii(model, facts->rest, facts->lowest_y);
  return facts;
}

}  // namespace ikpose::scene
