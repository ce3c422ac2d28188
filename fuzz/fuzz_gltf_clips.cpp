// Fuzz target: ikpose's own glTF clip reader (asset/gltf_clips.h) on any .glb/.gltf bytes,
// against the bundled character's skeleton (loaded once), so inputs mutated from the character
// reach the samplers and accessors. Any input must give clips or a reason, never a crash.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "asset/gltf_clips.h"
#include "asset/load_model.h"

namespace {

ikpose::anim::Skeleton g_skeleton;
std::filesystem::path g_file;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // The bundled character is trusted: read in this process, no importer program to find.
  ikpose::anim::Model model;
  try {
    model = ikpose::asset::LoadModelInProcess(IKPOSE_CHARACTER);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz_gltf_clips: %s\n", e.what());
    std::abort();
  }
  g_skeleton = model.skeleton;
  // The reader takes a path; buffer URIs resolve beside it, in a folder of this process.
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("ikpose-fuzz-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  g_file = dir / "input.glb";
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  {
    std::ofstream out(g_file, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  std::vector<ikpose::anim::Clip> clips;
  std::string problem;
  if (!ikpose::asset::ReadGltfClips(g_file, g_skeleton, &clips, &problem) && problem.empty()) {
    __builtin_trap();
  }
  return 0;
}
