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
// NAME=value pairs set for that run only.
ProgramResult RunIkpose(const std::vector<std::string>& args, const std::string& stdin_text = "",
                        const std::vector<std::string>& env = {});

// The same, run under `prefix` (a wrapper command and its options, e.g. {"prlimit",
// "--as=1000000000", "--"}), which is given the environment and the program to run.
ProgramResult RunIkposeUnder(const std::vector<std::string>& prefix,
                             const std::vector<std::string>& args,
                             const std::string& stdin_text = "");

// A fresh empty folder for one test's files.
std::string MakeTempDir();

}  // namespace ikpose::test
