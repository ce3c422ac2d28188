// One-line errors: every `ikpose: error: <what>` goes through PrintError, which escapes what
// could break the line or the terminal. File names, bone names, clip names and strings from
// scenario and pose files reach error messages unchanged, so a newline in one would forge a
// second error line and an ESC would drive the terminal. Limits: only the message is escaped,
// not stdout reports (their JSON is escaped by the JSON writer).
#pragma once

#include <ostream>
#include <string>
#include <string_view>

namespace ikpose::app {

// `text` with control characters (C0, DEL, C1) written as \n, \r, \t or \xNN, and every byte
// that is not part of valid UTF-8 as \xNN; printable text, valid UTF-8 included, is unchanged.
std::string EscapeForLine(std::string_view text);

// Writes "ikpose: error: <escaped what>\n" to `err` and returns `exit_code`.
int PrintError(std::ostream& err, std::string_view what, int exit_code = 1);
// Writes "ikpose: warning: <escaped what>\n" to `err`: something the user should know about a
// result that was still produced (the exit status stays 0).
void PrintWarning(std::ostream& err, std::string_view what);

}  // namespace ikpose::app
