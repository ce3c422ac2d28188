// The importer's answer as bytes: a loaded model (or the one-line reason it could not be
// loaded) in a compact, versioned binary form, and the careful reader of it.
//
// What: `EncodeModel` writes what the importer builds (the skeleton, skins, meshes, materials,
// textures, clips, warnings, units; not the limb chains, humanoid map and joint ranges, which
// the reader's side detects itself); `EncodeFailure` writes a reason. `DecodeAnswer` reads
// either back: every count is checked against the bytes left before anything is allocated,
// every index (parents, skins, joints, materials, textures, vertex indices, clip bones) is
// checked against what it indexes, every per-vertex array against the vertex count, positions
// and transforms must be finite.
// Layout: "ikpmodel", u32 version, u8 kind (0 a model, 1 a failure), u64 body length, body.
// Numbers in the byte order of the machine (both ends are the same program on one machine).
// Why: the importer runs as a program of its own (import_child.h), and what a crashed or
// hostile importer sends is as untrusted as a file.
// Limits: at most kMaxWireBytes in all; strings at most kMaxWireString bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "anim/model.h"

namespace ikpose::asset {

inline constexpr std::uint32_t kModelWireVersion = 1;
inline constexpr std::size_t kModelWireHeaderBytes = 8 + 4 + 1 + 8;
inline constexpr std::uint64_t kMaxWireBytes = std::uint64_t{2} << 30;
inline constexpr std::size_t kMaxWireString = std::size_t{1} << 20;
inline constexpr std::size_t kMaxFailureChars = 400;  // a failure reason is one line

std::string EncodeModel(const anim::Model& model);
std::string EncodeFailure(const std::string& reason);

// The whole answer's length once its header is in `bytes` (0 while it is shorter than the
// header); a header that is not one gives 0 and sets *bad.
std::uint64_t AnswerLength(std::string_view bytes, bool* bad);

enum class WireAnswer { kModel, kFailure, kCorrupt };

// kModel with *model filled; kFailure with the reason (one line, control characters replaced)
// in *text; kCorrupt with what is wrong ("truncated at byte 120 of 4000", "mesh 2 index 9 out
// of range") in *text.
WireAnswer DecodeAnswer(std::string_view bytes, anim::Model* model, std::string* text);

}  // namespace ikpose::asset
