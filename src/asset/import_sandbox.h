// What the importer program may do with the filesystem: read the model's folders, nothing else.
//
// What: `RestrictToReading` confines the calling process, for the rest of its life, with
// Landlock: files and folders beneath `folders` may be read (and listed); everything else may
// not be opened, and nothing anywhere may be written, created, removed, renamed, linked,
// truncated or executed. Files already open (the pipe to ikpose) stay usable; stat() of any
// path still works (the loader asks whether a texture exists without reading it).
// Why: the importer parses files from strangers; a parser bug turned into running code should
// find no file to steal and none to write. The importer's RLIMIT_FSIZE of 0 (import_child.h)
// stops a write from growing a file but not a new empty file or a removal: Landlock does.
// Limits: Linux 5.13 or later with Landlock enabled; elsewhere (or when a container forbids
// the calls) it returns why not and the importer runs under its rlimits alone. The process
// also gets no_new_privs (Landlock requires it).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace ikpose::asset {

// "" once in force, else why it is not ("the kernel has no Landlock (...)").
std::string RestrictToReading(const std::vector<std::filesystem::path>& folders);

// The kernel's Landlock ABI version; 0 when it has none.
int LandlockAbi();

}  // namespace ikpose::asset
