#include "render/png_file.h"

#include <cstdint>
#include <cstring>
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

namespace {

// A PNG's chunks walked before stb sees them: each declared length within the bytes left. stb
// grows its buffer to an IDAT chunk's declared length before reading it, so a few corrupt bytes
// could ask for gigabytes. True for data that is not a PNG (stb reads other formats itself).
bool PngChunksFit(const std::string& data, std::string* error) {
  static constexpr unsigned char kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (data.size() < 8 || std::memcmp(data.data(), kSignature, 8) != 0) return true;
  std::size_t at = 8;
  while (at + 12 <= data.size()) {
    const auto byte = [&](std::size_t i) {
      return static_cast<std::uint32_t>(static_cast<unsigned char>(data[at + i]));
    };
    const std::uint32_t length = byte(0) << 24 | byte(1) << 16 | byte(2) << 8 | byte(3);
    if (length > data.size() - at - 12) {
      *error = "corrupt PNG: a chunk at byte " + std::to_string(at) + " claims " +
               std::to_string(length) + " bytes, more than the file has left";
      return false;
    }
    if (std::memcmp(data.data() + at + 4, "IEND", 4) == 0) return true;
    at += 12 + length;
  }
  return true;  // truncated after the last whole chunk: stb says so
}

}  // namespace

bool DecodePng(const std::string& png, int max_side, RgbaImage* image, std::string* error) {
  if (!PngChunksFit(png, error)) return false;
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
