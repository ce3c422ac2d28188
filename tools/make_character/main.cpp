// ikpose_make_character OUT.glb
//
// Generates the bundled default character: a 1.8 m humanoid with an Unreal-mannequin-style rig
// (root, pelvis, three spine bones, neck, head, clavicles, arms, hands with thumbs and four
// fingers, legs, feet, toes), a smooth skinned body in three materials, and the clips idle,
// walk and ladder_climb. The output is the same bytes on every run; it is written to a
// temporary file beside OUT and then renamed over OUT.
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>

#include "body.h"
#include "clips.h"
#include "glb_writer.h"
#include "rig.h"

namespace {

namespace fs = std::filesystem;
using namespace ikpose::character;

void WriteAtomically(const fs::path& path, const std::vector<std::uint8_t>& bytes) {
  const fs::path temporary = path.string() + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + temporary.string());
    out.write(reinterpret_cast<const char*>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) throw std::runtime_error("cannot write " + temporary.string());
  }
  fs::rename(temporary, path);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2 || std::string(argv[1]) == "--help") {
    std::fprintf(stderr, "usage: ikpose_make_character OUT.glb\n");
    return argc == 2 ? 0 : 2;
  }
  try {
    const Rig rig = BuildRig();
    const std::vector<Part> parts = BuildBody(rig);
    std::size_t vertices = 0, triangles = 0;
    for (std::size_t i = 0; i < parts.size(); ++i) {
      if (!(SignedVolume(parts[i]) > 0.0)) {
        throw std::logic_error("body part " + std::to_string(i) + " is inside out");
      }
      vertices += parts[i].positions.size();
      triangles += parts[i].triangles.size();
    }
    const std::vector<Clip> clips = BuildClips(rig);
    const std::vector<MaterialSpec> materials{
        {"skin", {0.86, 0.64, 0.52, 1.0}, 0.6},
        {"shirt", {0.17, 0.40, 0.58, 1.0}, 0.8},
        {"trousers_shoes_hair", {0.13, 0.13, 0.15, 1.0}, 0.85},
    };
    const std::vector<std::uint8_t> bytes = WriteGlb(rig, parts, materials, clips);
    WriteAtomically(argv[1], bytes);
    std::printf("%s: %zu joints, %zu vertices, %zu triangles, %zu clips, %zu bytes\n", argv[1],
                rig.joints.size(), vertices, triangles, clips.size(), bytes.size());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ikpose_make_character: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
