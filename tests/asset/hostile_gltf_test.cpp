// Broken and hostile glTF files, made here from the bundled character: each must give one clear
// error naming the file and the field (never a crash, a hang or a huge allocation), and what
// glTF says is implied (identity inverse bind matrices) must load.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "asset/gltf_document.h"
#include "asset/load_model.h"

namespace ikpose::asset {
namespace {

namespace fs = std::filesystem;

const fs::path kCharacter = fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb";

class HostileGltf : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ikpose-hostile-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    doc_ = GltfDocument::Read(kCharacter);
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path Write(const std::string& name, const std::vector<std::uint8_t>& bytes) {
    const fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes.data()),
               static_cast<std::streamsize>(bytes.size()));
    return path;
  }
  fs::path WriteDoc(const std::string& name = "broken.glb") {
    return Write(name, doc_.PackedBytes());
  }

  // The character as .gltf + external .bin (named `bin_uri` in the JSON), in `folder`.
  fs::path WriteSplit(const fs::path& folder, const std::string& bin_uri) {
    fs::create_directories(folder);
    GltfJson json = doc_.json;
    json["buffers"][0]["uri"] = bin_uri;
    const fs::path path = folder / "split.gltf";
    std::ofstream(path) << json.dump();
    return path;
  }

  // The one-line error for `path`, which must name the file and contain `field`.
  void ExpectError(const fs::path& path, const std::string& field,
                   const LoadOptions& options = {}) {
    anim::Model model;
    std::string error;
    ASSERT_FALSE(TryLoadModel(path, &model, &error, options)) << "loaded " << path;
    EXPECT_EQ(error.rfind(path.string() + ": ", 0), 0u) << error;
    EXPECT_NE(error.find(field), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }

  // Patches the bytes of accessor `accessor`'s first element's first component.
  void PokeFirstComponent(int accessor, std::uint8_t value) {
    const GltfAccessorLayout l = doc_.Layout(accessor);
    doc_.bin[l.offset] = value;
  }

  fs::path dir_;
  GltfDocument doc_;
};

TEST_F(HostileGltf, TruncatedFilesAreRefusedWithTheGlbPartThatIsShort) {
  const std::vector<std::uint8_t> whole = doc_.PackedBytes();
  for (std::size_t size :
       {std::size_t{10}, std::size_t{19}, std::size_t{400}, whole.size() / 2, whole.size() - 1}) {
    SCOPED_TRACE(size);
    const fs::path path =
        Write("cut.glb", {whole.begin(), whole.begin() + static_cast<long>(size)});
    ExpectError(path, "GLB");
  }
}

TEST_F(HostileGltf, HugeChunkLengthIsRefusedBeforeAnythingIsAllocated) {
  std::vector<std::uint8_t> bytes = doc_.PackedBytes();
  const std::uint32_t huge = 0xFFFFFFF0u;
  std::memcpy(&bytes[12], &huge, 4);  // the JSON chunk's length
  ExpectError(Write("huge.glb", bytes), "GLB chunk 0: length 4294967280 runs past the end");
}

TEST_F(HostileGltf, AccessorPastItsBufferViewIsRefused) {
  doc_.json["accessors"][0]["count"] = 9022 * 1000;
  ExpectError(WriteDoc(),
              "accessors[0]: 9022000 elements from byte 0 run past the end of bufferViews[");
}

TEST_F(HostileGltf, ACubicSplineSamplerWithTooFewOutputsIsRefusedBeforeTheImporterReadsPastThem) {
  // One value a key, as a LINEAR sampler has: CUBICSPLINE needs three (tangents around each).
  GltfJson& sampler = doc_.json["animations"][0]["samplers"][0];
  sampler["interpolation"] = "CUBICSPLINE";
  const int keys = doc_.json["accessors"][sampler["input"].get<int>()]["count"].get<int>();
  const int values = doc_.json["accessors"][sampler["output"].get<int>()]["count"].get<int>();
  ASSERT_LT(values, 3 * keys);
  ExpectError(WriteDoc(), "animations[0].samplers[0].output: " + std::to_string(values) +
                              " values for " + std::to_string(keys) +
                              " keys; CUBICSPLINE needs three a key");
  // A LINEAR sampler short of values is refused too.
  sampler["interpolation"] = "LINEAR";
  doc_.json["accessors"][sampler["output"].get<int>()]["count"] = keys - 1;
  ExpectError(WriteDoc(), "animations[0].samplers[0].output: " + std::to_string(keys - 1) +
                              " values for " + std::to_string(keys) + " keys; at least one a key");
}

TEST_F(HostileGltf, BufferViewPastItsBufferIsRefused) {
  doc_.json["bufferViews"][0]["byteLength"] = 2000000000;
  ExpectError(WriteDoc(), "bufferViews[0]: bytes 0 + 2000000000 run past the end of buffers[0]");
}

TEST_F(HostileGltf, BufferLongerThanItsBytesIsRefused) {
  doc_.json["buffers"][0]["byteLength"] = 1u << 31;
  ExpectError(WriteDoc(), "buffers[0].byteLength: 2147483648 bytes, but only");
}

TEST_F(HostileGltf, SkinWithoutInverseBindMatricesLoadsWithIdentity) {
  doc_.json["skins"][0].erase("inverseBindMatrices");
  const anim::Model model = LoadModel(WriteDoc());
  int skinned = 0;
  for (const anim::Mesh& mesh : model.meshes) {
    if (!mesh.skinned) continue;
    ++skinned;
    const anim::Skin& skin = model.skins[static_cast<std::size_t>(mesh.skin)];
    ASSERT_GE(skin.inverse_bind.size(), 53u);
    for (std::size_t j = 0; j < 53; ++j) EXPECT_EQ(skin.inverse_bind[j], glm::mat4(1.f)) << j;
  }
  EXPECT_GT(skinned, 0);
}

TEST_F(HostileGltf, EmptyJointListIsRefused) {
  doc_.json["skins"][0]["joints"] = GltfJson::array();
  ExpectError(WriteDoc(), "skins[0].joints: must list at least one node");
}

TEST_F(HostileGltf, ShortInverseBindAccessorIsRefused) {
  doc_.json["accessors"][15]["count"] = 20;
  ExpectError(
      WriteDoc(),
      "skins[0].inverseBindMatrices: accessor 15 holds 20 matrices, the skin has 53 joints");
}

TEST_F(HostileGltf, JointIndexOutOfRangeIsRefused) {
  PokeFirstComponent(2, 200);  // body's JOINTS_0, unsigned bytes
  ExpectError(WriteDoc(),
              "meshes[0].primitives[0].attributes.JOINTS_0: vertex 0 names joint 200, the skin of "
              "nodes[53] has 53 joints");
}

TEST_F(HostileGltf, SignedJointIndicesAreRefused) {
  doc_.json["accessors"][2]["componentType"] = 5120;  // byte: -1 is 0xFF
  PokeFirstComponent(2, 0xFF);
  ExpectError(WriteDoc(), "attributes.JOINTS_0: accessor 2 has component type 5120");
}

TEST_F(HostileGltf, DeepNodeChainIsRefusedBeforeTheImporterRecursesIntoIt) {
  GltfJson& nodes = doc_.json["nodes"];
  const std::size_t first = nodes.size();
  for (std::size_t i = 0; i < 20000; ++i) {
    GltfJson node = {{"name", "link" + std::to_string(i)}};
    if (i + 1 < 20000) node["children"] = GltfJson::array({first + i + 1});
    nodes.push_back(node);
  }
  doc_.json["scenes"][0]["nodes"].push_back(first);
  ExpectError(WriteDoc(), "levels deep; at most 1024 are read");
}

TEST_F(HostileGltf, NodeCycleIsRefused) {
  // The root node becomes a child of one of its own descendants (the last node is a leaf).
  doc_.json["scenes"][0]["nodes"] = GltfJson::array({53});
  GltfJson& nodes = doc_.json["nodes"];
  nodes[nodes.size() - 2]["children"] = GltfJson::array({0});
  ExpectError(WriteDoc(), "a recursive reference");
}

TEST_F(HostileGltf, NodeWithTwoParentsIsRefused) {
  doc_.json["nodes"][53]["children"] = GltfJson::array({1});
  ExpectError(WriteDoc(), "nodes[1]: a child of both nodes[");
}

TEST_F(HostileGltf, DeeplyNestedJsonIsRefusedBeforeParsing) {
  std::string deep(100000, '[');
  deep += std::string(100000, ']');
  doc_.json["extras"] = "placeholder";
  std::string text = doc_.json.dump();
  text.replace(text.find("\"placeholder\""), 13, deep);
  ExpectError(Write("deep.gltf", {text.begin(), text.end()}), "JSON: nested deeper than 256");
}

TEST_F(HostileGltf, FifoAsTheModelIsRefusedWithoutBlocking) {
  const fs::path fifo = dir_ / "pipe.glb";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  ExpectError(fifo, "is a FIFO, not a regular file");
}

TEST_F(HostileGltf, FifoAsABufferIsRefusedWithoutBlocking) {
  const fs::path model = WriteSplit(dir_, "pipe.bin");
  ASSERT_EQ(::mkfifo((dir_ / "pipe.bin").c_str(), 0600), 0);
  ExpectError(model, "buffers[0].uri: " + (dir_ / "pipe.bin").string() + " is a FIFO");
}

TEST_F(HostileGltf, BufferUriLeavingTheFolderIsRefusedUnlessAllowed) {
  Write("character.bin", doc_.bin);
  const fs::path model = WriteSplit(dir_ / "models", "../character.bin");
  ExpectError(model, "buffers[0].uri: '../character.bin' leads out of the model's folder");
  LoadOptions outside;
  outside.allow_outside_uris = true;
  EXPECT_EQ(LoadModel(model, outside).skeleton.size(), LoadModel(kCharacter).skeleton.size());
}

TEST_F(HostileGltf, AbsoluteAndLinkedBufferUrisAreRefused) {
  const fs::path bin = Write("character.bin", doc_.bin);
  ExpectError(WriteSplit(dir_ / "absolute", bin.string()), "is an absolute path");
  fs::create_directories(dir_ / "linked");
  fs::create_symlink(bin, dir_ / "linked" / "link.bin");
  ExpectError(WriteSplit(dir_ / "linked", "link.bin"),
              "is a link that leads out of the model's folder");
}

TEST_F(HostileGltf, DevZeroImageIsRefusedEvenWhenOutsideFilesAreAllowed) {
  doc_.json["images"] = GltfJson::array({{{"uri", "/dev/zero"}}});
  const fs::path path = WriteDoc();
  ExpectError(path, "images[0].uri: '/dev/zero' is an absolute path");
  LoadOptions outside;
  outside.allow_outside_uris = true;
  ExpectError(path, "images[0].uri: /dev/zero is a device, not a regular file", outside);
}

TEST_F(HostileGltf, VrmFileIsRecognisedByContent) {
  fs::copy_file(kCharacter, dir_ / "avatar.vrm");
  const anim::Model vrm = LoadModel(dir_ / "avatar.vrm");
  const anim::Model glb = LoadModel(kCharacter);
  EXPECT_EQ(vrm.skeleton.names, glb.skeleton.names);
  EXPECT_EQ(vrm.meshes.size(), glb.meshes.size());
  EXPECT_EQ(vrm.units, "m");
  EXPECT_EQ(vrm.clips.size(), glb.clips.size());
}

}  // namespace
}  // namespace ikpose::asset

namespace ikpose::asset {
namespace {

// A model 1.8e12 units tall (past any int) loads and says so in a number, not in an int that
// wrapped around (the warning once read "-2147483648 units tall"; UBSan's float-cast-overflow
// guards the rest).
TEST_F(HostileGltf, AnAbsurdlyTallModelSaysHowTallInAFloat) {
  for (const GltfJson& root : doc_.json["scenes"][0]["nodes"]) {
    doc_.json["nodes"][root.get<std::size_t>()]["scale"] = GltfJson::array({1e12, 1e12, 1e12});
  }
  anim::Model model;
  std::string error;
  ASSERT_TRUE(TryLoadModel(WriteDoc("tall.glb"), &model, &error)) << error;
  bool said = false;
  for (const std::string& w : model.warnings) {
    if (w.find("units tall") == std::string::npos) continue;
    said = true;
    EXPECT_NE(w.find("e+12 units tall"), std::string::npos) << w;
    EXPECT_EQ(w.find('-'), std::string::npos) << w;
  }
  EXPECT_TRUE(said) << "a model this tall is flagged";
}

}  // namespace
}  // namespace ikpose::asset
