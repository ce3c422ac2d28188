// `ikpose render` on real characters (../shared/models, skipped when absent) and on the bundled
// one: the character is drawn upright and inside the frame, and a leg target visibly moves the
// leg (the pixels that change sit in the lower part of the silhouette).
#include <gtest/gtest.h>

#include <stb_image.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "run_program.h"

namespace ikpose::test {
namespace {

namespace fs = std::filesystem;

struct Box {
  int x0 = 1 << 30, y0 = 1 << 30, x1 = -1, y1 = -1;
  int count = 0;
  bool empty() const { return count == 0; }
  void Add(int x, int y) {
    x0 = std::min(x0, x);
    y0 = std::min(y0, y);
    x1 = std::max(x1, x);
    y1 = std::max(y1, y);
    ++count;
  }
};

struct Rgba {
  int w = 0, h = 0;
  std::vector<unsigned char> px;
};

Rgba Load(const std::string& path) {
  Rgba image;
  int channels = 0;
  unsigned char* data = stbi_load(path.c_str(), &image.w, &image.h, &channels, 4);
  if (data != nullptr) {
    image.px.assign(data, data + static_cast<std::size_t>(image.w) * image.h * 4);
    stbi_image_free(data);
  }
  return image;
}

int Difference(const unsigned char* a, const unsigned char* b) {
  return std::abs(a[0] - b[0]) + std::abs(a[1] - b[1]) + std::abs(a[2] - b[2]);
}

// Pixels unlike the background colour (taken from the top-left corner).
Box Silhouette(const Rgba& image) {
  Box box;
  const unsigned char* background = image.px.data();
  for (int y = 0; y < image.h; ++y) {
    for (int x = 0; x < image.w; ++x) {
      if (Difference(&image.px[(static_cast<std::size_t>(y) * image.w + x) * 4], background) > 30) {
        box.Add(x, y);
      }
    }
  }
  return box;
}

Box Changed(const Rgba& a, const Rgba& b) {
  Box box;
  for (int y = 0; y < a.h; ++y) {
    for (int x = 0; x < a.w; ++x) {
      const std::size_t i = (static_cast<std::size_t>(y) * a.w + x) * 4;
      if (Difference(&a.px[i], &b.px[i]) > 40) box.Add(x, y);
    }
  }
  return box;
}

std::string Format(float v) {
  return std::to_string(v);
}

void CheckModel(const std::string& model) {
  SCOPED_TRACE(model);
  const ProgramResult info = RunIkpose({"inspect", model, "--json"});
  ASSERT_EQ(info.exit_code, 0) << info.err;
  const auto json = nlohmann::json::parse(info.out);
  const std::string dir = MakeTempDir();
  // A three-quarter view, so a leg is not hidden behind another (quadrupeds too).
  const std::vector<std::string> common = {"render",     model,       "--size",   "360x480",
                                           "--no-panel", "--no-grid", "--camera", "60,10,0"};
  auto args = common;
  args.insert(args.end(), {"--out", dir + "/rest.png"});
  const ProgramResult rest_run = RunIkpose(args);
  ASSERT_EQ(rest_run.exit_code, 0) << rest_run.err;
  const Rgba rest = Load(dir + "/rest.png");
  ASSERT_EQ(rest.w, 360);
  const Box body = Silhouette(rest);
  ASSERT_FALSE(body.empty()) << "nothing drawn";
  EXPECT_GT(body.x0, 0);
  EXPECT_GT(body.y0, 0);
  EXPECT_LT(body.x1, rest.w - 1);
  EXPECT_LT(body.y1, rest.h - 1);
  EXPECT_GT(body.y1 - body.y0, rest.h / 5) << "the character should fill a good part of the frame";

  if (!json["chains"].contains("left_leg")) return;
  // Lift the left foot a third of the way toward the hip: the knee must bend.
  const auto& bones = json["bones"];
  const auto& joints = json["chains"]["left_leg"]["joints"];
  auto rest_of = [&](const std::string& name) {
    for (const auto& b : bones) {
      if (b["name"] == name) return b["rest_position_ms"].get<std::vector<float>>();
    }
    return std::vector<float>{};
  };
  const auto hip = rest_of(joints[0]);
  const auto foot = rest_of(joints[2]);
  ASSERT_EQ(hip.size(), 3u);
  ASSERT_EQ(foot.size(), 3u);
  std::string target = "left_leg=";
  for (int i = 0; i < 3; ++i) {
    target += Format(foot[i] + 0.35f * (hip[i] - foot[i])) + (i < 2 ? "," : "");
  }
  args = common;
  args.insert(args.end(), {"--out", dir + "/lifted.png", "--target", target});
  const ProgramResult lifted_run = RunIkpose(args);
  ASSERT_EQ(lifted_run.exit_code, 0) << lifted_run.err;
  const Rgba lifted = Load(dir + "/lifted.png");
  const Box changed = Changed(rest, lifted);
  ASSERT_GT(changed.count, 30) << "a leg target should visibly move the leg";
  // Upright: the leg is in the lower part of the body's silhouette on screen.
  const float body_middle = 0.5f * static_cast<float>(body.y0 + body.y1);
  EXPECT_GT(0.5f * static_cast<float>(changed.y0 + changed.y1), body_middle)
      << "the moved leg should be in the lower half: is the model upside down?";
  fs::remove_all(dir);
}

const fs::path kShared = fs::path(IKPOSE_SOURCE_DIR) / ".." / "shared" / "models";

TEST(ModelRender, BundledCharacterIsUprightFramedAndLegMoves) {
  const fs::path model = fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb";
  if (!fs::exists(model)) GTEST_SKIP() << "assets/character.glb not generated yet";
  CheckModel(model.string());
}

class SharedModelRender : public ::testing::TestWithParam<const char*> {};

TEST_P(SharedModelRender, UprightFramedAndLegMoves) {
  const fs::path model = kShared / GetParam();
  if (!fs::exists(model)) GTEST_SKIP() << model << " is absent (shared models not available)";
  CheckModel(model.string());
}

INSTANTIATE_TEST_SUITE_P(
    Models, SharedModelRender,
    ::testing::Values("CesiumMan/CesiumMan.glb", "RiggedFigure/RiggedFigure.glb",
                      "MaleBaseMesh/male_base_mesh.glb", "Mesh2MotionHumanMale/human-male.glb",
                      "QuaterniusRobot/robot.glb", "Fox/Fox.glb", "Greenman/greenman.glb"));

}  // namespace
}  // namespace ikpose::test
