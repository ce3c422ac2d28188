// Model: everything a loaded character holds, as plain structs the renderer uploads as-is.
//
// What: the skeleton, skins, meshes, materials, textures and clips of one file.
// Why: the importer (src/asset) fills these; the renderer, the solver and the command line read
// them without knowing about the file format.
// How meshes are skinned (CPU: anim/skinning.h, GPU: the same formula):
//   palette = BuildPalette(model.skins[mesh.skin], pose.models_ms)   // model * inverse bind
//   position_ms = sum_i weights[v][i] * palette[joints[v][i]] * vec4(positions_bs[v], 1)
// Every mesh has a skin, so one shader path draws them all:
//   - a skinned mesh keeps the file's bind-space vertices and its skin (the glTF rule: the
//     transform of the node that holds a skinned mesh does not apply on top of skinning);
//   - a rigid mesh (no weights; e.g. a prop parented to a hand bone, or any mesh of a file with
//     no skin) gets a one-joint skin: joint = `follow_bone` (the node holding the mesh, which
//     follows its parent bones), inverse bind = inverse of that node's rest model matrix, and
//     its vertices are stored in bind space = model space at rest (`bind_ms` * file vertices).
// Joint indices are indices into the mesh's skin joint list (skin.joints maps them to
// skeleton bones), at most 4 per vertex with weights summing to 1; unused slots have weight 0
// and index 0.
// The viewer draws with the first UV set and the base colour; the other maps, UV sets, vertex
// colours and tangents are kept so an export keeps what the file had.
// Morph targets are kept for export too; the viewer draws the base shape.
// Limits: triangles only (points and lines are dropped).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "anim/chains.h"
#include "anim/clip.h"
#include "anim/humanoid.h"
#include "anim/joint_ranges.h"
#include "anim/skeleton.h"

namespace ikpose::anim {

// A texture either embedded in the file or referenced by path.
struct Texture {
  std::string name;
  std::string path;                   // external image file (absolute or relative to the
                                      // working directory); empty when embedded
  std::vector<std::uint8_t> encoded;  // embedded compressed image (PNG, JPEG...), as in the file
  std::string format_hint;            // "png", "jpg"... for `encoded`, from the file
  int width = 0;                      // for `rgba8` only
  int height = 0;
  std::vector<std::uint8_t> rgba8;  // embedded uncompressed texels (rare), row-major RGBA
};

// A map of a material: which texture, sampled with which of the mesh's UV sets.
struct TextureUse {
  int texture = -1;  // index into Model::textures, -1 for none
  int uv_set = 0;    // 0: Mesh::uvs, k > 0: Mesh::extra_uvs[k - 1]
};

struct Material {
  std::string name;
  glm::vec4 base_color{1.f};    // linear RGBA factor (glTF baseColorFactor, else diffuse)
  int base_color_texture = -1;  // index into Model::textures, -1 for none
  int base_color_uv_set = 0;
  bool double_sided = false;
  // Kept so an export looks like the source; the viewer's shading does not use them.
  float metallic = 0.f;               // glTF metallicFactor; 0 when the file does not say
  float roughness = 1.f;              // glTF roughnessFactor; 1 when the file does not say
  std::string alpha_mode = "OPAQUE";  // glTF alphaMode: OPAQUE, MASK or BLEND
  float alpha_cutoff = 0.5f;          // for MASK
  TextureUse metallic_roughness_map;  // glTF: roughness in G, metalness in B
  TextureUse normal_map;              // tangent-space normals
  float normal_scale = 1.f;
  TextureUse occlusion_map;  // R channel
  float occlusion_strength = 1.f;
  TextureUse emissive_map;
  glm::vec3 emissive{0.f};  // linear RGB factor
};

// A morph target (blend shape): per-vertex offsets, added with a weight.
struct MorphTarget {
  std::string name;
  float weight = 0.f;                          // the file's default weight
  std::vector<glm::vec3> position_offsets_bs;  // bind space, one per vertex
  std::vector<glm::vec3> normal_offsets_bs;    // bind space, one per vertex, or empty
};

struct Mesh {
  std::string name;
  int node = -1;           // skeleton index of the node that holds the mesh
  int skin = -1;           // index into Model::skins (always set for a loaded model)
  bool skinned = false;    // true: weights from the file; false: rigid, follows `follow_bone`
  int follow_bone = -1;    // rigid meshes: the bone whose model matrix moves them (= node)
  glm::mat4 bind_ms{1.f};  // rigid meshes: the node's rest model matrix baked into positions_bs
  int material = -1;       // index into Model::materials, -1 for a default material
  std::vector<glm::vec3> positions_bs;  // bind space
  std::vector<glm::vec3> normals_bs;    // bind space, unit (empty if the file had none)
  // First UV set, may be empty. Origin at the image's top-left (glTF's convention): (0,0) is
  // the first texel of the first row an image decoder returns (stb_image's default order), so
  // an image uploaded as decoded is sampled at (u, v) with no flip.
  std::vector<glm::vec2> uvs;
  std::vector<std::vector<glm::vec2>> extra_uvs;  // UV sets 1, 2...: same origin as `uvs`
  std::vector<glm::vec4> colors;                  // vertex colours (the first set), RGBA
  std::vector<glm::vec4> tangents_bs;  // bind space xyz (unit), w = +1 or -1: the bitangent is
                                       // w * cross(normal, tangent); empty if the file had none
  std::vector<MorphTarget> morph_targets;
  std::vector<glm::uvec4> joints;      // per vertex: indices into skins[skin].joints
  std::vector<glm::vec4> weights;      // per vertex: sum 1
  std::vector<std::uint32_t> indices;  // triangles, counter-clockwise front faces
  int vertex_count() const { return static_cast<int>(positions_bs.size()); }
  int triangle_count() const { return static_cast<int>(indices.size() / 3); }
};

struct Model {
  std::string source;  // the file it came from
  std::string format;  // file extension, lower case ("glb", "fbx"...)
  Skeleton skeleton;
  std::vector<Skin> skins;
  std::vector<Mesh> meshes;
  std::vector<Material> materials;
  std::vector<Texture> textures;
  std::vector<Clip> clips;
  ChainSet chains;                    // limbs detected on the rest pose
  HumanoidMap humanoid;               // pelvis, spine, head... found around the chains
  JointRanges ranges;                 // each mapped bone's natural range about its rest
  std::vector<std::string> warnings;  // from loading and the rig checks, one line each
  bool has_file_skin = false;         // false: a static model (every mesh rigid)
  std::string units;                  // "m" for glTF; "" when the file does not say
};

// Metres per model unit from `Model::units` ("m" 1, "cm" 0.01, "2.54 cm" 0.0254); 0 when the
// file does not say, so a caller shows plain "units" rather than a guess.
float MetersPerUnit(const Model& model);

// Detects the limb chains, the humanoid map and the joint ranges on the rest pose (what the
// loader does).
void DetectRig(Model& model);

// Index of the clip called `name`, -1 if none. An unnamed clip also answers to "0", "1"...
// (its index) and to "" when it is the only clip.
int FindClip(const Model& model, const std::string& name);

// Axis-aligned box of all mesh vertices skinned by `pose` (or of the joints, when there are
// no meshes). min > max when the model is empty.
struct Bounds {
  glm::vec3 min{1.f};
  glm::vec3 max{-1.f};
  bool empty() const { return min.x > max.x; }
};
Bounds ComputeBounds(const Model& model, const Pose& pose);

}  // namespace ikpose::anim
