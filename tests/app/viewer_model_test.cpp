// The viewer keeps the model it shows when another one cannot be opened: a dropped file (or a
// scene or trace naming a model) whose importer crashes leaves the current model, its session
// and its path in place and puts one line in the panel's status. Runs the real importer
// program, crashed through its test hook.
#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "../asset/model_checks.h"
#include "app/viewer_state.h"
#include "asset/load_model.h"

namespace ikpose::app {
namespace {

namespace fs = std::filesystem;

TEST(ViewerModel, ImporterCrashKeepsTheModelShownAndSaysSoInOneLine) {
  const fs::path character = asset::test::DefaultCharacter();
  ViewerState state;
  state.loaded.model = std::make_unique<anim::Model>(asset::LoadModel(character));
  state.loaded.path = character.string();
  std::string error;
  state.loaded.session = scene::BuildSession(*state.loaded.model, {}, &error);
  ASSERT_TRUE(state.loaded.session) << error;
  const anim::Model* shown = state.loaded.model.get();
  const scene::PosingSession* session = state.loaded.session.get();

  // A good file by another name: only the hook makes its import crash.
  const fs::path dir = fs::temp_directory_path() / ("ikpose_viewer_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path dropped = dir / "crash-me.glb";
  fs::copy_file(character, dropped, fs::copy_options::overwrite_existing);
  setenv("IKPOSE_IMPORTER_TEST", "crash-on=crash-me", 1);
  const bool opened = OpenModelFile(state, dropped.string(), {}, &state.panel.status);
  unsetenv("IKPOSE_IMPORTER_TEST");
  fs::remove_all(dir);

  EXPECT_FALSE(opened);
  EXPECT_EQ(state.loaded.model.get(), shown);
  EXPECT_EQ(state.loaded.session.get(), session);
  EXPECT_EQ(state.loaded.path, character.string());
  EXPECT_EQ(state.panel.status, "could not open " + dropped.string() +
                                    ": the importer crashed reading " + dropped.string() +
                                    " (signal 11, " + std::string(strsignal(SIGSEGV)) + ")");
}

}  // namespace
}  // namespace ikpose::app
