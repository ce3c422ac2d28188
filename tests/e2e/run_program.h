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

// A fresh empty folder for one test's files.
std::string MakeTempDir();

}  // namespace ikpose::test
