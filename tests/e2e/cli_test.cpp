// The command line contract: one-line errors, exit codes, version.
#include <gtest/gtest.h>

#include <algorithm>

#include "run_program.h"

namespace ikpose::test {
namespace {

int LineCount(const std::string& text) {
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

TEST(Cli, VersionPrintsNameAndVersion) {
  const ProgramResult r = RunIkpose({"--version"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.rfind("ikpose ", 0), 0u) << r.out;
}

TEST(Cli, HelpListsTheSubcommands) {
  const ProgramResult r = RunIkpose({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const char* sub : {"view", "render"}) {
    EXPECT_NE(r.out.find(sub), std::string::npos) << sub;
  }
}

TEST(Cli, UnknownSubcommandIsOneLineErrorWithExit2) {
  const ProgramResult r = RunIkpose({"frobnicate"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(LineCount(r.err), 1) << r.err;
  EXPECT_EQ(r.err.rfind("ikpose: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("frobnicate"), std::string::npos);
}

TEST(Cli, UnknownOptionIsOneLineErrorWithExit2) {
  const ProgramResult r = RunIkpose({"render", "--out", "x.png", "--no-such-option"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(LineCount(r.err), 1) << r.err;
  EXPECT_EQ(r.err.rfind("ikpose: error: ", 0), 0u) << r.err;
}

TEST(Cli, BadSizeIsRejectedBeforeAnythingOpens) {
  const ProgramResult r = RunIkpose({"render", "--out", "x.png", "--size", "12xbig"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(LineCount(r.err), 1) << r.err;
  EXPECT_NE(r.err.find("--size"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ikpose::test
