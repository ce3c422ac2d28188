// Running the importer as a separate program with limits, and telling how it ended.
//
// What: `RunImporter` starts the `ikpose_import` program (src/asset/importer_main.cpp): fork,
// then at once exec. The program gets the request (import_request.h) on descriptor 4, a pipe
// for its answer (model_wire.h) on descriptor 3, /dev/null as 0, 1 and 2 and no other
// descriptor; it runs under the limits below (stack, CPU time, open files, no file may grow:
// RLIMIT_FSIZE 0, no core file; set before the exec) plus an address-space allowance on top
// of what it has at start (set by the program itself) and a filesystem sandbox (read-only
// access to the model's folder, import_sandbox.h). ikpose reads the answer with a wall-clock
// deadline, at most kMaxWireBytes, and reaps the program. `DescribeEnd` turns how it ended
// into the one line the user sees ("the importer crashed reading X (signal 11, ...)").
// Why an exec and not a bare fork: a fork copies only the calling thread, so a child of a
// process with other threads (the viewer, once the GL driver has started its own) may block
// forever on a lock one of them held; between this fork and the exec only async-signal-safe
// calls run (everything they need is prepared before the fork). A separate small program
// starts faster than ikpose itself (no SDL, GL or ImGui to load).
// Where the program is: `ImporterProgram()` takes `ikpose_import` beside the running
// executable (how ikpose is built and shipped), else the build tree's (compiled in, for the
// tests, benchmarks and tools that run from it). With neither, loading a model fails with one
// line. There is no in-process fallback: only LoadModelInProcess (load_model.h), which tests
// and the fuzzers call on the bundled character, imports in the calling process.
// Test hooks (IKPOSE_IMPORTER_TEST, comma-separated): "kill-after=N" (the program SIGKILLs
// itself after writing N bytes of its answer), "hang" (it sleeps instead of working),
// "crash" (it raises SIGSEGV before importing), "crash-on=TEXT" (the same, only for a model
// whose path contains TEXT), "create-file=PATH" (inside its sandbox it tries to create PATH,
// which must not appear), "memory-mb=M" (a lower address-space allowance, never a higher one;
// read by ikpose, which passes the allowance on).
// Limits: Linux. With a sanitizer the address-space limit is left off (the sanitizer reserves
// terabytes of shadow memory up front).
#pragma once

#include <cstdint>
#include <string>

namespace ikpose::asset {

struct PreparedImport;

// One table of the importer's limits.
struct ImportLimits {
  std::uint64_t memory_bytes = std::uint64_t{2} << 30;  // address space beyond its start
  std::uint64_t stack_bytes = std::uint64_t{64} << 20;
  int cpu_seconds = 60;
  double wall_seconds = 60;
  int open_files = 64;
};

// How the importer ended.
struct ChildEnd {
  enum Kind {
    kAnswered,     // exited 0 after writing its answer (which may still be corrupt)
    kCrashed,      // killed by a signal or a non-zero exit: `detail` says which
    kOutOfMemory,  // an allocation failed under the address-space limit
    kTimedOut,     // the wall-clock deadline or the CPU limit
    kTooMuch,      // it sent more than kMaxWireBytes
    kNotStarted,   // no program, pipe or process: `detail` says why
  } kind = kAnswered;
  std::string detail;
  std::uint64_t memory_bytes = 0;  // the address-space allowance it ran under
};

// The importer program's test hooks, from IKPOSE_IMPORTER_TEST (see above).
struct ImporterTestHooks {
  long long kill_after = -1;
  bool hang = false;
  bool crash = false;
  std::string crash_on;
  std::string create_file;
  std::uint64_t memory_bytes = 0;
};
ImporterTestHooks ReadImporterTestHooks();

// The importer program's path; "" when there is none.
const std::string& ImporterProgram();

// Runs the importer program on `prepared` under `limits`. The bytes it wrote are in *answer
// whatever the end.
ChildEnd RunImporter(const PreparedImport& prepared, const ImportLimits& limits,
                     std::string* answer);

// "the importer crashed reading X (signal 11, Segmentation fault)", "the importer ran out of its
// 2 GB reading X" (the allowance it ran under), "the importer took longer than 60 s reading
// X"...; "" for kAnswered.
std::string DescribeEnd(const ChildEnd& end, const ImportLimits& limits, const std::string& file);

// Lowers a resource limit to `value` (soft) and `hard` (or `value` when 0), never raising
// either. Only system calls: safe between fork and exec.
void LowerLimit(int resource, std::uint64_t value, std::uint64_t hard = 0);

// The importer program's own exit codes.
inline constexpr int kImporterOutOfMemory = 75;  // an allocation failed
inline constexpr int kImporterFailed = 76;       // its set-up or its answer's write failed
inline constexpr int kImporterNoExec = 77;       // the exec itself failed

}  // namespace ikpose::asset
