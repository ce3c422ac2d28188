#include "render/gl_loader.h"

#include <glad/gl.h>

namespace ikpose::render {

namespace {
std::string GlString(GLenum name) {
  const auto* text = reinterpret_cast<const char*>(glGetString(name));
  return text ? text : "";
}
}  // namespace

bool LoadGl(GlProcLoader loader, GlInfo* info, std::string* error) {
  const int version = gladLoadGL(reinterpret_cast<GLADloadfunc>(loader));
  if (version == 0) {
    *error = "could not load OpenGL functions";
    return false;
  }
  if (GLAD_VERSION_MAJOR(version) * 10 + GLAD_VERSION_MINOR(version) < 33) {
    *error = "OpenGL 3.3 core is needed, the driver gives " + GlString(GL_VERSION);
    return false;
  }
  info->vendor = GlString(GL_VENDOR);
  info->renderer = GlString(GL_RENDERER);
  info->version = GlString(GL_VERSION);
  return true;
}

}  // namespace ikpose::render
