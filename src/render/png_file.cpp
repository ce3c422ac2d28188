#include "render/png_file.h"

#include <filesystem>
#include <system_error>

#include <stb_image_write.h>

namespace ikpose::render {

bool WritePngAtomically(const std::string& path, int width, int height,
                        const std::vector<std::uint8_t>& rgba, std::string* error) {
  if (width <= 0 || height <= 0 ||
      rgba.size() != static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4) {
    *error = "image size does not match its pixels";
    return false;
  }
  const std::string temp = path + ".tmp";
  if (stbi_write_png(temp.c_str(), width, height, 4, rgba.data(), width * 4) == 0) {
    std::error_code ignored;
    std::filesystem::remove(temp, ignored);
    *error = "cannot write " + path;
    return false;
  }
  std::error_code ec;
  std::filesystem::rename(temp, path, ec);
  if (ec) {
    std::filesystem::remove(temp, ec);
    *error = "cannot write " + path + ": " + ec.message();
    return false;
  }
  return true;
}

}  // namespace ikpose::render
