#include "render/model_renderer.h"

#include <glad/gl.h>
#include <stb_image.h>

#include <algorithm>

namespace ikpose::render {

namespace {

// Decodes a material's base-colour texture into RGBA8; false when there is none or it fails.
bool DecodeTexture(const anim::Texture& texture, MeshUpload* upload, std::string* warning) {
  int w = 0, h = 0, channels = 0;
  stbi_uc* pixels = nullptr;
  if (!texture.rgba8.empty()) {
    upload->texture_width = texture.width;
    upload->texture_height = texture.height;
    upload->texture_rgba = texture.rgba8;
    return true;
  }
  if (!texture.encoded.empty()) {
    pixels = stbi_load_from_memory(texture.encoded.data(), static_cast<int>(texture.encoded.size()),
                                   &w, &h, &channels, 4);
  } else if (!texture.path.empty()) {
    pixels = stbi_load(texture.path.c_str(), &w, &h, &channels, 4);
  }
  if (pixels == nullptr) {
    *warning = "texture '" + (texture.path.empty() ? texture.name : texture.path) +
               "' could not be decoded; drawn with its base colour only";
    return false;
  }
  upload->texture_width = w;
  upload->texture_height = h;
  upload->texture_rgba.assign(pixels, pixels + static_cast<std::size_t>(w) * h * 4);
  stbi_image_free(pixels);
  return true;
}

}  // namespace

bool ModelRenderer::Init(const std::filesystem::path& shader_dir, std::string* error) {
  shader_dir_ = shader_dir;
  return lit_.Load(shader_dir / "skinned.vert", shader_dir / "lit.frag", error);
}

void ModelRenderer::Load(const anim::Model& model, std::vector<std::string>* warnings) {
  meshes_.clear();
  skin_offsets_.clear();
  mesh_skins_.clear();
  skin_joints_.clear();
  for (const anim::Skin& skin : model.skins) skin_joints_.push_back(skin.joints);
  int offset = 0;
  for (const anim::Skin& skin : model.skins) {
    skin_offsets_.push_back(offset);
    offset += static_cast<int>(skin.joints.size());
  }
  palette_scratch_.assign(static_cast<std::size_t>(std::max(offset, 1)), glm::mat4(1.0f));
  for (const anim::Mesh& mesh : model.meshes) {
    MeshUpload upload;
    upload.vertices.resize(mesh.positions_bs.size());
    for (std::size_t v = 0; v < mesh.positions_bs.size(); ++v) {
      SkinnedVertex& out = upload.vertices[v];
      out.position_bind = mesh.positions_bs[v];
      if (v < mesh.normals_bs.size()) out.normal_bind = mesh.normals_bs[v];
      if (v < mesh.uvs.size()) out.uv = mesh.uvs[v];
      if (v < mesh.joints.size()) out.joints = glm::u16vec4(mesh.joints[v]);
      if (v < mesh.weights.size()) out.weights = mesh.weights[v];
    }
    upload.indices = mesh.indices;
    if (mesh.skin >= 0 && mesh.skin < static_cast<int>(skin_offsets_.size())) {
      upload.palette_offset = skin_offsets_[static_cast<std::size_t>(mesh.skin)];
    }
    if (mesh.material >= 0 && mesh.material < static_cast<int>(model.materials.size())) {
      const anim::Material& material = model.materials[static_cast<std::size_t>(mesh.material)];
      upload.base_color = material.base_color;
      const int t = material.base_color_texture;
      if (t >= 0 && t < static_cast<int>(model.textures.size())) {
        std::string warning;
        if (!DecodeTexture(model.textures[static_cast<std::size_t>(t)], &upload, &warning)) {
          warnings->push_back(warning);
        }
      }
    }
    mesh_skins_.push_back(mesh.skin < static_cast<int>(model.skins.size()) ? mesh.skin : -1);
    auto gpu = std::make_unique<SkinnedMesh>();
    gpu->Upload(upload);
    meshes_.push_back(std::move(gpu));
  }
}

void ModelRenderer::UpdatePose(const anim::Model& model, const std::vector<glm::mat4>& models_ms) {
  for (std::size_t s = 0; s < model.skins.size(); ++s) {
    const anim::Skin& skin = model.skins[s];
    std::span<glm::mat4> out(palette_scratch_.data() + skin_offsets_[s], skin.joints.size());
    anim::BuildPalette(skin, models_ms, out);
  }
  palette_.Upload(palette_scratch_);
}

void ModelRenderer::Draw(const glm::mat4& view_proj, const Lighting& lighting) const {
  lit_.Use();
  lit_.Set("u_view_proj", view_proj);
  lit_.Set("u_eye_ms", lighting.eye_ms);
  lit_.Set("u_light_dir_ms", glm::normalize(lighting.light_dir_ms));
  lit_.Set("u_up_ms", lighting.up_ms);
  lit_.Set("u_palette", 0);
  lit_.Set("u_base_texture", 1);
  palette_.Bind(0);
  glEnable(GL_DEPTH_TEST);
  const int highlight = glGetUniformLocation(lit_.id(), "u_highlight_joint");
  for (std::size_t m = 0; m < meshes_.size(); ++m) {
    // The highlighted bone as an index into this mesh's skin, -1 when it does not move it.
    int joint = -1;
    const int skin = m < mesh_skins_.size() ? mesh_skins_[m] : -1;
    if (highlight_bone_ >= 0 && skin >= 0) {
      const std::vector<int>& joints = skin_joints_[static_cast<std::size_t>(skin)];
      for (std::size_t k = 0; k < joints.size() && joint < 0; ++k) {
        if (joints[k] == highlight_bone_) joint = static_cast<int>(k);
      }
    }
    glUniform1i(highlight, joint);
    meshes_[m]->Draw(lit_.id());
  }
}

std::vector<glm::vec3> ModelRenderer::CaptureSkinnedPositions(int mesh) {
  const SkinnedMesh& m = *meshes_.at(static_cast<std::size_t>(mesh));
  std::vector<glm::vec3> positions(m.vertex_count());
  if (positions.empty()) return positions;
  // Built on first use: only tests and tools read skinned positions back.
  if (capture_.id() == 0) {
    std::string error;
    if (!capture_.Load(shader_dir_ / "skinned.vert", shader_dir_ / "lit.frag", &error,
                       {"v_position_ms"})) {
      return {};
    }
  }
  unsigned buffer = 0;
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, buffer);
  glBufferData(GL_TRANSFORM_FEEDBACK_BUFFER,
               static_cast<GLsizeiptr>(positions.size() * sizeof(glm::vec3)), nullptr,
               GL_STREAM_READ);
  capture_.Use();
  capture_.Set("u_view_proj", glm::mat4(1.0f));
  capture_.Set("u_palette", 0);
  // Samplers of different types must not share a unit, even unused ones.
  capture_.Set("u_base_texture", 1);
  palette_.Bind(0);
  m.BindMaterial(capture_.id());
  glEnable(GL_RASTERIZER_DISCARD);
  glBindBufferBase(GL_TRANSFORM_FEEDBACK_BUFFER, 0, buffer);
  glBeginTransformFeedback(GL_POINTS);
  m.DrawPoints();
  glEndTransformFeedback();
  glDisable(GL_RASTERIZER_DISCARD);
  glGetBufferSubData(GL_TRANSFORM_FEEDBACK_BUFFER, 0,
                     static_cast<GLsizeiptr>(positions.size() * sizeof(glm::vec3)),
                     positions.data());
  glBindBuffer(GL_TRANSFORM_FEEDBACK_BUFFER, 0);
  glDeleteBuffers(1, &buffer);
  return positions;
}

std::size_t ModelRenderer::vertex_count() const {
  std::size_t n = 0;
  for (const auto& m : meshes_) n += m->vertex_count();
  return n;
}

}  // namespace ikpose::render
