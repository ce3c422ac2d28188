// Fuzz target: a pose library's folder as the viewer reads it (scene/files/pose_library.h) and the
// thumbnail decoded as the library panel decodes it (render/png_file.h). The input's first two
// bytes say how much of the rest is NAME.json; what follows is NAME.png. The entry must be a
// usable pose or one line of error, and a thumbnail decodes within its size limit or not at all.
#include <stdlib.h>
#include <unistd.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>

#include "render/png_file.h"
#include "scene/files/pose_library.h"

namespace {

constexpr int kMaxThumbnailSide = 1024;  // the panel's (app/viewer_library.cpp)

const std::string& Folder() {
  static const std::string folder = [] {
    char name[] = "/tmp/ikpose_fuzz_library_XXXXXX";
    const char* made = mkdtemp(name);
    if (made == nullptr) __builtin_trap();
    return std::string(made);
  }();
  return folder;
}

void Write(const std::string& path, const std::uint8_t* data, std::size_t size) {
  std::ofstream(path, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::size_t json_size = std::min<std::size_t>((data[0] << 8) | data[1], size - 2);
  const std::string& folder = Folder();
  Write(folder + "/pose.json", data + 2, json_size);
  const std::size_t png_size = size - 2 - json_size;
  if (png_size > 0) {
    Write(folder + "/pose.png", data + 2 + json_size, png_size);
  } else {
    unlink((folder + "/pose.png").c_str());
  }
  ikpose::scene::PoseLibrary library(folder);
  if (library.entries().size() != 1) __builtin_trap();
  const ikpose::scene::LibraryEntry& entry = library.entries()[0];
  if (entry.error.empty()) {
    for (const auto& bone : entry.pose.bones) {
      if (std::abs(glm::length(bone.rotation_ls) - 1.0f) > 1e-3f) __builtin_trap();
    }
  }
  if (!entry.thumbnail.empty()) {
    ikpose::render::RgbaImage image;
    std::string error;
    if (ikpose::render::DecodePng(entry.thumbnail, kMaxThumbnailSide, &image, &error)) {
      if (image.width > kMaxThumbnailSide || image.height > kMaxThumbnailSide ||
          image.rgba.size() != static_cast<std::size_t>(image.width) * image.height * 4) {
        __builtin_trap();
      }
    } else if (error.empty()) {
      __builtin_trap();
    }
  }
  return 0;
}
