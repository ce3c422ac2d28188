// Fuzz target: `ikpose solve` (app/cmd_solve.h) over any input stream; every non-blank line
// must be answered with exactly one output line, and errors must stay one line each.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "app/cmd_solve.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::istringstream in(text);
  std::ostringstream out, err;
  ikpose::app::RunSolve(in, out, err, /*pretty=*/false);
  // Lines answered = lines read that are not blank (getline's view of the input).
  std::istringstream again(text);
  std::string line;
  long asked = 0;
  while (std::getline(again, line)) {
    if (line.find_first_not_of(" \t\r") != std::string::npos) ++asked;
  }
  const std::string answers = out.str();
  if (std::count(answers.begin(), answers.end(), '\n') != asked) __builtin_trap();
  const std::string errors = err.str();
  std::size_t at = 0;
  while (at < errors.size()) {  // every error line starts with the prefix
    if (errors.compare(at, 15, "ikpose: error: ") != 0) __builtin_trap();
    at = errors.find('\n', at);
    if (at == std::string::npos) __builtin_trap();
    ++at;
  }
  return 0;
}
