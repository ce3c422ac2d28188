// Props and ground contact through the real program: `--prop` and a scenario's "props" pose
// the same in `pose --json` and `render --report` (one road), feet stand on the bundled props,
// `--ground off` turns contact off, hands put on a table lie on their palms, and hostile props
// (missing, a FIFO, no triangles, a NaN vertex, more triangles than a scene may hold) are each one
// error line with exit 1; `export` writes the props beside the character, their materials and
// textures too.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include <stb_image_write.h>
#include <nlohmann/json.hpp>

#include "anim/model.h"
#include "asset/export_gltf.h"
#include "asset/load_model.h"
#include "run_program.h"

namespace ikpose::test {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

const fs::path kProps = fs::path(IKPOSE_SOURCE_DIR) / "assets" / "props";

void ExpectOneErrorLine(const ProgramResult& r, const std::string& what) {
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.err.rfind("ikpose: error: prop ", 0), 0u) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
  EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
}

TEST(PropsCli, RenderReportIsThePoseJsonWithProps) {
  const std::string dir = MakeTempDir();
  const std::string scene = dir + "/scene.json";
  // The box under the left foot from the scenario (relative to it: copied beside it), the ramp
  // in front from the command line.
  fs::copy_file(kProps / "box.glb", dir + "/box.glb");
  std::ofstream(scene) << R"({"props": [{"file": "box.glb", "position": [0.22, 0, 0.05]}],
      "limbs": {"left_arm": {"target": [0.4, 1.2, 0.3]}}})";
  const std::vector<std::string> extra = {"--prop", (kProps / "ramp.glb").string() + "@0,0,0.4,10"};
  std::vector<std::string> pose = {"pose", "--scene", scene, "--json"};
  std::vector<std::string> render = {"render",   "--scene",       scene,    "--out", dir + "/x.png",
                                     "--report", dir + "/r.json", "--size", "64x64"};
  pose.insert(pose.end(), extra.begin(), extra.end());
  render.insert(render.end(), extra.begin(), extra.end());
  const ProgramResult posed = RunIkpose(pose);
  ASSERT_EQ(posed.exit_code, 0) << posed.err;
  const ProgramResult rendered = RunIkpose(render);
  ASSERT_EQ(rendered.exit_code, 0) << rendered.err;
  const json from_pose = json::parse(posed.out);
  std::ifstream in(dir + "/r.json");
  const json from_render = json::parse(in);
  EXPECT_EQ(from_pose, from_render) << "same fields, same values";
  ASSERT_EQ(from_pose["props"].size(), 2u);
  const json& left = from_pose["ground"]["feet"]["left_leg"];
  ASSERT_TRUE(left["contact"].get<bool>());
  EXPECT_EQ(left["surface"], dir + "/box.glb");
  EXPECT_NEAR(left["hit_ms"][1].get<double>(), 0.2, 1e-5);
  EXPECT_LT(left["height_error"].get<double>(), 0.005);
  EXPECT_EQ(from_pose["ground"]["feet"]["right_leg"]["surface"], "floor");
  fs::remove_all(dir);
}

TEST(PropsCli, GroundOffLeavesTheFeetWhereTheyAre) {
  const std::string box = (kProps / "box.glb").string() + "@0.22,0,0.05";
  const ProgramResult on = RunIkpose({"pose", "--prop", box, "--json"});
  const ProgramResult off = RunIkpose({"pose", "--prop", box, "--ground", "off", "--json"});
  ASSERT_EQ(on.exit_code, 0) << on.err;
  ASSERT_EQ(off.exit_code, 0) << off.err;
  EXPECT_TRUE(json::parse(on.out).contains("ground"));
  EXPECT_FALSE(json::parse(off.out).contains("ground"));
  EXPECT_TRUE(json::parse(off.out)["chains"].empty()) << "nothing placed, nothing solved";
  const ProgramResult bad = RunIkpose({"pose", "--ground", "maybe"});
  EXPECT_EQ(bad.exit_code, 2);
  const ProgramResult short_prop = RunIkpose({"pose", "--prop", "box.glb@1,2"});
  EXPECT_EQ(short_prop.exit_code, 2);
  EXPECT_EQ(short_prop.err.find('\n'), short_prop.err.size() - 1) << short_prop.err;
}

// trace and export take the same props: each frame of the walk over the stairs stands its
// planted feet on the steps, and the export writes the posed character.
TEST(PropsCli, TraceAndExportTakeProps) {
  const std::string dir = MakeTempDir();
  const std::string stairs = (kProps / "stairs.glb").string() + "@0,0,-0.2";
  const ProgramResult traced = RunIkpose({"trace", "--clip", "walk", "--fps", "10", "--prop",
                                          stairs, "--out", dir + "/t.jsonl", "--json"});
  ASSERT_EQ(traced.exit_code, 0) << traced.err;
  EXPECT_GT(json::parse(traced.out)["frames"].get<int>(), 5);
  const ProgramResult exported = RunIkpose({"export", "--clip", "walk", "--time", "0.35", "--prop",
                                            stairs, "--out", dir + "/posed.glb"});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  const ProgramResult flat =
      RunIkpose({"export", "--clip", "walk", "--time", "0.35", "--out", dir + "/flat.glb"});
  ASSERT_EQ(flat.exit_code, 0) << flat.err;
  EXPECT_NE(fs::file_size(dir + "/posed.glb"), 0u);
  std::ifstream a(dir + "/posed.glb", std::ios::binary), b(dir + "/flat.glb", std::ios::binary);
  const std::string on_stairs((std::istreambuf_iterator<char>(a)), {});
  const std::string on_floor((std::istreambuf_iterator<char>(b)), {});
  EXPECT_NE(on_stairs, on_floor) << "the foot on the step moves the pose";
  // Each traced frame is the pose at its time: the same frame with and without the stairs
  // differs too.
  const ProgramResult plain = RunIkpose(
      {"trace", "--clip", "walk", "--fps", "10", "--out", dir + "/plain.jsonl", "--json"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  std::ifstream ta(dir + "/t.jsonl"), tb(dir + "/plain.jsonl");
  const std::string with_stairs((std::istreambuf_iterator<char>(ta)), {});
  const std::string without((std::istreambuf_iterator<char>(tb)), {});
  EXPECT_NE(with_stairs, without);
  fs::remove_all(dir);
}

// The bundled ladder scene has no bone axis through the rungs or rails (the knees turn out to
// clear them, and the body's help places the pelvis): only the raised left leg's skin touches
// the near rail (each listed depth under the limb's radius); the same scene with the body pushed
// 0.2 m into the ladder and no help puts both shins through rungs, their axes inside: listed in
// the report and warned about. A ladder whose rungs are a metre apart is out of the character's
// reach: warned about.
TEST(PropsCli, ShinThroughARungAndALadderOutOfReachAreWarnedAbout) {
  const fs::path scene = fs::path(IKPOSE_SOURCE_DIR) / "assets/scenes/ladder.json";
  for (const char* help : {"on", "off"}) {
    const ProgramResult clear =
        RunIkpose({"pose", "--scene", scene.string(), "--body-help", help, "--json"});
    ASSERT_EQ(clear.exit_code, 0) << clear.err;
    const json report = json::parse(clear.out);  // kept: the loop reads into it
    for (const json& p : report["penetrations"]) {
      EXPECT_LT(p["depth"].get<double>(), p["radius"].get<double>()) << help << p.dump();
      EXPECT_TRUE(p["bone"] == "thigh_l" || p["bone"] == "calf_l") << help << p.dump();
    }
  }
  json pushed;
  {
    std::ifstream in(scene);
    pushed = json::parse(in);
  }
  pushed["model"] = (scene.parent_path() / pushed["model"].get<std::string>()).string();
  pushed["ladder"]["fit_body"] = false;
  pushed["body"] = {{"offset", {0.0, 0.0, 0.2}}};
  const std::string pushed_dir = MakeTempDir();
  std::ofstream(pushed_dir + "/pushed.json") << pushed.dump();
  const ProgramResult r =
      RunIkpose({"pose", "--scene", pushed_dir + "/pushed.json", "--body-help", "off", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json list = json::parse(r.out)["penetrations"];
  // Both shins with their axes through rungs; the thighs' skin in the rungs above, and a wrist
  // at most touching the rung its hand grips (the gripping hands' fingers are left out).
  int shins = 0;
  for (const json& p : list) {
    EXPECT_EQ(p["prop"], "ladder");
    if (p["bone"] == "calf_l" || p["bone"] == "calf_r") {
      ++shins;
      EXPECT_GT(p["depth"].get<double>(), p["radius"].get<double>()) << "the axis inside";
    } else {
      EXPECT_TRUE(p["bone"] == "thigh_l" || p["bone"] == "thigh_r" || p["child"] == "hand_l" ||
                  p["child"] == "hand_r")
          << p.dump();
      EXPECT_LT(p["depth"].get<double>(), p["radius"].get<double>()) << "the skin alone";
    }
  }
  EXPECT_EQ(shins, 2) << list.dump();
  EXPECT_NE(r.err.find("ikpose: warning: bone calf_l -> foot_l is "), std::string::npos) << r.err;
  fs::remove_all(pushed_dir);
  const std::string dir = MakeTempDir();
  std::ofstream(dir + "/far.json") << R"({"ladder": {"enabled": true, "rung_spacing": 1.0}})";
  const ProgramResult far = RunIkpose({"pose", "--scene", dir + "/far.json"});
  ASSERT_EQ(far.exit_code, 0) << far.err;
  EXPECT_NE(far.err.find("ikpose: warning: the ladder's rungs are out of the character's reach"),
            std::string::npos)
      << far.err;
  fs::remove_all(dir);
}

// Hands put on a table (the bundled box at 3.5 times its size: its top 0.70 high) lie on their
// palms on its top through the real program: the wrists a little over it, no finger or thumb
// bone of the bundled character under it. Hanging from the wrists as at rest, the fingers went
// 13 cm into it.
TEST(PropsCli, HandsPutOnATableLieOnTheirPalms) {
  const std::string dir = MakeTempDir();
  std::ofstream(dir + "/table.json") << R"({"props": [{"file": ")" << (kProps / "box.glb").string()
                                     << R"(", "position": [0, 0, 1.0], "scale": 3.5}],
      "limbs": {"left_arm": {"target": [0.2, 0.72, 0.45]},
                "right_arm": {"target": [-0.2, 0.72, 0.45]}}})";
  const ProgramResult posed = RunIkpose({"pose", "--scene", dir + "/table.json", "--json"});
  ASSERT_EQ(posed.exit_code, 0) << posed.err;
  const json j = json::parse(posed.out);
  const double top = 0.2 * 3.5;
  int fingers = 0;
  for (const json& b : j["bones"]) {
    const std::string name = b["name"];
    const double y = b["position_ms"][1];
    if (name == "hand_l" || name == "hand_r") {
      EXPECT_GT(y, top) << name << ": the wrist over the top";
      EXPECT_LT(y, top + 0.05) << name << ": the hand down on the top";
    }
    for (const char* finger : {"thumb_", "index_", "middle_", "ring_", "pinky_"}) {
      if (name.rfind(finger, 0) != 0) continue;
      ++fingers;
      EXPECT_GT(y, top - 0.005) << name << " inside the table";
    }
  }
  EXPECT_GE(fingers, 20) << "the bundled character's finger bones";
  // The report says what each hand lies on (why its wrist is over the top, not on its target).
  for (const char* arm : {"left_arm", "right_arm"}) {
    const std::string on = j["chains"][arm].value("palm_on", "");
    EXPECT_TRUE(on.size() >= 7 && on.compare(on.size() - 7, 7, "box.glb") == 0)
        << arm << ": " << on;
  }
  // A hand held up in the air lies on nothing.
  std::ofstream(dir + "/air.json") << R"({"limbs": {"left_arm": {"target": [0.3, 1.3, 0.4]}}})";
  const ProgramResult air = RunIkpose({"pose", "--scene", dir + "/air.json", "--json"});
  ASSERT_EQ(air.exit_code, 0) << air.err;
  EXPECT_FALSE(json::parse(air.out)["chains"]["left_arm"].contains("palm_on"));
  fs::remove_all(dir);
}

// Feet placed where they stand and hands on a low box (its top at half a metre) in front of
// them: the body bends over the box at the hips, and no bone but an arm's is reported inside it.
// Before, the pelvis slid forward and the legs went 23 cm into it (thigh_l -> calf_l).
TEST(PropsCli, ABodyLeaningOnALowBoxBendsOverIt) {
  const std::string dir = MakeTempDir();
  std::ofstream(dir + "/lean.json") << R"({"props": [{"file": ")" << (kProps / "box.glb").string()
                                    << R"(", "position": [0, 0, 0.8], "scale": 2.5}],
      "limbs": {"left_arm": {"target": [0.2, 0.52, 0.6]}, "right_arm": {"target": [-0.2, 0.52, 0.6]},
                "left_leg": {"target": [0.09, 0.085, -0.03]},
                "right_leg": {"target": [-0.09, 0.085, -0.03]}}})";
  const ProgramResult posed = RunIkpose({"pose", "--scene", dir + "/lean.json", "--json"});
  ASSERT_EQ(posed.exit_code, 0) << posed.err;
  const json j = json::parse(posed.out);
  EXPECT_TRUE(j["body_help"]["four_contacts"].get<bool>());
  EXPECT_GT(j["body_help"]["pelvis_tilt_deg"].get<double>(), 20.0) << "bends at the hips";
  for (const auto& [name, chain] : j["chains"].items())
    EXPECT_LT(chain["error"].get<double>(), 0.005) << name << " reaches its target";
  for (const json& p : j["penetrations"]) {
    const std::string bone = p["bone"];
    const bool arm =
        bone.find("arm") != std::string::npos || bone.find("hand") != std::string::npos;
    const bool finger =
        bone.find('_') != std::string::npos &&
        (bone.rfind("thumb", 0) == 0 || bone.rfind("index", 0) == 0 ||
         bone.rfind("middle", 0) == 0 || bone.rfind("ring", 0) == 0 || bone.rfind("pinky", 0) == 0);
    if (arm || finger) continue;
    ADD_FAILURE() << bone << " -> " << p["child"].get<std::string>() << " is "
                  << p["depth"].get<double>() << " inside the box";
  }
  fs::remove_all(dir);
}

// A prop a hundred times the size it was made at (a scenario's "scale") is one warning line in
// `pose` and in `render`, naming how far off it is; at its own size, nothing.
TEST(PropsCli, APropFarOffTheCharactersSizeIsOneWarningLine) {
  const std::string dir = MakeTempDir();
  const std::string box = (kProps / "box.glb").string();
  std::ofstream(dir + "/big.json")
      << R"({"props": [{"file": ")" << box << R"(", "position": [0.6, 0, 0.3], "scale": 100}]})";
  std::ofstream(dir + "/fits.json")
      << R"({"props": [{"file": ")" << box << R"(", "position": [0.6, 0, 0.3]}]})";
  const std::string line =
      "ikpose: warning: prop box.glb is 11x the character's height (20 model units tall for a "
      "character 1.81 tall): in other units? its \"scale\" sizes it\n";
  const ProgramResult posed = RunIkpose({"pose", "--scene", dir + "/big.json", "--json"});
  ASSERT_EQ(posed.exit_code, 0) << posed.err;
  EXPECT_EQ(posed.err, line);
  const ProgramResult rendered = RunIkpose(
      {"render", "--scene", dir + "/big.json", "--out", dir + "/big.png", "--size", "64x64"});
  ASSERT_EQ(rendered.exit_code, 0) << rendered.err;
  EXPECT_EQ(rendered.err, line);
  const ProgramResult fits = RunIkpose({"pose", "--scene", dir + "/fits.json", "--json"});
  ASSERT_EQ(fits.exit_code, 0) << fits.err;
  EXPECT_EQ(fits.err, "");
  fs::remove_all(dir);
}

// The bundled ladder, placed as a prop, is the ladder hands and feet snap to: the report names
// the prop as the ladder's, each limb is sent onto its rung (a hand's wrist behind the rung it
// grips, a foot's ankle above the rung it stands on), and `render --report` says the same.
// "rungs": false makes it a plain prop.
TEST(PropsCli, HandsAndFeetSnapToALadderPropsRungs) {
  const std::string dir = MakeTempDir();
  const std::string ladder = (kProps / "ladder.glb").string();
  const std::string limbs = R"("limbs": {"left_arm": {"target": [0.2, 1.4, 0.4]},
      "right_arm": {"target": [-0.2, 1.1, 0.4]}, "left_leg": {"target": [0.15, 0.55, 0.4]},
      "right_leg": {"target": [-0.15, 0.25, 0.4]}}, "ladder": {"snap": true, "fit_body": true})";
  std::ofstream(dir + "/climb.json") << R"({"props": [{"file": ")" << ladder
                                     << R"(", "position": [0, 0, 0.4]}], )" << limbs << "}";
  std::ofstream(dir + "/plain.json")
      << R"({"props": [{"file": ")" << ladder << R"(", "position": [0, 0, 0.4], "rungs": false}], )"
      << limbs << "}";
  const ProgramResult posed = RunIkpose({"pose", "--scene", dir + "/climb.json", "--json"});
  ASSERT_EQ(posed.exit_code, 0) << posed.err;
  const json report = json::parse(posed.out);
  ASSERT_TRUE(report.contains("ladder"));
  EXPECT_EQ(report["ladder"]["prop"], ladder);
  EXPECT_NEAR(report["ladder"]["rung_spacing"].get<double>(), 0.3, 1e-5);
  EXPECT_NEAR(report["ladder"]["base_ms"][2].get<double>(), 0.4, 1e-5);
  for (const char* limb : {"left_arm", "right_arm", "left_leg", "right_leg"}) {
    SCOPED_TRACE(limb);
    const json& chain = report["chains"][limb];
    ASSERT_TRUE(chain.contains("end_target")) << "on a rung, the end goes to the grip or stance";
    const double rung_y = chain["target"][1].get<double>();
    // Rungs at 0.25 + 0.3 k: a hand's target on the axis, a foot's on the top (radius 0.02).
    const double axis = std::string(limb).find("arm") != std::string::npos ? rung_y : rung_y - 0.02;
    const double k = (axis - 0.25) / 0.3;
    EXPECT_NEAR(k, std::round(k), 1e-4) << rung_y;
    EXPECT_LT(chain["error"].get<double>(), 1e-4);
  }
  const ProgramResult rendered =
      RunIkpose({"render", "--scene", dir + "/climb.json", "--out", dir + "/c.png", "--size",
                 "64x64", "--report", dir + "/r.json"});
  ASSERT_EQ(rendered.exit_code, 0) << rendered.err;
  std::ifstream in(dir + "/r.json");
  EXPECT_EQ(json::parse(in), report);
  const ProgramResult plain = RunIkpose({"pose", "--scene", dir + "/plain.json", "--json"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_FALSE(json::parse(plain.out).contains("ladder"));
  fs::remove_all(dir);
}

// The JSON chunk of a .glb file (the header, then the chunk's length and type).
json GlbJson(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), {});
  if (bytes.size() < 20 || bytes.compare(0, 4, "glTF") != 0) return json();
  std::uint32_t length = 0;
  std::memcpy(&length, bytes.data() + 12, 4);
  return json::parse(bytes.substr(20, length));
}

// An exported pose shows what the character stands on: each prop is a root node named after
// its file, at its placement, with the prop's mesh as it stands; --no-props leaves them out,
// and what of a prop the file cannot hold is one note.
TEST(PropsCli, ExportWritesThePropsBesideTheCharacter) {
  const std::string dir = MakeTempDir();
  const std::string box = (kProps / "box.glb").string();
  const ProgramResult r =
      RunIkpose({"export", "--clip", "walk", "--time", "0.35", "--prop", box + "@0.22,0,0.05,30",
                 "--prop", box + "@-0.5,0,0.4", "--out", dir + "/posed.glb"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json gltf = GlbJson(dir + "/posed.glb");
  ASSERT_TRUE(gltf.is_object());
  const json& roots = gltf["scenes"][0]["nodes"];
  std::map<std::string, json> props;
  for (const json& root : roots) {
    const json& node = gltf["nodes"][root.get<std::size_t>()];
    if (node["name"].get<std::string>().rfind("box", 0) == 0) props[node["name"]] = node;
  }
  ASSERT_EQ(props.size(), 2u) << gltf["scenes"].dump();
  const json& first = props["box"];
  EXPECT_NEAR(first["translation"][0].get<double>(), 0.22, 1e-6);
  EXPECT_NEAR(first["translation"][2].get<double>(), 0.05, 1e-6);
  // 30 degrees about +Y: [0, sin 15, 0, cos 15].
  EXPECT_NEAR(first["rotation"][1].get<double>(), std::sin(15.0 * M_PI / 180.0), 1e-6);
  EXPECT_NEAR(props["box_2"]["translation"][0].get<double>(), -0.5, 1e-6);
  // The box as it is made (tools/make_props): 40 cm square, 20 cm high, on the floor.
  const json& mesh = gltf["meshes"][first["mesh"].get<std::size_t>()];
  const json& position =
      gltf["accessors"][mesh["primitives"][0]["attributes"]["POSITION"].get<int>()];
  EXPECT_NEAR(position["min"][0].get<double>(), -0.2, 1e-6);
  EXPECT_NEAR(position["min"][1].get<double>(), 0.0, 1e-6);
  EXPECT_NEAR(position["max"][1].get<double>(), 0.2, 1e-6);
  EXPECT_NE(r.out.find("prop box beside it"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("note: prop"), std::string::npos) << "nothing of the box is lost: " << r.out;

  // --no-props: the character alone.
  const ProgramResult alone =
      RunIkpose({"export", "--clip", "walk", "--time", "0.35", "--prop", box + "@0.22,0,0.05",
                 "--no-props", "--out", dir + "/alone.glb"});
  ASSERT_EQ(alone.exit_code, 0) << alone.err;
  const json alone_gltf = GlbJson(dir + "/alone.glb");  // kept: the loop reads into it
  for (const json& node : alone_gltf["nodes"]) EXPECT_NE(node["name"], "box");

  // A rigged prop (the character itself) stands in its rest pose: its bones are not written,
  // and export says so in one line.
  const std::string rigged = (fs::path(IKPOSE_SOURCE_DIR) / "assets/character.glb").string();
  const ProgramResult noted = RunIkpose({"export", "--target", "left_arm=0.4,1.2,0.3", "--prop",
                                         rigged + "@1,0,0", "--out", dir + "/noted.glb"});
  ASSERT_EQ(noted.exit_code, 0) << noted.err;
  const std::string note =
      "note: prop character: its bones (it stands in its rest pose) not written\n";
  EXPECT_NE(noted.out.find(note), std::string::npos) << noted.out;
  fs::remove_all(dir);
}

// A board 1 m square lying on the floor, its UVs over it, painted with a base colour factor and
// `png` (the file at `png_path`) as its base colour texture: a textured prop made here.
anim::Model PaintedBoard(const std::string& png_path, std::vector<std::uint8_t> png) {
  anim::Model board;
  board.source = "board";
  board.format = "generated";
  board.units = "m";
  board.skeleton.names = {"board"};
  board.skeleton.parents = {-1};
  board.skeleton.rest_ls = {anim::Transform{}};
  board.skeleton.flags = {0};
  anim::Texture texture;
  texture.name = fs::path(png_path).filename().string();
  texture.encoded = std::move(png);
  texture.format_hint = "png";
  board.textures.push_back(texture);
  anim::Material paint;
  paint.name = "paint";
  paint.base_color = glm::vec4(0.9f, 0.6f, 0.3f, 1.0f);
  paint.base_color_texture = 0;
  board.materials.push_back(paint);
  anim::Mesh mesh;
  mesh.name = "board";
  mesh.node = 0;
  mesh.follow_bone = 0;
  mesh.material = 0;
  mesh.positions_bs = {{-0.5f, 0, 0.5f}, {0.5f, 0, 0.5f}, {0.5f, 0, -0.5f}, {-0.5f, 0, -0.5f}};
  mesh.normals_bs.assign(4, glm::vec3(0, 1, 0));
  mesh.uvs = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
  mesh.indices = {0, 1, 2, 0, 2, 3};
  board.meshes.push_back(mesh);
  return board;
}

// A prop's material and texture go into the export: the painted board's colour factor, its
// PNG's very bytes and its UVs come back when assimp reads the exported file, and no note says
// anything of it was left out.
TEST(PropsCli, ExportWritesAPropsMaterialAndTextureBesideTheCharacter) {
  const std::string dir = MakeTempDir();
  const std::string png_path = dir + "/paint.png";
  std::vector<std::uint8_t> rgba(4 * 4 * 4);
  for (std::size_t i = 0; i < rgba.size(); ++i) rgba[i] = static_cast<std::uint8_t>(i * 13);
  ASSERT_NE(stbi_write_png(png_path.c_str(), 4, 4, 4, rgba.data(), 4 * 4), 0);
  std::ifstream png_file(png_path, std::ios::binary);
  const std::vector<std::uint8_t> png((std::istreambuf_iterator<char>(png_file)),
                                      std::istreambuf_iterator<char>());
  ASSERT_GT(png.size(), 8u);
  const anim::Model board = PaintedBoard(png_path, png);
  std::vector<std::string> warnings;
  std::string error;
  ASSERT_TRUE(asset::WritePosedGlb(board, anim::RestPose(board.skeleton).locals_ls,
                                   dir + "/board.glb", &warnings, &error))
      << error;

  const ProgramResult r = RunIkpose({"export", "--clip", "walk", "--prop",
                                     dir + "/board.glb@0.5,0,0.3", "--out", dir + "/posed.glb"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("prop board beside it"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("note: prop board"), std::string::npos) << r.out;

  anim::Model back;
  ASSERT_TRUE(asset::TryLoadModel(dir + "/posed.glb", &back, &error)) << error;
  const anim::Mesh* painted = nullptr;
  for (const anim::Mesh& mesh : back.meshes) {
    if (mesh.material >= 0 &&
        back.materials[static_cast<std::size_t>(mesh.material)].name == "paint") {
      EXPECT_EQ(painted, nullptr) << "one board";
      painted = &mesh;
    }
  }
  ASSERT_NE(painted, nullptr) << "the board's material is not in the exported file";
  const anim::Material& paint = back.materials[static_cast<std::size_t>(painted->material)];
  EXPECT_LT(glm::length(paint.base_color - glm::vec4(0.9f, 0.6f, 0.3f, 1.0f)), 1e-5f);
  ASSERT_GE(paint.base_color_texture, 0) << "the board's texture is not in the exported file";
  EXPECT_EQ(back.textures[static_cast<std::size_t>(paint.base_color_texture)].encoded, png);
  // Each corner keeps its UV (vertices may come back in another order, placed).
  ASSERT_EQ(painted->uvs.size(), 4u);
  for (std::size_t v = 0; v < 4; ++v) {
    const glm::vec3 p = painted->positions_bs[v] - glm::vec3(0.5f, 0.0f, 0.3f);
    const glm::vec2 expected(p.x > 0.0f ? 1.0f : 0.0f, p.z > 0.0f ? 0.0f : 1.0f);
    EXPECT_LT(glm::length(painted->uvs[v] - expected), 1e-6f) << v;
  }
  fs::remove_all(dir);
}

// A rigged prop stands as the window draws it, in its rest pose, not its bind pose: a pose
// exported with the left hand raised over the head, placed as a prop, keeps that hand over its
// head in an export (bound, it stands with its arms down). The ground and the rungs read the
// same vertices (scene::AppendPropTriangles).
TEST(PropsCli, ARiggedPropStandsInItsRestPoseNotItsBindPose) {
  const std::string dir = MakeTempDir();
  const ProgramResult raised =
      RunIkpose({"export", "--target", "left_arm=0.25,1.95,0", "--out", dir + "/raised.glb"});
  ASSERT_EQ(raised.exit_code, 0) << raised.err;

  const ProgramResult exported = RunIkpose(
      {"export", "--clip", "walk", "--prop", dir + "/raised.glb@1,0,0", "--out", dir + "/out.glb"});
  ASSERT_EQ(exported.exit_code, 0) << exported.err;
  const json gltf = GlbJson(dir + "/out.glb");
  float top = -1e9f;
  bool found = false;
  for (const json& node : gltf["nodes"]) {
    if (node.value("name", "") != "raised" || !node.contains("mesh")) continue;
    found = true;
    for (const json& primitive : gltf["meshes"][node["mesh"].get<int>()]["primitives"]) {
      const json& position = gltf["accessors"][primitive["attributes"]["POSITION"].get<int>()];
      top = std::max(top, position["max"][1].get<float>());
    }
  }
  ASSERT_TRUE(found) << "no prop node named raised";
  // The bundled character's head is at 1.8 m; the raised hand reaches over it.
  EXPECT_GT(top, 1.88f) << "the prop was written in its bind pose (arms down)";
  fs::remove_all(dir);
}

TEST(PropsCli, HostilePropsAreOneErrorLine) {
  const std::string dir = MakeTempDir();
  ExpectOneErrorLine(RunIkpose({"pose", "--prop", dir + "/missing.glb@0,0,0"}), "missing.glb");
  ASSERT_EQ(mkfifo((dir + "/fifo.glb").c_str(), 0600), 0);
  ExpectOneErrorLine(RunIkpose({"pose", "--prop", dir + "/fifo.glb@0,0,0"}), "FIFO");
  std::ofstream(dir + "/empty.obj") << "v 0 0 0\nv 1 0 0\n";
  ExpectOneErrorLine(RunIkpose({"pose", "--prop", dir + "/empty.obj@0,0,0"}), "empty.obj");
  std::ofstream(dir + "/nan.obj") << "v nan 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
  ExpectOneErrorLine(RunIkpose({"pose", "--prop", dir + "/nan.obj@0,0,0"}), "finite");
  {  // 100,000 triangles placed 51 times: 5.1 million, over the scene's limit.
    std::ofstream obj(dir + "/many.obj");
    obj << "v 0 0 0\nv 1 0 0\nv 0 1 0\n";
    for (int i = 0; i < 100000; ++i) obj << "f 1 2 3\n";
  }
  std::vector<std::string> args = {"pose"};
  for (int i = 0; i < 51; ++i) {
    args.push_back("--prop");
    args.push_back(dir + "/many.obj@0," + std::to_string(i) + ",0");
  }
  ExpectOneErrorLine(RunIkpose(args), "5000000 triangles");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ikpose::test
