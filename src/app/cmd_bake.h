// `ikpose export [MODEL] [--scene S] [--clip C] [--targets T.jsonl] --bake [--fps N] [--from T0]
// [--to T1] [--max-error E] [--lock-feet] --out F.glb`: a situation baked into a glTF animation.
//
// What: every frame from T0 to T1 at N frames a second is posed through the one road
// (scene/trace/bake.h: the scenario, the clip at that time, the targets file's targets, ladder
// follow, policies, mirror), optionally with planted feet held still, and the file is written with
// the model at rest and the baked clip (named after the source clip, or "ik") in place of the
// source clip; the model's other clips are written as they were. Prints what it baked, how many
// keys (and, with --max-error, the measured largest joint error and the file before/after), and per
// locked foot its plants and how far it slid before and after, in millimetres when the units are
// known.
// Why: a hand put on its rung in ikpose goes back to the game as an animation it can play.
// Limits: at most 36,000 frames; progress is drawn on standard error only when it is a terminal;
// nothing is written until every frame is solved (Ctrl+C leaves no file).
#pragma once

#include <ostream>

#include "app/cmd_export.h"

namespace ikpose::app {

int RunBake(const ExportOptions& options, std::ostream& out, std::ostream& err);

}  // namespace ikpose::app
