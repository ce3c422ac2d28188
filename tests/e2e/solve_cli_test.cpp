// `ikpose solve` as a user runs it: JSON Lines on stdin, one JSON line out per input line.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_program.h"

namespace {

using nlohmann::json;

std::vector<json> Lines(const std::string& out) {
  std::vector<json> lines;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) lines.push_back(json::parse(line));
  return lines;
}

TEST(SolveCli, AnswersEveryLineAndReportsAMalformedOneWithoutStopping) {
  const std::string input =
      R"({"a":[0,0,0],"b":[0,-1,0.2],"c":[0,-2,0],"t":[0.5,-1.5,0]})"
      "\n"
      "this is not json\n"
      R"({"a":[0,0,0],"b":[0,-1,0],"c":[0,-2,0],"t":[0,-9,0],"pole":[0,-1,1]})"
      "\n"
      R"({"a":[0,0,0],"b":[0,-1,0.5],"c":[0,-1.5,0],"t":[0,-0.1,0]})"
      "\n";
  const ikpose::test::ProgramResult r = ikpose::test::RunIkpose({"solve"}, input);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const std::vector<json> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 4u) << r.out;
  EXPECT_EQ(lines[0]["reach"], "reachable");
  EXPECT_NEAR(lines[0]["c"][0].get<double>(), 0.5, 1e-6);
  EXPECT_LT(lines[0]["error"].get<double>(), 1e-6);
  EXPECT_TRUE(lines[0]["circle"].contains("center"));
  EXPECT_TRUE(lines[0]["circle"].contains("radius"));
  EXPECT_TRUE(lines[0]["circle"].contains("normal"));
  EXPECT_TRUE(lines[1].contains("error_message"));
  EXPECT_EQ(lines[2]["reach"], "too_far");
  EXPECT_NEAR(lines[2]["c"][1].get<double>(), -2.0, 1e-6);
  EXPECT_EQ(lines[3]["reach"], "too_close");
  EXPECT_NE(r.err.find("ikpose: error: line 2"), std::string::npos) << r.err;
}

TEST(SolveCli, ExitsZeroWhenEveryLineSolves) {
  const ikpose::test::ProgramResult r =
      ikpose::test::RunIkpose({"solve"}, R"({"a":[0,0,0],"b":[1,0,0],"c":[1,1,0],"t":[1,1,0]})"
                                         "\n");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::vector<json> lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0]["reach"], "reachable");
  EXPECT_TRUE(r.err.empty()) << r.err;
}

}  // namespace

TEST(SolveCli, AFullDiskBehindStandardOutputIsOneErrorLine) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full here";
  const std::string line = R"({"a":[0,0,0],"b":[1,0,0],"c":[1,1,0],"t":[1,1,0]})"
                           "\n";
  // One answer (it sits in the output buffer until the end) and many (written as they come).
  for (const int lines : {1, 2000}) {
    std::string input;
    for (int i = 0; i < lines; ++i) input += line;
    const ikpose::test::ProgramResult r =
        ikpose::test::RunIkposeWithStdoutTo("/dev/full", {"solve"}, input);
    EXPECT_EQ(r.exit_code, 1) << lines << " lines: " << r.err;
    EXPECT_EQ(r.err.rfind("ikpose: error: cannot write", 0), 0u) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  // inspect and pose print to standard output too.
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"inspect"}, {"pose", "--target", "left_arm=0.3,1.2,0.3"}}) {
    const ikpose::test::ProgramResult r = ikpose::test::RunIkposeWithStdoutTo("/dev/full", args);
    EXPECT_EQ(r.exit_code, 1) << args[0] << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}
