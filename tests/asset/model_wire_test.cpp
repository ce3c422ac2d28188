// The importer's child process and its answer: a model loaded through the child is the model
// loaded in this process, byte for byte of the wire form; cut or altered answers are one line
// saying so; a child that crashes, runs out of memory or out of time is one line naming the file.
#include <gtest/gtest.h>

#include <unistd.h>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>

#include "asset/import_child.h"
#include "asset/load_model.h"
#include "asset/model_wire.h"
#include "model_checks.h"

namespace ikpose::asset {
namespace {

namespace fs = std::filesystem;

// "" when equal, else where two wire forms first differ (never the bytes themselves).
std::string FirstDifference(const std::string& a, const std::string& b) {
  if (a == b) return "";
  std::size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  return "differ at byte " + std::to_string(i) + " of " + std::to_string(a.size()) + " and " +
         std::to_string(b.size());
}

bool OneLine(const std::string& text) {
  return !text.empty() && text.find('\n') == std::string::npos;
}

// The character and every shared model (absent: only the character).
std::vector<fs::path> Models() {
  std::vector<fs::path> models{test::DefaultCharacter()};
  const fs::path shared = test::SharedModelsDir();
  if (shared.empty()) return models;
  for (const auto& folder : fs::directory_iterator(shared)) {
    if (!folder.is_directory()) continue;
    for (const auto& file : fs::directory_iterator(folder.path())) {
      const std::string ext = file.path().extension().string();
      if (ext == ".glb" || ext == ".gltf" || ext == ".fbx") models.push_back(file.path());
    }
  }
  return models;
}

TEST(ModelWire, ChildLoadEqualsInProcessLoad) {
  for (const fs::path& path : Models()) {
    SCOPED_TRACE(path.string());
    const anim::Model child = LoadModel(path);
    const anim::Model here = LoadModelInProcess(path);
    EXPECT_EQ(FirstDifference(EncodeModel(child), EncodeModel(here)), "");
    EXPECT_EQ(child.warnings, here.warnings);
    EXPECT_EQ(child.chains.forward_ms, here.chains.forward_ms);
    EXPECT_EQ(child.humanoid.pelvis, here.humanoid.pelvis);
    EXPECT_GT(child.meshes.size() + child.clips.size(), 0u);
  }
}

class WireAnswerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    model_ = new anim::Model(LoadModelInProcess(test::DefaultCharacter()));
    wire_ = new std::string(EncodeModel(*model_));
  }
  static void TearDownTestSuite() {
    delete model_;
    delete wire_;
  }
  static WireAnswer Decode(const std::string& bytes, std::string* text) {
    anim::Model model;
    return DecodeAnswer(bytes, &model, text);
  }
  static anim::Model* model_;
  static std::string* wire_;
};
anim::Model* WireAnswerTest::model_ = nullptr;
std::string* WireAnswerTest::wire_ = nullptr;

TEST_F(WireAnswerTest, RoundTripKeepsEverything) {
  anim::Model back;
  std::string text;
  ASSERT_EQ(DecodeAnswer(*wire_, &back, &text), WireAnswer::kModel) << text;
  EXPECT_EQ(FirstDifference(EncodeModel(back), *wire_), "");
  EXPECT_EQ(back.skeleton.names, model_->skeleton.names);
  EXPECT_EQ(back.meshes.size(), model_->meshes.size());
  EXPECT_EQ(back.clips.size(), model_->clips.size());
}

TEST_F(WireAnswerTest, EveryCutIsOneLine) {
  // Every cut in the header and a spread of cuts through the body.
  std::vector<std::size_t> cuts;
  for (std::size_t n = 0; n < 64; ++n) cuts.push_back(n);
  for (std::size_t n = 64; n < wire_->size(); n += wire_->size() / 997 + 1) cuts.push_back(n);
  cuts.push_back(wire_->size() - 1);
  for (std::size_t n : cuts) {
    std::string text;
    ASSERT_EQ(Decode(wire_->substr(0, n), &text), WireAnswer::kCorrupt) << n;
    EXPECT_TRUE(OneLine(text)) << n << ": " << text;
    if (n >= kModelWireHeaderBytes) {
      EXPECT_NE(text.find("truncated"), std::string::npos) << text;
    }
  }
}

TEST_F(WireAnswerTest, HugeCountIsRefusedBeforeAllocating) {
  // The first count after the header and the source string: the format string's length.
  std::string bytes = *wire_;
  const std::uint64_t huge = std::uint64_t{1} << 60;
  std::uint64_t source_length = 0;
  std::memcpy(&source_length, bytes.data() + kModelWireHeaderBytes, 8);
  std::memcpy(bytes.data() + kModelWireHeaderBytes + 8 + source_length, &huge, 8);
  std::string text;
  EXPECT_EQ(Decode(bytes, &text), WireAnswer::kCorrupt);
  EXPECT_NE(text.find("more than the"), std::string::npos) << text;
}

TEST_F(WireAnswerTest, IndexOutOfRangeIsRefused) {
  anim::Model bad = *model_;
  bad.meshes[0].indices[0] = static_cast<std::uint32_t>(bad.meshes[0].positions_bs.size());
  std::string text;
  EXPECT_EQ(Decode(EncodeModel(bad), &text), WireAnswer::kCorrupt);
  EXPECT_NE(text.find("index"), std::string::npos) << text;
  bad = *model_;
  bad.skins[0].joints[0] = bad.skeleton.size();
  EXPECT_EQ(Decode(EncodeModel(bad), &text), WireAnswer::kCorrupt);
  bad = *model_;
  bad.skeleton.parents[1] = 5;
  EXPECT_EQ(Decode(EncodeModel(bad), &text), WireAnswer::kCorrupt);
  bad = *model_;
  bad.meshes[0].joints.pop_back();
  EXPECT_EQ(Decode(EncodeModel(bad), &text), WireAnswer::kCorrupt);
  EXPECT_NE(text.find("vertex count"), std::string::npos) << text;
}

TEST_F(WireAnswerTest, FlippedBytesNeverCrash) {
  std::mt19937 random(25);
  for (int i = 0; i < 300; ++i) {
    std::string bytes = *wire_;
    const std::size_t at = random() % bytes.size();
    bytes[at] = static_cast<char>(random());
    std::string text;
    if (Decode(bytes, &text) == WireAnswer::kCorrupt) {
      EXPECT_TRUE(OneLine(text)) << text;
    }
  }
}

TEST(ModelWire, FailureReasonIsOneLine) {
  anim::Model model;
  std::string text;
  EXPECT_EQ(DecodeAnswer(EncodeFailure("bad\nthing\x1b[2J"), &model, &text), WireAnswer::kFailure);
  EXPECT_EQ(text, "bad thing [2J");
}

// ----- the child -----

std::string Error(const fs::path& path, const ImportLimits& limits) {
  try {
    LoadModelIsolated(path, {}, limits);
  } catch (const LoadError& e) {
    return e.what();
  }
  return "";
}

TEST(ImportChild, CrashIsOneLineNamingTheFile) {
  std::string answer;
  const ChildEnd end = RunInChild(
      []() -> std::string {
        std::raise(SIGSEGV);
        return "";
      },
      {}, &answer);
  EXPECT_EQ(end.kind, ChildEnd::kCrashed);
  EXPECT_EQ(DescribeEnd(end, {}, "x.fbx"), "the importer crashed reading x.fbx (signal 11, " +
                                               std::string(strsignal(SIGSEGV)) + ")");
}

TEST(ImportChild, KilledMidAnswerIsOneLine) {
  const fs::path path = test::DefaultCharacter();
  for (const char* kill_after : {"0", "5", "100", "300000"}) {
    setenv("IKPOSE_IMPORTER_TEST", (std::string("kill-after=") + kill_after).c_str(), 1);
    const std::string error = Error(path, {});
    EXPECT_EQ(error.rfind("the importer crashed reading " + path.string() + " (signal 9", 0), 0u)
        << kill_after << ": " << error;
    EXPECT_TRUE(OneLine(error));
  }
  unsetenv("IKPOSE_IMPORTER_TEST");
}

TEST(ImportChild, TooSlowIsOneLine) {
  setenv("IKPOSE_IMPORTER_TEST", "hang", 1);
  ImportLimits limits;
  limits.wall_seconds = 0.2;
  const std::string error = Error(test::DefaultCharacter(), limits);
  unsetenv("IKPOSE_IMPORTER_TEST");
  EXPECT_EQ(error,
            "the importer took longer than 0.2 s reading " + test::DefaultCharacter().string());
}

TEST(ImportChild, OutOfMemoryIsOneLine) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "no address-space limit under the address sanitizer";
#endif
  // The allowance is on top of the address space the parent has (its free heap included), so a
  // work that asks for much more than the allowance meets it.
  ImportLimits limits;
  limits.memory_bytes = std::uint64_t{16} << 20;
  std::string answer;
  const ChildEnd end = RunInChild(
      [] {
        std::string big(std::size_t{1} << 30, 'x');
        return big.substr(0, 1);
      },
      limits, &answer);
  EXPECT_EQ(end.kind, ChildEnd::kOutOfMemory) << end.detail;
  EXPECT_EQ(DescribeEnd(end, limits, "huge.ply"),
            "the importer ran out of its 16 MB reading huge.ply");
  // The real limit leaves the character's import alone.
  EXPECT_EQ(Error(test::DefaultCharacter(), ImportLimits{}), "");
}

TEST(ImportChild, ImporterFailureKeepsItsReason) {
  const fs::path dir = fs::temp_directory_path() / ("ikpose_wire_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path file = dir / "noise.obj";
  std::ofstream(file) << "this is not a model\n";
  const std::string error = Error(file, {});
  fs::remove_all(dir);
  EXPECT_EQ(error.rfind(file.string() + ": ", 0), 0u) << error;
  EXPECT_TRUE(OneLine(error)) << error;
}

}  // namespace
}  // namespace ikpose::asset
