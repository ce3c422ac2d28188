// Fuzz target: the scans run on COLLADA, BVH, ASCII FBX, PLY, STL and glTF 1.0 files before the
// importer sees them (asset/format_precheck.h). Any input must give "" or one line, never a
// crash, a hang, deep recursion or a huge allocation. The first byte picks the format.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "asset/format_precheck.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  static const char* const kExtensions[] = {".dae", ".bvh", ".fbx", ".ply", ".stl", ".gltf"};
  const std::string extension = kExtensions[data[0] % 6];
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  namespace asset = ikpose::asset;
  std::string problem;
  if (extension == ".gltf") {
    problem = asset::PrecheckGltf1(std::vector<std::uint8_t>(data + 1, data + size));
  } else {
    // The file's size as claimed by the input's length, and a much larger one.
    problem = asset::PrecheckModelText(extension, text, text.size());
    (void)asset::PrecheckModelText(extension, text, std::uintmax_t{1} << 40);
  }
  if (problem.find('\n') != std::string::npos) __builtin_trap();
  return 0;
}
