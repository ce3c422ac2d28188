// A small glTF file written by the tests, with the traps the loader and the exporter must
// handle. Its nodes:
//   root -> arm (joint, at (0,1,0)) -> hand (joint, at (1,1,0)) -> prop (rigid mesh, +0.5 x)
//   root -> skinned_a (mesh "a", skin 0 = arm+hand, node moved by +100 x: must be ignored)
//   root -> skinned_b (mesh "b", skin 1 = hand, UVs, an embedded 16-byte "PNG")
// Material "red" uses the external texture textures/skin%20base.png (not really a PNG).
#pragma once

#include <filesystem>

namespace ikpose::test {

// Writes scene.gltf (and its texture) into `dir`; returns the .gltf path.
std::filesystem::path WriteTestScene(const std::filesystem::path& dir);

}  // namespace ikpose::test
