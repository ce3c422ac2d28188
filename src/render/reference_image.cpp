#include "render/reference_image.h"

#include <glad/gl.h>

namespace ikpose::render {

ReferenceImage::~ReferenceImage() {
  if (vbo_ != 0) glDeleteBuffers(1, &vbo_);
  if (vao_ != 0) glDeleteVertexArrays(1, &vao_);
}

bool ReferenceImage::Init(const std::filesystem::path& shader_dir, std::string* error) {
  if (!program_.Load(shader_dir / "reference.vert", shader_dir / "reference.frag", error))
    return false;
  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &vbo_);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  glBufferData(GL_ARRAY_BUFFER, 4 * 5 * sizeof(float), nullptr, GL_DYNAMIC_DRAW);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 5 * sizeof(float), nullptr);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 2, GL_FLOAT, GL_FALSE, 5 * sizeof(float),
                        reinterpret_cast<void*>(3 * sizeof(float)));
  glBindVertexArray(0);
  return true;
}

void ReferenceImage::SetImage(const RgbaImage& image) {
  texture_ = std::make_unique<ImageTexture>(image);
  aspect_ =
      image.height > 0 ? static_cast<float>(image.width) / static_cast<float>(image.height) : 1.0f;
}

void ReferenceImage::Draw(const std::array<glm::vec3, 4>& corners_ms, const glm::mat4& view_proj,
                          float opacity) {
  if (!texture_ || vao_ == 0) return;
  // Rows are stored top first, so the top corners take v = 0.
  const float uv[4][2] = {{0.0f, 1.0f}, {1.0f, 1.0f}, {1.0f, 0.0f}, {0.0f, 0.0f}};
  float vertices[4][5];
  for (int i = 0; i < 4; ++i) {
    const glm::vec3& c = corners_ms[static_cast<std::size_t>(i)];
    vertices[i][0] = c.x;
    vertices[i][1] = c.y;
    vertices[i][2] = c.z;
    vertices[i][3] = uv[i][0];
    vertices[i][4] = uv[i][1];
  }
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  glBufferSubData(GL_ARRAY_BUFFER, 0, sizeof vertices, vertices);
  program_.Use();
  program_.Set("u_view_proj", view_proj);
  program_.Set("u_tint", glm::vec4(1.0f, 1.0f, 1.0f, opacity));
  program_.Set("u_image", 0);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, texture_->id());
  glDepthMask(GL_FALSE);  // behind everything drawn after it
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glBindVertexArray(vao_);
  glDrawArrays(GL_TRIANGLE_FAN, 0, 4);
  glBindVertexArray(0);
  glDisable(GL_BLEND);
  glDepthMask(GL_TRUE);
  glBindTexture(GL_TEXTURE_2D, 0);
}

}  // namespace ikpose::render
