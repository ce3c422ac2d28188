#include "anim/file_paths.h"

#include <algorithm>
#include <iterator>
#include <system_error>

namespace ikpose::anim {

namespace fs = std::filesystem;

fs::path RelativeToFolderOf(const fs::path& path, const fs::path& file) {
  std::error_code ec;
  const fs::path absolute = fs::absolute(path, ec).lexically_normal();
  const fs::path folder = fs::absolute(file, ec).lexically_normal().parent_path();
  // Sharing no folder but the root, "../../.." all the way up says less than the absolute path.
  const auto [in_path, in_folder] =
      std::mismatch(absolute.begin(), absolute.end(), folder.begin(), folder.end());
  if (std::distance(absolute.begin(), in_path) <= 1) return absolute;
  fs::path relative = fs::relative(absolute, folder, ec);
  if (ec || relative.empty()) relative = absolute;
  return relative;
}

fs::path ResolveFromFolderOf(const fs::path& name, const fs::path& file) {
  if (name.empty() || name.is_absolute()) return name;
  return (file.parent_path() / name).lexically_normal();
}

}  // namespace ikpose::anim
