// Draws a loaded anim::Model with GPU linear-blend skinning: uploads its meshes and textures
// once, then each frame the palettes of all its skins (one shared texture buffer, each skin at
// an offset) and draws every mesh with the lit shader. Also reads the GPU's skinned positions
// back through transform feedback, so tests can hold them against anim::SkinMesh. One bone can
// be highlighted: the mesh is tinted by that bone's skinning weights (what a click would take).
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "anim/model.h"
#include "render/palette_buffer.h"
#include "render/shader_program.h"
#include "render/skinned_mesh.h"

namespace ikpose::render {

struct Lighting {
  glm::vec3 eye_ms{0.0f, 1.0f, 3.0f};
  glm::vec3 light_dir_ms{0.35f, 0.8f, 0.5f};  // towards the key light
  glm::vec3 up_ms{0.0f, 1.0f, 0.0f};
};

class ModelRenderer {
 public:
  bool Init(const std::filesystem::path& shader_dir, std::string* error);
  // Uploads meshes and decodes textures (a texture that cannot be decoded is dropped with a
  // warning in *warnings).
  void Load(const anim::Model& model, std::vector<std::string>* warnings);
  // Builds the palette of every skin from `models_ms` and uploads it.
  void UpdatePose(const anim::Model& model, const std::vector<glm::mat4>& models_ms);
  void Draw(const glm::mat4& view_proj, const Lighting& lighting) const;
  // Tints the surface by the weights of skeleton bone `bone` from the next Draw; -1 for none.
  void SetHighlight(int bone) { highlight_bone_ = bone; }
  // The model-space positions the vertex shader computes for mesh `mesh` (transform feedback);
  // empty if the capture program cannot be built.
  std::vector<glm::vec3> CaptureSkinnedPositions(int mesh);

  std::size_t vertex_count() const;

 private:
  std::filesystem::path shader_dir_;
  ShaderProgram lit_;
  ShaderProgram capture_;  // transform feedback of skinned positions, made on first use
  PaletteBuffer palette_;
  std::vector<int> skin_offsets_;
  std::vector<int> mesh_skins_;                // per mesh, its index into skin_joints_ (-1: none)
  std::vector<std::vector<int>> skin_joints_;  // per skin, the skeleton bone of each joint
  int highlight_bone_ = -1;
  std::vector<std::unique_ptr<SkinnedMesh>> meshes_;
  std::vector<glm::mat4> palette_scratch_;
};

}  // namespace ikpose::render
