// The default character's clips, sampled at 30 keys per second, each a seamless loop (the last
// key repeats the first):
//   idle          3 s  breathing, a slow weight shift from foot to foot, a glance around
//   walk          1 s  walking in place: legs and arms swinging, pelvis bob, sway and twist
//   ladder_climb  2 s  climbing in place a ladder whose rungs are 0.30 m apart at z = 0.35:
//                      left hand with right foot, then right hand with left foot, each hand
//                      and foot staying on its rung while the rungs slide down at 0.3 m/s
// Feet are kept on the floor in idle and walk by raising or lowering the pelvis so that the
// lowest point of either shoe touches y = 0. The ladder clip places hands and feet on the rungs
// with a closed-form two-bone solve in the rest pose's bend planes.
#pragma once

#include <string>
#include <vector>

#include "rig.h"

namespace ikpose::character {

struct Clip {
  std::string name;
  double duration = 0.0;
  std::vector<double> times;
  std::vector<std::vector<Rigid>> poses;  // per key, the local transform of every joint
};

std::vector<Clip> BuildClips(const Rig& rig);

}  // namespace ikpose::character
