// The timeline's knee policies: one table naming each policy once, and a value per policy
// found by the policy, so a count or a ghost switch can never land on another policy's name.
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "ui/knee_policies.h"

namespace ikpose::ui {
namespace {

TEST(KneePolicies, TheTableNamesEachPolicyOnceInTheTimelinesOrder) {
  std::set<std::string> names;
  for (const KneePolicyEntry& entry : kKneePolicies) names.insert(anim::PolicyName(entry.policy));
  EXPECT_EQ(names.size(), kKneePolicies.size());
  EXPECT_EQ(kKneePolicies[0].policy, anim::KneePolicy::kSeed);
  EXPECT_EQ(kKneePolicies[1].policy, anim::KneePolicy::kNatural);
  EXPECT_EQ(kKneePolicies[2].policy, anim::KneePolicy::kPole);
  // Ghosts drawn side by side must be told apart.
  EXPECT_NE(kKneePolicies[0].ghost_color, kKneePolicies[1].ghost_color);
  EXPECT_NE(kKneePolicies[1].ghost_color, kKneePolicies[2].ghost_color);
  EXPECT_NE(kKneePolicies[0].ghost_color, kKneePolicies[2].ghost_color);
}

TEST(KneePolicies, EachPolicyKeepsItsOwnValue) {
  PerKneePolicy<int> pops(-1);
  int n = 0;
  for (const KneePolicyEntry& entry : kKneePolicies) pops[entry.policy] = 10 * ++n;
  EXPECT_EQ(pops[anim::KneePolicy::kSeed], 10);
  EXPECT_EQ(pops[anim::KneePolicy::kNatural], 20);
  EXPECT_EQ(pops[anim::KneePolicy::kPole], 30);
  PerKneePolicy<bool> ghosts(true);
  ghosts[anim::KneePolicy::kNatural] = false;
  EXPECT_TRUE(ghosts[anim::KneePolicy::kSeed]);
  EXPECT_FALSE(ghosts[anim::KneePolicy::kNatural]);
  EXPECT_TRUE(ghosts[anim::KneePolicy::kPole]);
}

}  // namespace
}  // namespace ikpose::ui
