// Where saved files go: the viewer's posed export beside the scenario (or in the working
// directory).
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

}  // namespace
}  // namespace ikpose::app
