#include "scene/files/pose_file.h"

#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "anim/bounded_input.h"
#include "anim/file_paths.h"

namespace ikpose::scene {

namespace fs = std::filesystem;

namespace {

// A problem with one field; the reader prefixes the file name.
struct FieldError {
  std::string what;
};

std::string BoneLabel(std::size_t index, const std::string& name) {
  return "bones[" + std::to_string(index) + "]" + (name.empty() ? "" : " ('" + name + "')");
}

// `count` finite numbers, else FieldError naming `field` of `bone`.
std::vector<float> Numbers(const nlohmann::json& value, std::size_t count, const std::string& bone,
                           const char* field, const char* shape) {
  if (!value.is_array() || value.size() != count) {
    throw FieldError{bone + ": \"" + field + "\" must be " + shape};
  }
  std::vector<float> out;
  for (const nlohmann::json& v : value) {
    if (!v.is_number()) throw FieldError{bone + ": \"" + field + "\" must be " + shape};
    const double d = v.get<double>();
    if (!std::isfinite(d) || std::abs(d) > 3.0e38) {
      throw FieldError{bone + ": \"" + field + "\" holds a non-finite number"};
    }
    out.push_back(static_cast<float>(d));
  }
  return out;
}

PoseFileBone ParseBone(const nlohmann::json& j, std::size_t index) {
  if (!j.is_object()) throw FieldError{BoneLabel(index, "") + " must be an object"};
  PoseFileBone bone;
  const auto name = j.find("name");
  if (name == j.end() || !name->is_string() || name->get<std::string>().empty()) {
    throw FieldError{BoneLabel(index, "") + ": \"name\" must be a non-empty string"};
  }
  bone.name = name->get<std::string>();
  const std::string label = BoneLabel(index, bone.name);
  const auto rotation = j.find("rotation_ls");
  if (rotation == j.end()) throw FieldError{label + ": \"rotation_ls\" is missing"};
  const std::vector<float> q = Numbers(*rotation, 4, label, "rotation_ls", "[x, y, z, w]");
  const glm::quat raw(q[3], q[0], q[1], q[2]);
  const float length = glm::length(raw);
  if (!(std::abs(length - 1.f) <= 1e-3f)) {
    std::ostringstream text;
    text << label << ": \"rotation_ls\" is not a unit quaternion (length " << length << ")";
    throw FieldError{text.str()};
  }
  bone.rotation_ls = raw / length;
  if (const auto t = j.find("translation_ls"); t != j.end()) {
    const std::vector<float> v = Numbers(*t, 3, label, "translation_ls", "[x, y, z]");
    bone.translation_ls = glm::vec3(v[0], v[1], v[2]);
  }
  if (const auto s = j.find("scale_ls"); s != j.end()) {
    const std::vector<float> v = Numbers(*s, 3, label, "scale_ls", "[x, y, z]");
    bone.scale_ls = glm::vec3(v[0], v[1], v[2]);
  }
  return bone;
}

// `name` as a pose file holds it: reports write invalid UTF-8 as U+FFFD (JSON must be UTF-8),
// so a model's bone is looked up under that spelling.
std::string AsWrittenInJson(const std::string& name) {
  const nlohmann::json text(name);
  return nlohmann::json::parse(text.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))
      .get<std::string>();
}

}  // namespace

fs::path PoseFile::ModelPath() const {
  return anim::ResolveFromFolderOf(model, path);
}

bool ReadPoseFile(const fs::path& path, PoseFile* pose, std::string* error) {
  std::string text;
  if (!anim::ReadRegularFile(path, anim::kMaxJsonFileBytes, &text, error)) return false;
  return ParsePoseFile(text, path, pose, error);
}

bool ParsePoseFile(std::string_view text, const fs::path& path, PoseFile* pose,
                   std::string* error) {
  const std::string file = path.string();
  if (!anim::JsonNestingWithin(text)) {
    *error = file + ": nested deeper than " + std::to_string(anim::kMaxJsonDepth) + " levels";
    return false;
  }
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    *error = file + ": not valid JSON (byte " + std::to_string(e.byte) + ")";
    return false;
  } catch (const nlohmann::json::exception&) {  // 1e999: out of a double's range
    *error = file + ": holds a non-finite number (out of a double's range)";
    return false;
  }
  PoseFile out;
  out.path = path;
  try {
    if (!j.is_object()) throw FieldError{"not a pose file (the top level must be an object)"};
    if (const auto model = j.find("model"); model != j.end()) {
      if (!model->is_string()) throw FieldError{"\"model\" must be a string"};
      out.model = model->get<std::string>();
    }
    const auto bones = j.find("bones");
    if (bones == j.end()) throw FieldError{"not a pose file (no \"bones\")"};
    if (!bones->is_array()) throw FieldError{"\"bones\" must be an array"};
    if (bones->empty()) throw FieldError{"\"bones\" is empty"};
    for (std::size_t i = 0; i < bones->size(); ++i) out.bones.push_back(ParseBone((*bones)[i], i));
  } catch (const FieldError& e) {
    *error = file + ": " + e.what;
    return false;
  }
  *pose = std::move(out);
  return true;
}

std::string PoseFileText(const PoseFile& pose) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  if (!pose.model.empty()) j["model"] = pose.model;
  nlohmann::ordered_json bones = nlohmann::ordered_json::array();
  for (const PoseFileBone& bone : pose.bones) {
    nlohmann::ordered_json b;
    b["name"] = bone.name;
    const glm::quat& q = bone.rotation_ls;
    b["rotation_ls"] = {q.x, q.y, q.z, q.w};
    if (const auto& t = bone.translation_ls) b["translation_ls"] = {t->x, t->y, t->z};
    if (const auto& sc = bone.scale_ls) b["scale_ls"] = {sc->x, sc->y, sc->z};
    bones.push_back(std::move(b));
  }
  j["bones"] = std::move(bones);
  return j.dump(1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::vector<int> MatchBones(const PoseFile& file, const anim::Skeleton& s) {
  // Candidates per name: the bones a pose report lists first, then other nodes of that name.
  std::map<std::string, std::vector<int>> by_name;
  std::vector<bool> reported(static_cast<std::size_t>(s.size()), false);
  for (int b : s.ReportedBones()) {
    reported[static_cast<std::size_t>(b)] = true;
    by_name[AsWrittenInJson(s.names[static_cast<std::size_t>(b)])].push_back(b);
  }
  for (int b = 0; b < s.size(); ++b) {
    if (!reported[static_cast<std::size_t>(b)])
      by_name[AsWrittenInJson(s.names[static_cast<std::size_t>(b)])].push_back(b);
  }
  std::vector<int> bone_of(file.bones.size(), -1);
  std::map<std::string, std::size_t> used;
  for (std::size_t i = 0; i < file.bones.size(); ++i) {
    const std::string& name = file.bones[i].name;
    const auto found = by_name.find(name);
    if (found == by_name.end()) continue;
    std::size_t& k = used[name];
    if (k < found->second.size()) bone_of[i] = found->second[k++];
  }
  return bone_of;
}

bool PoseFromFile(const PoseFile& file, const anim::Model& model, anim::Pose* pose, int* unlisted,
                  std::string* error) {
  const anim::Skeleton& s = model.skeleton;
  const std::string model_name = fs::path(model.source).filename().string();
  const std::vector<int> bone_of = MatchBones(file, s);
  std::set<std::string> matched;
  for (std::size_t i = 0; i < file.bones.size(); ++i) {
    if (bone_of[i] >= 0) matched.insert(file.bones[i].name);
  }
  std::size_t missing = 0;
  std::string first_missing;
  for (std::size_t i = 0; i < file.bones.size(); ++i) {
    if (bone_of[i] >= 0) continue;
    const std::string& name = file.bones[i].name;
    if (matched.count(name) > 0) {  // the model has the name, fewer times than the file
      *error = file.path.string() + ": bone '" + name + "' is listed more often than " +
               model_name + " has it";
      return false;
    }
    if (missing++ == 0) first_missing = name;
  }
  if (missing == file.bones.size()) {
    *error = file.path.string() + ": none of its " + std::to_string(missing) + " bones is in " +
             model_name + " (a pose for another model?)";
    return false;
  }
  if (missing > 0) {
    *error = file.path.string() + ": bone '" + first_missing + "' is not in " + model_name +
             (missing > 1 ? " (nor " + std::to_string(missing - 1) + " more)" : "");
    return false;
  }

  anim::Pose out = anim::RestPose(s);
  std::vector<bool> listed(static_cast<std::size_t>(s.size()), false);
  for (std::size_t i = 0; i < file.bones.size(); ++i) {
    const PoseFileBone& bone = file.bones[i];
    const std::size_t b = static_cast<std::size_t>(bone_of[i]);
    listed[b] = true;
    anim::Transform& local = out.locals_ls[b];
    local.rotation = bone.rotation_ls;
    if (bone.translation_ls) local.translation = *bone.translation_ls;
    if (bone.scale_ls) local.scale = *bone.scale_ls;
  }
  anim::UpdateModels(s, out);
  if (unlisted != nullptr) {
    *unlisted = 0;
    for (int b : s.ReportedBones()) *unlisted += listed[static_cast<std::size_t>(b)] ? 0 : 1;
  }
  *pose = std::move(out);
  return true;
}

}  // namespace ikpose::scene
