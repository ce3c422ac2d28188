// Props on the command line and their loading: `--prop FILE@x,y,z[,yaw_deg]` (model space,
// degrees about +Y), and the scenario's and the command line's props read into one
// scene::World that every pose of the command shares.
// Why: the one road: `pose`, `render`, `export`, `trace` and `view` place the same props the
// same way (app::PlanPose calls this).
// Limits: at most scene::World::kMaxProps props; each loaded with asset::TryLoadProp's checks.
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "asset/export_gltf.h"
#include "scene/files/scenario.h"
#include "scene/world/world.h"

namespace ikpose::app {

// False with one line: the text is not FILE@x,y,z or FILE@x,y,z,yaw_deg with finite numbers.
bool ParsePropOption(const std::string& text, scene::PropPlacement* prop, std::string* error);

// The --prop texts as a trace file at `file` names them (files relative to its folder); the ones
// that do not parse are left out (the command refused them before).
std::vector<scene::PropPlacement> HeaderProps(const std::vector<std::string>& texts,
                                              const std::filesystem::path& file);
// A trace file's props (read from `file`) as --prop texts again, their files found from its
// folder.
std::vector<std::string> PropOptions(const std::vector<scene::PropPlacement>& props,
                                     const std::filesystem::path& file);

// Loads `scenario`'s props (may be null) and `extra` (paths as given) into a World; null with
// *world untouched and no error when there are none. False with one line in *error.
bool LoadWorld(const scene::Scenario* scenario, const std::vector<scene::PropPlacement>& extra,
               std::shared_ptr<const scene::World>* world, std::string* error);

// The world's props as `export` writes them beside the character: each named after its file
// (without folder and extension; a second "box" is "box_2"), placed as it is posed against.
// Points into `world`, which must outlive the result.
std::vector<asset::PlacedModel> PropsToExport(const scene::World* world);

}  // namespace ikpose::app
