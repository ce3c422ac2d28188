// Skeleton, pose and skin: the runtime form of a character's bones.
//
// What: a skeleton as flat arrays in which every parent comes before its children (names,
// parent indices, rest local transforms), a pose as one local transform per bone, the one-pass
// local -> model conversion, and skins (joint lists with inverse bind matrices) that turn model
// matrices into the skinning palette: palette[k] = model[joints[k]] * inverse_bind[k].
// Why: flat arrays make local -> model a single loop and keep the data trivially copyable to
// the GPU; the palette is what linear-blend skinning multiplies bind-space vertices by.
// Limits: the skeleton holds every node of the file's hierarchy (joints, their ancestors such as
// a Z-up root, nodes carrying meshes), so "model space" is the file's scene space; `flags` say
// which nodes are skin joints. Names need not be unique (robot.glb repeats some); `Find`
// prefers joints.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "ik/transform.h"

namespace ikpose::anim {

// A bone's transform relative to its parent: p_parent = T * R * S * p_local (the solver's type).
using Transform = ik::LocalTransform;

// T * R * S as a 4x4 matrix.
glm::mat4 ToMatrix(const Transform& transform);
// Translation, rotation and scale of an affine matrix without shear. A negative determinant
// becomes a negative x scale. Exact for matrices made by ToMatrix.
Transform Decompose(const glm::mat4& matrix);

enum BoneFlags : std::uint8_t {
  kBoneIsJoint = 1,  // listed by at least one skin (a "bone" in the usual sense)
  kBoneHasMesh = 2,  // the node carries a mesh
};

struct Skeleton {
  std::vector<std::string> names;
  std::vector<int> parents;         // -1 for a root; parents[i] < i
  std::vector<Transform> rest_ls;   // the file's node transforms
  std::vector<std::uint8_t> flags;  // BoneFlags

  int size() const { return static_cast<int>(parents.size()); }
  bool IsJoint(int bone) const { return (flags[bone] & kBoneIsJoint) != 0; }
  // Index of the bone called `name`, -1 if none. With duplicate names, a joint wins over a
  // plain node, then the first in order.
  int Find(std::string_view name) const;
  // Direct children of `bone`, in order.
  std::vector<int> Children(int bone) const;
  // True when `ancestor` is `bone` or one of its ancestors.
  bool IsAncestorOrSelf(int ancestor, int bone) const;
  // Number of bones that are joints.
  int JointCount() const;
  // Checks parents-before-children, sizes and finite transforms; "" when fine, else why not.
  std::string Validate() const;
  // The bones reports and pose files list: every node except those that only carry a mesh, in
  // skeleton order.
  std::vector<int> ReportedBones() const;
};

// A pose: local transforms and the model matrices computed from them.
struct Pose {
  std::vector<Transform> locals_ls;
  std::vector<glm::mat4> models_ms;
};

// The rest pose with its model matrices.
Pose RestPose(const Skeleton& skeleton);
// model[i] = model[parent[i]] * local[i], in one pass over the bones.
void LocalToModel(const Skeleton& skeleton, std::span<const Transform> locals_ls,
                  std::span<glm::mat4> models_ms);
inline void UpdateModels(const Skeleton& skeleton, Pose& pose) {
  LocalToModel(skeleton, pose.locals_ls, pose.models_ms);
}
// Recomputes the model matrices of `root` and all its descendants only.
void UpdateSubtree(const Skeleton& skeleton, int root, Pose& pose);
// Moves `bone`'s joint by `offset_ms` (model space) in `pose`; its descendants follow.
void ShiftBoneMs(const Skeleton& skeleton, int bone, const glm::vec3& offset_ms, Pose& pose);

// Joint position (the translation of the model matrix).
inline glm::vec3 PositionMs(const Pose& pose, int bone) {
  return glm::vec3(pose.models_ms[bone][3]);
}

// Joint rotation in model space (scale removed); the identity for bone -1 (above a root).
inline glm::quat RotationMs(const Pose& pose, int bone) {
  return bone >= 0 ? ik::RotationOf(glm::mat3(pose.models_ms[static_cast<std::size_t>(bone)]))
                   : glm::quat(1.f, 0.f, 0.f, 0.f);
}

// A skin: which bones move a mesh and how the mesh sat relative to them when it was bound.
// Meshes index `joints` (0..joints.size()-1) from their per-vertex joint indices.
struct Skin {
  std::string name;
  std::vector<int> joints;              // skeleton bone indices
  std::vector<glm::mat4> inverse_bind;  // bind space -> joint space, one per joint
};

// palette[k] = model[skin.joints[k]] * skin.inverse_bind[k]; `palette` has joints.size() items.
void BuildPalette(const Skin& skin, std::span<const glm::mat4> models_ms,
                  std::span<glm::mat4> palette);
std::vector<glm::mat4> BuildPalette(const Skin& skin, std::span<const glm::mat4> models_ms);

}  // namespace ikpose::anim
