// Running the importer in a child process with limits, and telling how the child ended.
//
// What: `RunInChild` forks; the child closes every descriptor but its end of a pipe (standard
// output and error go to /dev/null), takes the limits below (address space, stack, CPU time,
// open files; no file may grow: RLIMIT_FSIZE 0; no core file), runs `work` and writes its
// answer (model_wire.h) to the pipe. The parent reads the answer with a wall-clock deadline,
// at most kMaxWireBytes, and reaps the child. `DescribeEnd` turns how the child ended into the
// one line the user sees ("the importer crashed (signal 11, Segmentation fault)").
// Why a fork and no exec: the model loader is a library linked into ikpose, its tests, its
// benchmarks and the fuzzers; a bare fork needs no program to find and re-run, costs a copy of
// page tables instead of a program start (inspect's budget is 20%), and the child gets the
// parent's already-checked file (gltf_check.h ran before the fork) for free. The price: only
// the forking thread exists in the child, so the child runs nothing but the importer, which
// takes no lock another thread of ikpose may hold (glibc makes malloc safe after fork); a child
// stuck anyway ends at the deadline with an error line, not a hang.
// Test hooks (read in the child only, from the environment): IKPOSE_IMPORTER_TEST holds
// comma-separated "kill-after=N" (the child SIGKILLs itself after writing N bytes of its
// answer), "hang" (it sleeps instead of working) and "memory-mb=M" (a lower address-space
// allowance; never a higher one).
// Limits: POSIX (Linux). With a sanitizer the address-space limit is left off (the sanitizer
// reserves terabytes of shadow memory up front).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace ikpose::asset {

// One table of the importer's limits.
struct ImportLimits {
  std::uint64_t memory_bytes = std::uint64_t{2} << 30;  // address space beyond the parent's
  std::uint64_t stack_bytes = std::uint64_t{64} << 20;
  int cpu_seconds = 60;
  double wall_seconds = 60;
  int open_files = 64;
};

// How the child ended.
struct ChildEnd {
  enum Kind {
    kAnswered,     // exited 0 after writing its answer (which may still be corrupt)
    kCrashed,      // killed by a signal or a non-zero exit: `detail` says which
    kOutOfMemory,  // an allocation failed under the address-space limit
    kTimedOut,     // the wall-clock deadline or the CPU limit
    kTooMuch,      // it sent more than kMaxWireBytes
    kNotStarted,   // fork or pipe failed: `detail` says why
  } kind = kAnswered;
  std::string detail;
};

// Runs `work` in a child under `limits`; `work` returns the answer bytes (model_wire.h) and may
// throw std::bad_alloc (reported as kOutOfMemory). The bytes the child wrote are in *answer
// whatever the end.
ChildEnd RunInChild(const std::function<std::string()>& work, const ImportLimits& limits,
                    std::string* answer);

// "the importer crashed reading X (signal 11, Segmentation fault)", "the importer ran out of its
// 2 GB reading X", "the importer took longer than 60 s reading X"...; "" for kAnswered.
std::string DescribeEnd(const ChildEnd& end, const ImportLimits& limits, const std::string& file);

}  // namespace ikpose::asset
