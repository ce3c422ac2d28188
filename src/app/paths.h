// Where ikpose finds its own files (shaders/, assets/) whether it runs from the build tree or
// from elsewhere: IKPOSE_DATA_DIR if set, else the nearest parent of the executable that holds
// shaders/, else the source tree it was built from.
#pragma once

#include <filesystem>

namespace ikpose::app {

std::filesystem::path DataDir();
std::filesystem::path DefaultModelPath();

// Where the viewer's "export pose" writes: `<model stem>-posed.glb` beside the scenario file
// when there is one, else in the working directory.
// Where the viewer's "bake clip" writes: MODEL-CLIP-baked.glb (MODEL-ik-baked.glb without a clip)
// beside the scene file, else in the working directory.
std::filesystem::path BakedExportPath(const std::filesystem::path& scene,
                                      const std::filesystem::path& model, const std::string& clip);
std::filesystem::path PosedExportPath(const std::filesystem::path& scene,
                                      const std::filesystem::path& model);

}  // namespace ikpose::app
