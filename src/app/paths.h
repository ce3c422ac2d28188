// Where ikpose finds its own files (shaders/, assets/) whether it runs from the build tree or
// from elsewhere: IKPOSE_DATA_DIR if set, else the nearest parent of the executable that holds
// shaders/, else the source tree it was built from.
#pragma once

#include <filesystem>

namespace ikpose::app {

std::filesystem::path DataDir();
std::filesystem::path DefaultModelPath();

}  // namespace ikpose::app
