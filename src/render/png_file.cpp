#include "render/png_file.h"

#include <string>

#include <stb_image_write.h>

#include "anim/atomic_file.h"

namespace ikpose::render {

bool WritePngAtomically(const std::string& path, int width, int height,
                        const std::vector<std::uint8_t>& rgba, std::string* error) {
  if (width <= 0 || height <= 0 ||
      rgba.size() != static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4) {
    *error = "image size does not match its pixels";
    return false;
  }
  // Encoded in memory first, so the file is written (and renamed into place) in one go.
  std::string png;
  const auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data),
                                               static_cast<std::size_t>(size));
  };
  if (stbi_write_png_to_func(append, &png, width, height, 4, rgba.data(), width * 4) == 0) {
    *error = "cannot encode the image for " + path;
    return false;
  }
  return anim::WriteFileAtomically(path, png, error);
}

}  // namespace ikpose::render
