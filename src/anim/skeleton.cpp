#include "anim/skeleton.h"

#include <cmath>

namespace ikpose::anim {

glm::mat4 ToMatrix(const Transform& transform) {
  return ik::ToMat4(ik::AffineFromLocal(transform));
}

Transform Decompose(const glm::mat4& matrix) {
  Transform t;
  t.translation = glm::vec3(matrix[3]);
  glm::vec3 columns[3] = {glm::vec3(matrix[0]), glm::vec3(matrix[1]), glm::vec3(matrix[2])};
  glm::vec3 scale(glm::length(columns[0]), glm::length(columns[1]), glm::length(columns[2]));
  if (glm::determinant(glm::mat3(matrix)) < 0.f) scale.x = -scale.x;
  glm::mat3 rotation(1.f);
  for (int i = 0; i < 3; ++i) {
    if (scale[i] != 0.f) rotation[i] = columns[i] / scale[i];
  }
  t.rotation = ik::RotationOf(rotation);
  t.scale = scale;
  return t;
}

int Skeleton::Find(std::string_view name) const {
  int first = -1;
  for (int i = 0; i < size(); ++i) {
    if (names[i] != name) continue;
    if (IsJoint(i)) return i;
    if (first < 0) first = i;
  }
  return first;
}

std::vector<int> Skeleton::Children(int bone) const {
  std::vector<int> children;
  for (int i = bone + 1; i < size(); ++i) {
    if (parents[i] == bone) children.push_back(i);
  }
  return children;
}

bool Skeleton::IsAncestorOrSelf(int ancestor, int bone) const {
  for (int b = bone; b >= 0; b = parents[b]) {
    if (b == ancestor) return true;
  }
  return false;
}

int Skeleton::JointCount() const {
  int count = 0;
  for (int i = 0; i < size(); ++i) count += IsJoint(i) ? 1 : 0;
  return count;
}

std::vector<int> Skeleton::ReportedBones() const {
  std::vector<int> bones;
  for (int i = 0; i < size(); ++i) {
    const bool mesh_only = (flags[static_cast<std::size_t>(i)] & kBoneHasMesh) != 0 && !IsJoint(i);
    if (!mesh_only) bones.push_back(i);
  }
  return bones;
}

std::string Skeleton::Validate() const {
  const std::size_t n = parents.size();
  if (names.size() != n || rest_ls.size() != n || flags.size() != n) {
    return "skeleton arrays have different sizes";
  }
  for (std::size_t i = 0; i < n; ++i) {
    if (parents[i] >= static_cast<int>(i) || parents[i] < -1) {
      return "bone " + std::to_string(i) + " (" + names[i] + ") comes before its parent";
    }
    const Transform& t = rest_ls[i];
    const float values[] = {t.translation.x, t.translation.y, t.translation.z, t.rotation.x,
                            t.rotation.y,    t.rotation.z,    t.rotation.w,    t.scale.x,
                            t.scale.y,       t.scale.z};
    for (float v : values) {
      if (!std::isfinite(v)) return "bone " + names[i] + " has a non-finite rest transform";
    }
  }
  return "";
}

Pose RestPose(const Skeleton& skeleton) {
  Pose pose;
  pose.locals_ls = skeleton.rest_ls;
  pose.models_ms.assign(skeleton.rest_ls.size(), glm::mat4(1.f));
  UpdateModels(skeleton, pose);
  return pose;
}

void LocalToModel(const Skeleton& skeleton, std::span<const Transform> locals_ls,
                  std::span<glm::mat4> models_ms) {
  const int n = skeleton.size();
  for (int i = 0; i < n; ++i) {
    const glm::mat4 local = ToMatrix(locals_ls[i]);
    const int parent = skeleton.parents[i];
    models_ms[i] = parent < 0 ? local : models_ms[parent] * local;
  }
}

void UpdateSubtree(const Skeleton& skeleton, int root, Pose& pose) {
  const int n = skeleton.size();
  std::vector<char> inside(n, 0);
  for (int i = root; i < n; ++i) {
    const int parent = skeleton.parents[i];
    if (i != root && (parent < root || !inside[parent])) continue;
    inside[i] = 1;
    const glm::mat4 local = ToMatrix(pose.locals_ls[i]);
    pose.models_ms[i] = parent < 0 ? local : pose.models_ms[parent] * local;
  }
}

void ShiftBoneMs(const Skeleton& skeleton, int bone, const glm::vec3& offset_ms, Pose& pose) {
  const auto b = static_cast<std::size_t>(bone);
  const int parent = skeleton.parents[b];
  pose.locals_ls[b].translation +=
      parent >= 0
          ? glm::inverse(glm::mat3(pose.models_ms[static_cast<std::size_t>(parent)])) * offset_ms
          : offset_ms;
  UpdateSubtree(skeleton, bone, pose);
}

void BuildPalette(const Skin& skin, std::span<const glm::mat4> models_ms,
                  std::span<glm::mat4> palette) {
  for (std::size_t k = 0; k < skin.joints.size(); ++k) {
    palette[k] = models_ms[skin.joints[k]] * skin.inverse_bind[k];
  }
}

std::vector<glm::mat4> BuildPalette(const Skin& skin, std::span<const glm::mat4> models_ms) {
  std::vector<glm::mat4> palette(skin.joints.size());
  BuildPalette(skin, models_ms, palette);
  return palette;
}

}  // namespace ikpose::anim
