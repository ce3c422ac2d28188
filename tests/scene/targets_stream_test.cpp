// Targets arriving in pieces (scene/files/targets_stream.h): however the bytes are cut, the keys
// are those of the same text read as a file; a bad line stops the stream when it arrives, naming
// it; a half line at the close, binary bytes and an endless line are errors, not waits.
#include "scene/files/targets_stream.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace ikpose::scene {
namespace {

const std::filesystem::path kSweep =
    std::filesystem::path(IKPOSE_SOURCE_DIR) / "assets" / "traces" / "left_leg_sweep.jsonl";

std::string Sweep() {
  std::ifstream in(kSweep, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<TargetKey> FromFile(const std::string& text) {
  std::vector<TargetKey> keys;
  std::string error;
  EXPECT_TRUE(ParseTargets(text, "file", &keys, &error)) << error;
  return keys;
}

TEST(TargetsStream, EveryCutGivesTheKeysOfTheFile) {
  const std::string text = Sweep();
  const std::vector<TargetKey> expected = FromFile(text);
  ASSERT_EQ(expected.size(), 61u);
  for (std::size_t cut = 0; cut <= text.size(); cut += 7) {
    TargetsStream stream("link");
    std::string error;
    ASSERT_TRUE(stream.Feed(std::string_view(text).substr(0, cut), &error)) << error;
    ASSERT_TRUE(stream.Feed(std::string_view(text).substr(cut), &error)) << error;
    ASSERT_TRUE(stream.Finish(&error)) << error;
    ASSERT_EQ(stream.keys(), expected) << "cut at " << cut;
  }
  TargetsStream bytewise("link");
  std::string error;
  for (char c : text) ASSERT_TRUE(bytewise.Feed(std::string_view(&c, 1), &error)) << error;
  ASSERT_TRUE(bytewise.Finish(&error)) << error;
  EXPECT_EQ(bytewise.keys(), expected);
  EXPECT_EQ(bytewise.lines(), 61);
  EXPECT_EQ(bytewise.bytes(), text.size());
}

TEST(TargetsStream, KeysAreThereAsSoonAsTheirLineEnds) {
  TargetsStream stream("link");
  std::string error;
  ASSERT_TRUE(
      stream.Feed("{\"time\": 0, \"limbs\": {\"left_leg\": {\"target\": [1, 2, 3]}}}", &error));
  EXPECT_TRUE(stream.keys().empty());
  ASSERT_TRUE(stream.Feed("\r\n{\"time\": 0.5, \"limbs\": {}}\n\n", &error)) << error;
  ASSERT_EQ(stream.keys().size(), 2u);
  EXPECT_EQ(stream.keys()[0].limbs[2].target_ms, glm::vec3(1, 2, 3));
  EXPECT_EQ(stream.lines(), 3);
}

TEST(TargetsStream, ABadLineIsAnErrorWhenItArrivesNamingIt) {
  const std::string text = Sweep();
  const std::size_t four = [&] {
    std::size_t at = 0;
    for (int i = 0; i < 4; ++i) at = text.find('\n', at) + 1;
    return at;
  }();
  TargetsStream stream("link");
  std::string error;
  ASSERT_TRUE(stream.Feed(text.substr(0, four), &error));
  EXPECT_FALSE(stream.Feed("{\"time\": 1, \"limbs\": [}\n", &error));
  EXPECT_EQ(error, "link:5: not valid JSON");
  // Later bytes change nothing: the first problem stays the answer.
  std::string again;
  EXPECT_FALSE(stream.Feed(text.substr(four), &again));
  EXPECT_EQ(again, error);
  EXPECT_FALSE(stream.Finish(&again));
  EXPECT_EQ(again, error);

  TargetsStream backwards("link");
  ASSERT_TRUE(backwards.Feed("{\"time\": 1, \"limbs\": {}}\n", &error));
  EXPECT_FALSE(backwards.Feed("{\"time\": 1, \"limbs\": {}}\n", &error));
  EXPECT_EQ(error, "link:2: time: not after the previous line's");
}

TEST(TargetsStream, AHalfLineAtTheCloseIsAnErrorAWholeOneIsTheLastLine) {
  const std::string line = "{\"time\": 0, \"limbs\": {\"left_leg\": {\"target\": [1, 2, 3]}}}";
  for (std::size_t cut = 1; cut < line.size(); ++cut) {
    TargetsStream stream("link");
    std::string error;
    ASSERT_TRUE(stream.Feed(line + "\n" + line.substr(0, cut), &error)) << error;
    EXPECT_FALSE(stream.Finish(&error)) << line.substr(0, cut);
    EXPECT_EQ(error, "link:2: the connection closed in the middle of this line");
  }
  TargetsStream whole("link");
  std::string error;
  ASSERT_TRUE(whole.Feed(line, &error));
  EXPECT_TRUE(whole.Finish(&error)) << error;
  EXPECT_EQ(whole.keys().size(), 1u);
}

TEST(TargetsStream, ATailTheFileRefusesIsRefused) {
  const std::string line = "{\"time\": 0, \"limbs\": {}}\n";
  for (const std::string tail : {"\r\r", " \r\r", "\x0b"}) {
    std::vector<TargetKey> keys;
    std::string file_error;
    ASSERT_FALSE(ParseTargets(line + tail, "file", &keys, &file_error));
    TargetsStream stream("link");
    std::string error;
    EXPECT_FALSE(stream.Feed(line + tail, &error) && stream.Finish(&error)) << tail.size();
  }
  TargetsStream blank("link");
  std::string error;
  ASSERT_TRUE(blank.Feed(line + " \t\r", &error));
  EXPECT_TRUE(blank.Finish(&error)) << error;
}

TEST(TargetsStream, NothingSentIsNoTargets) {
  TargetsStream stream("link");
  std::string error;
  ASSERT_TRUE(stream.Feed("\n  \n", &error));
  EXPECT_FALSE(stream.Finish(&error));
  EXPECT_EQ(error.rfind("link: no targets", 0), 0u) << error;
}

TEST(TargetsStream, BinaryBytesAreAnErrorAtOnce) {
  TargetsStream stream("link");
  std::string error;
  EXPECT_FALSE(stream.Feed(std::string("{\"time\"\0", 8), &error));
  EXPECT_EQ(error, "link:1: binary data (byte 0x00), not a line of JSON");
}

TEST(TargetsStream, ALineOverTheLimitIsAnErrorBeforeItsNewline) {
  TargetsStream stream("link");
  std::string error;
  ASSERT_TRUE(stream.Feed("{\"time\": 0, \"limbs\": {}}\n", &error));
  const std::string piece(4096, ' ');
  bool ok = true;
  std::size_t fed = 0;
  while (ok && fed < 2 * kMaxTraceLineBytes) {
    ok = stream.Feed(piece, &error);
    fed += piece.size();
  }
  EXPECT_FALSE(ok);
  EXPECT_LE(fed, kMaxTraceLineBytes + piece.size());  // stopped at the limit, not later
  EXPECT_EQ(error, "link:2: line longer than 65536 bytes");
}

}  // namespace
}  // namespace ikpose::scene
