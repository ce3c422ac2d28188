// `trace --listen`: a game's path of targets received over the live link instead of read from
// a file, the same lines giving the same keys (scene/files/targets_stream.h).
//
// What: listens on the address, serves the first game that connects until it closes the
// connection, and returns every key it sent. Port 0 lets the system choose a free port; the
// address bound is then printed on `notices` as "ikpose: listening on HOST:PORT" (a script
// reads it to know where to connect), and nothing is printed for a port that was named.
// Why: a game's IK bug is reproduced while the game runs, without copying a file over.
// Limits: one connection; errors (a bad line, a dropped connection, binary data, the idle
// timeout) are one line, "link:<line>: <what>" for a bad line, counted from 1.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "app/link_listener.h"
#include "scene/files/trace_file.h"

namespace ikpose::app {

// The name of the link in line errors: "link:3: not valid JSON".
inline constexpr const char* kLinkName = "link";

bool ReceiveTargets(const LinkAddress& address, double idle_timeout_s, std::ostream& notices,
                    std::vector<scene::TargetKey>* keys, std::string* error);

}  // namespace ikpose::app
