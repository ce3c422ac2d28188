// Small rigs built in code for tests that need a skeleton but no file.
#pragma once

#include <string>

#include "anim/chains.h"
#include "anim/model.h"

namespace ikpose::test {

// A pelvis with two legs named the Unreal way (thigh_l, calf_l, foot_l, ...), knees bent a
// little forward, so chain detection finds both legs by name. One empty clip, "idle".
inline anim::Model TwoLegRig() {
  anim::Model m;
  auto add = [&m](const std::string& name, int parent, glm::vec3 t) {
    m.skeleton.names.push_back(name);
    m.skeleton.parents.push_back(parent);
    m.skeleton.flags.push_back(anim::kBoneIsJoint);
    anim::Transform transform;
    transform.translation = t;
    m.skeleton.rest_ls.push_back(transform);
    return static_cast<int>(m.skeleton.names.size()) - 1;
  };
  const int pelvis = add("pelvis", -1, {0, 1.0f, 0});
  for (float side : {1.0f, -1.0f}) {
    const std::string s = side > 0 ? "_l" : "_r";
    const int thigh = add("thigh" + s, pelvis, {0.1f * side, -0.05f, 0});
    const int calf = add("calf" + s, thigh, {0, -0.45f, 0.03f});
    add("foot" + s, calf, {0, -0.45f, -0.03f});
  }
  anim::Clip clip;
  clip.name = "idle";
  clip.duration = 1.0f;
  m.clips.push_back(clip);
  anim::DetectRig(m);  // as the loader does
  return m;
}

}  // namespace ikpose::test
