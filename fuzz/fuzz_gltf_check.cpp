// Fuzz target: the glTF structure check that stands before assimp (asset/gltf_check.h). Any
// bytes must parse and pass the check, or be refused with a GltfError naming the field: never a
// crash, a hang or an allocation the bytes cannot back. What passes is also packed back into
// its container, as the loader does before handing it to assimp.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <vector>

#include "asset/gltf_check.h"
#include "asset/gltf_document.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::vector<std::uint8_t> bytes(data, data + size);
  // URIs resolve beside a file that does not exist: external buffers are refused, data URIs
  // and the GLB's own chunk are read.
  const std::filesystem::path path = "/nonexistent-ikpose-fuzz/input.glb";
  try {
    ikpose::asset::GltfDocument doc = ikpose::asset::GltfDocument::Parse(bytes, path);
    if (ikpose::asset::CheckGltf(doc).changed) (void)doc.PackedBytes();
  } catch (const ikpose::asset::GltfError&) {
    // refused with a reason: what a broken file should get
  }
  return 0;
}
