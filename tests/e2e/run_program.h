// Running the real ikpose executable from a test: arguments in, exit code and both output
// streams back. Uses the shell only to redirect files; every argument is quoted.
#pragma once

#include <string>
#include <vector>

namespace ikpose::test {

struct ProgramResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs IKPOSE_EXE with `args`; `stdin_text` is fed on standard input. `env` entries are
// NAME=value pairs set for that run only; `wrapper` words come before the program (a memory
// cap: {"prlimit", "--as=1073741824"}).
ProgramResult RunIkpose(const std::vector<std::string>& args, const std::string& stdin_text = "",
                        const std::vector<std::string>& env = {},
                        const std::vector<std::string>& wrapper = {});

// Runs IKPOSE_EXE with standard output going to `stdout_path` (a device such as /dev/full);
// `out` comes back empty.
ProgramResult RunIkposeWithStdoutTo(const std::string& stdout_path,
                                    const std::vector<std::string>& args,
                                    const std::string& stdin_text = "");

// Runs IKPOSE_EXE with `args` under a file size limit of `max_file_bytes` (RLIMIT_FSIZE, with
// SIGXFSZ ignored so that a write past it fails with EFBIG instead of killing the program):
// how a disk that fills up midway looks to the program. Standard input is empty and standard
// output discarded; standard error comes back.
ProgramResult RunIkposeWithFileSizeLimit(const std::vector<std::string>& args, long max_file_bytes);

// The same, run under `prefix` (a wrapper command and its options, e.g. {"prlimit",
// "--as=1000000000", "--"}), which is given the environment and the program to run.
ProgramResult RunIkposeUnder(const std::vector<std::string>& prefix,
                             const std::vector<std::string>& args,
                             const std::string& stdin_text = "");

// The words that run a program with its address space capped at 2 GB (prlimit --as), or none
// in the ASan build, whose shadow memory needs the address space.
std::vector<std::string> MemoryCapPrefix();
bool BuiltWithAddressSanitizer();

// A fresh empty folder for one test's files.
std::string MakeTempDir();

}  // namespace ikpose::test
