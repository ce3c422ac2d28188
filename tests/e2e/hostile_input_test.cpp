// Hostile input through the real program: control characters in every echoed string, invalid
// UTF-8 bone names, deep JSON, huge counts, FIFOs and devices where files are expected, links,
// and writes that fail. Each case checks the exit status, exactly one `ikpose: error:` line
// with nothing that could drive a terminal, and that no file is left behind; runs are under a
// memory cap (prlimit --as), except in the ASan build whose shadow memory needs the address space.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "run_program.h"

namespace ikpose::test {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kCharacter = fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb";

// Runs ikpose with its address space capped at 2 GB (not under ASan), plus `limits`.
ProgramResult RunCapped(const std::vector<std::string>& args,
                        const std::vector<std::string>& limits = {},
                        const std::string& stdin_text = "") {
  std::vector<std::string> prefix = {"prlimit"};
  if (!BuiltWithAddressSanitizer()) prefix.push_back("--as=2000000000");
  prefix.insert(prefix.end(), limits.begin(), limits.end());
  prefix.push_back("--");
  return RunIkposeUnder(prefix, args, stdin_text);
}

// Exactly one error line, with the exit code given, and no control byte but its newline.
void ExpectOneEscapedErrorLine(const ProgramResult& r, int exit_code) {
  EXPECT_EQ(r.exit_code, exit_code) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("ikpose: error: ", 0), 0u) << r.err;
  for (std::size_t i = 0; i + 1 < r.err.size(); ++i) {
    const auto c = static_cast<unsigned char>(r.err[i]);
    EXPECT_TRUE(c >= 0x20 && c != 0x7f) << "control byte " << int(c) << " in: " << r.err;
  }
}

std::set<std::string> Entries(const fs::path& dir) {
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.insert(e.path().filename().string());
  return names;
}

std::string Read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void Write(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

class HostileInput : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = MakeTempDir(); }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

// A second error line, a terminal clear, CR, DEL and the C1 control CSI (U+009B, in UTF-8).
const std::string kForged = "\nikpose: error: forged\x1b[2J\r\x7f\xc2\x9b";

TEST_F(HostileInput, ControlCharactersInEchoedStringsStayOnOneEscapedLine) {
  Write(dir_ / "scene.json", json{{"clip", "walk" + kForged}}.dump());
  // Found by fuzz_scenario: an unknown key is quoted in the error as it is.
  Write(dir_ / "keys.json", json{{"limbs", {{"left_leg", {{"x" + kForged, 1}}}}}}.dump());
  Write(dir_ / "pose.json", json{{"bones", {{{"name", "hip" + kForged}}}}}.dump());
  const std::set<std::string> before = Entries(dir_);
  const std::string out_glb = (dir_ / "out.glb").string();
  const struct {
    std::vector<std::string> args;
    int exit_code;
  } cases[] = {
      {{"pose", "--target", "left_leg" + kForged + "=1,2"}, 2},
      {{"export", "--out", out_glb, "--target", "left_leg=1,2" + kForged}, 2},
      {{"render", "--out", (dir_ / "x.png").string(), "--camera", "1,2" + kForged}, 2},
      {{"export", "--out", (dir_ / ("x" + kForged + ".txt")).string(), "--clip", "walk"}, 2},
      {{"inspect", (dir_ / ("missing" + kForged + "\xff.glb")).string()}, 1},
      {{"pose", "--clip", "walk" + kForged}, 1},
      {{"pose", "--scene", (dir_ / "scene.json").string()}, 1},
      {{"pose", "--scene", (dir_ / "keys.json").string()}, 1},
      {{"pose", "--scene", (dir_ / ("missing" + kForged + ".json")).string()}, 1},
      {{"export", "--pose", (dir_ / "pose.json").string(), "--out", out_glb}, 1},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.args[0] + " " + c.args[1]);
    const ProgramResult r = RunCapped(c.args);
    ExpectOneEscapedErrorLine(r, c.exit_code);
    EXPECT_NE(r.err.find("\\nikpose: error: forged\\x1b[2J\\r\\x7f\\xc2\\x9b"), std::string::npos)
        << r.err;
  }
  EXPECT_EQ(Entries(dir_), before);
}

// The bundled character with its "head" bone renamed to bytes that are not UTF-8 (same length,
// so the GLB's chunk lengths stay right).
fs::path CharacterWithInvalidUtf8Name(const fs::path& dir) {
  std::string glb = Read(kCharacter);
  const std::string from = "{\"name\":\"head\"";
  const std::size_t at = glb.find(from);
  if (at == std::string::npos) return {};
  glb.replace(at + 9, 4,
              "h\xff\xfe"
              "d");
  const fs::path path = dir / "bad_name.glb";
  Write(path, glb);
  return path;
}

TEST_F(HostileInput, InvalidUtf8InABoneNameIsReportedNotFatal) {
  if (!fs::exists(kCharacter)) GTEST_SKIP() << "assets/character.glb is absent";
  const fs::path model = CharacterWithInvalidUtf8Name(dir_);
  ASSERT_FALSE(model.empty()) << "the character has no bone named head";
  const std::string replaced =
      "h\xEF\xBF\xBD\xEF\xBF\xBD"
      "d";  // each bad byte: U+FFFD

  ProgramResult r = RunCapped({"inspect", "--json", model.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(json::parse(r.out).dump().find(replaced), std::string::npos);
  r = RunCapped({"inspect", model.string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;

  r = RunCapped({"pose", model.string(), "--json", "--target", "left_leg=0.1,0.3,0.3"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(json::parse(r.out).dump().find(replaced), std::string::npos);

  const fs::path pose = dir_ / "pose.json";
  r = RunCapped({"pose", model.string(), "--out", pose.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(json::parse(Read(pose)).dump().find(replaced), std::string::npos);

  r = RunCapped(
      {"export", model.string(), "--pose", pose.string(), "--out", (dir_ / "posed.glb").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(Read(dir_ / "posed.glb").find(replaced), std::string::npos);
}

std::string Deep(int depth) {
  return std::string(static_cast<std::size_t>(depth), '[') +
         std::string(static_cast<std::size_t>(depth), ']');
}

TEST_F(HostileInput, ADeepSolveLineIsAnsweredWithAnErrorAndLaterLinesStillAre) {
  const std::string good = R"({"a":[0,0,0],"b":[0,1,0],"c":[0,2,0],"t":[0,1.5,0.5],"id":2})";
  const ProgramResult r =
      RunCapped({"solve"}, {}, "{\"id\":" + Deep(100000) + ",\"a\":[0,0,0]}\n" + good + "\n");
  ExpectOneEscapedErrorLine(r, 1);
  std::istringstream lines(r.out);
  std::string first, second;
  ASSERT_TRUE(std::getline(lines, first) && std::getline(lines, second)) << r.out;
  EXPECT_NE(json::parse(first)["error_message"].get<std::string>().find("nested deeper"),
            std::string::npos);
  EXPECT_EQ(json::parse(second)["id"], 2);
  EXPECT_EQ(json::parse(second)["reach"], "reachable");
}

TEST_F(HostileInput, DeepScenarioAndPoseFilesAreOneError) {
  Write(dir_ / "scene.json", "{\"limbs\":" + Deep(100000) + "}");
  Write(dir_ / "pose.json", "{\"bones\":" + Deep(100000) + "}");
  const std::set<std::string> before = Entries(dir_);
  ProgramResult r = RunCapped({"pose", "--scene", (dir_ / "scene.json").string()});
  ExpectOneEscapedErrorLine(r, 1);
  EXPECT_NE(r.err.find("nested deeper than 64 levels"), std::string::npos) << r.err;
  r = RunCapped(
      {"export", "--pose", (dir_ / "pose.json").string(), "--out", (dir_ / "out.glb").string()});
  ExpectOneEscapedErrorLine(r, 1);
  EXPECT_NE(r.err.find("nested deeper than 64 levels"), std::string::npos) << r.err;
  EXPECT_EQ(Entries(dir_), before);
}

TEST_F(HostileInput, AHugeRungCountIsRefusedWithItsLimit) {
  for (const char* count : {"1e9", "1e30", "0", "2.5"}) {
    Write(dir_ / "scene.json", std::string("{\"ladder\":{\"rung_count\":") + count + "}}");
    const ProgramResult r = RunCapped({"pose", "--scene", (dir_ / "scene.json").string()});
    ExpectOneEscapedErrorLine(r, 1);
    EXPECT_NE(r.err.find("rung_count must be a whole number from 1 to 1000"), std::string::npos)
        << r.err;
  }
  // The case that ran out of memory: drawing the ladder's rungs.
  Write(dir_ / "scene.json", "{\"ladder\":{\"rung_count\":1e9,\"enabled\":true}}");
  const ProgramResult r =
      RunCapped({"render", "--overlay", "--size", "64x64", "--scene",
                 (dir_ / "scene.json").string(), "--out", (dir_ / "ladder.png").string()});
  ExpectOneEscapedErrorLine(r, 1);
  EXPECT_FALSE(fs::exists(dir_ / "ladder.png"));
}

TEST_F(HostileInput, FifosAreRefusedNotWaitedOn) {
  const fs::path fifo = dir_ / "pipe.json";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  const std::vector<std::vector<std::string>> runs = {
      {"pose", "--scene", fifo.string()},
      {"export", "--pose", fifo.string(), "--out", (dir_ / "out.glb").string()},
      {"pose", "--out", fifo.string()},
  };
  for (const auto& args : runs) {
    SCOPED_TRACE(args[0] + " " + args[1]);
    const ProgramResult r = RunCapped(args);
    ExpectOneEscapedErrorLine(r, 1);
    EXPECT_NE(r.err.find("not a regular file"), std::string::npos) << r.err;
  }
  EXPECT_TRUE(fs::is_fifo(fifo));
  EXPECT_EQ(Entries(dir_), std::set<std::string>{"pipe.json"});
}

TEST_F(HostileInput, DevFullAsOutIsRefusedAndStaysADevice) {
  const ProgramResult r = RunCapped({"pose", "--out", "/dev/full"});
  ExpectOneEscapedErrorLine(r, 1);
  EXPECT_NE(r.err.find("not a regular file"), std::string::npos) << r.err;
  struct stat st {};
  ASSERT_EQ(::stat("/dev/full", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

TEST_F(HostileInput, OutAsADirectoryIsRefused) {
  fs::create_directory(dir_ / "out.json");
  const ProgramResult r = RunCapped({"pose", "--out", (dir_ / "out.json").string()});
  ExpectOneEscapedErrorLine(r, 1);
  EXPECT_NE(r.err.find("is a directory"), std::string::npos) << r.err;
  EXPECT_EQ(Entries(dir_), std::set<std::string>{"out.json"});
}

TEST_F(HostileInput, OutThroughASymlinkReplacesItsTargetAndKeepsTheLink) {
  fs::create_directory(dir_ / "real");
  Write(dir_ / "real" / "pose.json", "old");
  fs::create_symlink("real/pose.json", dir_ / "pose.json");
  const ProgramResult r = RunCapped({"pose", "--out", (dir_ / "pose.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(dir_ / "pose.json"));
  EXPECT_TRUE(json::parse(Read(dir_ / "real" / "pose.json")).contains("bones"));
  EXPECT_EQ(Entries(dir_ / "real"), std::set<std::string>{"pose.json"});
}

TEST_F(HostileInput, AWriteOverTheFileSizeLimitFailsCleanly) {
  // SIGXFSZ would kill the program mid-write; ikpose ignores it and reports EFBIG.
  Write(dir_ / "pose.json", "old");
  ProgramResult r = RunCapped({"pose", "--out", (dir_ / "pose.json").string()}, {"--fsize=1000"});
  ExpectOneEscapedErrorLine(r, 1);
  EXPECT_NE(r.err.find("File too large"), std::string::npos) << r.err;
  EXPECT_EQ(Read(dir_ / "pose.json"), "old");
  r = RunCapped({"export", "--clip", "walk", "--out", (dir_ / "walk.glb").string()},
                {"--fsize=1000"});
  ExpectOneEscapedErrorLine(r, 1);
  EXPECT_EQ(Entries(dir_), std::set<std::string>{"pose.json"});
}

TEST_F(HostileInput, UnusableCommandLinesExitTwoOnEveryCommand) {
  const std::string png = (dir_ / "x.png").string();
  const std::string glb = (dir_ / "x.glb").string();
  const std::vector<std::vector<std::string>> runs = {
      {"pose", "--target", "left_leg=1,2"},
      {"export", "--out", glb, "--target", "left_leg=1,2"},
      {"render", "--out", png, "--target", "left_leg=1,2"},
      {"pose", "--clip", "walk", "--time", "nan"},
      {"export", "--out", glb, "--clip", "walk", "--time", "inf"},
      {"render", "--out", png, "--clip", "walk", "--time", "nan"},
      {"pose", "--time", "1"},
      {"pose", "--target", "left_leg=1,2,3", "--target", "left_leg=1,2,3"},
      {"render", "--out", png, "--size", "4294967360x64"},
      {"render", "--out", png, "--size", "64x-64"},
      {"view", "--size", "4294967360x64"},
  };
  for (const auto& args : runs) {
    std::string line;
    for (const auto& a : args) line += a + " ";
    SCOPED_TRACE(line);
    ExpectOneEscapedErrorLine(RunCapped(args), 2);
  }
  EXPECT_TRUE(Entries(dir_).empty());
}

}  // namespace
}  // namespace ikpose::test
