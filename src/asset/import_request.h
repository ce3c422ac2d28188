// What ikpose sends its importer program: the checked file and how to read it.
//
// What: `EncodeImportRequest` writes the parts of a PreparedImport (import_scene.h) that the
// import needs: the path, the name assimp reads, the glTF version, whether URIs may leave the
// folder, and a glTF 2.0 file's checked (maybe amended) bytes. `DecodeImportRequest` reads
// them back, every length checked against the bytes left.
// Layout: "ikpimprt", u32 version, u8 glTF version, u8 outside URIs allowed, then the path,
// the read-as name and the bytes, each a u64 length and its bytes.
// Why: the importer program (import_child.h) reads exactly the bytes ikpose checked, not the
// file again (it may have changed in between), and skips the checks ikpose already ran.
// Limits: both ends are the same build on one machine (the machine's byte order).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ikpose::asset {

struct PreparedImport;

inline constexpr std::uint32_t kImportRequestVersion = 1;

std::string EncodeImportRequest(const PreparedImport& prepared);

// False with what is wrong in *problem ("truncated at byte 30 of 41").
bool DecodeImportRequest(std::string_view bytes, PreparedImport* prepared, std::string* problem);

}  // namespace ikpose::asset
