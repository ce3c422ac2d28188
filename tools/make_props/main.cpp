// ikpose_make_props DIR: writes the bundled props into DIR (assets/props): stairs with 17 cm
// steps, a 15 degree ramp, a box, a chair and a solid ladder, each a static binary glTF in metres
// with its origin on the floor (y = 0), centred across X, reaching toward +Z (the character's
// front when it faces +Z). They are the shapes of src/scene/world/solid_shapes.h, so a test can
// make the same prop in memory.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "asset/export_gltf.h"
#include "scene/world/solid_shapes.h"

namespace {

using ikpose::scene::AppendBox;
using ikpose::scene::AppendWedge;

struct Shape {
  std::vector<glm::vec3> vertices, normals;
  std::vector<std::uint32_t> indices;
};

bool Write(const std::filesystem::path& dir, const std::string& name, Shape shape,
           const glm::vec4& color) {
  const ikpose::anim::Model model = ikpose::scene::StaticModel(
      name, std::move(shape.vertices), std::move(shape.normals), std::move(shape.indices), color);
  std::vector<ikpose::anim::Transform> rest = model.skeleton.rest_ls;
  std::string error;
  if (!ikpose::asset::WritePosedGlb(model, rest, dir / (name + ".glb"), nullptr, &error)) {
    std::fprintf(stderr, "ikpose_make_props: %s\n", error.c_str());
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: ikpose_make_props DIR\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  const glm::vec4 stone(0.62f, 0.63f, 0.66f, 1.0f), wood(0.80f, 0.62f, 0.38f, 1.0f);
  bool ok = true;
  {  // Four steps of 17 cm rise and 28 cm tread, 90 cm wide, solid to the floor.
    Shape s;
    for (int k = 0; k < 4; ++k) {
      AppendBox(glm::vec3(-0.45f, 0.0f, 0.28f * static_cast<float>(k)),
                glm::vec3(0.45f, 0.17f * static_cast<float>(k + 1), 1.12f), &s.vertices, &s.normals,
                &s.indices);
    }
    ok = Write(dir, "stairs", std::move(s), stone) && ok;
  }
  {  // 1.2 m long rising 15 degrees toward +Z, 90 cm wide.
    Shape s;
    const float rise = 1.2f * std::tan(15.0f * 3.14159265f / 180.0f);
    AppendWedge(glm::vec3(-0.45f, 0.0f, 0.0f), glm::vec3(0.45f, rise, 1.2f), &s.vertices,
                &s.normals, &s.indices);
    ok = Write(dir, "ramp", std::move(s), stone) && ok;
  }
  {  // A 40 cm cube's footprint, 20 cm high: a step up under one foot.
    Shape s;
    AppendBox(glm::vec3(-0.2f, 0.0f, -0.2f), glm::vec3(0.2f, 0.2f, 0.2f), &s.vertices, &s.normals,
              &s.indices);
    ok = Write(dir, "box", std::move(s), wood) && ok;
  }
  {  // Seat 45 cm high, 45 cm square, four legs, the back at -Z.
    Shape s;
    AppendBox(glm::vec3(-0.225f, 0.42f, -0.225f), glm::vec3(0.225f, 0.45f, 0.225f), &s.vertices,
              &s.normals, &s.indices);
    for (float x : {-0.2f, 0.17f}) {
      for (float z : {-0.2f, 0.17f}) {
        AppendBox(glm::vec3(x, 0.0f, z), glm::vec3(x + 0.03f, 0.42f, z + 0.03f), &s.vertices,
                  &s.normals, &s.indices);
      }
    }
    AppendBox(glm::vec3(-0.225f, 0.45f, -0.225f), glm::vec3(0.225f, 0.9f, -0.2f), &s.vertices,
              &s.normals, &s.indices);
    ok = Write(dir, "chair", std::move(s), wood) && ok;
  }
  {  // The default ladder of scene/world/ladder.h standing at the origin.
    Shape s;
    ikpose::scene::Ladder ladder;
    ladder.base_ms = glm::vec3(0.0f);
    ikpose::scene::LadderTriangles(ladder, &s.vertices, &s.indices, &s.normals);
    ok = Write(dir, "ladder", std::move(s), wood) && ok;
  }
  return ok ? 0 : 1;
}
