// What every command checks about its outputs and options, through the real program: an output
// path that names one of the command's inputs (the model, the scenario, a pose, targets or
// trace file) is refused on every command and the input stays as it was; an empty file name is
// a usage error; two --policy values for one chain are refused; --pose with --clip is a usage
// error; a --from .. --to range too long to count says so without a garbage number.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "asset/gltf_document.h"
#include "run_program.h"

namespace ikpose::test {
namespace {

namespace fs = std::filesystem;

const fs::path kCharacter = fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb";

std::string Bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void ExpectOneLineError(const ProgramResult& r, int exit_code, const std::string& part) {
  EXPECT_EQ(r.exit_code, exit_code) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("ikpose: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find(part), std::string::npos) << r.err;
}

class OutputChecks : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = MakeTempDir();
    model_ = (dir_ / "hero.glb").string();
    fs::copy_file(kCharacter, model_);
    scene_ = Write("scene.json", R"({"limbs": {"left_arm": {"target": [0.3, 1.2, 0.3]}}})");
    targets_ = Write("targets.jsonl",
                     "{\"time\": 0, \"limbs\": {\"left_arm\": {\"target\": [0.3, 1.2, 0.3]}}}\n"
                     "{\"time\": 0.1, \"limbs\": {\"left_arm\": {\"target\": [0.3, 1.1, 0.3]}}}\n");
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::binary) << text;
    return (dir_ / name).string();
  }

  fs::path dir_;
  std::string model_, scene_, targets_;
};

TEST_F(OutputChecks, AnOutputThatNamesAnInputIsRefusedOnEveryCommandAndTheInputKept) {
  const std::string model_bytes = Bytes(model_);
  const std::string scene_bytes = Bytes(scene_);
  const std::string targets_bytes = Bytes(targets_);
  // The same file under another name (a hard link) is the same input.
  fs::create_hard_link(model_, dir_ / "alias.glb");
  const std::string alias = (dir_ / "alias.glb").string();
  const std::string png = (dir_ / "out.png").string();
  struct Case {
    std::vector<std::string> args;
    const char* what;
  };
  const std::vector<Case> cases = {
      {{"pose", model_, "--scene", scene_, "--out", model_}, "is the model itself"},
      {{"pose", model_, "--scene", scene_, "--out", scene_}, "is the scenario file itself"},
      {{"pose", model_, "--scene", scene_, "--out", alias}, "is the model itself"},
      {{"render", model_, "--scene", scene_, "--out", model_, "--size", "64x64"},
       "is the model itself"},
      {{"render", model_, "--scene", scene_, "--out", png, "--report", scene_, "--size", "64x64"},
       "is the scenario file itself"},
      {{"trace", model_, "--targets", targets_, "--out", targets_}, "is the targets file itself"},
      {{"trace", model_, "--targets", targets_, "--out", alias}, "is the model itself"},
      {{"export", model_, "--scene", scene_, "--out", alias}, "is the model itself"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.args[0] + " " + c.args[c.args.size() - 1]);
    ExpectOneLineError(RunIkpose(c.args), 1, c.what);
  }
  EXPECT_EQ(Bytes(model_), model_bytes);
  EXPECT_EQ(Bytes(scene_), scene_bytes);
  EXPECT_EQ(Bytes(targets_), targets_bytes);
  EXPECT_FALSE(fs::exists(png));
}

TEST_F(OutputChecks, AnEmptyFileNameIsAUsageError) {
  const std::vector<std::vector<std::string>> cases = {
      {"pose", "--target", "left_arm=0.3,1.2,0.3", "--out", ""},
      {"render", "--out", ""},
      {"render", "--out", "x.png", "--report", ""},
      {"export", "--target", "left_arm=0.3,1.2,0.3", "--out", ""},
      {"trace", "--targets", ""},
      {"trace", "--targets", "t.jsonl", "--out", ""},
      {"pose", "--scene", ""},
  };
  for (const std::vector<std::string>& args : cases) {
    SCOPED_TRACE(args[0] + " " + args[args.size() - 2]);
    ExpectOneLineError(RunIkpose(args), 2, "needs a file name");
  }
}

TEST_F(OutputChecks, TwoPoliciesForOneChainAreAUsageError) {
  ExpectOneLineError(RunIkpose({"pose", model_, "--target", "left_leg=0.1,0.3,0.2", "--policy",
                                "left_leg=seed", "--policy", "left_leg=pole"}),
                     2, "--policy is given twice for left_leg");
  ExpectOneLineError(RunIkpose({"trace", model_, "--targets", targets_, "--policy", "seed",
                                "--policy", "natural"}),
                     2, "--policy is given twice");
  // One for every limb and one for a chain is an override, not a clash.
  const ProgramResult r = RunIkpose({"pose", model_, "--target", "left_leg=0.1,0.3,0.2", "--policy",
                                     "seed", "--policy", "left_leg=natural"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

TEST_F(OutputChecks, PoseWithClipIsAUsageError) {
  const std::string pose = (dir_ / "p.json").string();
  ASSERT_EQ(
      RunIkpose({"pose", model_, "--target", "left_arm=0.3,1.2,0.3", "--out", pose}).exit_code, 0);
  ExpectOneLineError(RunIkpose({"export", model_, "--pose", pose, "--clip", "walk", "--out",
                                (dir_ / "x.glb").string()}),
                     2, "both give the starting pose");
}

TEST_F(OutputChecks, AHugeTraceRangeSaysHowManyFramesWithoutAGarbageCount) {
  for (const auto& [from, to] :
       {std::pair{"-1e300", "1e300"}, {"-1.7e308", "1.7e308"}, {"0", "1e12"}}) {
    SCOPED_TRACE(std::string(from) + " " + to);
    const ProgramResult r = RunIkpose({"trace", model_, "--targets", targets_,
                                       std::string("--from=") + from, std::string("--to=") + to});
    ExpectOneLineError(r, 2, "frames; at most");
    EXPECT_EQ(r.err.find("-9223372036854775808"), std::string::npos) << r.err;
  }
}

TEST_F(OutputChecks, ExportKeepsCamerasAndExtrasAndSaysWhatItLeavesOutFieldByField) {
  asset::GltfDocument doc = asset::GltfDocument::Read(kCharacter);
  doc.json["cameras"] = asset::GltfJson::parse(
      R"([{"type": "perspective", "perspective": {"yfov": 1.0, "znear": 0.1}}])");
  doc.json["nodes"][3]["extras"] = {{"tag", "keep me"}};
  doc.json["meshes"][0]["extras"] = {{"lod", 2}};  // meshes are regrouped: no place for it
  const std::vector<std::uint8_t> bytes = doc.PackedBytes();
  const fs::path source = dir_ / "extras.glb";
  std::ofstream(source, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()),
             static_cast<std::streamsize>(bytes.size()));
  const fs::path posed = dir_ / "posed.glb";
  const ProgramResult r = RunIkpose(
      {"export", source.string(), "--target", "left_arm=0.3,1.2,0.3", "--out", posed.string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("left out: meshes[0].extras\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("left out: cameras"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("left out: nodes[3].extras"), std::string::npos) << r.out;
  const asset::GltfDocument out = asset::GltfDocument::Read(posed);
  EXPECT_EQ(out.json["cameras"], doc.json["cameras"]);
  const std::string name = doc.json["nodes"][3]["name"].get<std::string>();
  bool kept = false;
  for (const asset::GltfJson& node : out.json["nodes"]) {
    if (node.value("name", "") == name)
      kept = node.value("extras", asset::GltfJson()) == asset::GltfJson{{"tag", "keep me"}};
  }
  EXPECT_TRUE(kept) << name;
  // A bake keeps and lists the same.
  const fs::path baked = dir_ / "baked.glb";
  const ProgramResult bake = RunIkpose({"export", source.string(), "--clip", "walk", "--bake",
                                        "--fps", "2", "--to", "0.5", "--out", baked.string()});
  ASSERT_EQ(bake.exit_code, 0) << bake.err;
  EXPECT_NE(bake.out.find("left out: meshes[0].extras\n"), std::string::npos) << bake.out;
  EXPECT_EQ(bake.out.find("left out: cameras"), std::string::npos) << bake.out;
  EXPECT_EQ(asset::GltfDocument::Read(baked).json["cameras"], doc.json["cameras"]);
  // The bundled character has nothing the export leaves out.
  const ProgramResult plain = RunIkpose({"export", model_, "--target", "left_arm=0.3,1.2,0.3",
                                         "--out", (dir_ / "plain.glb").string()});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_EQ(plain.out.find("left out:"), std::string::npos) << plain.out;
}

}  // namespace
}  // namespace ikpose::test
