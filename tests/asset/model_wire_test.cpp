// The importer's child process and its answer: a model loaded through the child is the model
// loaded in this process, byte for byte of the wire form; cut or altered answers are one line
// saying so; a child that crashes, runs out of memory or out of time is one line naming the file.
#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <thread>

#include "asset/import_child.h"
#include "asset/import_request.h"
#include "asset/import_sandbox.h"
#include "asset/import_scene.h"
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

// The bundled character (skins, clips, materials, embedded textures, a glTF read from the
// bytes ikpose sent), a small skinned and animated shared model from another exporter, and an
// FBX (assimp reads the file itself) where Debian's test models are installed.
std::vector<fs::path> Models() {
  std::vector<fs::path> models{test::DefaultCharacter()};
  const fs::path shared = test::SharedModelsDir();
  if (!shared.empty() && fs::exists(shared / "RiggedSimple" / "RiggedSimple.glb")) {
    models.push_back(shared / "RiggedSimple" / "RiggedSimple.glb");
  }
  const fs::path testmodels = test::AssimpTestModelsDir();
  if (!testmodels.empty() && fs::exists(testmodels / "FBX" / "animation_with_skeleton.fbx")) {
    models.push_back(testmodels / "FBX" / "animation_with_skeleton.fbx");
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

// Sets IKPOSE_IMPORTER_TEST for one scope.
class ImporterHook {
 public:
  explicit ImporterHook(const std::string& value) {
    setenv("IKPOSE_IMPORTER_TEST", value.c_str(), 1);
  }
  ~ImporterHook() { unsetenv("IKPOSE_IMPORTER_TEST"); }
  ImporterHook(const ImporterHook&) = delete;
  ImporterHook& operator=(const ImporterHook&) = delete;
};

TEST(ImportChild, CrashIsOneLineNamingTheFile) {
  const fs::path path = test::DefaultCharacter();
  const ImporterHook hook("crash");
  EXPECT_EQ(Error(path, {}), "the importer crashed reading " + path.string() + " (signal 11, " +
                                 std::string(strsignal(SIGSEGV)) + ")");
}

// The importer is a program of its own, not a fork of this process: a fork copies a lock
// another thread holds (here the one around assimp, held by imports in this process) and the
// copy never opens.
TEST(ImportChild, LoadsWhileAnotherThreadImports) {
  const fs::path path = test::DefaultCharacter();
  std::atomic<bool> stop{false};
  std::thread other([&] {
    while (!stop) LoadModelInProcess(path);
  });
  ImportLimits limits;
  limits.wall_seconds = 5;
  std::vector<std::string> errors;
  for (int i = 0; i < 3; ++i) errors.push_back(Error(path, limits));
  stop = true;
  other.join();
  EXPECT_EQ(errors, std::vector<std::string>(3));
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

TEST(ImportChild, OutOfMemoryNamesTheLimitInForce) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "no address-space limit under the address sanitizer";
#endif
  // The allowance is on top of what the importer has at its start; the character's import
  // needs more than a few MB.
  const fs::path path = test::DefaultCharacter();
  ImportLimits limits;
  limits.memory_bytes = std::uint64_t{4} << 20;
  EXPECT_EQ(Error(path, limits), "the importer ran out of its 4 MB reading " + path.string());
  {
    const ImporterHook hook("memory-mb=3");  // lowers the default 2 GB
    EXPECT_EQ(Error(path, {}), "the importer ran out of its 3 MB reading " + path.string());
  }
  // The real limit leaves the character's import alone.
  EXPECT_EQ(Error(path, ImportLimits{}), "");
}

// Inside its sandbox the importer can create no file: not in /tmp, not in the model's own
// folder (which it may read).
TEST(ImportChild, SandboxKeepsTheImporterFromCreatingFiles) {
  if (LandlockAbi() == 0) GTEST_SKIP() << "the kernel has no Landlock: rlimits only";
  const fs::path dir = fs::temp_directory_path() / ("ikpose_sandbox_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path model = dir / "character.glb";
  fs::copy_file(test::DefaultCharacter(), model);
  const fs::path beside = dir / "written-by-the-importer";
  const fs::path in_tmp =
      fs::temp_directory_path() / ("ikpose_written_" + std::to_string(getpid()));
  for (const fs::path& target : {beside, in_tmp}) {
    const ImporterHook hook("create-file=" + target.string());
    EXPECT_EQ(Error(model, {}), "");  // the import itself still reads what it needs
    EXPECT_FALSE(fs::exists(target)) << target;
    fs::remove(target);
  }
  fs::remove_all(dir);
}

TEST(ImportRequest, RoundTripAndCutsAreRefused) {
  PreparedImport prepared;
  prepared.path = "models/a b.glb";
  prepared.read_as = "/x/a b.in-memory.glb";
  prepared.gltf_version = 2;
  prepared.options.allow_outside_uris = true;
  prepared.bytes = {1, 2, 3, 250};
  const std::string bytes = EncodeImportRequest(prepared);
  PreparedImport back;
  std::string problem;
  ASSERT_TRUE(DecodeImportRequest(bytes, &back, &problem)) << problem;
  EXPECT_EQ(back.path, prepared.path);
  EXPECT_EQ(back.read_as, prepared.read_as);
  EXPECT_EQ(back.gltf_version, 2);
  EXPECT_TRUE(back.options.allow_outside_uris);
  EXPECT_EQ(back.bytes, prepared.bytes);
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_FALSE(DecodeImportRequest(bytes.substr(0, n), &back, &problem)) << n;
  }
  EXPECT_FALSE(DecodeImportRequest(bytes + "x", &back, &problem));
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
