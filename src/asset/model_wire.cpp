#include "asset/model_wire.h"

#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

namespace ikpose::asset {

namespace {

// Texts from the wire or about it may quote names (a bone's, a reason's): control bytes become
// spaces, so the error stays one line.
std::string OneLine(std::string text) {
  for (char& c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  }
  return text;
}

constexpr char kMagic[8] = {'i', 'k', 'p', 'm', 'o', 'd', 'e', 'l'};
constexpr std::uint8_t kKindModel = 0;
constexpr std::uint8_t kKindFailure = 1;

// ----- writing -----

class Writer {
 public:
  template <typename T>
  void Pod(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const char*>(&value);
    out_.append(p, sizeof(T));
  }
  void U8(std::uint8_t v) { Pod(v); }
  void I32(int v) { Pod(static_cast<std::int32_t>(v)); }
  void F32(float v) { Pod(v); }
  void Count(std::size_t n) { Pod(static_cast<std::uint64_t>(n)); }
  void Str(const std::string& s) {
    const std::size_t n = std::min(s.size(), kMaxWireString);
    Count(n);
    out_.append(s.data(), n);
  }
  template <typename T>
  void Array(const std::vector<T>& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    Count(v.size());
    out_.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
  }
  void Strings(const std::vector<std::string>& v) {
    Count(v.size());
    for (const std::string& s : v) Str(s);
  }
  std::string Finish(std::uint8_t kind) {
    std::string whole(kMagic, sizeof kMagic);
    const std::uint32_t version = kModelWireVersion;
    const std::uint64_t length = out_.size();
    whole.append(reinterpret_cast<const char*>(&version), sizeof version);
    whole.push_back(static_cast<char>(kind));
    whole.append(reinterpret_cast<const char*>(&length), sizeof length);
    whole += out_;
    return whole;
  }

 private:
  std::string out_;
};

void WriteUse(Writer& w, const anim::TextureUse& use) {
  w.I32(use.texture);
  w.I32(use.uv_set);
}

template <typename Track>
void WriteTrack(Writer& w, const Track& track) {
  w.U8(static_cast<std::uint8_t>(track.interpolation));
  w.Array(track.times);
  w.Array(track.values);
}

// ----- reading -----

// Reads the body; the first problem stops it (every later read returns zeros) and is kept.
class Reader {
 public:
  Reader(std::string_view bytes, std::size_t offset) : bytes_(bytes), at_(offset) {}

  bool ok() const { return problem_.empty(); }
  const std::string& problem() const { return problem_; }
  bool done() const { return at_ == bytes_.size(); }
  void Fail(const std::string& what) {
    if (problem_.empty()) problem_ = what;
  }

  template <typename T>
  T Pod() {
    T value{};
    if (!Take(sizeof(T), &value)) return T{};
    return value;
  }
  std::uint8_t U8() { return Pod<std::uint8_t>(); }
  int I32() { return Pod<std::int32_t>(); }
  float F32() { return Pod<float>(); }
  bool Bool() {
    const std::uint8_t v = U8();
    if (v > 1) Fail("a flag is " + std::to_string(v));
    return v == 1;
  }
  // A count of items of `item_bytes` each, checked against the bytes left before anyone
  // allocates for it.
  std::size_t Count(std::size_t item_bytes) {
    const auto n = Pod<std::uint64_t>();
    if (!ok()) return 0;
    if (n > (bytes_.size() - at_) / std::max<std::size_t>(item_bytes, 1)) {
      Fail("a count of " + std::to_string(n) + " at byte " + std::to_string(at_ - 8) +
           " is more than the " + std::to_string(bytes_.size() - at_) + " bytes left hold");
      return 0;
    }
    return static_cast<std::size_t>(n);
  }
  std::string Str() {
    const std::size_t n = Count(1);
    if (n > kMaxWireString) Fail("a string of " + std::to_string(n) + " bytes");
    if (!ok()) return {};
    std::string s(bytes_.substr(at_, n));
    at_ += n;
    return s;
  }
  template <typename T>
  std::vector<T> Array() {
    const std::size_t n = Count(sizeof(T));
    std::vector<T> v(n);
    if (n > 0) Take(n * sizeof(T), v.data());
    return v;
  }
  std::vector<std::string> Strings() {
    const std::size_t n = Count(8);  // each string has at least its length
    std::vector<std::string> v;
    v.reserve(n);
    for (std::size_t i = 0; i < n && ok(); ++i) v.push_back(Str());
    return v;
  }

 private:
  bool Take(std::size_t n, void* into) {
    if (!ok()) return false;
    if (n > bytes_.size() - at_) {
      Fail("truncated at byte " + std::to_string(bytes_.size()) + " (" + std::to_string(n) +
           " more bytes expected at byte " + std::to_string(at_) + ")");
      return false;
    }
    std::memcpy(into, bytes_.data() + at_, n);
    at_ += n;
    return true;
  }

  std::string_view bytes_;
  std::size_t at_;
  std::string problem_;
};

anim::TextureUse ReadUse(Reader& r) {
  anim::TextureUse use;
  use.texture = r.I32();
  use.uv_set = r.I32();
  return use;
}

template <typename Track>
Track ReadTrack(Reader& r) {
  Track track;
  const std::uint8_t interpolation = r.U8();
  if (interpolation > static_cast<std::uint8_t>(anim::Interpolation::kCubicSpline)) {
    r.Fail("an interpolation of " + std::to_string(interpolation));
  }
  track.interpolation = static_cast<anim::Interpolation>(interpolation);
  track.times = r.Array<float>();
  track.values = r.Array<typename decltype(track.values)::value_type>();
  return track;
}

bool FiniteFloats(const float* values, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    if (!std::isfinite(values[i])) return false;
  }
  return true;
}

template <typename T>
bool AllFinite(const std::vector<T>& v) {
  return FiniteFloats(reinterpret_cast<const float*>(v.data()), v.size() * sizeof(T) / 4);
}

bool InRange(int index, std::size_t size, bool none_allowed) {
  return (none_allowed && index == -1) || (index >= 0 && static_cast<std::size_t>(index) < size);
}

// Every index within what it indexes, every per-vertex array one per vertex: what the
// renderer, the skinning and the solver take for granted.
std::string CheckShape(const anim::Model& model) {
  const std::string skeleton_problem = model.skeleton.Validate();
  if (!skeleton_problem.empty()) return skeleton_problem;
  const std::size_t bones = model.skeleton.parents.size();
  for (std::size_t s = 0; s < model.skins.size(); ++s) {
    const anim::Skin& skin = model.skins[s];
    if (skin.joints.size() != skin.inverse_bind.size()) {
      return "skin " + std::to_string(s) + " has " + std::to_string(skin.joints.size()) +
             " joints and " + std::to_string(skin.inverse_bind.size()) + " matrices";
    }
    for (int joint : skin.joints) {
      if (!InRange(joint, bones, false)) return "skin " + std::to_string(s) + " joint out of range";
    }
    if (!AllFinite(skin.inverse_bind)) return "skin " + std::to_string(s) + " is not finite";
  }
  const auto use_ok = [&](const anim::TextureUse& use) {
    return InRange(use.texture, model.textures.size(), true) && use.uv_set >= 0 && use.uv_set < 8;
  };
  for (std::size_t m = 0; m < model.materials.size(); ++m) {
    const anim::Material& mat = model.materials[m];
    if (!InRange(mat.base_color_texture, model.textures.size(), true) ||
        mat.base_color_uv_set < 0 || mat.base_color_uv_set >= 8 ||
        !use_ok(mat.metallic_roughness_map) || !use_ok(mat.normal_map) ||
        !use_ok(mat.occlusion_map) || !use_ok(mat.emissive_map)) {
      return "material " + std::to_string(m) + " names a texture out of range";
    }
  }
  for (const anim::Texture& texture : model.textures) {
    const auto texels = static_cast<std::uint64_t>(texture.width < 0 ? 0 : texture.width) *
                        static_cast<std::uint64_t>(texture.height < 0 ? 0 : texture.height);
    if (texture.width < 0 || texture.height < 0 || texture.rgba8.size() != texels * 4) {
      return "texture '" + texture.name + "' has " + std::to_string(texture.rgba8.size()) +
             " bytes of texels for " + std::to_string(texture.width) + "x" +
             std::to_string(texture.height);
    }
  }
  for (std::size_t i = 0; i < model.meshes.size(); ++i) {
    const anim::Mesh& mesh = model.meshes[i];
    const std::string what = "mesh " + std::to_string(i) + " ";
    const std::size_t n = mesh.positions_bs.size();
    if (!InRange(mesh.node, bones, false) || !InRange(mesh.skin, model.skins.size(), false) ||
        !InRange(mesh.follow_bone, bones, true) ||
        !InRange(mesh.material, model.materials.size(), true)) {
      return what + "names a node, skin, bone or material out of range";
    }
    const auto per_vertex = [n](std::size_t size, bool optional) {
      return size == n || (optional && size == 0);
    };
    bool sizes = per_vertex(mesh.normals_bs.size(), true) && per_vertex(mesh.uvs.size(), true) &&
                 per_vertex(mesh.colors.size(), true) &&
                 per_vertex(mesh.tangents_bs.size(), true) &&
                 per_vertex(mesh.joints.size(), false) && per_vertex(mesh.weights.size(), false);
    for (const auto& uvs : mesh.extra_uvs) sizes = sizes && per_vertex(uvs.size(), false);
    for (const anim::MorphTarget& target : mesh.morph_targets) {
      sizes = sizes && per_vertex(target.position_offsets_bs.size(), false) &&
              per_vertex(target.normal_offsets_bs.size(), true);
    }
    if (!sizes) return what + "has an attribute whose length is not its vertex count";
    if (!AllFinite(mesh.positions_bs) || !FiniteFloats(&mesh.bind_ms[0][0], 16)) {
      return what + "has a non-finite position";
    }
    if (mesh.indices.size() % 3 != 0) return what + "has a partial triangle";
    for (std::uint32_t index : mesh.indices) {
      if (index >= n) return what + "index " + std::to_string(index) + " out of range";
    }
    const std::size_t joints = model.skins[static_cast<std::size_t>(mesh.skin)].joints.size();
    for (const glm::uvec4& j : mesh.joints) {
      if (j.x >= joints || j.y >= joints || j.z >= joints || j.w >= joints) {
        return what + "has a vertex joint out of its skin's range";
      }
    }
  }
  for (const anim::Clip& clip : model.clips) {
    const std::string problem = anim::ValidateClip(clip, static_cast<int>(bones));
    if (!problem.empty()) return problem;
  }
  return "";
}

}  // namespace

std::string EncodeModel(const anim::Model& model) {
  Writer w;
  w.Str(model.source);
  w.Str(model.format);
  w.Str(model.units);
  w.U8(model.has_file_skin ? 1 : 0);
  w.Strings(model.warnings);

  const anim::Skeleton& s = model.skeleton;
  w.Strings(s.names);
  w.Array(s.parents);
  w.Array(s.rest_ls);
  w.Array(s.flags);

  w.Count(model.skins.size());
  for (const anim::Skin& skin : model.skins) {
    w.Str(skin.name);
    w.Array(skin.joints);
    w.Array(skin.inverse_bind);
  }

  w.Count(model.materials.size());
  for (const anim::Material& m : model.materials) {
    w.Str(m.name);
    w.Pod(m.base_color);
    w.I32(m.base_color_texture);
    w.I32(m.base_color_uv_set);
    w.U8(m.double_sided ? 1 : 0);
    w.F32(m.metallic);
    w.F32(m.roughness);
    w.Str(m.alpha_mode);
    w.F32(m.alpha_cutoff);
    WriteUse(w, m.metallic_roughness_map);
    WriteUse(w, m.normal_map);
    w.F32(m.normal_scale);
    WriteUse(w, m.occlusion_map);
    w.F32(m.occlusion_strength);
    WriteUse(w, m.emissive_map);
    w.Pod(m.emissive);
  }

  w.Count(model.textures.size());
  for (const anim::Texture& t : model.textures) {
    w.Str(t.name);
    w.Str(t.path);
    w.Array(t.encoded);
    w.Str(t.format_hint);
    w.I32(t.width);
    w.I32(t.height);
    w.Array(t.rgba8);
  }

  w.Count(model.meshes.size());
  for (const anim::Mesh& mesh : model.meshes) {
    w.Str(mesh.name);
    w.I32(mesh.node);
    w.I32(mesh.skin);
    w.U8(mesh.skinned ? 1 : 0);
    w.I32(mesh.follow_bone);
    w.Pod(mesh.bind_ms);
    w.I32(mesh.material);
    w.Array(mesh.positions_bs);
    w.Array(mesh.normals_bs);
    w.Array(mesh.uvs);
    w.Count(mesh.extra_uvs.size());
    for (const auto& uvs : mesh.extra_uvs) w.Array(uvs);
    w.Array(mesh.colors);
    w.Array(mesh.tangents_bs);
    w.Count(mesh.morph_targets.size());
    for (const anim::MorphTarget& target : mesh.morph_targets) {
      w.Str(target.name);
      w.F32(target.weight);
      w.Array(target.position_offsets_bs);
      w.Array(target.normal_offsets_bs);
    }
    w.Array(mesh.joints);
    w.Array(mesh.weights);
    w.Array(mesh.indices);
  }

  w.Count(model.clips.size());
  for (const anim::Clip& clip : model.clips) {
    w.Str(clip.name);
    w.F32(clip.duration);
    w.U8(clip.loop ? 1 : 0);
    w.Count(clip.tracks.size());
    for (const anim::BoneTrack& track : clip.tracks) {
      w.I32(track.bone);
      WriteTrack(w, track.translation);
      WriteTrack(w, track.rotation);
      WriteTrack(w, track.scale);
    }
  }
  return w.Finish(kKindModel);
}

std::string EncodeFailure(const std::string& reason) {
  Writer w;
  w.Str(reason.substr(0, kMaxFailureChars));
  return w.Finish(kKindFailure);
}

std::uint64_t AnswerLength(std::string_view bytes, bool* bad) {
  *bad = false;
  if (bytes.size() < kModelWireHeaderBytes) {
    *bad = std::memcmp(bytes.data(), kMagic, std::min(bytes.size(), sizeof kMagic)) != 0;
    return 0;
  }
  std::uint32_t version = 0;
  std::uint64_t length = 0;
  std::memcpy(&version, bytes.data() + 8, sizeof version);
  std::memcpy(&length, bytes.data() + 13, sizeof length);
  if (std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0 || version != kModelWireVersion ||
      static_cast<std::uint8_t>(bytes[12]) > kKindFailure ||
      length > kMaxWireBytes - kModelWireHeaderBytes) {
    *bad = true;
    return 0;
  }
  return length + kModelWireHeaderBytes;
}

WireAnswer DecodeAnswer(std::string_view bytes, anim::Model* model, std::string* text) {
  bool bad = false;
  const std::uint64_t length = AnswerLength(bytes, &bad);
  if (bad || (length == 0 && !bytes.empty())) {
    *text = bytes.size() < kModelWireHeaderBytes && !bad
                ? "truncated at byte " + std::to_string(bytes.size()) + " (in its header)"
                : "not a model answer of version " + std::to_string(kModelWireVersion);
    return WireAnswer::kCorrupt;
  }
  if (bytes.empty()) {
    *text = "no answer";
    return WireAnswer::kCorrupt;
  }
  if (length != bytes.size()) {
    *text = length > bytes.size() ? "truncated at byte " + std::to_string(bytes.size()) + " of " +
                                        std::to_string(length)
                                  : std::to_string(bytes.size() - length) + " bytes after its end";
    return WireAnswer::kCorrupt;
  }
  Reader r(bytes, kModelWireHeaderBytes);
  if (static_cast<std::uint8_t>(bytes[12]) == kKindFailure) {
    std::string reason = r.Str();
    if (!r.ok() || !r.done() || reason.empty()) {
      *text = "a failure without a readable reason";
      return WireAnswer::kCorrupt;
    }
    if (reason.size() > kMaxFailureChars) reason.resize(kMaxFailureChars);
    *text = OneLine(std::move(reason));
    return WireAnswer::kFailure;
  }

  anim::Model m;
  m.source = r.Str();
  m.format = r.Str();
  m.units = r.Str();
  m.has_file_skin = r.Bool();
  m.warnings = r.Strings();

  anim::Skeleton& s = m.skeleton;
  s.names = r.Strings();
  s.parents = r.Array<int>();
  s.rest_ls = r.Array<anim::Transform>();
  s.flags = r.Array<std::uint8_t>();

  m.skins.resize(r.Count(8 * 3));
  for (anim::Skin& skin : m.skins) {
    skin.name = r.Str();
    skin.joints = r.Array<int>();
    skin.inverse_bind = r.Array<glm::mat4>();
  }

  m.materials.resize(r.Count(8 + 64));
  for (anim::Material& mat : m.materials) {
    mat.name = r.Str();
    mat.base_color = r.Pod<glm::vec4>();
    mat.base_color_texture = r.I32();
    mat.base_color_uv_set = r.I32();
    mat.double_sided = r.Bool();
    mat.metallic = r.F32();
    mat.roughness = r.F32();
    mat.alpha_mode = r.Str();
    mat.alpha_cutoff = r.F32();
    mat.metallic_roughness_map = ReadUse(r);
    mat.normal_map = ReadUse(r);
    mat.normal_scale = r.F32();
    mat.occlusion_map = ReadUse(r);
    mat.occlusion_strength = r.F32();
    mat.emissive_map = ReadUse(r);
    mat.emissive = r.Pod<glm::vec3>();
  }

  m.textures.resize(r.Count(8 * 5 + 8));
  for (anim::Texture& t : m.textures) {
    t.name = r.Str();
    t.path = r.Str();
    t.encoded = r.Array<std::uint8_t>();
    t.format_hint = r.Str();
    t.width = r.I32();
    t.height = r.I32();
    t.rgba8 = r.Array<std::uint8_t>();
  }

  m.meshes.resize(r.Count(8 * 12 + 64));
  for (anim::Mesh& mesh : m.meshes) {
    mesh.name = r.Str();
    mesh.node = r.I32();
    mesh.skin = r.I32();
    mesh.skinned = r.Bool();
    mesh.follow_bone = r.I32();
    mesh.bind_ms = r.Pod<glm::mat4>();
    mesh.material = r.I32();
    mesh.positions_bs = r.Array<glm::vec3>();
    mesh.normals_bs = r.Array<glm::vec3>();
    mesh.uvs = r.Array<glm::vec2>();
    mesh.extra_uvs.resize(r.Count(8));
    for (auto& uvs : mesh.extra_uvs) uvs = r.Array<glm::vec2>();
    mesh.colors = r.Array<glm::vec4>();
    mesh.tangents_bs = r.Array<glm::vec4>();
    mesh.morph_targets.resize(r.Count(8 * 3 + 4));
    for (anim::MorphTarget& target : mesh.morph_targets) {
      target.name = r.Str();
      target.weight = r.F32();
      target.position_offsets_bs = r.Array<glm::vec3>();
      target.normal_offsets_bs = r.Array<glm::vec3>();
    }
    mesh.joints = r.Array<glm::uvec4>();
    mesh.weights = r.Array<glm::vec4>();
    mesh.indices = r.Array<std::uint32_t>();
  }

  m.clips.resize(r.Count(8 * 2 + 4 + 1));
  for (anim::Clip& clip : m.clips) {
    clip.name = r.Str();
    clip.duration = r.F32();
    clip.loop = r.Bool();
    clip.tracks.resize(r.Count(4 + 3 * 17));
    for (anim::BoneTrack& track : clip.tracks) {
      track.bone = r.I32();
      track.translation = ReadTrack<anim::Vec3Track>(r);
      track.rotation = ReadTrack<anim::QuatTrack>(r);
      track.scale = ReadTrack<anim::Vec3Track>(r);
    }
  }

  if (r.ok() && !r.done()) r.Fail("bytes left after the model");
  if (!r.ok()) {
    *text = OneLine(r.problem());
    return WireAnswer::kCorrupt;
  }
  const std::string problem = CheckShape(m);
  if (!problem.empty()) {
    *text = OneLine(problem);  // it may quote a bone's name
    return WireAnswer::kCorrupt;
  }
  *model = std::move(m);
  return WireAnswer::kModel;
}

}  // namespace ikpose::asset
