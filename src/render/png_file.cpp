#include "render/png_file.h"

#include <string>

#include <stb_image.h>
#include <stb_image_write.h>

#include "anim/atomic_file.h"

namespace ikpose::render {

bool EncodePng(int width, int height, const std::vector<std::uint8_t>& rgba, std::string* png,
               std::string* error) {
  if (width <= 0 || height <= 0 ||
      rgba.size() != static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4) {
    *error = "image size does not match its pixels";
    return false;
  }
  png->clear();
  const auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data),
                                               static_cast<std::size_t>(size));
  };
  if (stbi_write_png_to_func(append, png, width, height, 4, rgba.data(), width * 4) == 0) {
    *error = "cannot encode the image";
    return false;
  }
  return true;
}

bool WritePngAtomically(const std::string& path, int width, int height,
                        const std::vector<std::uint8_t>& rgba, std::string* error) {
  // Encoded in memory first, so the file is written (and renamed into place) in one go.
  std::string png;
  if (!EncodePng(width, height, rgba, &png, error)) {
    *error += " for " + path;
    return false;
  }
  return anim::WriteFileAtomically(path, png, error);
}

bool DecodePng(const std::string& png, int max_side, RgbaImage* image, std::string* error) {
  const auto* bytes = reinterpret_cast<const stbi_uc*>(png.data());
  const int size = static_cast<int>(std::min<std::size_t>(png.size(), 1u << 30));
  int w = 0, h = 0, channels = 0;
  if (stbi_info_from_memory(bytes, size, &w, &h, &channels) == 0) {
    *error = std::string("not a readable image (") + stbi_failure_reason() + ")";
    return false;
  }
  if (w <= 0 || h <= 0 || w > max_side || h > max_side) {
    *error = "image of " + std::to_string(w) + "x" + std::to_string(h) + " pixels, larger than " +
             std::to_string(max_side) + " on a side";
    return false;
  }
  stbi_uc* pixels = stbi_load_from_memory(bytes, size, &w, &h, &channels, 4);
  if (pixels == nullptr) {
    *error = std::string("cannot decode the image (") + stbi_failure_reason() + ")";
    return false;
  }
  image->width = w;
  image->height = h;
  image->rgba.assign(pixels,
                     pixels + static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 4);
  stbi_image_free(pixels);
  return true;
}

}  // namespace ikpose::render
