// Reading input files without trusting them: regular files only, never blocking, bounded.
//
// What: `ReadRegularFile` opens without blocking (O_NONBLOCK), refuses FIFOs, devices, sockets
// and directories by what fstat says of the opened file, and reads at most `max_bytes`.
// `ResolveBeside` turns a name written inside a model file (a glTF URI, a texture path) into a
// path in the model's folder, refusing absolute names, `..` escapes and symbolic links that
// lead out of the folder unless `allow_outside` is set.
// Why: a FIFO as a model or as a glTF buffer hangs a reader forever, /dev/zero never ends,
// and a buffer URI of ../../../etc/passwd reads a file the model has no business with.
// Limits: POSIX only. The checks and the read are separate steps for `ResolveBeside` (a
// folder someone rewrites while ikpose reads it can still race them); `ReadRegularFile`
// checks the descriptor it reads from.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace ikpose::asset {

// False with a reason ("is a FIFO, not a regular file", "cannot be opened: ...", "is larger
// than N bytes") in *problem; the reason does not repeat the path.
bool ReadRegularFile(const std::filesystem::path& path, std::uintmax_t max_bytes,
                     std::vector<std::uint8_t>* bytes, std::string* problem);

// "" when `path` names a regular file (following links); else what it is instead.
std::string NotRegularFileReason(const std::filesystem::path& path);

// `name` (already percent-decoded) resolved from `folder`; false with a reason in *problem when
// it is absolute, has a scheme ("http://"), or leaves the folder (lexically or through a link).
bool ResolveBeside(const std::filesystem::path& folder, const std::string& name, bool allow_outside,
                   std::filesystem::path* resolved, std::string* problem);

// "%20" -> " ": glTF URIs are percent-encoded.
std::string PercentDecode(const std::string& text);

}  // namespace ikpose::asset
