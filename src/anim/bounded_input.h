// Limits on untrusted text input: the files ikpose reads as JSON (scenario and pose files) and
// `ikpose solve`'s lines come from anywhere, so they are bounded before they are parsed.
//
// What: ReadRegularFile reads a whole file only if it is a regular file no larger than a limit
// (a FIFO would block forever, /dev/zero would never end, a directory is not text);
// JsonNestingWithin pre-scans JSON text for nesting deeper than a limit, because nlohmann::json
// copies, compares, prints and destroys values recursively and a 100,000-deep array overflows
// the stack. Why here: scene, asset and app all read JSON; this needs no JSON library.
// Limits: the scan only counts brackets (outside strings); everything else is the parser's job.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>

namespace ikpose::anim {

// Deepest nesting of arrays and objects accepted in any JSON ikpose reads.
inline constexpr int kMaxJsonDepth = 64;
// Largest scenario or pose file read.
inline constexpr std::size_t kMaxJsonFileBytes = 16u << 20;

// False with `error` "<path>: <reason>" when `path` is missing, not a regular file, larger than
// `max_bytes` or unreadable; nothing blocks (the file is opened non-blocking and checked first).
bool ReadRegularFile(const std::filesystem::path& path, std::size_t max_bytes, std::string* text,
                     std::string* error);

// Calls `each` on every line of `path` (without its '\n'), in order, while it returns true;
// the file must be a regular file of at most `max_bytes` (checked first, as ReadRegularFile
// does). At most about a megabyte and one line are held at a time: a line longer than
// `max_line_bytes` is handed on cut to max_line_bytes + 1 bytes (so the caller sees it is too
// long) and its rest skipped. False with `error` "<path>: <reason>" when the file cannot be
// read; true when `each` stopped the reading.
bool ForEachLineOfFile(const std::filesystem::path& path, std::size_t max_bytes,
                       std::size_t max_line_bytes,
                       const std::function<bool(std::string_view line)>& each, std::string* error);

// True when no array or object in `json` (brackets outside strings) nests deeper than
// `max_depth`.
bool JsonNestingWithin(std::string_view json, int max_depth = kMaxJsonDepth);

}  // namespace ikpose::anim
