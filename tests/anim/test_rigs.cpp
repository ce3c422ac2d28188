#include "test_rigs.h"

namespace ikpose::anim::test {

int AddBone(Skeleton& s, const std::string& name, int parent, const glm::vec3& offset, bool joint) {
  s.names.push_back(name);
  s.parents.push_back(parent);
  Transform t;
  t.translation = offset;
  s.rest_ls.push_back(t);
  s.flags.push_back(joint ? kBoneIsJoint : 0);
  return s.size() - 1;
}

Skeleton MakeHumanoid(const HumanoidNames& n, bool facing_x) {
  Skeleton s;
  // A root that turns the character to face +X when asked (a rotation of -90 deg... about Y:
  // +Z -> +X is +90 degrees about +Y).
  const int root = AddBone(s, "root_node", -1, glm::vec3(0.f), false);
  if (facing_x) {
    s.rest_ls[root].rotation = glm::angleAxis(glm::radians(90.f), glm::vec3(0.f, 1.f, 0.f));
  }
  const int pelvis = AddBone(s, n.pelvis, root, {0.f, 1.0f, 0.f});
  const int spine = AddBone(s, n.spine, pelvis, {0.f, 0.2f, 0.f});
  const int chest = AddBone(s, n.chest, spine, {0.f, 0.2f, 0.f});
  AddBone(s, n.neck, chest, {0.f, 0.15f, 0.f});
  for (int side = 0; side < 2; ++side) {
    const float x = side == 0 ? 1.f : -1.f;  // left is +X when facing +Z
    const HumanoidNames& m = n;
    const int thigh =
        AddBone(s, side == 0 ? m.thigh_l : m.thigh_r, pelvis, {0.1f * x, -0.05f, 0.f});
    const int shin = AddBone(s, side == 0 ? m.shin_l : m.shin_r, thigh, {0.f, -0.45f, 0.03f});
    const int foot = AddBone(s, side == 0 ? m.foot_l : m.foot_r, shin, {0.f, -0.45f, -0.03f});
    AddBone(s, side == 0 ? m.toe_l : m.toe_r, foot, {0.f, -0.05f, 0.12f});
    const int clavicle =
        AddBone(s, side == 0 ? m.clavicle_l : m.clavicle_r, chest, {0.05f * x, 0.1f, 0.f});
    const int upper =
        AddBone(s, side == 0 ? m.upper_arm_l : m.upper_arm_r, clavicle, {0.12f * x, 0.f, 0.f});
    const int fore =
        AddBone(s, side == 0 ? m.forearm_l : m.forearm_r, upper, {0.28f * x, 0.f, -0.02f});
    AddBone(s, side == 0 ? m.hand_l : m.hand_r, fore, {0.25f * x, 0.f, 0.02f});
  }
  return s;
}

HumanoidNames BlenderNames() {
  return {"hips",   "spine",      "chest",       "neck",        "thigh.L",
          "shin.L", "foot.L",     "toe.L",       "thigh.R",     "shin.R",
          "foot.R", "toe.R",      "shoulder.L",  "upper_arm.L", "forearm.L",
          "hand.L", "shoulder.R", "upper_arm.R", "forearm.R",   "hand.R"};
}

HumanoidNames UnrealNames() {
  return {"pelvis", "spine_01",   "spine_02",   "neck_01",    "thigh_l",
          "calf_l", "foot_l",     "ball_l",     "thigh_r",    "calf_r",
          "foot_r", "ball_r",     "clavicle_l", "upperarm_l", "lowerarm_l",
          "hand_l", "clavicle_r", "upperarm_r", "lowerarm_r", "hand_r"};
}

HumanoidNames MixamoNames(const std::string& p) {
  return {p + "Hips",          p + "Spine",    p + "Spine1",       p + "Neck",
          p + "LeftUpLeg",     p + "LeftLeg",  p + "LeftFoot",     p + "LeftToeBase",
          p + "RightUpLeg",    p + "RightLeg", p + "RightFoot",    p + "RightToeBase",
          p + "LeftShoulder",  p + "LeftArm",  p + "LeftForeArm",  p + "LeftHand",
          p + "RightShoulder", p + "RightArm", p + "RightForeArm", p + "RightHand"};
}

HumanoidNames NumberedNames() {
  HumanoidNames n;
  std::string* fields[] = {&n.pelvis, &n.spine,      &n.chest,       &n.neck,        &n.thigh_l,
                           &n.shin_l, &n.foot_l,     &n.toe_l,       &n.thigh_r,     &n.shin_r,
                           &n.foot_r, &n.toe_r,      &n.clavicle_l,  &n.upper_arm_l, &n.forearm_l,
                           &n.hand_l, &n.clavicle_r, &n.upper_arm_r, &n.forearm_r,   &n.hand_r};
  int i = 0;
  for (std::string* f : fields) *f = "joint" + std::to_string(i++);
  return n;
}

HumanoidNames BipedNames() {
  return {"Bip01 Pelvis",     "Bip01 Spine",      "Bip01 Spine1",    "Bip01 Neck",
          "Bip01 L Thigh",    "Bip01 L Calf",     "Bip01 L Foot",    "Bip01 L Toe0",
          "Bip01 R Thigh",    "Bip01 R Calf",     "Bip01 R Foot",    "Bip01 R Toe0",
          "Bip01 L Clavicle", "Bip01 L UpperArm", "Bip01 L Forearm", "Bip01 L Hand",
          "Bip01 R Clavicle", "Bip01 R UpperArm", "Bip01 R Forearm", "Bip01 R Hand"};
}

HumanoidNames SideWordNames() {
  return {"hips",       "spine",          "chest",           "neck",           "left_thigh",
          "left_shin",  "left_foot",      "left_toe",        "right_thigh",    "right_shin",
          "right_foot", "right_toe",      "left_shoulder",   "left_upper_arm", "left_forearm",
          "left_hand",  "right_shoulder", "right_upper_arm", "right_forearm",  "right_hand"};
}

Model MakeHumanoidModel(const HumanoidNames& names) {
  Model model;
  model.skeleton = MakeHumanoid(names);
  DetectRig(model);
  return model;
}

}  // namespace ikpose::anim::test
