// EscapeForLine: what reaches an error message cannot break its line or drive the terminal,
// while ordinary text, accented names included, is printed as it is.
#include <sstream>

#include <gtest/gtest.h>

#include "app/error_line.h"

namespace ikpose::app {
namespace {

TEST(ErrorLine, PrintableTextAndValidUtf8AreUnchanged) {
  EXPECT_EQ(EscapeForLine("thigh.L: C:\\rigs\\Bein_links.glb"),
            "thigh.L: C:\\rigs\\Bein_links.glb");
  EXPECT_EQ(EscapeForLine("Oberschenkel_\xC3\xBC \xE8\x84\x9A \xF0\x9F\xA6\xB4"),
            "Oberschenkel_\xC3\xBC \xE8\x84\x9A \xF0\x9F\xA6\xB4");
}

TEST(ErrorLine, ControlCharactersAreEscaped) {
  EXPECT_EQ(EscapeForLine("a\nb\rc\td"), "a\\nb\\rc\\td");
  EXPECT_EQ(EscapeForLine(std::string("\x1b[2J\x7f\x00z", 7)), "\\x1b[2J\\x7f\\x00z");
  EXPECT_EQ(EscapeForLine("\xC2\x9B"
                          "1m"),
            "\\xc2\\x9b1m");  // C1 CSI in UTF-8
}

TEST(ErrorLine, BytesThatAreNotUtf8AreEscapedOneByOne) {
  EXPECT_EQ(EscapeForLine("h\xFF\xFE"), "h\\xff\\xfe");
  EXPECT_EQ(EscapeForLine("\xC0\xAF"), "\\xc0\\xaf");                    // overlong '/'
  EXPECT_EQ(EscapeForLine("\xED\xA0\x80"), "\\xed\\xa0\\x80");           // a UTF-16 surrogate
  EXPECT_EQ(EscapeForLine("\xF4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // above U+10FFFF
  EXPECT_EQ(EscapeForLine("\xE2\x82"), "\\xe2\\x82");                    // cut short at the end
}

TEST(ErrorLine, PrintErrorWritesOneLineAndReturnsTheCode) {
  std::ostringstream err;
  EXPECT_EQ(PrintError(err, "bone 'a\nikpose: error: b' is missing", 2), 2);
  EXPECT_EQ(err.str(), "ikpose: error: bone 'a\\nikpose: error: b' is missing\n");
}

}  // namespace
}  // namespace ikpose::app
