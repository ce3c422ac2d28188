// `ikpose solve` in-process: JSON Lines in, one JSON object per line out.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cmd_solve.h"

namespace ikpose::app {
namespace {

using nlohmann::json;

struct SolveRun {
  int code;
  std::vector<json> lines;
  std::string err;
};

SolveRun Solve(const std::string& input) {
  std::istringstream in(input);
  std::ostringstream out, err;
  SolveRun r;
  r.code = RunSolve(in, out, err, false);
  std::istringstream lines(out.str());
  std::string line;
  while (std::getline(lines, line)) r.lines.push_back(json::parse(line));
  r.err = err.str();
  return r;
}

const char* kReachable = R"({"a":[0,0,0],"b":[0,-1,0.2],"c":[0,-2,0],"t":[0.5,-1.5,0]})";

TEST(SolveCommand, WritesTheContractFieldsForAReachableTarget) {
  const SolveRun r = Solve(std::string(kReachable) + "\n");
  EXPECT_EQ(r.code, 0);
  ASSERT_EQ(r.lines.size(), 1u);
  const json& o = r.lines[0];
  EXPECT_EQ(o["reach"], "reachable");
  EXPECT_NEAR(o["c"][0].get<double>(), 0.5, 1e-6);
  EXPECT_NEAR(o["c"][1].get<double>(), -1.5, 1e-6);
  EXPECT_EQ(o["b"].size(), 3u);
  EXPECT_TRUE(o["circle"]["center"].is_array());
  EXPECT_TRUE(o["circle"]["radius"].is_number());
  EXPECT_TRUE(o["circle"]["normal"].is_array());
  EXPECT_LT(o["error"].get<double>(), 1e-6);
  for (const char* key : {"length_ab", "length_bc", "length_at", "reach_margin", "cos_theta",
                          "theta_deg", "knee_bend_deg", "knee_displacement", "flip_margin",
                          "limit_clamped", "softened", "hip_rotation", "knee_rotation"}) {
    EXPECT_TRUE(o.contains(key)) << key;
  }
  EXPECT_EQ(o["hip_rotation"]["quaternion_xyzw"].size(), 4u);
  EXPECT_TRUE(o["knee_rotation"].contains("twist_deg"));
}

TEST(SolveCommand, AMalformedLineInTheMiddleGivesAnErrorObjectAndTheRestGoOn) {
  const std::string input = std::string(kReachable) + "\n{not json\n" +
                            R"({"a":[0,0,0],"b":[0,-1,0],"c":[0,-2,0],"t":[0,-9,0]})" + "\n";
  const SolveRun r = Solve(input);
  EXPECT_EQ(r.code, 1);
  ASSERT_EQ(r.lines.size(), 3u);
  EXPECT_EQ(r.lines[0]["reach"], "reachable");
  EXPECT_EQ(r.lines[1]["error_message"], "malformed JSON");
  EXPECT_EQ(r.lines[1]["line"], 2);
  EXPECT_EQ(r.lines[2]["reach"], "too_far");
  EXPECT_NE(r.err.find("ikpose: error: line 2"), std::string::npos);
}

TEST(SolveCommand, NamesEachKindOfBadLine) {
  const std::string input = R"({"a":[0,0,0],"b":[0,-1,0],"c":[0,-2,0]})"
                            "\n"
                            R"({"a":[0,0,0],"b":[0,-1,0],"c":[0,-2,"x"],"t":[1,0,0]})"
                            "\n"
                            R"({"a":[0,0,0],"b":[0,-1,0],"c":[0,-2],"t":[1,0,0]})"
                            "\n"
                            R"({"a":[0,0,0],"b":[0,-1,0],"c":[0,-2,0],"t":[0,0,0]})"
                            "\n"
                            R"({"a":[0,0,0],"b":[0,0,0],"c":[0,-2,0],"t":[1,0,0]})"
                            "\n"
                            R"({"a":[0,0,0],"b":[0,-1,0],"c":[0,-2,0],"t":[1e300,0,0]})"
                            "\n"
                            R"([1,2,3])"
                            "\n"
                            R"({"a":[0,0,0],"b":[0,-1,0],"c":[0,-2,0],"t":[1,0,0],"weight":7})"
                            "\n";
  const SolveRun r = Solve(input);
  EXPECT_EQ(r.code, 1);
  ASSERT_EQ(r.lines.size(), 8u);
  const char* expected[] = {"missing field \"t\"",  "must be a number", "array of 3 numbers",
                            "target is on the hip", "upper bone",       "float range",
                            "JSON object",          "weight must be in"};
  for (int i = 0; i < 8; ++i) {
    ASSERT_TRUE(r.lines[i].contains("error_message")) << i;
    EXPECT_NE(r.lines[i]["error_message"].get<std::string>().find(expected[i]), std::string::npos)
        << r.lines[i]["error_message"];
  }
}

TEST(SolveCommand, AppliesThePerLineOptions) {
  const std::string input =
      R"({"id":"pole","a":[0,0,0],"b":[0,-1,0],"c":[0,-2,0],"t":[0,-1.5,0],"pole":[0,-1,5]})"
      "\n"
      R"({"a":[0,0,0],"b":[0.6,-0.8,0],"c":[0,-1.6,0],"t":[0,-1.9,0],"limits":{"min_deg":60,"max_deg":170}})"
      "\n"
      R"({"a":[0,0,0],"b":[0.6,-0.8,0],"c":[0,-1.6,0],"t":[0,-1.99,0],"soften":0.8})"
      "\n"
      R"({"a":[0,0,0],"b":[0.6,-0.8,0],"c":[0,-1.6,0],"t":[0,-1.9,0],"weight":0})"
      "\n";
  const SolveRun r = Solve(input);
  EXPECT_EQ(r.code, 0) << r.err;
  ASSERT_EQ(r.lines.size(), 4u);
  EXPECT_EQ(r.lines[0]["id"], "pole");
  EXPECT_EQ(r.lines[0]["used_pole"], true);
  EXPECT_GT(r.lines[0]["b"][2].get<double>(), 0.5);  // toward the pole
  EXPECT_EQ(r.lines[1]["limit_clamped"], true);
  EXPECT_GE(r.lines[1]["knee_bend_deg"].get<double>(), 60.0 - 1e-3);
  EXPECT_EQ(r.lines[2]["softened"], true);
  EXPECT_GT(r.lines[2]["error"].get<double>(), 0.0);
  EXPECT_NEAR(r.lines[3]["b"][0].get<double>(), 0.6, 1e-6);  // weight 0: the input pose
}

TEST(SolveCommand, PrintsShortNumbersAndSkipsBlankLines) {
  std::istringstream in(std::string("\n  \n") + kReachable + "\n");
  std::ostringstream out, err;
  EXPECT_EQ(RunSolve(in, out, err, false), 0);
  const std::string text = out.str();
  EXPECT_NE(text.find("[0.5,-1.5,0.0]"), std::string::npos) << text;
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1);
}

}  // namespace
}  // namespace ikpose::app
