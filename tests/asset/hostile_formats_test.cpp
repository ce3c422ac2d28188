// Hostile files in the formats other than glTF 2.0, made here as the reports describe them: a
// glTF 1.0 two-node cycle, a node that is its own child and a 100,000-deep node chain; 30,000
// nested COLLADA <node>s and a COLLADA node that instances itself; 30,000 nested BVH joints; an
// ASCII FBX whose parents form a cycle; a PLY header claiming 2,000,000,000 vertices and a binary
// STL claiming more triangles than it holds. Each is refused before the importer reads it, with
// one line naming the file and the problem (the importer would crash, or allocate gigabytes).
// Shallow files of the same formats still pass the checks.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "asset/format_precheck.h"
#include "asset/load_model.h"

namespace ikpose::asset {
namespace {

namespace fs = std::filesystem;

class HostileFormats : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ikpose-formats-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path Write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::binary) << text;
    return dir_ / name;
  }
  // Loading `path` fails with one line "<path>: ...<part>...".
  void ExpectRefused(const fs::path& path, const std::string& part) {
    SCOPED_TRACE(path.filename().string());
    anim::Model model;
    std::string error;
    EXPECT_FALSE(TryLoadModel(path, &model, &error));
    EXPECT_EQ(error.rfind(path.string() + ": ", 0), 0u) << error;
    EXPECT_NE(error.find(part), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }

  fs::path dir_;
};

std::string Gltf1(const std::string& nodes) {
  return R"({"asset":{"version":"1.0"},"scene":"s","scenes":{"s":{"nodes":["a"]}},"nodes":{)" +
         nodes + "}}";
}

TEST_F(HostileFormats, Gltf1CyclesSelfChildrenAndDeepChainsAreRefused) {
  const fs::path cycle =
      Write("cycle.gltf", Gltf1(R"("a":{"children":["b"]},"b":{"children":["a"]})"));
  EXPECT_LT(fs::file_size(cycle), 160u);
  ExpectRefused(cycle, "cycle");
  ExpectRefused(Write("self.gltf", Gltf1(R"("a":{"children":["a"]})")), "its own child");
  std::string chain;
  for (int i = 0; i < 100000; ++i) {
    chain += "\"" + std::string(i == 0 ? "a" : "n" + std::to_string(i)) + "\":{\"children\":[\"n" +
             std::to_string(i + 1) + "\"]},";
  }
  chain += "\"n100000\":{}";
  ExpectRefused(Write("deep.gltf", Gltf1(chain)), "more than 1024 levels deep");
  const std::string tree = Gltf1(R"("a":{"children":["b","c"]},"b":{},"c":{})");
  EXPECT_EQ(PrecheckGltf1(std::vector<std::uint8_t>(tree.begin(), tree.end())), "");
}

std::string Collada(const std::string& nodes) {
  return R"(<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
<library_visual_scenes><visual_scene id="s">)" +
         nodes + R"(</visual_scene></library_visual_scenes>
<scene><instance_visual_scene url="#s"/></scene></COLLADA>
)";
}

TEST_F(HostileFormats, ColladaDeepNestingAndSelfInstancingAreRefused) {
  std::string deep;
  for (int i = 0; i < 30000; ++i) deep += "<node id=\"n" + std::to_string(i) + "\">";
  for (int i = 0; i < 30000; ++i) deep += "</node>";
  ExpectRefused(Write("deep.dae", Collada(deep)), "nested more than 1024 levels deep");
  ExpectRefused(Write("self.dae", Collada(R"(<node id="a"><instance_node url="#a"/></node>)")),
                "its own child");
  ExpectRefused(Write("loop.dae", Collada(R"(<node id="a"><node id="b">)"
                                          R"(<instance_node url="#a"/></node></node>)")),
                "cycle");
  EXPECT_EQ(PrecheckModelFile(Write("fine.dae", Collada(R"(<node id="a"><node id="b"/></node>)"
                                                        R"(<node id="c">)"
                                                        R"(<instance_node url="#a"/></node>)"))),
            "");
}

// A node id with a line break in it, quoted in the refusal: still one line.
TEST_F(HostileFormats, ARefusalQuotingANameWithALineBreakIsOneLine) {
  const std::string problem = PrecheckModelText(
      ".dae", Collada("<node id=\"a\nb\"><instance_node url=\"#a\nb\"/></node>"), 1000);
  EXPECT_NE(problem.find("its own child"), std::string::npos) << problem;
  EXPECT_EQ(problem.find('\n'), std::string::npos) << problem;
}

TEST_F(HostileFormats, DeepBvhJointsAreRefused) {
  std::string bvh =
      "HIERARCHY\nROOT r\n{\nOFFSET 0 0 0\nCHANNELS 3 Xposition Yposition Zposition\n";
  for (int i = 0; i < 30000; ++i) {
    bvh += "JOINT j" + std::to_string(i) +
           "\n{\nOFFSET 0 1 0\nCHANNELS 3 Zrotation Xrotation "
           "Yrotation\n";
  }
  bvh += "End Site\n{\nOFFSET 0 1 0\n}\n";
  for (int i = 0; i <= 30000; ++i) bvh += "}\n";
  bvh += "MOTION\nFrames: 1\nFrame Time: 0.033333\n0 0 0\n";
  ExpectRefused(Write("deep.bvh", bvh), "more than 1024 levels deep");
}

TEST_F(HostileFormats, AnAsciiFbxWhoseParentsFormACycleIsRefused) {
  const fs::path fbx = Write("cycle.fbx", R"(; FBX 7.4.0 project file
FBXHeaderExtension:  {
	FBXHeaderVersion: 1003
	FBXVersion: 7400
}
Objects:  {
	Model: 1, "Model::a", "Null" {
	}
	Model: 2, "Model::b", "Null" {
	}
}
Connections:  {
	C: "OO",1,2
	C: "OO",2,1
}
)");
  ExpectRefused(fbx, "cycle");
}

TEST_F(HostileFormats, HeadersClaimingMoreThanTheFileHoldsAreRefused) {
  const fs::path ply = Write("huge.ply",
                             "ply\nformat ascii 1.0\nelement vertex 2000000000\nproperty float x\n"
                             "property float y\nproperty float z\nend_header\n0 0 0\n");
  EXPECT_LT(fs::file_size(ply), 130u);
  ExpectRefused(ply, "PLY header claims 2000000000 vertex");
  std::string stl(84, '\0');
  const std::uint32_t triangles = 100000000;
  std::memcpy(stl.data() + 80, &triangles, 4);
  ExpectRefused(Write("huge.stl", stl + std::string(50, '\0')), "claims 100000000 triangles");
  // Counts the file can back pass.
  EXPECT_EQ(PrecheckModelFile(Write("one.ply",
                                    "ply\nformat ascii 1.0\nelement vertex 1\n"
                                    "property float x\nproperty float y\n"
                                    "property float z\nend_header\n0 0 0\n")),
            "");
}

}  // namespace
}  // namespace ikpose::asset
