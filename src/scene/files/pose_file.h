// Pose files: the JSON `ikpose pose --out` writes, read back as the local transforms of a model.
//
// What: `ReadPoseFile` takes the model the pose was made on ("model", relative to the pose file
// unless absolute) and per bone its "name", "rotation_ls" [x, y, z, w], "translation_ls" and
// "scale_ls" [x, y, z]; `PoseFromFile` matches those bones to a model by name and gives its pose.
//
//   {"model": "character.glb",
//    "bones": [{"name": "thigh_l", "rotation_ls": [0.1, 0, 0, 0.995],
//               "translation_ls": [0.09, -0.03, 0], "scale_ls": [1, 1, 1]}, ...]}
//
// Why: `ikpose export` turns a saved pose into a .glb, so a pose solved headlessly (or by hand)
// can be taken into Blender or a game engine.
// Limits: other fields of the report (chains, Euler angles, model-space positions) are ignored;
// the local transforms are the pose. A repeated bone name matches the model's bones of that name
// in order. Model bones the file does not list keep their rest transform, and a bone without
// "translation_ls" or "scale_ls" keeps its rest translation or scale. Rotations are normalised;
// one whose length is off 1 by more than 1e-3 is an error.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "anim/model.h"

namespace ikpose::scene {

struct PoseFileBone {
  std::string name;
  glm::quat rotation_ls{1.f, 0.f, 0.f, 0.f};  // unit
  std::optional<glm::vec3> translation_ls;
  std::optional<glm::vec3> scale_ls;
};

struct PoseFile {
  std::filesystem::path path;  // the file it was read from
  std::string model;           // as written; empty when the file names none
  std::vector<PoseFileBone> bones;

  // `model` resolved against the pose file's folder; empty when the file names none.
  std::filesystem::path ModelPath() const;
};

// False with one line, "<file>: <what>", for a missing, unreadable or malformed file, a
// non-finite number or a field of the wrong shape.
bool ReadPoseFile(const std::filesystem::path& path, PoseFile* pose, std::string* error);
// The same from text already read; `path` names it in errors and anchors "model".
bool ParsePoseFile(std::string_view text, const std::filesystem::path& path, PoseFile* pose,
                   std::string* error);

// The file's text: "model" (when set) and per bone "name", "rotation_ls" and, when set,
// "translation_ls" and "scale_ls"; names that are not UTF-8 are written with U+FFFD.
std::string PoseFileText(const PoseFile& pose);

// For each bone of the file, the skeleton's bone of that name (pose-report bones first, a repeated
// name taking the next bone of that name), or -1 when there is none left.
std::vector<int> MatchBones(const PoseFile& file, const anim::Skeleton& skeleton);

// The model's pose from the file: rest transforms overridden by the file's bones, model
// matrices updated. False with "<file>: <what>" when a bone of the file is not in the model.
// `unlisted` (may be null) gets the number of model bones the file does not mention.
bool PoseFromFile(const PoseFile& file, const anim::Model& model, anim::Pose* pose, int* unlisted,
                  std::string* error);

}  // namespace ikpose::scene
