#include "app/pose_report.h"

namespace ikpose::app {

namespace {

void AddSolved(const anim::LimbChain& chain, const scene::LimbTarget& target,
               const anim::ChainSolveResult& result, std::vector<asset::SolvedChain>* out) {
  if (!target.available || !target.enabled || !result.ok) return;  // solved: placed or held
  asset::SolvedChain sc;
  sc.chain = chain;
  sc.result = result;
  sc.has_pole = target.options.solver.use_pole;
  sc.pole_ms = target.options.solver.pole_ms;
  out->push_back(std::move(sc));
}

}  // namespace

std::vector<asset::SolvedChain> SolvedChains(const scene::PosingSession& session) {
  std::vector<asset::SolvedChain> solved;
  for (anim::Limb limb : anim::kLimbs) {
    anim::LimbChain chain = session.chain(limb);
    chain.name = anim::LimbName(limb);
    AddSolved(chain, session.target(limb), session.result(limb), &solved);
  }
  for (const scene::ChainTarget& extra : session.extra_chains()) {
    AddSolved(extra.chain, extra.target, extra.result, &solved);
  }
  return solved;
}

asset::Json SessionReport(const scene::PosingSession& session) {
  return asset::PoseReport(session.model(), session.base_pose(), session.pose(),
                           SolvedChains(session));
}

}  // namespace ikpose::app
