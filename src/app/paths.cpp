#include "app/paths.h"

#include <cstdlib>
#include <system_error>

namespace ikpose::app {

namespace fs = std::filesystem;

fs::path DataDir() {
  if (const char* env = std::getenv("IKPOSE_DATA_DIR"); env != nullptr && *env != '\0') {
    return env;
  }
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    for (fs::path dir = exe.parent_path(); !dir.empty() && dir != dir.root_path();
         dir = dir.parent_path()) {
      if (fs::is_directory(dir / "shaders", ec) && fs::is_directory(dir / "assets", ec)) {
        return dir;
      }
    }
  }
  return IKPOSE_SOURCE_DIR;
}

fs::path DefaultModelPath() {
  return DataDir() / "assets" / "character.glb";
}

fs::path BakedExportPath(const fs::path& scene, const fs::path& model, const std::string& clip) {
  std::string name = model.stem().string() + "-" + (clip.empty() ? "ik" : clip) + "-baked.glb";
  for (char& c : name) {
    if (c == '/' || c == '\\') c = '_';  // a clip name is not a folder
  }
  return scene.empty() ? fs::path(name) : scene.parent_path() / name;
}

fs::path PosedExportPath(const fs::path& scene, const fs::path& model) {
  const std::string name = model.stem().string() + "-posed.glb";
  return scene.empty() ? fs::path(name) : scene.parent_path() / name;
}

}  // namespace ikpose::app
