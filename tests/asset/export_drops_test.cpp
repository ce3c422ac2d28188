// What the export leaves out of a glTF source is listed field by field: sampler modes other than
// the one the export writes, KHR_texture_transform, cameras and extras (morph target names
// excepted, they are written again); a source without them lists nothing; a long list ends
// with how many more.
#include "asset/export_drops.h"
#include "asset/export_keep.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ikpose::asset {
namespace {

TEST(ExportDrops, ListsSamplerModesTextureTransformsCamerasAndExtrasFieldByField) {
  const GltfJson source = GltfJson::parse(R"({
    "asset": {"version": "2.0", "extras": {"author": "x"}},
    "samplers": [{"wrapS": 33071, "magFilter": 9729}, {"wrapS": 10497}],
    "textures": [{"sampler": 0, "source": 0}, {"sampler": 1, "source": 0}],
    "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0,
                   "extensions": {"KHR_texture_transform": {"scale": [2, 2]}}}}}],
    "cameras": [{"type": "perspective", "perspective": {"yfov": 1, "znear": 0.1}}],
    "nodes": [{"name": "a"}, {"name": "b", "extras": {"tag": 1}}],
    "meshes": [{"extras": {"targetNames": ["smile"]}}, {"extras": {"lod": 2}}]})");
  const std::vector<std::string> expected = {
      "textures[0]: sampler wrapS 33071 (written linear, mipmapped, repeating)",
      "materials[0].pbrMetallicRoughness.baseColorTexture: KHR_texture_transform",
      "cameras: 1",
      "asset.extras",
      "nodes[1].extras",
      "meshes[1].extras"};
  EXPECT_EQ(ExportDrops(source), expected);
}

TEST(ExportDrops, NothingToSayForAPlainSourceAndALongListIsCut) {
  EXPECT_TRUE(ExportDrops(GltfJson::parse(R"({"asset": {"version": "2.0"},
      "nodes": [{"name": "a"}], "meshes": [{"extras": {"targetNames": ["a"]}}]})"))
                  .empty());
  GltfJson many = GltfJson::parse(R"({"nodes": []})");
  for (int i = 0; i < 40; ++i) many["nodes"].push_back({{"extras", {{"i", i}}}});
  const std::vector<std::string> drops = ExportDrops(many);
  ASSERT_EQ(drops.size(), kMaxDropLines);
  EXPECT_EQ(drops.back(), "and " + std::to_string(40 - (kMaxDropLines - 1)) + " more");
}

// Two maps sampling one image (the export writes one texture per image) keep their sampler when
// they agree; when they disagree neither is kept and both stay listed.
TEST(ExportKeep, ASamplerIsKeptOnlyWhenEveryMapOfItsImageAgrees) {
  for (const bool agree : {true, false}) {
    SCOPED_TRACE(agree ? "agree" : "disagree");
    GltfJson source = GltfJson::parse(R"({
      "samplers": [{"magFilter": 9728, "wrapS": 33071}, {"magFilter": 9728, "wrapS": 33071}],
      "textures": [{"sampler": 0, "source": 0}, {"sampler": 1, "source": 0}],
      "materials": [{"name": "a", "pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}},
                    {"name": "b", "pbrMetallicRoughness": {"baseColorTexture": {"index": 1}}}]})");
    if (!agree) source["samplers"][1]["wrapS"] = 33648;
    anim::Model model;
    model.materials.resize(2);
    model.materials[0].name = "a";
    model.materials[1].name = "b";
    GltfJson out = GltfJson::parse(R"({
      "materials": [{"name": "a", "pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}},
                    {"name": "b", "pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}],
      "textures": [{"sampler": 0, "source": 0}],
      "samplers": [{"magFilter": 9729, "minFilter": 9987, "wrapS": 10497, "wrapT": 10497}]})");
    const std::set<std::string> kept = KeepFromSource(source, model, {0, 1}, out);
    const std::vector<std::string> drops = ExportDrops(source, kept);
    if (agree) {
      EXPECT_TRUE(drops.empty()) << drops.front();
      const GltfJson& sampler = out["samplers"][out["textures"][0]["sampler"].get<int>()];
      EXPECT_EQ(sampler, GltfJson::parse(R"({"magFilter": 9728, "wrapS": 33071})"));
    } else {
      EXPECT_EQ(drops.size(), 2u);
      EXPECT_EQ(out["textures"][0]["sampler"], 0);
    }
  }
}

}  // namespace
}  // namespace ikpose::asset
