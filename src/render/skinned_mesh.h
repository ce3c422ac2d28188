// A mesh on the GPU, drawn with linear-blend skinning in shaders/skinned.vert. Vertices stay in
// bind space; the palette buffer moves them each frame. Rigid meshes that follow one bone are
// uploaded the same way with that bone as their only joint (weight 1).
#pragma once

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>
#include <glm/gtc/type_precision.hpp>

namespace ikpose::render {

struct SkinnedVertex {
  glm::vec3 position_bind{0.0f};
  glm::vec3 normal_bind{0.0f, 1.0f, 0.0f};
  glm::vec2 uv{0.0f};
  glm::u16vec4 joints{0};  // indices into the mesh's skin (palette_offset added in the shader)
  glm::vec4 weights{1.0f, 0.0f, 0.0f, 0.0f};
};

struct MeshUpload {
  std::vector<SkinnedVertex> vertices;
  std::vector<std::uint32_t> indices;  // triangles
  glm::vec4 base_color{0.8f, 0.8f, 0.8f, 1.0f};
  // Base-colour texture as RGBA8, rows top to bottom; empty for none.
  int texture_width = 0;
  int texture_height = 0;
  std::vector<std::uint8_t> texture_rgba;
  int palette_offset = 0;  // where this mesh's skin starts in the shared palette
};

class SkinnedMesh {
 public:
  SkinnedMesh() = default;
  ~SkinnedMesh();
  SkinnedMesh(const SkinnedMesh&) = delete;
  SkinnedMesh& operator=(const SkinnedMesh&) = delete;

  void Upload(const MeshUpload& mesh);
  // Binds the vertex array and the material's texture (unit 1) and draws. The caller has set
  // the program and its per-frame uniforms; `program` gets the material uniforms.
  void Draw(unsigned program) const;
  // Sets the material and skin uniforms of `program` and binds the texture (unit 1).
  void BindMaterial(unsigned program) const;
  // Draws the vertices as points for transform feedback capture (no indices, no raster).
  void DrawPoints() const;
  std::size_t vertex_count() const { return vertex_count_; }

 private:
  unsigned vao_ = 0;
  unsigned vbo_ = 0;
  unsigned ebo_ = 0;
  unsigned texture_ = 0;
  std::size_t vertex_count_ = 0;
  std::size_t index_count_ = 0;
  glm::vec4 base_color_{1.0f};
  int palette_offset_ = 0;
};

}  // namespace ikpose::render
