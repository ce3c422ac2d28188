#include "app/error_line.h"

#include <cstdint>

namespace ikpose::app {

namespace {

void AppendHex(std::string* out, unsigned char byte) {
  static constexpr char kDigits[] = "0123456789abcdef";
  out->append("\\x");
  out->push_back(kDigits[byte >> 4]);
  out->push_back(kDigits[byte & 0xf]);
}

bool Continuation(std::string_view text, std::size_t at) {
  return at < text.size() && (static_cast<unsigned char>(text[at]) & 0xc0) == 0x80;
}

// Length of the valid UTF-8 sequence starting at text[at] (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF); 0 when it is not one.
std::size_t Utf8Length(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[at + i]); };
  const unsigned char lead = byte(0);
  std::size_t length = 0;
  unsigned char second_min = 0x80, second_max = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead == 0xe0) second_min = 0xa0;
    if (lead == 0xed) second_max = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead == 0xf0) second_min = 0x90;
    if (lead == 0xf4) second_max = 0x8f;
  } else {
    return 0;
  }
  for (std::size_t i = 1; i < length; ++i) {
    if (!Continuation(text, at + i)) return 0;
  }
  if (byte(1) < second_min || byte(1) > second_max) return 0;
  return length;
}

}  // namespace

std::string EscapeForLine(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (c == '\n') {
        out.append("\\n");
      } else if (c == '\r') {
        out.append("\\r");
      } else if (c == '\t') {
        out.append("\\t");
      } else if (c < 0x20 || c == 0x7f) {
        AppendHex(&out, c);
      } else {
        out.push_back(static_cast<char>(c));
      }
      ++i;
      continue;
    }
    const std::size_t length = Utf8Length(text, i);
    // C1 controls (U+0080..U+009F, 0xC2 0x80..0x9F) are terminal commands too (0x9B is CSI).
    const bool c1 = length == 2 && c == 0xc2 && static_cast<unsigned char>(text[i + 1]) < 0xa0;
    if (length == 0 || c1) {
      const std::size_t bytes = length == 0 ? 1 : length;
      for (std::size_t k = 0; k < bytes; ++k) {
        AppendHex(&out, static_cast<unsigned char>(text[i + k]));
      }
      i += bytes;
      continue;
    }
    out.append(text.substr(i, length));
    i += length;
  }
  return out;
}

int PrintError(std::ostream& err, std::string_view what, int exit_code) {
  err << "ikpose: error: " << EscapeForLine(what) << "\n";
  err.flush();
  return exit_code;
}

void PrintWarning(std::ostream& err, std::string_view what) {
  err << "ikpose: warning: " << EscapeForLine(what) << "\n";
  err.flush();
}

}  // namespace ikpose::app
