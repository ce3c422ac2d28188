#include "scene/rig_facts.h"

#include <algorithm>

namespace ikpose::scene {

std::shared_ptr<const RigFacts> MeasureRig(const anim::Model& model) {
  auto facts = std::make_shared<RigFacts>();
  facts->bone_count = model.skeleton.size();
  facts->rest = anim::RestPose(model.skeleton);
  facts->rest_bounds = anim::ComputeBounds(model, facts->rest);
  const anim::Bounds& bounds = facts->rest_bounds;
  facts->floor_y = bounds.empty() ? 0.0f : bounds.min.y;
  facts->height = bounds.empty() ? 1.0f : std::max(bounds.max.y - bounds.min.y, 1e-6f);
  facts->mirror_map = anim::BuildMirrorMap(model.skeleton, facts->rest, model.chains,
                                           bounds.empty() ? 1.0f : bounds.max.y - bounds.min.y);
  for (anim::Limb limb : anim::kLimbs) {
    const anim::LimbChain& chain = model.chains[limb];
    if (!chain.valid()) continue;
    const int i = static_cast<int>(limb);
    if (limb == anim::Limb::kLeftLeg || limb == anim::Limb::kRightLeg) {
      facts->feet[i] = MeasureFoot(model.skeleton, facts->rest, chain.end, facts->floor_y);
    } else {
      facts->hands[i] = MeasureHand(model.skeleton, facts->rest, chain.end);
    }
  }
  return facts;
}

}  // namespace ikpose::scene
