// How saved files name their model: relative to the file that names it, unless they share
// only the root folder.
#include "anim/file_paths.h"

#include <gtest/gtest.h>

namespace ikpose::anim {
namespace {

namespace fs = std::filesystem;

TEST(RelativeToFolderOf, RelativeWhenTheyShareAFolderElseAbsolute) {
  EXPECT_EQ(RelativeToFolderOf("/work/models/hero.glb", "/work/poses/pose.json"),
            fs::path("../models/hero.glb"));
  EXPECT_EQ(RelativeToFolderOf("/work/poses/hero.glb", "/work/poses/pose.json"),
            fs::path("hero.glb"));
  // Only the root in common: "../../.." would say less than the absolute path.
  EXPECT_EQ(RelativeToFolderOf("/usr/share/hero.glb", "/tmp/pose.json"),
            fs::path("/usr/share/hero.glb"));
}

}  // namespace
}  // namespace ikpose::anim
