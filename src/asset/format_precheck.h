// Cheap checks of the formats other than glTF 2.0, run before assimp reads a file.
//
// What: from a text scan of the file (no parser of the format): a glTF 1.0 node graph, COLLADA
// <node> elements (nested and instanced through <instance_node>), BVH joints and the parents of
// an ASCII FBX file's models ("OO" connections) must form a tree no deeper than
// kMaxNodeDepth, with no node its own ancestor (cycles) and, for glTF 1.0, no node with two
// parents; a PLY header's element counts must fit the file's size (each value takes at least
// a byte in binary, two in ASCII); a binary STL's triangle count must match its size.
// Why: assimp 5.2 recurses once per node level (100,000 levels overflow the stack), follows
// cycles until it does, and allocates what a header claims before reading (2e9 PLY vertices
// are 11 GB); each of those is a crash or a machine brought to a halt by a small file.
// Limits: only what a scan sees: a binary FBX is not checked, nor COLLADA nodes referenced
// from other files. A file that passes may still be refused by assimp itself.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace ikpose::asset {

inline constexpr int kMaxNodeDepth = 1024;

// A glTF 1.0 file's (`bytes`: a .gltf's JSON or a version 1 .glb) first problem as "<what>",
// or "" when its node graph passes.
std::string PrecheckGltf1(const std::vector<std::uint8_t>& bytes);

// The first problem of a COLLADA, BVH, ASCII FBX, PLY or STL file (by its extension) as
// "<what>" (without the file name), or "" when the checks pass or do not apply. Reads at most
// the first kMaxScanBytes of the file (a longer file is scanned that far).
inline constexpr std::size_t kMaxScanBytes = std::size_t{1} << 30;
std::string PrecheckModelFile(const std::filesystem::path& path);

// The same on what was read: `text` is the file's start (the whole file for COLLADA, BVH and
// FBX, the header for PLY and STL), `extension` its name's (".dae"), `file_size` its size.
std::string PrecheckModelText(const std::string& extension, std::string_view text,
                              std::uintmax_t file_size);

}  // namespace ikpose::asset
