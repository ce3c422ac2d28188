#include "scene/files/pose_library.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <system_error>

#include "anim/atomic_file.h"
#include "anim/bounded_input.h"
#include "anim/file_paths.h"

namespace ikpose::scene {

namespace fs = std::filesystem;

namespace {

constexpr char kPngSignature[] = "\x89PNG\r\n\x1a\n";

fs::path PosePath(const fs::path& folder, const std::string& name) {
  return folder / (name + ".json");
}
fs::path ThumbnailPath(const fs::path& folder, const std::string& name) {
  return folder / (name + ".png");
}

LibraryEntry ReadEntry(const fs::path& folder, const std::string& name) {
  LibraryEntry e;
  e.name = name;
  e.pose_path = PosePath(folder, name);
  e.thumbnail_path = ThumbnailPath(folder, name);
  std::string text;
  std::string error;
  if (!anim::ReadRegularFile(e.pose_path, PoseLibrary::kMaxPoseBytes, &text, &error) ||
      !ParsePoseFile(text, e.pose_path, &e.pose, &error)) {
    e.error = error;
  }
  std::error_code ec;
  if (fs::symlink_status(e.thumbnail_path, ec).type() == fs::file_type::not_found) return e;
  std::string png;
  if (!anim::ReadRegularFile(e.thumbnail_path, PoseLibrary::kMaxThumbnailBytes, &png, &error)) {
    e.thumbnail_error = error;
  } else if (png.compare(0, sizeof kPngSignature - 1, kPngSignature) != 0) {
    e.thumbnail_error = e.thumbnail_path.string() + ": not a PNG file";
  } else {
    e.thumbnail = std::move(png);
  }
  return e;
}

// `from` to `to` without replacing an existing `to` (link, then unlink the old name).
bool MoveNoReplace(const fs::path& from, const fs::path& to, std::string* error) {
  if (::link(from.c_str(), to.c_str()) != 0) {
    *error = "cannot rename " + from.string() + " to " + to.string() + ": " + std::strerror(errno);
    return false;
  }
  if (::unlink(from.c_str()) != 0) {
    const int saved = errno;
    ::unlink(to.c_str());
    *error = "cannot rename " + from.string() + ": " + std::strerror(saved);
    return false;
  }
  return true;
}

glm::quat Slerp(const glm::quat& from, const glm::quat& to, float t) {
  // The short way round: q and -q are the same rotation.
  const glm::quat target = glm::dot(from, to) < 0.0f ? -to : to;
  return glm::normalize(glm::slerp(from, target, t));
}

}  // namespace

bool ValidPoseName(const std::string& name, std::string* why) {
  if (name.empty()) {
    *why = "a pose needs a name";
  } else if (name.size() > PoseLibrary::kMaxNameBytes) {
    *why = "a pose name has at most " + std::to_string(PoseLibrary::kMaxNameBytes) + " bytes";
  } else if (name.front() == '.') {
    *why = "a pose name cannot start with '.'";
  } else if (std::any_of(name.begin(), name.end(), [](char c) {
               const auto u = static_cast<unsigned char>(c);
               return c == '/' || c == '\\' || u < 0x20 || u == 0x7f;
             })) {
    *why = "a pose name cannot hold '/', '\\' or control characters";
  } else {
    return true;
  }
  return false;
}

fs::path DefaultLibraryFolder() {
  const char* data = std::getenv("XDG_DATA_HOME");
  if (data != nullptr && data[0] == '/') return fs::path(data) / "ikpose" / "poses";
  const char* home = std::getenv("HOME");
  if (home != nullptr && home[0] == '/') {
    return fs::path(home) / ".local" / "share" / "ikpose" / "poses";
  }
  return fs::path("ikpose-poses");
}

PoseLibrary::PoseLibrary(fs::path folder) : folder_(std::move(folder)) {
  Refresh();
}

const LibraryEntry* PoseLibrary::Find(const std::string& name) const {
  for (const LibraryEntry& e : entries_) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

void PoseLibrary::Refresh() {
  entries_.clear();
  folder_note_.clear();
  std::error_code ec;
  if (!fs::exists(folder_, ec)) return;  // made on the first save
  std::vector<std::string> names;
  fs::directory_iterator it(folder_, ec);
  if (ec) {
    folder_note_ = folder_.string() + ": " + ec.message();
    return;
  }
  std::size_t seen = 0;
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) break;
    // Bounded whatever the folder holds: at most ten times the poses kept are looked at.
    if (++seen > 10 * kMaxPoses) break;
    const fs::path& p = it->path();
    std::string why;
    if (p.extension() != ".json" || !ValidPoseName(p.stem().string(), &why)) continue;
    names.push_back(p.stem().string());
  }
  std::sort(names.begin(), names.end());
  if (names.size() > kMaxPoses || seen > 10 * kMaxPoses) {
    folder_note_ = folder_.string() + ": more than " + std::to_string(kMaxPoses) +
                   " files; the first " + std::to_string(std::min(names.size(), kMaxPoses)) +
                   " poses are shown";
    names.resize(std::min(names.size(), kMaxPoses));
  }
  for (const std::string& name : names) entries_.push_back(ReadEntry(folder_, name));
}

bool PoseLibrary::Save(const std::string& name, const PosingSession& session,
                       const std::string& model_path, const std::string& thumbnail_png,
                       std::string* error) {
  std::string why;
  if (!ValidPoseName(name, &why)) {
    *error = why;
    return false;
  }
  std::error_code ec;
  fs::create_directories(folder_, ec);
  if (ec) {
    *error = "cannot make the library folder " + folder_.string() + ": " + ec.message();
    return false;
  }
  const std::string model =
      model_path.empty() ? ""
                         : anim::RelativeToFolderOf(model_path, PosePath(folder_, name)).string();
  const std::string text = PoseFileText(CapturePose(session, model));
  // The thumbnail first: the pose file is what makes the entry, so a pose never lacks the
  // picture it was saved with; a failed save takes a new picture away again.
  const fs::path png = ThumbnailPath(folder_, name);
  const bool had_png = fs::symlink_status(png, ec).type() != fs::file_type::not_found;
  if (!thumbnail_png.empty() && !anim::WriteFileAtomically(png, thumbnail_png, error)) {
    return false;
  }
  if (!anim::WriteFileAtomically(PosePath(folder_, name), text, error)) {
    if (!had_png && !thumbnail_png.empty()) fs::remove(png, ec);  // no picture without its pose
    return false;
  }
  Refresh();
  return true;
}

bool PoseLibrary::Rename(const std::string& from, const std::string& to, std::string* error) {
  std::string why;
  if (!ValidPoseName(from, &why) || !ValidPoseName(to, &why)) {
    *error = why;
    return false;
  }
  std::error_code ec;
  const fs::path from_png = ThumbnailPath(folder_, from);
  const fs::path to_png = ThumbnailPath(folder_, to);
  if (fs::exists(PosePath(folder_, to), ec) || fs::exists(to_png, ec)) {
    *error = "a pose named '" + to + "' is already in the library";
    return false;
  }
  if (!MoveNoReplace(PosePath(folder_, from), PosePath(folder_, to), error)) return false;
  if (fs::symlink_status(from_png, ec).type() != fs::file_type::not_found &&
      !MoveNoReplace(from_png, to_png, error)) {
    std::string ignored;
    MoveNoReplace(PosePath(folder_, to), PosePath(folder_, from), &ignored);  // back as it was
    Refresh();
    return false;
  }
  Refresh();
  return true;
}

bool PoseLibrary::Delete(const std::string& name, std::string* error) {
  std::string why;
  if (!ValidPoseName(name, &why)) {
    *error = why;
    return false;
  }
  // The pose file first: once it is gone the entry is gone, whatever happens to the picture.
  if (::unlink(PosePath(folder_, name).c_str()) != 0 && errno != ENOENT) {
    *error = "cannot delete " + PosePath(folder_, name).string() + ": " + std::strerror(errno);
    Refresh();
    return false;
  }
  if (::unlink(ThumbnailPath(folder_, name).c_str()) != 0 && errno != ENOENT) {
    *error = "cannot delete " + ThumbnailPath(folder_, name).string() + ": " + std::strerror(errno);
    Refresh();
    return false;
  }
  Refresh();
  return true;
}

PoseFile CapturePose(const PosingSession& session, const std::string& model_path) {
  PoseFile out;
  out.model = model_path;
  const anim::Skeleton& s = session.model().skeleton;
  for (int b : s.ReportedBones()) {
    const anim::Transform& local = session.pose().locals_ls[static_cast<std::size_t>(b)];
    PoseFileBone bone;
    bone.name = s.names[static_cast<std::size_t>(b)];
    bone.rotation_ls = glm::normalize(local.rotation);
    bone.translation_ls = local.translation;
    bone.scale_ls = local.scale;
    out.bones.push_back(std::move(bone));
  }
  return out;
}

ApplyResult ApplyPose(const PoseFile& pose, const ApplyOptions& options, PosingSession& session) {
  ApplyResult result;
  if (options.flip &&
      session.mirror_map().pairs_by_name + session.mirror_map().pairs_by_structure == 0) {
    result.error = "this rig has no left/right pairs to flip the pose with";
    return result;
  }
  if (!(options.blend >= 0.0f && options.blend <= 1.0f)) {
    result.error = "the blend factor must be between 0 and 1";
    return result;
  }
  const anim::Skeleton& s = session.model().skeleton;
  // Which bones may change: all, or each chosen limb's upper bone and everything below it.
  std::vector<bool> allowed(static_cast<std::size_t>(s.size()), options.whole);
  if (!options.whole) {
    for (anim::Limb limb : anim::kLimbs) {
      const anim::LimbChain& chain = session.chain(limb);
      if (!options.limbs[static_cast<std::size_t>(limb)] || !session.target(limb).available)
        continue;
      for (int b = 0; b < s.size(); ++b) {
        if (s.IsAncestorOrSelf(chain.upper, b)) allowed[static_cast<std::size_t>(b)] = true;
      }
    }
  }
  const std::vector<int> bone_of = MatchBones(pose, s);
  // The saved rotations laid over the pose shown now (bone -> saved local rotation)...
  anim::Pose saved = session.pose();
  std::vector<bool> in_file(static_cast<std::size_t>(s.size()), false);
  for (std::size_t i = 0; i < pose.bones.size(); ++i) {
    const int b = bone_of[i];
    if (b < 0) {
      result.unmatched.push_back(pose.bones[i].name);
      continue;
    }
    saved.locals_ls[static_cast<std::size_t>(b)].rotation = pose.bones[i].rotation_ls;
    in_file[static_cast<std::size_t>(b)] = true;
  }
  // ...and, flipped, mirrored across this rig's plane: each bone takes its counterpart's saved
  // turn from rest, reflected (anim/mirror.h), so a left-hand pose lands on the right hand.
  if (options.flip) {
    anim::UpdateModels(s, saved);
    anim::MirrorPose(s, session.rest_pose(), session.mirror_map(), anim::MirrorMode::kFlip, saved);
    std::vector<bool> flipped(in_file.size(), false);
    for (int b = 0; b < s.size(); ++b) {
      const int c = session.mirror_map().counterpart[static_cast<std::size_t>(b)];
      flipped[static_cast<std::size_t>(b)] = in_file[static_cast<std::size_t>(c)];
    }
    in_file = std::move(flipped);
  }
  // Every wanted rotation from the pose shown now, before any of them changes it.
  std::vector<std::pair<int, glm::quat>> wanted;
  for (int b = 0; b < s.size(); ++b) {
    const auto bi = static_cast<std::size_t>(b);
    if (!in_file[bi] || !allowed[bi]) continue;
    const glm::quat current = session.pose().locals_ls[bi].rotation;
    wanted.emplace_back(b, Slerp(current, saved.locals_ls[bi].rotation, options.blend));
  }
  // The body's turn is in the shown pelvis rotation: once the pelvis is set, it is in the turns.
  const int body = session.body_bone();
  const bool sets_body =
      std::any_of(wanted.begin(), wanted.end(), [&](const auto& w) { return w.first == body; });
  if (sets_body) session.edits.body.turn_ms = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
  // One call for the whole set: every limb a turned bone belongs to lets go once, from the
  // pose shown, before any turn is set.
  if (session.SetBoneRotations(wanted)) result.applied = static_cast<int>(wanted.size());
  session.Evaluate();
  result.ok = true;
  return result;
}

}  // namespace ikpose::scene
