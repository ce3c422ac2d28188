// The real ikpose running in the background while a test talks to it over the live link:
// started with its output going to files, watched, and reaped with a deadline.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

#include "run_program.h"

namespace ikpose::test {

class LiveProgram {
 public:
  // Starts IKPOSE_EXE (or `program`) with `args`; standard input is empty.
  explicit LiveProgram(const std::vector<std::string>& args, const std::string& program = "");
  ~LiveProgram();  // kills it if it still runs
  LiveProgram(const LiveProgram&) = delete;
  LiveProgram& operator=(const LiveProgram&) = delete;

  // The port of "ikpose: listening on HOST:PORT" once it is on standard error; 0 when the
  // line has not come within `timeout_s` or the program ended first.
  int WaitForPort(double timeout_s);
  // Waits for the program to end; after `timeout_s` it is killed and exit_code is -1.
  ProgramResult Wait(double timeout_s);
  // Seconds since the program was started.
  double Elapsed() const;

 private:
  std::string dir_;
  pid_t pid_ = -1;
  std::chrono::steady_clock::time_point start_;
};

// A TCP port on 127.0.0.1 that was free a moment ago (bound to port 0, then closed).
int FreePort();

}  // namespace ikpose::test
