// Where saved files go and how they name their model: the viewer's posed export beside the
// scenario (or in the working directory), model paths relative to the file that names them.
#include "app/paths.h"

#include <gtest/gtest.h>

namespace ikpose::app {
namespace {

namespace fs = std::filesystem;

TEST(PosedExportPath, BesideTheScenarioElseInTheWorkingDirectory) {
  EXPECT_EQ(PosedExportPath("", "/models/hero.glb"), fs::path("hero-posed.glb"));
  EXPECT_EQ(PosedExportPath("shots/ladder.json", "/models/hero.fbx"),
            fs::path("shots/hero-posed.glb"));
  EXPECT_EQ(PosedExportPath("ladder.json", "hero.glb"), fs::path("hero-posed.glb"));
}

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
}  // namespace ikpose::app
