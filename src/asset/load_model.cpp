#include "asset/load_model.h"

#include <assimp/GltfMaterial.h>
#include <assimp/material.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <new>
#include <unordered_map>
#include <utility>

#include "anim/finite.h"
#include "anim/rig_checks.h"
#include "asset/gltf_clips.h"
#include "asset/import_scene.h"
#include "asset/model_wire.h"
#include "asset/read_file.h"
#include "asset/weights.h"

namespace ikpose::asset {

namespace fs = std::filesystem;
using anim::Finite;

namespace {

// ----- assimp -> glm -----

glm::mat4 ToGlm(const aiMatrix4x4& m) {
  glm::mat4 r(1.f);
  for (int row = 0; row < 4; ++row) {
    for (int col = 0; col < 4; ++col) r[col][row] = m[row][col];
  }
  return r;
}

glm::vec3 ToGlm(const aiVector3D& v) {
  return {v.x, v.y, v.z};
}

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// ----- the import -----

struct Builder {
  const aiScene& scene;
  fs::path path;
  anim::Model model;
  std::vector<const aiNode*> nodes;  // by skeleton index
  std::unordered_map<const aiNode*, int> node_index;
  std::vector<glm::mat4> rest_ms;
  std::unordered_map<std::string, int> texture_by_key;
  int vertices_over_4 = 0;
  std::string meshes_over_4;

  Builder(const aiScene& in, const fs::path& file) : scene(in), path(file) {
    model.source = path.string();
    model.format = Lower(path.extension().string());
    if (!model.format.empty() && model.format[0] == '.') model.format.erase(0, 1);
  }

  [[noreturn]] void Fail(const std::string& reason) const {
    throw LoadError(path.string() + ": " + reason);
  }

  void BuildSkeleton() {
    std::vector<std::pair<const aiNode*, int>> stack{{scene.mRootNode, -1}};
    anim::Skeleton& s = model.skeleton;
    while (!stack.empty()) {
      const auto [node, parent] = stack.back();
      stack.pop_back();
      const int index = s.size();
      node_index[node] = index;
      nodes.push_back(node);
      s.names.emplace_back(node->mName.C_Str());
      s.parents.push_back(parent);
      const glm::mat4 local = ToGlm(node->mTransformation);
      if (!Finite(local)) Fail("node '" + s.names.back() + "' has a non-finite transform");
      s.rest_ls.push_back(anim::Decompose(local));
      s.flags.push_back(node->mNumMeshes > 0 ? anim::kBoneHasMesh : 0);
      for (unsigned c = node->mNumChildren; c > 0; --c) {
        if (node->mChildren[c - 1] != nullptr) stack.emplace_back(node->mChildren[c - 1], index);
      }
    }
    // Rest model matrices from the file's own matrices (not the decomposed ones): they place
    // rigid meshes exactly.
    rest_ms.resize(nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const int parent = s.parents[i];
      const glm::mat4 local = ToGlm(nodes[i]->mTransformation);
      rest_ms[i] = parent < 0 ? local : rest_ms[static_cast<std::size_t>(parent)] * local;
    }
  }

  // The skeleton bone of an aiBone: its node (set by PopulateArmatureData), else by name.
  int BoneIndex(const aiBone& bone) const {
    if (bone.mNode != nullptr) {
      const auto it = node_index.find(bone.mNode);
      if (it != node_index.end()) return it->second;
    }
    const anim::Skeleton& s = model.skeleton;
    int first = -1;
    for (int i = 0; i < s.size(); ++i) {
      if (s.names[i] != bone.mName.C_Str()) continue;
      if ((s.flags[i] & anim::kBoneHasMesh) == 0) return i;  // a bone, not a mesh node
      if (first < 0) first = i;
    }
    return first;
  }

  // A bone the hierarchy does not hold (some .X files): a new joint under the root, at its
  // bind pose, so the mesh stays where it was bound.
  int AddMissingBone(const aiBone& bone) {
    anim::Skeleton& s = model.skeleton;
    const glm::mat4 bind_ms = glm::inverse(ToGlm(bone.mOffsetMatrix));
    const glm::mat4 local = glm::inverse(rest_ms[0]) * bind_ms;
    if (!Finite(local))
      Fail("bone '" + std::string(bone.mName.C_Str()) + "' has a singular bind pose");
    s.names.emplace_back(bone.mName.C_Str());
    s.parents.push_back(0);
    s.rest_ls.push_back(anim::Decompose(local));
    s.flags.push_back(0);
    nodes.push_back(nullptr);
    rest_ms.push_back(rest_ms[0] * local);
    model.warnings.push_back("bone '" + s.names.back() +
                             "' is not in the node hierarchy; added under the root at its bind "
                             "pose (clips cannot move it)");
    return s.size() - 1;
  }

  int AddSkin(anim::Skin skin) {
    for (std::size_t i = 0; i < model.skins.size(); ++i) {
      const anim::Skin& other = model.skins[i];
      if (other.joints == skin.joints && other.inverse_bind == skin.inverse_bind) {
        return static_cast<int>(i);
      }
    }
    model.skins.push_back(std::move(skin));
    return static_cast<int>(model.skins.size()) - 1;
  }

  int RigidSkin(int node) {
    anim::Skin skin;
    skin.name = model.skeleton.names[node];
    skin.joints = {node};
    skin.inverse_bind = {glm::inverse(rest_ms[static_cast<std::size_t>(node)])};
    return AddSkin(std::move(skin));
  }

  // assimp's UV origin is the image's bottom-left; flip to the top-left (glTF's, and the first
  // row an image decoder returns).
  static std::vector<glm::vec2> Uvs(const aiVector3D* in, unsigned n) {
    std::vector<glm::vec2> out(n);
    for (unsigned v = 0; v < n; ++v) {
      out[v] = std::isfinite(in[v].x) && std::isfinite(in[v].y) ? glm::vec2(in[v].x, 1.f - in[v].y)
                                                                : glm::vec2(0.f);
    }
    return out;
  }

  // Vertex attributes as the file has them: positions, normals, UV sets (contiguous from the
  // first), the first colour set, tangents with their handedness.
  void ReadAttributes(const aiMesh& in, anim::Mesh& mesh) const {
    const unsigned n = in.mNumVertices;
    mesh.positions_bs.resize(n);
    for (unsigned v = 0; v < n; ++v) {
      mesh.positions_bs[v] = ToGlm(in.mVertices[v]);
      if (!Finite(mesh.positions_bs[v])) {
        Fail("mesh '" + mesh.name + "' has a non-finite vertex position (vertex " +
             std::to_string(v) + ")");
      }
    }
    if (in.mNormals != nullptr) {
      mesh.normals_bs.resize(n);
      for (unsigned v = 0; v < n; ++v) {
        glm::vec3 normal = ToGlm(in.mNormals[v]);
        const float length = glm::length(normal);
        mesh.normals_bs[v] = Finite(normal) && length > 0.f ? normal / length : glm::vec3(0.f);
      }
    }
    if (in.mTextureCoords[0] != nullptr) mesh.uvs = Uvs(in.mTextureCoords[0], n);
    for (unsigned k = 1; k < AI_MAX_NUMBER_OF_TEXTURECOORDS && in.mTextureCoords[k] != nullptr;
         ++k) {
      mesh.extra_uvs.push_back(Uvs(in.mTextureCoords[k], n));
    }
    if (in.mColors[0] != nullptr) {
      mesh.colors.resize(n);
      for (unsigned v = 0; v < n; ++v) {
        const aiColor4D& c = in.mColors[0][v];
        const glm::vec4 color(c.r, c.g, c.b, c.a);
        mesh.colors[v] = Finite(color) ? color : glm::vec4(1.f);
      }
    }
    if (in.mTangents != nullptr && in.mBitangents != nullptr && in.mNormals != nullptr) {
      mesh.tangents_bs.resize(n);
      for (unsigned v = 0; v < n; ++v) {
        const glm::vec3 t = ToGlm(in.mTangents[v]);
        const float length = glm::length(t);
        const float side = glm::dot(glm::cross(ToGlm(in.mNormals[v]), t), ToGlm(in.mBitangents[v]));
        mesh.tangents_bs[v] = Finite(t) && length > 0.f
                                  ? glm::vec4(t / length, side < 0.f ? -1.f : 1.f)
                                  : glm::vec4(1.f, 0.f, 0.f, 1.f);
      }
    }
    // assimp holds morph targets as whole replacement shapes: kept as offsets from the base.
    for (unsigned k = 0; k < in.mNumAnimMeshes; ++k) {
      const aiAnimMesh& shape = *in.mAnimMeshes[k];
      if (shape.mNumVertices != n || shape.mVertices == nullptr) continue;
      anim::MorphTarget target;
      target.name = shape.mName.C_Str();
      target.weight = std::isfinite(shape.mWeight) ? shape.mWeight : 0.f;
      target.position_offsets_bs.resize(n);
      for (unsigned v = 0; v < n; ++v) {
        const glm::vec3 offset = ToGlm(shape.mVertices[v]) - mesh.positions_bs[v];
        target.position_offsets_bs[v] = Finite(offset) ? offset : glm::vec3(0.f);
      }
      if (shape.mNormals != nullptr && in.mNormals != nullptr) {
        target.normal_offsets_bs.resize(n);
        for (unsigned v = 0; v < n; ++v) {
          const glm::vec3 offset = ToGlm(shape.mNormals[v]) - ToGlm(in.mNormals[v]);
          target.normal_offsets_bs[v] = Finite(offset) ? offset : glm::vec3(0.f);
        }
      }
      mesh.morph_targets.push_back(std::move(target));
    }
  }

  void AddMesh(const aiMesh& in, int node) {
    anim::Mesh mesh;
    mesh.name = in.mName.length > 0 ? in.mName.C_Str() : model.skeleton.names[node];
    mesh.node = node;
    mesh.material = static_cast<int>(in.mMaterialIndex) < static_cast<int>(scene.mNumMaterials)
                        ? static_cast<int>(in.mMaterialIndex)
                        : -1;
    const unsigned n = in.mNumVertices;
    ReadAttributes(in, mesh);
    for (unsigned f = 0; f < in.mNumFaces; ++f) {
      const aiFace& face = in.mFaces[f];
      if (face.mNumIndices != 3) continue;  // points and lines
      for (int k = 0; k < 3; ++k) {
        if (face.mIndices[k] >= n) Fail("mesh '" + mesh.name + "' has an index out of range");
        mesh.indices.push_back(face.mIndices[k]);
      }
    }
    if (mesh.indices.empty()) {
      model.warnings.push_back("mesh '" + mesh.name +
                               "' has no triangles (points or lines only); skipped");
      return;
    }

    // Weights: gather per vertex, keep the 4 largest, renormalise.
    std::vector<std::vector<std::pair<float, int>>> influences(n);
    bool any_weight = false;
    anim::Skin skin;
    skin.name = model.skeleton.names[node];
    for (unsigned b = 0; b < in.mNumBones; ++b) {
      const aiBone& bone = *in.mBones[b];
      int index = BoneIndex(bone);
      if (index < 0) index = AddMissingBone(bone);
      const glm::mat4 inverse_bind = ToGlm(bone.mOffsetMatrix);
      if (!Finite(inverse_bind)) {
        Fail("bone '" + std::string(bone.mName.C_Str()) + "' has a non-finite inverse bind matrix");
      }
      model.skeleton.flags[static_cast<std::size_t>(index)] |= anim::kBoneIsJoint;
      skin.joints.push_back(index);
      skin.inverse_bind.push_back(inverse_bind);
      for (unsigned w = 0; w < bone.mNumWeights; ++w) {
        const aiVertexWeight& weight = bone.mWeights[w];
        if (weight.mVertexId >= n || !(weight.mWeight > 0.f) || !std::isfinite(weight.mWeight)) {
          continue;
        }
        influences[weight.mVertexId].emplace_back(weight.mWeight, static_cast<int>(b));
        any_weight = true;
      }
    }
    if (!any_weight) {
      if (in.mNumBones > 0) {
        model.warnings.push_back("mesh '" + mesh.name +
                                 "' lists bones but no vertex weights; drawn rigid with its node");
      }
      // Rigid: bake the node's rest transform, follow the node.
      const glm::mat4& bind = rest_ms[static_cast<std::size_t>(node)];
      const glm::mat3 normal_matrix = glm::transpose(glm::inverse(glm::mat3(bind)));
      for (glm::vec3& p : mesh.positions_bs) p = glm::vec3(bind * glm::vec4(p, 1.f));
      for (glm::vec3& normal : mesh.normals_bs) {
        const glm::vec3 t = normal_matrix * normal;
        const float length = glm::length(t);
        normal = length > 0.f ? t / length : normal;
      }
      for (anim::MorphTarget& target : mesh.morph_targets) {
        for (glm::vec3& offset : target.position_offsets_bs) offset = glm::mat3(bind) * offset;
        for (glm::vec3& offset : target.normal_offsets_bs) offset = normal_matrix * offset;
      }
      // Tangents are directions on the surface: the node's linear part, handedness kept.
      const float mirror = glm::determinant(glm::mat3(bind)) < 0.f ? -1.f : 1.f;
      for (glm::vec4& tangent : mesh.tangents_bs) {
        const glm::vec3 t = glm::mat3(bind) * glm::vec3(tangent);
        const float length = glm::length(t);
        tangent = glm::vec4(length > 0.f ? t / length : glm::vec3(tangent), tangent.w * mirror);
      }
      mesh.skinned = false;
      mesh.follow_bone = node;
      mesh.bind_ms = bind;
      mesh.skin = RigidSkin(node);
      mesh.joints.assign(n, glm::uvec4(0));
      mesh.weights.assign(n, glm::vec4(1.f, 0.f, 0.f, 0.f));
      model.meshes.push_back(std::move(mesh));
      return;
    }

    mesh.skinned = true;
    mesh.joints.assign(n, glm::uvec4(0));
    mesh.weights.assign(n, glm::vec4(0.f));
    int over_4 = 0;
    int unweighted = 0;
    int extra_joint = -1;
    for (unsigned v = 0; v < n; ++v) {
      const VertexInfluences kept = KeepFourLargest(std::move(influences[v]));
      if (kept.dropped) ++over_4;
      if (kept.count == 0) {
        // No weight at all: keep the vertex where it was bound, following the mesh's node.
        if (extra_joint < 0) {
          extra_joint = static_cast<int>(skin.joints.size());
          skin.joints.push_back(node);
          skin.inverse_bind.push_back(glm::inverse(rest_ms[static_cast<std::size_t>(node)]));
        }
        mesh.joints[v] = glm::uvec4(static_cast<unsigned>(extra_joint), 0, 0, 0);
        mesh.weights[v] = glm::vec4(1.f, 0.f, 0.f, 0.f);
        ++unweighted;
        continue;
      }
      mesh.joints[v] = kept.joints;
      mesh.weights[v] = kept.weights;
    }
    if (over_4 > 0) {
      vertices_over_4 += over_4;
      meshes_over_4 += (meshes_over_4.empty() ? "" : ", ") + mesh.name;
    }
    if (unweighted > 0) {
      model.warnings.push_back("mesh '" + mesh.name + "': " + std::to_string(unweighted) +
                               " vertices have no weights; they follow node '" +
                               model.skeleton.names[node] + "'");
    }
    mesh.skin = AddSkin(std::move(skin));
    model.has_file_skin = true;
    model.meshes.push_back(std::move(mesh));
  }

  int AddTexture(const std::string& key) {
    const auto found = texture_by_key.find(key);
    if (found != texture_by_key.end()) return found->second;
    anim::Texture texture;
    texture.name = key;
    const auto [embedded, embedded_index] = scene.GetEmbeddedTextureAndIndex(key.c_str());
    if (embedded != nullptr) {
      texture.name = embedded->mFilename.length > 0 ? embedded->mFilename.C_Str() : key;
      if (embedded->mHeight == 0) {
        const auto* bytes = reinterpret_cast<const std::uint8_t*>(embedded->pcData);
        texture.encoded.assign(bytes, bytes + embedded->mWidth);
        texture.format_hint = embedded->achFormatHint;
      } else {
        texture.width = static_cast<int>(embedded->mWidth);
        texture.height = static_cast<int>(embedded->mHeight);
        const std::size_t count = static_cast<std::size_t>(embedded->mWidth) * embedded->mHeight;
        texture.rgba8.reserve(count * 4);
        for (std::size_t i = 0; i < count; ++i) {
          const aiTexel& t = embedded->pcData[i];
          texture.rgba8.insert(texture.rgba8.end(), {t.r, t.g, t.b, t.a});
        }
      }
    } else {
      const auto resolve = [this](const std::string& name) {
        fs::path file(name);
        if (file.is_relative()) file = path.parent_path() / file;
        return file.lexically_normal().string();
      };
      texture.path = resolve(key);
      std::error_code ec;
      if (!fs::is_regular_file(texture.path, ec) && key.find('%') != std::string::npos) {
        // glTF image URIs are percent-encoded ("skin%20base.png").
        const std::string decoded = resolve(PercentDecode(key));
        if (fs::is_regular_file(decoded, ec)) texture.path = decoded;
      }
      const std::string not_regular = NotRegularFileReason(texture.path);
      if (not_regular == "file not found") {
        model.warnings.push_back("texture '" + key + "' not found (looked for " + texture.path +
                                 ")");
      } else if (!not_regular.empty()) {
        model.warnings.push_back("texture '" + key + "': " + texture.path + " " + not_regular +
                                 "; not read");
        texture.path.clear();
      }
    }
    model.textures.push_back(std::move(texture));
    const int index = static_cast<int>(model.textures.size()) - 1;
    texture_by_key[key] = index;
    return index;
  }

  // The first texture of `type` with its UV set; no texture when there is none.
  anim::TextureUse Map(const aiMaterial& in, aiTextureType type, unsigned index = 0) {
    anim::TextureUse use;
    aiString name;
    unsigned uv_set = 0;
    if (in.GetTextureCount(type) > index &&
        in.GetTexture(type, index, &name, nullptr, &uv_set) == AI_SUCCESS && name.length > 0) {
      use.texture = AddTexture(name.C_Str());
      use.uv_set = static_cast<int>(std::min(uv_set, 7u));
    }
    return use;
  }

  void BuildMaterials() {
    for (unsigned m = 0; m < scene.mNumMaterials; ++m) {
      const aiMaterial& in = *scene.mMaterials[m];
      anim::Material material;
      aiString name;
      if (in.Get(AI_MATKEY_NAME, name) == AI_SUCCESS) material.name = name.C_Str();
      aiColor4D color(1.f, 1.f, 1.f, 1.f);
      if (in.Get(AI_MATKEY_BASE_COLOR, color) == AI_SUCCESS ||
          in.Get(AI_MATKEY_COLOR_DIFFUSE, color) == AI_SUCCESS) {
        material.base_color = glm::vec4(color.r, color.g, color.b, color.a);
        if (!std::isfinite(material.base_color.r + material.base_color.g + material.base_color.b +
                           material.base_color.a)) {
          material.base_color = glm::vec4(1.f);
        }
      }
      int two_sided = 0;
      if (in.Get(AI_MATKEY_TWOSIDED, two_sided) == AI_SUCCESS) material.double_sided = two_sided;
      float factor = 0.f;
      if (in.Get(AI_MATKEY_METALLIC_FACTOR, factor) == AI_SUCCESS && std::isfinite(factor)) {
        material.metallic = std::clamp(factor, 0.f, 1.f);
      }
      if (in.Get(AI_MATKEY_ROUGHNESS_FACTOR, factor) == AI_SUCCESS && std::isfinite(factor)) {
        material.roughness = std::clamp(factor, 0.f, 1.f);
      }
      aiString alpha_mode;
      if (in.Get(AI_MATKEY_GLTF_ALPHAMODE, alpha_mode) == AI_SUCCESS) {
        const std::string mode = alpha_mode.C_Str();
        if (mode == "MASK" || mode == "BLEND") material.alpha_mode = mode;
      }
      if (in.Get(AI_MATKEY_GLTF_ALPHACUTOFF, factor) == AI_SUCCESS && std::isfinite(factor) &&
          factor >= 0.f) {
        material.alpha_cutoff = factor;
      }
      const anim::TextureUse base = Map(in, aiTextureType_BASE_COLOR).texture >= 0
                                        ? Map(in, aiTextureType_BASE_COLOR)
                                        : Map(in, aiTextureType_DIFFUSE);
      material.base_color_texture = base.texture;
      material.base_color_uv_set = base.uv_set;
      material.metallic_roughness_map =
          Map(in, AI_MATKEY_GLTF_PBRMETALLICROUGHNESS_METALLICROUGHNESS_TEXTURE);
      material.normal_map = Map(in, aiTextureType_NORMALS);
      if (in.Get(AI_MATKEY_GLTF_TEXTURE_SCALE(aiTextureType_NORMALS, 0), factor) == AI_SUCCESS &&
          std::isfinite(factor)) {
        material.normal_scale = factor;
      }
      material.occlusion_map = Map(in, aiTextureType_LIGHTMAP);
      if (in.Get(AI_MATKEY_GLTF_TEXTURE_STRENGTH(aiTextureType_LIGHTMAP, 0), factor) ==
              AI_SUCCESS &&
          std::isfinite(factor)) {
        material.occlusion_strength = std::clamp(factor, 0.f, 1.f);
      }
      material.emissive_map = Map(in, aiTextureType_EMISSIVE);
      aiColor3D emissive(0.f, 0.f, 0.f);
      if (in.Get(AI_MATKEY_COLOR_EMISSIVE, emissive) == AI_SUCCESS) {
        const glm::vec3 e(emissive.r, emissive.g, emissive.b);
        if (Finite(e)) material.emissive = glm::clamp(e, 0.f, 1.f);
      }
      model.materials.push_back(std::move(material));
    }
  }

  // Every node's meshes (materials first, they are shared), then the checks that need them.
  void BuildMeshes() {
    BuildMaterials();
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const aiNode* node = nodes[i];
      if (node == nullptr) continue;  // a bone added for a missing node
      for (unsigned m = 0; m < node->mNumMeshes; ++m) {
        if (node->mMeshes[m] >= scene.mNumMeshes)
          Fail("a node refers to a mesh that does not exist");
        AddMesh(*scene.mMeshes[node->mMeshes[m]], static_cast<int>(i));
      }
    }
    if (vertices_over_4 > 0) {
      model.warnings.push_back(std::to_string(vertices_over_4) +
                               " vertices have more than 4 bone influences (meshes: " +
                               meshes_over_4 + "); kept the 4 largest, renormalised");
    }
    const std::string skeleton_problem = model.skeleton.Validate();
    if (!skeleton_problem.empty()) Fail(skeleton_problem);
    if (model.meshes.empty()) {
      if (model.skeleton.size() <= 1) Fail("the file holds no meshes and no skeleton");
      model.warnings.push_back("no meshes: a skeleton only");
    } else if (!model.has_file_skin) {
      model.warnings.push_back("no skin: loaded as a static model (meshes follow their nodes)");
    }
  }

  void BuildClips() {
    for (unsigned a = 0; a < scene.mNumAnimations; ++a) {
      const aiAnimation& in = *scene.mAnimations[a];
      anim::Clip clip;
      clip.name = in.mName.C_Str();
      const double tps = in.mTicksPerSecond > 0.0 ? in.mTicksPerSecond : 25.0;
      float last_key = 0.f;
      std::string missing;
      for (unsigned c = 0; c < in.mNumChannels; ++c) {
        const aiNodeAnim& channel = *in.mChannels[c];
        const int bone = model.skeleton.Find(channel.mNodeName.C_Str());
        if (bone < 0) {
          if (missing.empty()) missing = channel.mNodeName.C_Str();
          continue;
        }
        anim::BoneTrack track;
        track.bone = bone;
        for (unsigned k = 0; k < channel.mNumPositionKeys; ++k) {
          track.translation.times.push_back(
              static_cast<float>(channel.mPositionKeys[k].mTime / tps));
          track.translation.values.push_back(ToGlm(channel.mPositionKeys[k].mValue));
        }
        for (unsigned k = 0; k < channel.mNumRotationKeys; ++k) {
          const aiQuaternion& q = channel.mRotationKeys[k].mValue;
          track.rotation.times.push_back(static_cast<float>(channel.mRotationKeys[k].mTime / tps));
          track.rotation.values.emplace_back(q.w, q.x, q.y, q.z);
        }
        for (unsigned k = 0; k < channel.mNumScalingKeys; ++k) {
          track.scale.times.push_back(static_cast<float>(channel.mScalingKeys[k].mTime / tps));
          track.scale.values.push_back(ToGlm(channel.mScalingKeys[k].mValue));
        }
        for (const auto* times :
             {&track.translation.times, &track.rotation.times, &track.scale.times}) {
          if (!times->empty()) last_key = std::max(last_key, times->back());
        }
        clip.tracks.push_back(std::move(track));
      }
      clip.duration = std::max(static_cast<float>(in.mDuration / tps), last_key);
      if (!missing.empty()) {
        model.warnings.push_back("clip '" + clip.name + "' animates '" + missing +
                                 "', which is not in the hierarchy; that track is ignored");
      }
      const std::string problem = anim::ValidateClip(clip, model.skeleton.size());
      if (!problem.empty()) {
        model.warnings.push_back(problem + "; clip dropped");
        continue;
      }
      model.clips.push_back(std::move(clip));
    }
  }
};

// ----- the steps after opening -----

// The file's units: metres for glTF; FBX states centimetres per unit; else unknown ("").
std::string ReadUnits(const aiScene& scene, int gltf_version) {
  std::string units = gltf_version > 0 ? "m" : "";
  if (scene.mMetaData == nullptr) return units;
  float unit_cm = 0.f;
  double unit_cm_double = 0.0;
  if (scene.mMetaData->Get("UnitScaleFactor", unit_cm_double)) {
    unit_cm = static_cast<float>(unit_cm_double);
  } else {
    scene.mMetaData->Get("UnitScaleFactor", unit_cm);
  }
  if (unit_cm == 1.f) return "cm";
  if (unit_cm == 100.f) return "m";
  if (unit_cm > 0.f && std::isfinite(unit_cm)) return std::to_string(unit_cm) + " cm";
  return units;
}

// glTF clips again from the file itself, with their real interpolation (see gltf_clips.h).
void ReadFileClips(GltfDocument& doc, anim::Model& model) {
  std::vector<anim::Clip> clips;
  std::string problem;
  if (ReadGltfClips(doc, model.skeleton, &clips, &problem)) {
    model.clips = std::move(clips);
  } else if (!problem.empty()) {
    model.warnings.push_back("clips: " + problem + "; using the importer's linear keys");
  }
}

// Rest-pose checks: a glTF taller than 20 units, the limb chains, the rig checks.
void CheckModel(anim::Model& model) {
  const anim::Pose rest = anim::RestPose(model.skeleton);
  if (model.units == "m") {
    const anim::Bounds bounds = anim::ComputeBounds(model, rest);
    const float height = bounds.empty() ? 0.f : bounds.max.y - bounds.min.y;
    if (height > 20.f) {
      char tall[32];  // no int cast: a height may be 7.5e32
      std::snprintf(tall, sizeof tall, "%.4g", static_cast<double>(height));
      model.warnings.push_back(std::string("the model is ") + tall +
                               " units tall: probably centimetres, though glTF units are "
                               "metres; targets are in the file's units");
    }
  }
  anim::DetectRig(model);
  for (std::string& warning : anim::CheckRig(model.skeleton, rest, model.chains)) {
    model.warnings.push_back(std::move(warning));
  }
}

// The importer's part, run in the child: assimp's scene turned into ikpose's model.
anim::Model BuildFromScene(const PreparedImport& prepared) {
  const ImportedScene imported = ImportScene(prepared);  // open
  Builder b(*imported.scene, prepared.path);
  b.model.units = ReadUnits(*imported.scene, prepared.gltf_version);  // units
  b.model.warnings = imported.warnings;
  b.BuildSkeleton();  // skeleton
  b.BuildMeshes();    // meshes, their materials and textures
  b.BuildClips();     // clips
  return std::move(b.model);
}

// The parent's part once the model is back: the file's own glTF clips, the checks.
void FinishModel(PreparedImport& prepared, anim::Model& model) {
  model.source = prepared.path.string();
  model.format = Lower(prepared.path.extension().string());
  if (!model.format.empty() && model.format[0] == '.') model.format.erase(0, 1);
  if (prepared.gltf != nullptr) ReadFileClips(*prepared.gltf, model);
  CheckModel(model);  // checks
}

// A LoadError's reason without the "<path>: " it starts with.
std::string Reason(const std::string& what, const fs::path& path) {
  const std::string prefix = path.string() + ": ";
  return what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what;
}

}  // namespace

std::string ImportToWire(const PreparedImport& prepared) {
  try {
    return EncodeModel(BuildFromScene(prepared));
  } catch (const LoadError& e) {
    return EncodeFailure(Reason(e.what(), prepared.path));
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    return EncodeFailure(e.what());
  }
}

anim::Model LoadModelIsolated(const fs::path& path, const LoadOptions& options,
                              const ImportLimits& limits) {
  PreparedImport prepared = PrepareImport(path, options);  // checks, here
  std::string answer;
  const ChildEnd end = RunImporter(prepared, limits, &answer);
  if (end.kind != ChildEnd::kAnswered) throw LoadError(DescribeEnd(end, limits, path.string()));
  anim::Model model;
  std::string text;
  switch (DecodeAnswer(answer, &model, &text)) {
    case WireAnswer::kModel:
      break;
    case WireAnswer::kFailure:
      throw LoadError(path.string() + ": " + text);
    case WireAnswer::kCorrupt:
      throw LoadError("the importer's answer for " + path.string() + " is corrupt: " + text);
  }
  FinishModel(prepared, model);
  return model;
}

anim::Model LoadModel(const fs::path& path, const LoadOptions& options) {
  return LoadModelIsolated(path, options, ImportLimits{});
}

anim::Model LoadModelInProcess(const fs::path& path, const LoadOptions& options) {
  PreparedImport prepared = PrepareImport(path, options);
  anim::Model model = BuildFromScene(prepared);
  FinishModel(prepared, model);
  return model;
}

bool TryLoadModel(const fs::path& path, anim::Model* model, std::string* error,
                  const LoadOptions& options) {
  try {
    *model = LoadModel(path, options);
    return true;
  } catch (const LoadError& e) {
    *error = e.what();
  } catch (const std::exception& e) {
    *error = path.string() + ": " + e.what();
  }
  return false;
}

}  // namespace ikpose::asset
