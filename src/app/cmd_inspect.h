// `ikpose inspect MODEL [--json]`: what a model file holds and what ikpose makes of it.
//
// What: file, format, units and height, meshes (vertices, triangles, skinned), skins, bones
// (name, parent, rest position), clips (name, duration), the detected limb chains with their
// three joints and lengths, and the warnings from loading and the rig checks. Text for
// people, or JSON in the shape docs/DESIGN.md fixes (more fields are added, none renamed).
// Why: the first thing to run on a new character, and a stable record for tests.
// Limits: "bones" lists every node of the hierarchy except nodes that only carry a mesh;
// "parent" and a chain's "bone_indices" index that list.
#pragma once

#include <filesystem>
#include <ostream>

namespace ikpose::app {

struct InspectOptions {
  std::filesystem::path model;  // the caller fills in the default character when none is given
  bool json = false;
};

// Writes the report to `out`; on failure one line "ikpose: error: <file>: <reason>" to `err`.
// Returns the process exit code (0 on success).
int RunInspect(const InspectOptions& options, std::ostream& out, std::ostream& err);

}  // namespace ikpose::app
