// "CHAIN=x,y,z" on the command line (--target, --pole): a chain name and a model-space point.
// Rejects anything but three finite numbers, with a message naming the option and the chain.
#pragma once

#include <string>

#include "scene/road/posing_request.h"

namespace ikpose::app {

// `what` names the option in messages ("target", "pole").
bool ParseChainPoint(const std::string& text, const char* what, scene::ChainPoint* spec,
                     std::string* error);

}  // namespace ikpose::app
