// "CHAIN=x,y,z" on the command line (--target, --pole): a chain name and a model-space point.
// Rejects anything but three finite numbers, with a message naming the option and the chain.
#pragma once

#include <string>

#include <glm/glm.hpp>

namespace ikpose::app {

struct ChainPoint {
  std::string chain;
  glm::vec3 point{0.f};
};

// `what` names the option in messages ("target", "pole").
bool ParseChainPoint(const std::string& text, const char* what, ChainPoint* spec,
                     std::string* error);

}  // namespace ikpose::app
