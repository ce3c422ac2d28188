// Exporting a posed model as binary glTF 2.0 (.glb), so a pose made here opens in Blender, a game
// engine or any glTF viewer.
//
// What: every node of the skeleton becomes a glTF node whose translation/rotation/scale is the
// pose's local transform (the file's node pose *is* the pose); meshes, skins (same joints, same
// inverse bind matrices, so the bind pose stays the bind pose), four weights per vertex, normals,
// tangents, every UV set, vertex colours, materials (base colour, metallic, roughness, emissive
// factor, alpha mode, double sided) with their base-colour, metallic-roughness, normal (with its
// scale), occlusion (with its strength) and emissive maps and the UV set each one samples, their
// textures (embedded as PNG/JPEG), and morph targets (position and normal offsets, default weights,
// names in extras.targetNames) are written as loaded. Rigid meshes (no weights, or a file without
// skins) hang on their node with their vertices in that node's space, so they follow the posed
// bones without a skin. Several meshes on one node with the same skin share one glTF mesh (a
// primitive each); a second group on the node goes on a child node with an identity transform.
// Why assimp's own glTF exporter is not used: assimp 5.2.5's "glb2" exporter finds a skin's joints
// by node *name*. In QuaterniusRobot/robot.glb mesh nodes share names with bones (Foot.L, Head,
// Torso, Shoulder.L, LowerLeg.L...), and the exported skin lists those mesh nodes as joints while
// the real bones are renamed "Foot.L_node": the skin is wrong (the validator reports
// ANIMATION_CHANNEL_TARGET_NODE_SKIN on the exported clips), and the bones no longer carry the
// names a pose is matched by. It also rewrites weights: on Mesh2MotionHumanMale/human-male.glb,
// whose weights all sum to 1, 8 exported vertices do not (validator error
// ACCESSOR_WEIGHTS_NON_NORMALIZED). Writing from anim::Model keeps exactly what ikpose loaded and
// skins with, so the round trip is exact by construction.
// Units: glTF lengths are metres, so a model in centimetres (or "N cm") has every length scaled on
// the way out (node translations, vertices, inverse bind translations: the model conjugated by a
// uniform scale, no extra root node), with one warning saying so; unknown units are written as they
// are.
// Clips: none by default (the file shows the pose); given `clips` (a bake: the baked clip and the
// model's others), they are written as glTF animations (asset/gltf_animation_out.h).
// Props (`PlacedModel`): static models placed beside the posed one (the steps, box or ladder the
// character stands on) are written as their own root nodes, each named after its file with its
// placement as the node's transform and its meshes as they stand at rest (UV sets and vertex
// colours too), so the file shows what the pose stands on; their materials are written as the
// character's are, with the textures they use embedded (a texture that is not PNG or JPEG is left
// out with a warning naming the prop); what of a prop glTF could hold but this does not write (its
// bones, morph targets) is one warning a prop.
// From a glTF 2.0 source (`SourceKeep`), sampler modes, texture transforms, cameras and extras
// are kept where glTF allows (export_keep.h) and the rest listed (export_drops.h).
// Limits: no morph weight animation, no lights, no material extensions other than
// KHR_texture_transform; meshes grouped on one node
// whose parts have different morph targets lose them, with a warning. Uncompressed embedded
// textures and external images that are not PNG or JPEG are left out with a warning. Node names are
// the loaded ones (assimp names unnamed glTF nodes "nodes[N]").
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "anim/model.h"
#include "asset/glb_builder.h"

namespace ikpose::asset {

class ExportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The glTF 2.0 file the model came from, to keep what the model itself does not hold, and where
// to list what is still left out (both may be null).
struct SourceKeep {
  const GltfJson* source = nullptr;
  std::vector<std::string>* left_out = nullptr;
};

// A static model placed beside the posed one: `position_ms`, `yaw_deg` (about +Y) and `scale`
// (uniform) in the posed model's space and units, as scene::PropPlacement places a prop; its
// vertices are read in those units too.
struct PlacedModel {
  std::string name;  // the node's and the mesh's name
  const anim::Model* model = nullptr;
  glm::vec3 position_ms{0.f};
  float yaw_deg = 0.f;
  float scale = 1.f;
};

// The .glb bytes of `model` with its nodes at `locals_ls` (one per skeleton bone) and `clips` as
// animations. Throws ExportError with one line when the model or the pose cannot be written;
// notes on what was left out go to `warnings` (may be null).
std::vector<std::uint8_t> PosedGlb(const anim::Model& model,
                                   std::span<const anim::Transform> locals_ls,
                                   std::vector<std::string>* warnings,
                                   std::span<const anim::Clip> clips = {},
                                   const SourceKeep& keep = {},
                                   std::span<const PlacedModel> props = {});

// PosedGlb written to `path` through a temporary file renamed into place: false with one line
// in *error, and no file left, when it cannot be made or written.
bool WritePosedGlb(const anim::Model& model, std::span<const anim::Transform> locals_ls,
                   const std::filesystem::path& path, std::vector<std::string>* warnings,
                   std::string* error, std::span<const anim::Clip> clips = {},
                   const SourceKeep& keep = {}, std::span<const PlacedModel> props = {});

}  // namespace ikpose::asset
