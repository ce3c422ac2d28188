// Hostile model files through the real program: `ikpose inspect` under a 2 GiB address-space
// cap answers each with its exit status and exactly one stderr line (or loads what glTF allows).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "asset/gltf_document.h"
#include "asset/import_sandbox.h"
#include "run_program.h"

namespace ikpose::test {
namespace {

namespace fs = std::filesystem;

class HostileModelCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = MakeTempDir();
    doc_ = asset::GltfDocument::Read(fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb");
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Write(const std::string& name, const std::vector<std::uint8_t>& bytes) {
    const fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
    return path.string();
  }

  // One stderr line "ikpose: error: <path>: ...<what>...", exit 1, nothing on stdout.
  void ExpectRefused(const std::string& path, const std::string& what) {
    const ProgramResult r = RunIkpose({"inspect", path}, "", {}, MemoryCapPrefix());
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("ikpose: error: " + path + ": ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }

  fs::path dir_;
  asset::GltfDocument doc_;
};

TEST_F(HostileModelCli, HugeChunkLengthIsOneLine) {
  std::vector<std::uint8_t> bytes = doc_.PackedBytes();
  const std::uint32_t huge = 0xFFFFFFF0u;
  std::memcpy(&bytes[12], &huge, 4);
  ExpectRefused(Write("huge.glb", bytes), "GLB chunk 0: length 4294967280");
}

TEST_F(HostileModelCli, TruncatedFileIsOneLine) {
  std::vector<std::uint8_t> bytes = doc_.PackedBytes();
  bytes.resize(bytes.size() / 3);
  ExpectRefused(Write("cut.glb", bytes), "GLB header: length");
}

TEST_F(HostileModelCli, DeepNodeChainIsOneLine) {
  asset::GltfJson& nodes = doc_.json["nodes"];
  const std::size_t first = nodes.size();
  for (std::size_t i = 0; i < 20000; ++i) {
    nodes.push_back({{"children", asset::GltfJson::array({first + i + 1})}});
  }
  nodes.push_back(asset::GltfJson::object());
  doc_.json["scenes"][0]["nodes"].push_back(first);
  ExpectRefused(Write("deep.glb", doc_.PackedBytes()), "levels deep");
}

TEST_F(HostileModelCli, FifoAsTheModelIsOneLineAndDoesNotHang) {
  const std::string fifo = (dir_ / "pipe.glb").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  ExpectRefused(fifo, "is a FIFO, not a regular file");
}

TEST_F(HostileModelCli, SkinWithoutInverseBindMatricesIsInspected) {
  doc_.json["skins"][0].erase("inverseBindMatrices");
  const ProgramResult r = RunIkpose({"inspect", "--json", Write("implied.glb", doc_.PackedBytes())},
                                    "", {}, MemoryCapPrefix());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_NE(r.out.find("\"left_leg\""), std::string::npos) << r.out;
}

// The other formats, as the reports made them: each would crash the importer (a stack
// overflow) or take gigabytes; the program answers each with one line.
TEST_F(HostileModelCli, OtherFormatsWithCyclesDeepNestingOrHugeCountsAreOneLine) {
  const auto text = [this](const std::string& name, const std::string& body) {
    return Write(name, std::vector<std::uint8_t>(body.begin(), body.end()));
  };
  ExpectRefused(
      text("cycle.gltf", R"({"asset":{"version":"1.0"},"scene":"s","scenes":{"s":{"nodes":["a"]}},)"
                         R"("nodes":{"a":{"children":["b"]},"b":{"children":["a"]}}})"),
      "cycle");
  std::string dae = R"(<?xml version="1.0"?><COLLADA version="1.4.1"><library_visual_scenes>)"
                    R"(<visual_scene id="s">)";
  for (int i = 0; i < 30000; ++i) dae += "<node>";
  for (int i = 0; i < 30000; ++i) dae += "</node>";
  dae += R"(</visual_scene></library_visual_scenes></COLLADA>)";
  ExpectRefused(text("deep.dae", dae), "levels deep");
  ExpectRefused(text("cycle.fbx",
                     "; FBX 7.4.0 project file\nObjects:  {\n"
                     "\tModel: 1, \"Model::a\", \"Null\" {\n\t}\n"
                     "\tModel: 2, \"Model::b\", \"Null\" {\n\t}\n}\n"
                     "Connections:  {\n\tC: \"OO\",1,2\n\tC: \"OO\",2,1\n}\n"),
                "cycle");
  ExpectRefused(text("huge.ply",
                     "ply\nformat ascii 1.0\nelement vertex 2000000000\n"
                     "property float x\nproperty float y\nproperty float z\n"
                     "end_header\n0 0 0\n"),
                "PLY header claims 2000000000 vertex");
}

// The importer runs in a child process: killed at any point of its answer, the command says so
// in one line naming the file and exits 1; ikpose itself never crashes.
TEST_F(HostileModelCli, ImporterKilledAtRandomPointsIsOneLine) {
  const std::string model = (fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb").string();
  std::mt19937 random(25);
  std::vector<long> points = {0, 4096};
  for (int i = 0; i < 2; ++i) points.push_back(static_cast<long>(random() % 1'700'000));
  for (const long point : points) {
    const std::vector<std::string> command =
        point % 2 == 0 ? std::vector<std::string>{"inspect", model}
                       : std::vector<std::string>{"pose", model, "--json"};
    const ProgramResult r =
        RunIkpose(command, "", {"IKPOSE_IMPORTER_TEST=kill-after=" + std::to_string(point)});
    EXPECT_EQ(r.exit_code, 1) << point << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.rfind("ikpose: error: the importer crashed reading " + model + " (signal 9", 0),
              0u)
        << point << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

// The importer reads the model's folder and writes nowhere: the hook that has it try to create
// a file (in /tmp, and beside the model) leaves no file, and the model still loads.
TEST_F(HostileModelCli, ImporterCreatesNoFile) {
  if (asset::LandlockAbi() == 0) GTEST_SKIP() << "the kernel has no Landlock: rlimits only";
  const std::string dir = MakeTempDir();
  const std::string model = dir + "/character.glb";
  fs::copy_file(fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb", model);
  for (const std::string& target : {dir + "/made-by-the-importer", MakeTempDir() + "/made"}) {
    const ProgramResult r =
        RunIkpose({"inspect", model, "--json"}, "", {"IKPOSE_IMPORTER_TEST=create-file=" + target});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_FALSE(fs::exists(target)) << target;
  }
}

TEST_F(HostileModelCli, ImporterOutOfMemoryIsOneLine) {
  if (BuiltWithAddressSanitizer()) GTEST_SKIP() << "no address-space limit under ASan";
  const std::string model = (fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb").string();
  // A lower allowance stands in for a file that needs more than 2 GB; the line names the limit
  // the importer ran under.
  const ProgramResult r = RunIkpose({"inspect", model}, "", {"IKPOSE_IMPORTER_TEST=memory-mb=4"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err, "ikpose: error: the importer ran out of its 4 MB reading " + model + "\n");
}

}  // namespace
}  // namespace ikpose::test
