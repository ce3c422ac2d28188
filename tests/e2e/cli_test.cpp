// The command line contract: one-line errors, exit codes, version.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <string>

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
  // The names listed under "Subcommands:", one per line (a word in a description is not one).
  const std::size_t section = r.out.find("Subcommands:\n");
  ASSERT_NE(section, std::string::npos) << r.out;
  std::set<std::string> listed;
  std::istringstream lines(r.out.substr(section + 13));
  for (std::string line; std::getline(lines, line) && !line.empty();) {
    std::istringstream words(line);
    std::string name;
    words >> name;
    listed.insert(name);
  }
  for (const std::string sub : {"view", "render", "inspect", "pose", "export", "solve"}) {
    EXPECT_EQ(listed.count(sub), 1u) << sub << " is not listed in\n" << r.out;
    // And it is a real subcommand: its own help names it.
    const ProgramResult help = RunIkpose({sub, "--help"});
    EXPECT_EQ(help.exit_code, 0) << sub << ": " << help.err;
    EXPECT_NE(help.out.find("ikpose " + sub), std::string::npos) << help.out;
  }
}

// Every command that takes --ready names every ready pose in its help (export's once stopped
// at reach-up, before crawl and push-up were added).
TEST(Cli, ReadyHelpNamesEveryReadyPose) {
  for (const std::string sub : {"render", "pose", "export", "view"}) {
    const ProgramResult help = RunIkpose({sub, "--help"});
    ASSERT_EQ(help.exit_code, 0) << sub << ": " << help.err;
    if (help.out.find("--ready") == std::string::npos) continue;
    for (const char* name : {"stand", "sit-on-a-box", "kneel", "run", "climb-a-rung", "reach-up",
                             "crawl", "push-up"}) {
      EXPECT_NE(help.out.find(name), std::string::npos) << sub << " --help lacks " << name;
    }
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
