// `ikpose solve`: the positions step of the two-bone solver over JSON Lines.
//
// What: reads one JSON object per line, {"a":[x,y,z],"b":..,"c":..,"t":..} with optional
// "pole":[x,y,z], "limits":{"min_deg":..,"max_deg":..}, "soften":r, "weight":w (and "id",
// echoed back), and writes one JSON object per line: "reach", "b", "c", "circle" {center,
// radius, normal}, "error" (= |c - t|) and the rest of the solver's report in snake_case.
// A line that cannot be solved (malformed JSON, a missing or non-numeric field, a NaN, an
// invalid chain) gives {"error_message": "..."} plus "line", one line on `err`, and the
// next line goes on. Blank lines are skipped.
// Why: a headless, scriptable way to reproduce and regression-test solver decisions.
// Limits: positions are model space, in the caller's units; quaternions are written
// [x, y, z, w]; angles in degrees. Floats are printed with the shortest digits that read back
// to the same float.
#pragma once

#include <istream>
#include <ostream>

namespace ikpose::app {

// Returns the exit code: 0 when every line was solved, 1 when any line failed. `pretty`
// indents each object (then the output is no longer one object per line).
int RunSolve(std::istream& in, std::ostream& out, std::ostream& err, bool pretty);

}  // namespace ikpose::app
