// What the export leaves out of a glTF source is listed field by field: sampler modes other than
// the one the export writes, KHR_texture_transform, cameras and extras (morph target names
// excepted, they are written again); a source without them lists nothing; a long list ends
// with how many more.
#include "asset/export_drops.h"

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

}  // namespace
}  // namespace ikpose::asset
