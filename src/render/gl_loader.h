// Loading OpenGL 3.3 core entry points through the generated glad loader.
// The app owns the window and context; it passes the platform's proc-address function in,
// which keeps this layer free of SDL.
#pragma once

#include <string>

namespace ikpose::render {

using GlProcLoader = void* (*)(const char* name);

struct GlInfo {
  std::string vendor;
  std::string renderer;
  std::string version;
};

// Loads the GL functions for the context that is current now. False (with a one-line reason)
// when the context is older than 3.3 core or the loader finds nothing.
bool LoadGl(GlProcLoader loader, GlInfo* info, std::string* error);

}  // namespace ikpose::render
