// `ikpose trace --listen`: a real TCP connection on loopback, the game's end played by
// include/ikpose_link.h and by examples/link_sender. The contract: the same lines sent in any
// pieces give the same report as the same lines in a file; a bad line, a connection dropped in
// the middle of a line and binary noise give one error line and exit 1 within 10 s; a second
// game is refused with a line saying so; nothing waits forever.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "ikpose_link.h"
#include "live_program.h"
#include "run_program.h"

namespace ikpose::test {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const fs::path kSweep = fs::path(IKPOSE_SOURCE_DIR) / "assets" / "traces" / "left_leg_sweep.jsonl";
constexpr double kContractSeconds = 10.0;

std::string ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

int CountLines(const std::string& text) {
  int n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

// `trace --listen 127.0.0.1:0 ARGS...` started, and the port it bound.
struct Listening {
  explicit Listening(const std::vector<std::string>& args) : program(Args(args)) {
    port = program.WaitForPort(kContractSeconds);
  }
  static std::vector<std::string> Args(const std::vector<std::string>& args) {
    std::vector<std::string> all = {"trace", "--listen", "127.0.0.1:0"};
    all.insert(all.end(), args.begin(), args.end());
    return all;
  }
  LiveProgram program;
  int port = 0;
};

ikpose_link Connect(int port) {
  ikpose_link link;
  EXPECT_EQ(ikpose_link_connect(&link, "127.0.0.1", static_cast<unsigned short>(port)), 0)
      << link.error;
  return link;
}

// `text` sent in pieces of 1 to 200 bytes, cut wherever the seeded generator says.
void SendInPieces(ikpose_link* link, const std::string& text, unsigned seed) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<std::size_t> size(1, 200);
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t n = std::min(size(random), text.size() - at);
    ASSERT_EQ(ikpose_link_send_raw(link, text.data() + at, n), 0) << link->error;
    at += n;
    if (random() % 4 == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

// The contract's failure: exactly one error line, exit 1, nothing on stdout, in time.
void ExpectOneErrorLine(LiveProgram& program, const std::string& says) {
  const ProgramResult r = program.Wait(kContractSeconds);
  EXPECT_LT(program.Elapsed(), kContractSeconds);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.out, "");
  // The notice of the port chosen, then the error: the only two lines.
  EXPECT_EQ(CountLines(r.err), 2) << r.err;
  const std::size_t error_at = r.err.find("ikpose: error: ");
  ASSERT_NE(error_at, std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("ikpose: error: ", error_at + 1), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(says, error_at), std::string::npos) << r.err;
}

TEST(LinkCli, PathSentInArbitraryPiecesReportsWhatTheFileReports) {
  const std::string dir = MakeTempDir();
  const ProgramResult from_file = RunIkpose({"trace", "--targets", kSweep.string(), "--policy",
                                             "seed", "--json", "--out", dir + "/file.jsonl"});
  ASSERT_EQ(from_file.exit_code, 0) << from_file.err;
  ASSERT_EQ(json::parse(from_file.out)["pops"].size(), 1u);  // the sweep's pop is there to see

  for (unsigned seed : {1u, 2u}) {
    Listening live({"--policy", "seed", "--json", "--out", dir + "/link.jsonl"});
    ASSERT_NE(live.port, 0);
    ikpose_link link = Connect(live.port);
    SendInPieces(&link, ReadText(kSweep), seed);
    ASSERT_EQ(ikpose_link_close(&link), 0);
    const ProgramResult r = live.program.Wait(kContractSeconds);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(json::parse(r.out), json::parse(from_file.out)) << "seed " << seed;
    EXPECT_EQ(ReadText(dir + "/link.jsonl"), ReadText(dir + "/file.jsonl"));
  }
  fs::remove_all(dir);
}

TEST(LinkCli, FailOnPopExitsOneAfterTheReportAsForAFile) {
  Listening live({"--policy", "seed", "--fail-on-pop"});
  ASSERT_NE(live.port, 0);
  ikpose_link link = Connect(live.port);
  const std::string text = ReadText(kSweep);
  ASSERT_EQ(ikpose_link_send_raw(&link, text.data(), text.size()), 0);
  ikpose_link_close(&link);
  const ProgramResult r = live.program.Wait(kContractSeconds);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("1 pop\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.err.find("error"), std::string::npos) << r.err;
}

TEST(LinkCli, ANamedPortPrintsNothingButTheReport) {
  const int port = FreePort();
  ASSERT_NE(port, 0);
  LiveProgram program(
      {"trace", "--listen", "127.0.0.1:" + std::to_string(port), "--policy", "seed", "--json"});
  // No notice for a named port: the game connects when the port is up.
  ikpose_link link;
  bool connected = false;
  while (!connected && program.Elapsed() < kContractSeconds) {
    connected = ikpose_link_connect(&link, "127.0.0.1", static_cast<unsigned short>(port)) == 0;
    if (!connected) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_TRUE(connected);
  const std::string text = ReadText(kSweep);
  ASSERT_EQ(ikpose_link_send_raw(&link, text.data(), text.size()), 0);
  ikpose_link_close(&link);
  const ProgramResult r = program.Wait(kContractSeconds);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(json::parse(r.out)["frames"], 61);
}

TEST(LinkCli, FramesSentWithTheHeaderArriveAsTheFloatsSent) {
  const std::string dir = MakeTempDir();
  Listening live({"--policy", "natural", "--out", dir + "/link.jsonl"});
  ASSERT_NE(live.port, 0);
  ikpose_link link = Connect(live.port);
  std::vector<ikpose_link_frame> sent;
  for (int i = 0; i < 5; ++i) {
    ikpose_link_frame frame{};
    frame.time = i / 60.0;
    ikpose_link_set_target(&frame, IKPOSE_LINK_LEFT_ARM, 0.3f + 0.01f * i, 1.1f, 0.2f / 3.f);
    ikpose_link_set_pole(&frame, IKPOSE_LINK_LEFT_ARM, 0.3f, 1.1f, -1.f / 7.f);
    if (i < 2) ikpose_link_set_target(&frame, IKPOSE_LINK_RIGHT_LEG, -0.1f, 0.1f * i, 0.05f);
    ASSERT_EQ(ikpose_link_send_frame(&link, &frame), 0) << link.error;
    sent.push_back(frame);
  }
  ASSERT_EQ(ikpose_link_close(&link), 0);
  const ProgramResult r = live.program.Wait(kContractSeconds);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(ReadText(dir + "/link.jsonl"));
  std::string line;
  std::getline(lines, line);  // the header
  for (const ikpose_link_frame& frame : sent) {
    ASSERT_TRUE(std::getline(lines, line));
    const json j = json::parse(line);
    const json& arm = j["limbs"]["left_arm"]["input"];
    for (int k = 0; k < 3; ++k) {
      EXPECT_EQ(arm["target"][k].get<float>(), frame.limbs[IKPOSE_LINK_LEFT_ARM].target[k]);
      EXPECT_EQ(arm["pole"][k].get<float>(), frame.limbs[IKPOSE_LINK_LEFT_ARM].pole[k]);
    }
    // The right leg's last target holds on the frames that leave it out.
    const json& leg = j["limbs"]["right_leg"]["input"]["target"];
    EXPECT_EQ(leg[1].get<float>(), frame.time == 0.0 ? 0.f : 0.1f);
  }
  fs::remove_all(dir);
}

// The ladder_climb scene's ladder follows its clip: hands and feet snap to its rungs, so where
// the game says the ladder stands shows in every limb's target.
const fs::path kLadderClimb =
    fs::path(IKPOSE_SOURCE_DIR) / "assets" / "scenes" / "ladder_climb.json";
const fs::path kBox = fs::path(IKPOSE_SOURCE_DIR) / "assets" / "props" / "box.glb";

TEST(LinkCli, TheGamesClipTimeLadderAndPropsArriveAndTraceAsTheSameLinesFromAFile) {
  const std::string dir = MakeTempDir();
  const std::vector<std::string> situation = {
      "--scene", kLadderClimb.string(), "--prop", kBox.string() + "@1,0,1", "--fps", "60",
      "--json"};
  std::vector<std::string> args = situation;
  args.insert(args.end(), {"--out", dir + "/link.jsonl"});
  Listening live(args);
  ASSERT_NE(live.port, 0);
  ikpose_link link = Connect(live.port);
  std::string lines;  // what the header sends, kept for the file
  for (int i = 0; i < 5; ++i) {
    ikpose_link_frame frame{};
    frame.time = i / 60.0;
    if (i == 0) ikpose_link_set_clip_time(&frame, 0.5);
    if (i == 3) ikpose_link_set_clip_time(&frame, 0.1);
    if (i == 1) {
      ikpose_link_set_ladder(&frame, 0.f, 0.f, 0.37f);
      ikpose_link_set_ladder_size(&frame, 0.32f, 0.27f, 0.022f, 0.48f, 11);
    }
    if (i == 2) ikpose_link_move_prop(&frame, 0, 1.5f, 0.f, 1.f, 30.f);
    ASSERT_EQ(ikpose_link_send_frame(&link, &frame), 0) << link.error;
  }
  ASSERT_EQ(ikpose_link_close(&link), 0);
  const ProgramResult r = live.program.Wait(kContractSeconds);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream out(ReadText(dir + "/link.jsonl"));
  std::string line;
  std::getline(out, line);  // the header
  const double clip_times[] = {0.5, 0.5 + 1 / 60.0, 0.5 + 2 / 60.0, 0.1, 0.1 + 1 / 60.0};
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(std::getline(out, line));
    const json j = json::parse(line);
    EXPECT_NEAR(j["clip_time"].get<double>(), clip_times[i], 1e-5) << i;
    // From frame 1 the rungs are where the game's ladder stands: every limb on one has its
    // target on the rung's axis or top, at the ladder's depth.
    ASSERT_GE(j["limbs"].size(), 2u) << line.substr(0, 300);
    for (const auto& [limb, sample] : j["limbs"].items()) {
      EXPECT_NEAR(sample["target"][2].get<double>(), i == 0 ? 0.35 : 0.37, 1e-5) << i << limb;
    }
    // The game's ladder whole where it came (its sizes as sent), the moved prop where it moved.
    EXPECT_EQ(j.contains("ladder"), i == 1) << line.substr(0, 300);
    EXPECT_EQ(j.contains("props"), i == 2) << line.substr(0, 300);
    if (i == 1) {
      EXPECT_NEAR(j["ladder"]["rung_spacing"].get<double>(), 0.32, 1e-6);
      EXPECT_NEAR(j["ladder"]["first_rung_height"].get<double>(), 0.27, 1e-6);
      EXPECT_NEAR(j["ladder"]["rung_radius"].get<double>(), 0.022, 1e-6);
      EXPECT_NEAR(j["ladder"]["rail_width"].get<double>(), 0.48, 1e-6);
      EXPECT_EQ(j["ladder"]["rung_count"], 11);
    }
  }

  // The same lines from a file: the same report.
  std::string text;
  for (int i = 0; i < 5; ++i) {
    // What the header wrote, rebuilt by hand in the file's format.
    std::ostringstream l;
    l.precision(17);
    l << "{\"time\": " << i / 60.0 << ", \"limbs\": {}";
    if (i == 0) l << ", \"clip_time\": 0.5";
    if (i == 3) l << ", \"clip_time\": 0.1";
    if (i == 1) {
      l << ", \"ladder\": {\"base\": [0, 0, 0.37], \"rung_spacing\": 0.32, "
           "\"first_rung_height\": 0.27, \"rung_radius\": 0.022, \"rail_width\": 0.48, "
           "\"rung_count\": 11}";
    }
    if (i == 2) l << ", \"props\": [{\"index\": 0, \"position\": [1.5, 0, 1], \"yaw_deg\": 30}]";
    text += l.str() + "}\n";
  }
  {
    std::ofstream f(dir + "/targets.jsonl");
    f << text;
  }
  std::vector<std::string> file_args = {"trace", "--targets", dir + "/targets.jsonl"};
  file_args.insert(file_args.end(), situation.begin(), situation.end());
  const ProgramResult from_file = RunIkpose(file_args);
  ASSERT_EQ(from_file.exit_code, 0) << from_file.err;
  EXPECT_EQ(json::parse(r.out), json::parse(from_file.out));
  fs::remove_all(dir);
}

TEST(LinkCli, ABadLadderOrAPropTheSituationLacksIsOneError) {
  {
    Listening live({"--json"});
    ASSERT_NE(live.port, 0);
    ikpose_link link = Connect(live.port);
    const std::string text =
        "{\"time\": 0, \"limbs\": {}}\n"
        "{\"time\": 1, \"limbs\": {}, \"ladder\": {\"base\": [0, 0, 0], \"rung_count\": 0}}\n";
    ASSERT_EQ(ikpose_link_send_raw(&link, text.data(), text.size()), 0);
    ExpectOneErrorLine(live.program, "link:2: ladder.rung_count: ");
    ikpose_link_close(&link);
  }
  {
    Listening live({"--json", "--prop", kBox.string() + "@1,0,1"});
    ASSERT_NE(live.port, 0);
    ikpose_link link = Connect(live.port);
    ikpose_link_frame frame{};
    ikpose_link_move_prop(&frame, 1, 0.f, 0.f, 0.f, 0.f);
    ASSERT_EQ(ikpose_link_send_frame(&link, &frame), 0) << link.error;
    ASSERT_EQ(ikpose_link_close(&link), 0);
    ExpectOneErrorLine(live.program, "props: no prop 1 (the situation has 1)");
  }
  {
    Listening live({"--json"});  // no clip: a clip time cannot be followed
    ASSERT_NE(live.port, 0);
    ikpose_link link = Connect(live.port);
    ikpose_link_frame frame{};
    ikpose_link_set_clip_time(&frame, 0.5);
    ASSERT_EQ(ikpose_link_send_frame(&link, &frame), 0) << link.error;
    ASSERT_EQ(ikpose_link_close(&link), 0);
    ExpectOneErrorLine(live.program, "clip_time but the trace has no clip");
  }
}

TEST(LinkCli, GarbageLineAfterGoodOnesIsOneErrorNamingItsLineWhileTheGameStaysConnected) {
  Listening live({"--policy", "seed", "--json"});
  ASSERT_NE(live.port, 0);
  ikpose_link link = Connect(live.port);
  const std::string text = ReadText(kSweep).substr(0, 2000);
  const std::string good = text.substr(0, text.rfind('\n') + 1);  // whole lines only
  const std::string garbage = "{\"time\": 9, \"limbs\": nonsense}\n";
  ASSERT_EQ(ikpose_link_send_raw(&link, good.data(), good.size()), 0);
  ASSERT_EQ(ikpose_link_send_raw(&link, garbage.data(), garbage.size()), 0);
  // The game does not close: the error comes when the line does.
  ExpectOneErrorLine(live.program, "link:" + std::to_string(CountLines(good) + 1) + ": ");
  ikpose_link_close(&link);
}

TEST(LinkCli, ConnectionDroppedInTheMiddleOfALineIsOneError) {
  Listening live({"--policy", "seed", "--json"});
  ASSERT_NE(live.port, 0);
  ikpose_link link = Connect(live.port);
  const std::string text = ReadText(kSweep);
  const std::size_t cut = text.find('\n', 1000) + 40;  // 40 bytes into a line
  ASSERT_EQ(ikpose_link_send_raw(&link, text.data(), cut), 0);
  ikpose_link_close(&link);
  ExpectOneErrorLine(live.program, "closed in the middle of this line");
}

TEST(LinkCli, BinaryNoiseIsOneErrorAtOnce) {
  Listening live({"--policy", "seed", "--json"});
  ASSERT_NE(live.port, 0);
  ikpose_link link = Connect(live.port);
  std::mt19937 random(7);
  // No newline in it, less than a line's limit, and the game stays connected: found by its
  // bytes, not by a line that never ends.
  std::string noise(4096, '\0');
  for (char& c : noise) {
    do {
      c = static_cast<char>(random() & 0xff);
    } while (c == '\n');
  }
  ASSERT_EQ(ikpose_link_send_raw(&link, noise.data(), noise.size()), 0);
  ExpectOneErrorLine(live.program, "link:1: binary data");
  ikpose_link_close(&link);
}

TEST(LinkCli, ALineOverTheLimitIsOneErrorNamingTheLine) {
  Listening live({"--policy", "seed", "--json"});
  ASSERT_NE(live.port, 0);
  ikpose_link link = Connect(live.port);
  const std::string text = ReadText(kSweep);
  const std::string three = text.substr(0, text.find('\n', text.find('\n', 0) + 1) + 1);
  ASSERT_EQ(CountLines(three), 2);
  const std::string huge = "{\"time\": 5, \"limbs\": {}, \"pad\": \"" + std::string(80000, 'x');
  ASSERT_EQ(ikpose_link_send_raw(&link, three.data(), three.size()), 0);
  // The kernel may take only part of it before ikpose stops reading: the send may fail.
  ikpose_link_send_raw(&link, huge.data(), huge.size());
  ExpectOneErrorLine(live.program, "link:3: line longer than 65536 bytes");
  ikpose_link_close(&link);
}

TEST(LinkCli, ASecondGameIsRefusedWithALineAndTheFirstCarriesOn) {
  const ProgramResult from_file =
      RunIkpose({"trace", "--targets", kSweep.string(), "--policy", "seed", "--json"});
  ASSERT_EQ(from_file.exit_code, 0) << from_file.err;
  Listening live({"--policy", "seed", "--json"});
  ASSERT_NE(live.port, 0);
  ikpose_link first = Connect(live.port);
  const std::string text = ReadText(kSweep);
  const std::size_t half = text.size() / 2;
  ASSERT_EQ(ikpose_link_send_raw(&first, text.data(), half), 0);

  ikpose_link second = Connect(live.port);
  std::string refusal;
  char buffer[256];
  for (ssize_t n; (n = recv(second.fd, buffer, sizeof buffer, 0)) > 0;) refusal.append(buffer, n);
  EXPECT_EQ(refusal, "ikpose: busy: another game is connected; one connection at a time\n");
  // The header reports it too: the game learns why its frames go nowhere.
  ikpose_link_frame frame{};
  frame.time = 0.0;
  EXPECT_EQ(ikpose_link_send_frame(&second, &frame), -1);
  ikpose_link_close(&second);

  ASSERT_EQ(ikpose_link_send_raw(&first, text.data() + half, text.size() - half), 0);
  ikpose_link_close(&first);
  const ProgramResult r = live.program.Wait(kContractSeconds);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out), json::parse(from_file.out));
}

TEST(LinkCli, TheExampleSenderReplaysThePathInTimeAndGivesTheFilesReport) {
  const ProgramResult from_file =
      RunIkpose({"trace", "--targets", kSweep.string(), "--policy", "seed", "--json"});
  ASSERT_EQ(from_file.exit_code, 0) << from_file.err;
  Listening live({"--policy", "seed", "--json"});
  ASSERT_NE(live.port, 0);
  // One second of path at four times its speed: a quarter of a second.
  LiveProgram sender({"--port", std::to_string(live.port), "--speed", "4", kSweep.string()},
                     LINK_SENDER_EXE);
  const ProgramResult sent = sender.Wait(kContractSeconds);
  EXPECT_EQ(sent.exit_code, 0) << sent.err;
  EXPECT_EQ(sent.out.rfind("sent 61 frames in ", 0), 0u) << sent.out;
  EXPECT_GT(sender.Elapsed(), 0.2);  // paced, not all at once
  const ProgramResult r = live.program.Wait(kContractSeconds);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out), json::parse(from_file.out));
}

TEST(LinkCli, NoGameWithinTheIdleTimeoutIsOneErrorNotAHang) {
  Listening live({"--idle-timeout", "0.5"});
  ASSERT_NE(live.port, 0);
  ExpectOneErrorLine(live.program, "within 0.5 s (--idle-timeout)");
}

TEST(LinkCli, AGameThatFallsSilentMeetsTheIdleTimeout) {
  Listening live({"--idle-timeout", "0.5"});
  ASSERT_NE(live.port, 0);
  ikpose_link link = Connect(live.port);
  const std::string text = ReadText(kSweep).substr(0, 500);
  ASSERT_EQ(ikpose_link_send_raw(&link, text.data(), text.size()), 0);
  ExpectOneErrorLine(live.program, "sent nothing for 0.5 s (--idle-timeout)");
  ikpose_link_close(&link);
}

TEST(LinkCli, UsageErrorsExitTwoBeforeListening) {
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"--listen", "7777", "--targets", kSweep.string()},
                                             {"--listen", "99999"},
                                             {"--listen", "example.invalid:7777"},
                                             {"--listen", "::1:7777"},
                                             {"--idle-timeout", "5"},
                                             {"--listen", "0", "--idle-timeout", "0"}}) {
    std::vector<std::string> all = {"trace"};
    all.insert(all.end(), args.begin(), args.end());
    const ProgramResult r = RunIkpose(all);
    EXPECT_EQ(r.exit_code, 2) << args[1];
    EXPECT_EQ(r.err.rfind("ikpose: error: ", 0), 0u) << r.err;
    EXPECT_EQ(CountLines(r.err), 1) << r.err;
  }
}

}  // namespace
}  // namespace ikpose::test
