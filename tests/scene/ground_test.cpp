// Ground contact and penetrations (scene/world/ground_contact.h) on the bundled character and on
// the shared real characters (skipped, saying so, when ../shared/models is absent), with props made
// in the test from scene/world/solid_shapes.h. The contract: with props and no foot targets, each
// foot's ankle and first toe joint sit, along the surface's normal, at their rest heights over
// the floor, within 5 mm for a 1.8 m body: a box under one foot, a step down with the floor off
// (the pelvis lowered), a 15 degree ramp under both feet; knees ahead of the hip-ankle line (over
// the toes), no bone stretched.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>
#include <string>

#include "../asset/model_checks.h"
#include "asset/load_model.h"
#include "scene/road/posing_request.h"
#include "scene/world/solid_shapes.h"
#include "scene/world/surface_bvh.h"
#include "scene/world/world.h"
#include "support/pose_expect.h"

namespace ikpose::scene {
namespace {

namespace fs = std::filesystem;
using anim::Limb;

// A prop made of boxes or a wedge, placed at `at_ms`.
struct Shapes {
  std::vector<glm::vec3> v, n;
  std::vector<std::uint32_t> i;
};

Prop MakeProp(const std::string& name, Shapes s, const glm::vec3& at_ms, float yaw_deg = 0.0f) {
  Prop prop;
  prop.path = name;
  prop.placement.file = name;
  prop.placement.position_ms = at_ms;
  prop.placement.yaw_deg = yaw_deg;
  prop.model = std::make_shared<anim::Model>(StaticModel(
      name, std::move(s.v), std::move(s.n), std::move(s.i), glm::vec4(0.7f, 0.7f, 0.7f, 1.0f)));
  return prop;
}

Prop Box(const std::string& name, const glm::vec3& lo, const glm::vec3& hi) {
  return BoxProp(name, lo, hi);
}

std::shared_ptr<const World> MakeWorld(std::vector<Prop> props) {
  std::string error;
  std::shared_ptr<const World> world = World::Build(std::move(props), &error);
  EXPECT_TRUE(world) << error;
  return world;
}

TEST(SurfaceBvh, CastsDownOntoATopAndGuardsBrokenInput) {
  Shapes s;
  AppendBox({-1, 0, -1}, {1, 0.5f, 1}, &s.v, &s.n, &s.i);
  SurfaceBvh bvh;
  std::string error;
  ASSERT_TRUE(bvh.Build(s.v, s.i, &error)) << error;
  EXPECT_EQ(bvh.triangles(), 12u);
  const std::optional<RayHit> hit = bvh.CastDown({0.3f, 2.0f, 0.2f}, 10.0f);
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->point_ms.y, 0.5f, 1e-6f);
  EXPECT_NEAR(hit->normal_ms.y, 1.0f, 1e-6f);
  EXPECT_TRUE(hit->front);
  EXPECT_FALSE(bvh.CastDown({3.0f, 2.0f, 0.0f}, 10.0f));  // beside it
  EXPECT_FALSE(bvh.CastDown({0.0f, 2.0f, 0.0f}, 1.0f));   // out of range
  const float nan = std::nanf("");
  EXPECT_FALSE(bvh.CastDown({nan, 2.0f, 0.0f}, 10.0f));
  EXPECT_FALSE(bvh.Cast({0, 2, 0}, {0, 0, 0}, 10.0f));
  // From inside, the first surface is left, not entered.
  const std::optional<RayHit> out = bvh.CastDown({0.0f, 0.25f, 0.0f}, 10.0f);
  ASSERT_TRUE(out);
  EXPECT_FALSE(out->front);
  // A triangle with a NaN vertex or an index out of range is skipped, the rest kept.
  s.v[0].x = nan;
  s.i.insert(s.i.end(), {0, 1, 9999});
  SurfaceBvh broken;
  ASSERT_TRUE(broken.Build(s.v, s.i, &error)) << error;
  EXPECT_EQ(broken.skipped(), 3u);  // the two top triangles share vertex 0
  EXPECT_EQ(broken.triangles(), 10u);
  SurfaceBvh empty;
  ASSERT_TRUE(empty.Build({}, {}, &error));
  EXPECT_TRUE(empty.empty());
  EXPECT_FALSE(empty.CastDown({0, 1, 0}, 10.0f));
}

// One character: what the contract needs of it.
struct Character {
  std::string name;
  anim::Model model;
  float height = 0.0f;
  float floor_y = 0.0f;
};

// The character's own frame on the floor: origin between the rest ankles at floor height, +Z
// its front, turned by yaw_deg about +Y from model space. Props are made in it.
struct Frame {
  glm::vec3 origin_ms{0.0f};
  float yaw_deg = 0.0f;
  glm::vec3 ToLocal(const glm::vec3& p_ms) const {
    return glm::angleAxis(-glm::radians(yaw_deg), glm::vec3(0, 1, 0)) * (p_ms - origin_ms);
  }
};

// A surface in the frame: y = y0 + slope * z (local), unit normal `normal_ls`.
struct Plane {
  float y0 = 0.0f;
  float slope = 0.0f;
  glm::vec3 normal_ls{0.0f, 1.0f, 0.0f};
};

// Each planted foot: ankle and first toe joint at their rest heights along the surface's
// normal, measured here from the pose and the surface's own plane (not the report's numbers).
void ExpectFootOnSurface(const PosingSession& session, const Character& c, const Frame& frame,
                         const Plane& plane, Limb leg, const std::string& what) {
  SCOPED_TRACE(what + " " + std::string(anim::LimbName(leg)));
  const FootContact& f = session.ground_report().feet[static_cast<std::size_t>(leg)];
  ASSERT_TRUE(f.contact);
  const int foot = session.chain(leg).end;
  const int toe = session.model().skeleton.Children(foot).front();
  const auto height = [&](const glm::vec3& p_ms) {
    const glm::vec3 q = frame.ToLocal(p_ms);
    return glm::dot(q - glm::vec3(q.x, plane.y0 + plane.slope * q.z, q.z), plane.normal_ls);
  };
  const float rest_ankle = anim::PositionMs(session.rest_pose(), foot).y - c.floor_y;
  const float rest_toe = anim::PositionMs(session.rest_pose(), toe).y - c.floor_y;
  const float tolerance = 0.005f * c.height / 1.8f;
  EXPECT_NEAR(height(anim::PositionMs(session.pose(), foot)), rest_ankle, tolerance);
  EXPECT_NEAR(height(anim::PositionMs(session.pose(), toe)), rest_toe, tolerance);
  EXPECT_LE(f.height_error, tolerance);
  // The knee ahead of the line from hip to ankle, along the character's front.
  const anim::ChainSolveResult& r = session.result(leg);
  if (!r.ok) {  // left standing where it rests (on the floor): not solved, not moved
    EXPECT_LT(glm::distance(anim::PositionMs(session.pose(), foot),
                            anim::PositionMs(session.rest_pose(), foot)),
              1e-5f * c.height);
    return;
  }
  const glm::vec3 along = glm::normalize(r.end_ms - r.hip_ms);
  const glm::vec3 off = (r.knee_ms - r.hip_ms) - glm::dot(r.knee_ms - r.hip_ms, along) * along;
  EXPECT_GE(glm::dot(off, session.chains().forward_ms), -1e-4f * c.height);
}

// A foot's rest ankle, model space.
glm::vec3 RestAnkle(const PosingSession& s, Limb leg) {
  return anim::PositionMs(s.rest_pose(), s.chain(leg).end);
}

std::unique_ptr<PosingSession> Pose(const Character& c, std::shared_ptr<const World> world,
                                    bool floor) {
  PosingRequest request;
  request.world = std::move(world);
  if (!floor) {
    Scenario scenario;
    scenario.floor = false;
    request.scenario = scenario;
  }
  std::string error;
  std::unique_ptr<PosingSession> session = BuildSession(c.model, request, &error);
  EXPECT_TRUE(session) << error;
  return session;
}

void CheckContract(const Character& c) {
  PosingSession probe(c.model);
  if (!probe.chain(Limb::kLeftLeg).valid() || !probe.chain(Limb::kRightLeg).valid() ||
      probe.model().skeleton.Children(probe.chain(Limb::kLeftLeg).end).empty() ||
      probe.model().skeleton.Children(probe.chain(Limb::kRightLeg).end).empty()) {
    GTEST_SKIP() << c.name << ": no two legs with toes";
  }
  const float k = c.height / 1.8f;  // props sized to the body
  const glm::vec3 fwd = probe.chains().forward_ms;
  Frame frame;
  frame.yaw_deg = glm::degrees(std::atan2(fwd.x, fwd.z));
  const glm::vec3 left_ms = RestAnkle(probe, Limb::kLeftLeg);
  const glm::vec3 right_ms = RestAnkle(probe, Limb::kRightLeg);
  frame.origin_ms = 0.5f * (left_ms + right_ms);
  frame.origin_ms.y = c.floor_y;
  const glm::vec3 left = frame.ToLocal(left_ms), right = frame.ToLocal(right_ms);
  const float gap = 0.5f * std::abs(left.x - right.x);
  // A box made in the frame around one foot's ankle (local), from `bottom` to `top`.
  const auto box_at = [&](const std::string& name, const glm::vec3& ankle, float bottom,
                          float top) {
    Shapes s;
    AppendBox(glm::vec3(ankle.x - 0.9f * gap, bottom, ankle.z - 0.25f * k),
              glm::vec3(ankle.x + 0.9f * gap, top, ankle.z + 0.25f * k), &s.v, &s.n, &s.i);
    return MakeProp(name, std::move(s), frame.origin_ms, frame.yaw_deg);
  };
  {  // A 20 cm box under the left foot, the right on the floor.
    auto s = Pose(c, MakeWorld({box_at("box", left, 0.0f, 0.2f * k)}), true);
    ASSERT_TRUE(s);
    ExpectFootOnSurface(*s, c, frame, {0.2f * k}, Limb::kLeftLeg, c.name + " box");
    ExpectFootOnSurface(*s, c, frame, {0.0f}, Limb::kRightLeg, c.name + " box");
    test::ExpectBonesUnstretched(*s);
  }
  {  // A step down with the floor off: the left foot's step at the floor's height, the right
     // foot's a step (17 cm for 1.8 m) lower; the pelvis must drop.
    const float step = 0.17f * k;
    auto s = Pose(
        c,
        MakeWorld({box_at("high", left, -0.5f * k, 0.0f), box_at("low", right, -0.5f * k, -step)}),
        false);
    ASSERT_TRUE(s);
    ExpectFootOnSurface(*s, c, frame, {0.0f}, Limb::kLeftLeg, c.name + " step");
    ExpectFootOnSurface(*s, c, frame, {-step}, Limb::kRightLeg, c.name + " step");
    EXPECT_GT(s->ground_report().pelvis_drop, 0.5f * step) << c.name;
    EXPECT_FALSE(s->ground_report().pelvis_drop_limited);
    test::ExpectBonesUnstretched(*s);
  }
  {  // A 15 degree ramp under both feet, rising toward the character's front.
    const float slope = std::tan(glm::radians(15.0f));
    const float half = 0.6f * k;
    Shapes w;
    AppendWedge(glm::vec3(-0.5f * k, 0.0f, -half), glm::vec3(0.5f * k, 2.0f * half * slope, half),
                &w.v, &w.n, &w.i);
    auto s =
        Pose(c, MakeWorld({MakeProp("ramp", std::move(w), frame.origin_ms, frame.yaw_deg)}), true);
    ASSERT_TRUE(s);
    const Plane plane{slope * half, slope, glm::normalize(glm::vec3(0.0f, 1.0f, -slope))};
    for (Limb leg : {Limb::kLeftLeg, Limb::kRightLeg}) {
      ExpectFootOnSurface(*s, c, frame, plane, leg, c.name + " ramp");
      EXPECT_NEAR(s->ground_report().feet[static_cast<std::size_t>(leg)].tilt_deg, 15.0f, 0.01f);
    }
    test::ExpectBonesUnstretched(*s);
  }
  {  // The low edge of that ramp between the ankles and the first toe joints: each sole lies
     // on the floor under the heel and on the ramp under the toe, no foot inside the ramp.
    const float slope = std::tan(glm::radians(15.0f));
    const glm::vec3 toe = frame.ToLocal(
        anim::PositionMs(probe.rest_pose(),
                         probe.model().skeleton.Children(probe.chain(Limb::kLeftLeg).end).front()));
    const float edge = 0.5f * (left.z + toe.z);
    Shapes w;
    AppendWedge(glm::vec3(-0.5f * k, 0.0f, edge),
                glm::vec3(0.5f * k, 1.2f * k * slope, edge + 1.2f * k), &w.v, &w.n, &w.i);
    auto s =
        Pose(c, MakeWorld({MakeProp("ramp", std::move(w), frame.origin_ms, frame.yaw_deg)}), true);
    ASSERT_TRUE(s);
    const float tolerance = 0.005f * k;
    for (Limb leg : {Limb::kLeftLeg, Limb::kRightLeg}) {
      SCOPED_TRACE(c.name + " ramp's edge " + std::string(anim::LimbName(leg)));
      const int foot = s->chain(leg).end;
      const int first_toe = s->model().skeleton.Children(foot).front();
      const glm::vec3 ankle = frame.ToLocal(anim::PositionMs(s->pose(), foot));
      const glm::vec3 ball = frame.ToLocal(anim::PositionMs(s->pose(), first_toe));
      const float rest_ankle = anim::PositionMs(s->rest_pose(), foot).y - c.floor_y;
      const float rest_toe = anim::PositionMs(s->rest_pose(), first_toe).y - c.floor_y;
      EXPECT_GE(ankle.y, rest_ankle - tolerance);  // not sunk into the floor
      // Over the ramp, along its normal, no lower than at rest over the floor.
      const glm::vec3 n = glm::normalize(glm::vec3(0.0f, 1.0f, -slope));
      EXPECT_GE(glm::dot(ball - glm::vec3(ball.x, slope * (ball.z - edge), ball.z), n),
                rest_toe - tolerance);
      EXPECT_GT(s->ground_report().feet[static_cast<std::size_t>(leg)].tilt_deg, 1.0f);
    }
    // Up to the first toe joints (the toes past them keep their rest bend, and can dip into a
    // slope steeper than the sole's tilt: human-male's toe ends).
    const anim::Skeleton& skeleton = s->model().skeleton;
    for (const Penetration& p : s->ground_report().penetrations) {
      bool toes = false;
      for (Limb leg : {Limb::kLeftLeg, Limb::kRightLeg})
        toes =
            toes || skeleton.IsAncestorOrSelf(skeleton.Children(s->chain(leg).end).front(), p.bone);
      if (!toes)
        ADD_FAILURE() << c.name << ": " << skeleton.names[static_cast<std::size_t>(p.bone)]
                      << " is " << p.depth << " inside the ramp";
    }
    test::ExpectBonesUnstretched(*s);
  }
}

Character Load(const fs::path& path) {
  Character c;
  c.name = path.filename().string();
  std::string error;
  EXPECT_TRUE(asset::TryLoadModel(path, &c.model, &error)) << error;
  const anim::Bounds b = anim::ComputeBounds(c.model, anim::RestPose(c.model.skeleton));
  c.height = b.max.y - b.min.y;
  // The floor: y = 0, unless the rest soles are more than 3 cm (for 1.8 m) off it.
  c.floor_y = std::abs(b.min.y) <= 0.03f * c.height / 1.8f ? 0.0f : b.min.y;
  return c;
}

TEST(GroundContact, BundledCharacterStandsOnBoxStepAndRamp) {
  CheckContract(Load(fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb"));
}

TEST(GroundContact, SharedCharactersStandOnBoxStepAndRamp) {
  const fs::path dir = asset::test::SharedModelsDir();
  if (dir.empty()) GTEST_SKIP() << "../shared/models is absent beside the checkout";
  for (const char* file :
       {"CesiumMan/CesiumMan.glb", "RiggedFigure/RiggedFigure.glb",
        "MaleBaseMesh/male_base_mesh.glb", "Mesh2MotionHumanMale/human-male.glb"}) {
    SCOPED_TRACE(file);
    CheckContract(Load(dir / file));
  }
}

TEST(GroundContact, OnTheFloorByDefaultAndOffWhenTurnedOff) {
  const Character c = Load(fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb");
  PosingRequest plain;
  std::string error;
  auto s = BuildSession(c.model, plain, &error);
  ASSERT_TRUE(s) << error;
  // No props: the feet stand on the floor at y = 0, where the rest pose already has them, so
  // no bone moves.
  ASSERT_TRUE(s->ground_report().active);
  EXPECT_EQ(s->floor_y(), 0.0f);
  for (Limb leg : {Limb::kLeftLeg, Limb::kRightLeg}) {
    const FootContact& f = s->ground_report().feet[static_cast<std::size_t>(leg)];
    EXPECT_TRUE(f.contact);
    EXPECT_EQ(f.prop, -1);
    EXPECT_NEAR(f.hit_ms.y, 0.0f, 1e-6f);
  }
  EXPECT_EQ(s->ground_report().pelvis_drop, 0.0f);
  for (int b = 0; b < c.model.skeleton.size(); ++b) {
    EXPECT_LT(glm::distance(anim::PositionMs(s->pose(), b), anim::PositionMs(s->rest_pose(), b)),
              1e-4f)
        << c.model.skeleton.names[static_cast<std::size_t>(b)];
  }
  PosingRequest off;
  off.world = MakeWorld({Box("box", {0.0f, 0.0f, -0.3f}, {0.3f, 0.2f, 0.3f})});
  off.ground = false;
  s = BuildSession(c.model, off, &error);
  ASSERT_TRUE(s) << error;
  EXPECT_FALSE(s->ground_report().active);
  // The left ankle stays where the rest pose has it, inside the box.
  EXPECT_NEAR(anim::EndPositionMs(s->chain(Limb::kLeftLeg), s->pose()).y,
              anim::EndPositionMs(s->chain(Limb::kLeftLeg), s->rest_pose()).y, 1e-6f);
}

// A rig made with its origin at the hips (its soles a metre below 0) would sink through a floor
// at 0: its floor is at its soles, and a line says so; a rig a few millimetres off 0 stands on 0.
TEST(GroundContact, TheFloorIsAtZeroUnlessTheRestSolesAreFarFromIt) {
  Character c = Load(fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb");
  for (float shift : {-1.0f, 0.004f}) {
    SCOPED_TRACE(shift);
    anim::Model moved = c.model;
    for (std::size_t b = 0; b < moved.skeleton.parents.size(); ++b) {
      if (moved.skeleton.parents[b] < 0) moved.skeleton.rest_ls[b].translation.y += shift;
    }
    PosingRequest request;
    request.world =
        MakeWorld({Box("box", {0.0f, shift - 0.1f, -0.3f}, {0.3f, shift + 0.2f, 0.3f})});
    std::string error;
    auto s = BuildSession(moved, request, &error);
    ASSERT_TRUE(s) << error;
    const float lowest = s->facts()->lowest_y;
    EXPECT_NEAR(lowest, shift, 1e-3f);
    const bool far = shift < 0.0f;
    EXPECT_EQ(s->floor_y(), far ? lowest : 0.0f);
    EXPECT_EQ(s->facts()->floor_note.empty(), !far);
    // The box's top 0.2 over the rest soles: the ankle at its rest height over the floor, over
    // the top (the rig 4 mm up stays 4 mm up).
    const FootContact& f = s->ground_report().feet[static_cast<std::size_t>(Limb::kLeftLeg)];
    ASSERT_TRUE(f.contact);
    const float rest_y = anim::EndPositionMs(s->chain(Limb::kLeftLeg), s->rest_pose()).y;
    EXPECT_NEAR(anim::EndPositionMs(s->chain(Limb::kLeftLeg), s->pose()).y,
                shift + 0.2f + rest_y - s->floor_y(), 1e-3f);
  }
}

// A foot half on a step, along the foot: the ankle over the edge with the toe on the step stands
// on the step (heel over the edge, not sunk into it); the ankle on the step with the toe past
// the edge keeps its sole flat on the step, not tilted down into the edge.
TEST(GroundContact, AToeOverAStepsEdge) {
  const Character c = Load(fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb");
  PosingSession probe(c.model);
  const int foot = probe.chain(Limb::kLeftLeg).end;
  const int toe = c.model.skeleton.Children(foot).front();
  const glm::vec3 ankle = anim::PositionMs(probe.rest_pose(), foot);
  const glm::vec3 toe_rest = anim::PositionMs(probe.rest_pose(), toe);
  ASSERT_GT(toe_rest.z - ankle.z, 0.05f);  // the toe ahead of the ankle along +Z
  const float edge_z = 0.5f * (ankle.z + toe_rest.z);
  const float top = 0.1f;
  for (bool toe_on_step : {true, false}) {
    SCOPED_TRACE(toe_on_step ? "toe on the step" : "ankle on the step");
    PosingRequest request;
    const float x0 = ankle.x - 0.06f, x1 = ankle.x + 0.06f;
    request.world = MakeWorld({toe_on_step ? Box("step", {x0, 0.0f, edge_z}, {x1, top, 1.0f})
                                           : Box("step", {x0, 0.0f, -1.0f}, {x1, top, edge_z})});
    std::string error;
    auto s = BuildSession(c.model, request, &error);
    ASSERT_TRUE(s) << error;
    const FootContact& f = s->ground_report().feet[static_cast<std::size_t>(Limb::kLeftLeg)];
    ASSERT_TRUE(f.contact);
    EXPECT_EQ(f.prop, 0);
    EXPECT_NEAR(f.tilt_deg, 0.0f, 0.01f);
    EXPECT_NEAR(anim::PositionMs(s->pose(), foot).y, top + ankle.y, 2e-3f);
    EXPECT_NEAR(anim::PositionMs(s->pose(), toe).y, top + toe_rest.y, 2e-3f);
    EXPECT_LE(f.height_error, 2e-3f);
    test::ExpectBonesUnstretched(*s);
  }
}

// The heel's ray: a step whose front edge is between the heel and the ankle (behind the foot)
// carries the foot onto its top, flat, rather than the heel sinking into it; the same step in
// front (ankle and toe on it, the heel over its edge) holds the foot flat on its top, the heel
// hanging.
TEST(GroundContact, AHeelOverAStepsEdge) {
  const Character c = Load(fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb");
  PosingSession probe(c.model);
  const int foot = probe.chain(Limb::kLeftLeg).end;
  const int toe = c.model.skeleton.Children(foot).front();
  const glm::vec3 ankle = anim::PositionMs(probe.rest_pose(), foot);
  const glm::vec3 toe_rest = anim::PositionMs(probe.rest_pose(), toe);
  ASSERT_GT(toe_rest.z - ankle.z, 0.05f);  // the toe ahead of the ankle along +Z
  const float heel_z = ankle.z - kHeelBehindOfFoot * (toe_rest.z - ankle.z);
  const float edge_z = 0.5f * (heel_z + ankle.z);
  const float top = 0.08f;
  for (bool step_behind : {true, false}) {
    SCOPED_TRACE(step_behind ? "the heel over the step" : "the heel over the edge");
    PosingRequest request;
    const float x0 = ankle.x - 0.06f, x1 = ankle.x + 0.06f;
    request.world = MakeWorld({step_behind ? Box("step", {x0, 0.0f, -1.0f}, {x1, top, edge_z})
                                           : Box("step", {x0, 0.0f, edge_z}, {x1, top, 1.0f})});
    std::string error;
    auto s = BuildSession(c.model, request, &error);
    ASSERT_TRUE(s) << error;
    const FootContact& f = s->ground_report().feet[static_cast<std::size_t>(Limb::kLeftLeg)];
    ASSERT_TRUE(f.contact);
    EXPECT_EQ(f.prop, 0);
    EXPECT_EQ(f.on_heel_surface, step_behind);
    EXPECT_NEAR(f.tilt_deg, 0.0f, 0.01f);
    EXPECT_NEAR(anim::PositionMs(s->pose(), foot).y, top + ankle.y, 2e-3f);
    EXPECT_NEAR(anim::PositionMs(s->pose(), toe).y, top + toe_rest.y, 2e-3f);
    EXPECT_NEAR(f.heel_hit_ms.y, step_behind ? top : 0.0f, 1e-4f);
    test::ExpectBonesUnstretched(*s);
  }
}

// Both feet on a box higher than a knee folds under: the pelvis rises (pelvis_drop negative),
// each ankle on the top at its rest height, no knee folded past kMaxKneeFoldDeg, no leg
// stretched; the same box under one foot only is held by the other leg's reach.
TEST(GroundContact, APelvisRisesOverAStepTooHighForTheKnees) {
  const Character c = Load(fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb");
  const float top = 0.55f;
  for (bool both : {true, false}) {
    SCOPED_TRACE(both ? "both feet" : "one foot");
    PosingRequest request;
    request.world = MakeWorld({Box("box", {both ? -0.5f : 0.0f, 0.0f, -0.3f}, {0.5f, top, 0.3f})});
    std::string error;
    auto s = BuildSession(c.model, request, &error);
    ASSERT_TRUE(s) << error;
    const GroundReport& g = s->ground_report();
    if (both) {
      EXPECT_LT(g.pelvis_drop, -0.05f);
      EXPECT_FALSE(g.pelvis_drop_limited);
    } else {
      EXPECT_LE(g.pelvis_drop, 0.0f);
      EXPECT_TRUE(g.pelvis_drop_limited);  // the floor leg cannot follow the pelvis up
    }
    for (Limb leg : {Limb::kLeftLeg, Limb::kRightLeg}) {
      const anim::LimbChain& ch = s->chain(leg);
      const glm::vec3 hip = anim::PositionMs(s->pose(), ch.upper);
      const glm::vec3 knee = anim::PositionMs(s->pose(), ch.lower);
      const glm::vec3 end = anim::PositionMs(s->pose(), ch.end);
      const float reach = ch.upper_length + ch.lower_length;
      EXPECT_LE(glm::distance(hip, end), reach * (1.0f + 1e-4f));
      const float fold =
          180.0f -
          glm::degrees(std::acos(glm::clamp(
              glm::dot(glm::normalize(hip - knee), glm::normalize(end - knee)), -1.0f, 1.0f)));
      const bool on_box = both || leg == Limb::kLeftLeg;
      if (both) {
        EXPECT_LE(fold, kMaxKneeFoldDeg + 0.5f) << anim::LimbName(leg);
      }
      const float rest_y = anim::PositionMs(s->rest_pose(), ch.end).y;
      EXPECT_NEAR(end.y, rest_y + (on_box ? top : 0.0f), 2e-3f) << anim::LimbName(leg);
    }
    test::ExpectBonesUnstretched(*s);
  }
}

TEST(GroundContact, PlacedFootTargetBelowASurfaceStandsOnIt) {
  const Character c = Load(fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb");
  PosingRequest request;
  request.world = MakeWorld({Box("box", {0.0f, 0.0f, -0.3f}, {0.3f, 0.2f, 0.3f})});
  const glm::vec3 ankle = RestAnkle(PosingSession(c.model), Limb::kLeftLeg);
  // Into the box (below its top), and well above it: only the first is put on the top.
  request.targets.push_back({"left_leg", ankle + glm::vec3(0.0f, 0.05f, 0.05f)});
  std::string error;
  auto s = BuildSession(c.model, request, &error);
  ASSERT_TRUE(s) << error;
  const FootContact& f = s->ground_report().feet[static_cast<std::size_t>(Limb::kLeftLeg)];
  ASSERT_TRUE(f.contact);
  EXPECT_NEAR(f.ankle_height, f.rest_ankle_height, 1e-4f);
  EXPECT_NEAR(anim::EndPositionMs(s->chain(Limb::kLeftLeg), s->pose()).y,
              0.2f + f.rest_ankle_height, 1e-3f);
  request.targets[0].point_ms = ankle + glm::vec3(0.0f, 0.4f, 0.1f);
  s = BuildSession(c.model, request, &error);
  ASSERT_TRUE(s) << error;
  EXPECT_FALSE(s->ground_report().feet[static_cast<std::size_t>(Limb::kLeftLeg)].contact);
  EXPECT_NEAR(glm::length(anim::EndPositionMs(s->chain(Limb::kLeftLeg), s->pose()) -
                          request.targets[0].point_ms),
              0.0f, 1e-3f);
}

// Under a playing clip: the bundled walk (in place) over stairs of 17 cm steps; in every frame
// each foot the clip plants stands on the step under it, ankle and toe at their rest heights.
TEST(GroundContact, WalkOverStairsKeepsEachPlantedFootOnItsStep) {
  const Character c = Load(fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb");
  Shapes s;
  for (int k = 0; k < 4; ++k) {  // as tools/make_props writes stairs.glb
    AppendBox(glm::vec3(-0.45f, 0.0f, 0.28f * static_cast<float>(k)),
              glm::vec3(0.45f, 0.17f * static_cast<float>(k + 1), 1.12f), &s.v, &s.n, &s.i);
  }
  PosingRequest request;
  request.world = MakeWorld({MakeProp("stairs", std::move(s), glm::vec3(0.0f, 0.0f, -0.2f))});
  request.clip = "walk";
  std::string error;
  auto session = BuildSession(c.model, request, &error);
  ASSERT_TRUE(session) << error;
  const float duration =
      c.model.clips[static_cast<std::size_t>(session->edits.playback.clip)].duration;
  int on_a_step = 0;
  for (float t = 0.0f; t < duration; t += duration / 24.0f) {
    session->edits.playback.time = t;
    session->Evaluate();
    for (Limb leg : {Limb::kLeftLeg, Limb::kRightLeg}) {
      const FootContact& f = session->ground_report().feet[static_cast<std::size_t>(leg)];
      if (!f.contact) continue;
      EXPECT_LE(f.height_error, 0.005f) << "t " << t << " " << anim::LimbName(leg);
      on_a_step += f.prop == 0 && f.hit_ms.y > 0.1f ? 1 : 0;
    }
  }
  EXPECT_GT(on_a_step, 0) << "some planted foot is on a step above the first";
}

// The nearest surface point: on a face, over an edge, out of range, and from inside.
TEST(SurfaceBvh, NearestPointOnAFaceAnEdgeAndFromInside) {
  Shapes s;
  AppendBox({-1, 0, -1}, {1, 0.5f, 1}, &s.v, &s.n, &s.i);
  SurfaceBvh bvh;
  std::string error;
  ASSERT_TRUE(bvh.Build(s.v, s.i, &error)) << error;
  std::optional<SurfacePoint> above = bvh.Nearest({0.3f, 0.8f, 0.2f}, 1.0f);
  ASSERT_TRUE(above);
  EXPECT_NEAR(above->distance, 0.3f, 1e-6f);
  EXPECT_NEAR(above->point_ms.y, 0.5f, 1e-6f);
  std::optional<SurfacePoint> edge = bvh.Nearest({1.3f, 0.9f, 0.0f}, 1.0f);
  ASSERT_TRUE(edge);
  EXPECT_NEAR(edge->distance, 0.5f, 1e-6f);  // to the top's edge at (1, 0.5, 0)
  EXPECT_FALSE(bvh.Nearest({0.0f, 2.0f, 0.0f}, 1.0f));
  std::optional<SurfacePoint> inside =
      bvh.Nearest({0.0f, 0.4f, 0.0f}, std::numeric_limits<float>::infinity());
  ASSERT_TRUE(inside);
  EXPECT_NEAR(inside->distance, 0.1f, 1e-6f);
  EXPECT_FALSE(bvh.Nearest({std::nanf(""), 0.0f, 0.0f}, 1.0f));
}

// The nearest point of a triangle, against the nearest of a fine grid of its points, for points
// all round it (over the face, past each edge and each vertex, and in its plane); and the side
// of the surface the point is on, from the winding.
TEST(SurfaceBvh, NearestPointOfATriangleIsTheNearestOfAllItsPoints) {
  const glm::vec3 a(0.1f, 0.2f, -0.3f), b(1.2f, 0.4f, 0.1f), c(0.3f, 1.1f, 0.5f);
  SurfaceBvh bvh;
  std::string error;
  ASSERT_TRUE(bvh.Build({a, b, c}, {0, 1, 2}, &error)) << error;
  const glm::vec3 outside = glm::normalize(glm::cross(b - a, c - a));
  constexpr int kGrid = 200;
  std::vector<glm::vec3> grid;
  for (int i = 0; i <= kGrid; ++i)
    for (int j = 0; i + j <= kGrid; ++j)
      grid.push_back(a + (static_cast<float>(i) / kGrid) * (b - a) +
                     (static_cast<float>(j) / kGrid) * (c - a));
  std::uint32_t seed = 7;
  const auto random = [&seed] {  // -1..1, the same every run
    seed = seed * 1664525u + 1013904223u;
    return static_cast<float>(seed >> 8) / static_cast<float>(1u << 23) - 1.0f;
  };
  for (int k = 0; k < 300; ++k) {
    const glm::vec3 p =
        glm::vec3(0.5f, 0.5f, 0.1f) + 1.5f * glm::vec3(random(), random(), random());
    const std::optional<SurfacePoint> near = bvh.Nearest(p, 10.0f);
    ASSERT_TRUE(near);
    float best = std::numeric_limits<float>::infinity();
    for (const glm::vec3& q : grid) best = std::min(best, glm::distance(p, q));
    EXPECT_LE(near->distance, best + 1e-5f) << "no grid point is nearer";
    EXPECT_GE(near->distance, best - 0.01f) << "within the grid's spacing of its nearest";
    EXPECT_NEAR(glm::distance(p, near->point_ms), near->distance, 1e-5f);
    EXPECT_NEAR(glm::dot(near->normal_ms, outside), 1.0f, 1e-5f);
  }
}

// A degenerate triangle (two corners at one point, or all three on a line) is its nearest edge,
// never a point that is not a number.
TEST(SurfaceBvh, NearestPointOfADegenerateTriangleIsOnItsEdge) {
  for (const std::vector<glm::vec3>& corners :
       {std::vector<glm::vec3>{{0, 0, 0}, {0, 0, 0}, {2, 0, 0}},
        std::vector<glm::vec3>{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}}}) {
    SurfaceBvh bvh;
    std::string error;
    ASSERT_TRUE(bvh.Build(corners, {0, 1, 2}, &error)) << error;
    for (const glm::vec3& p :
         {glm::vec3(0.5f, 0.3f, 0.0f), glm::vec3(-0.4f, 0.3f, 0.0f), glm::vec3(1.5f, 0.0f, 0.4f)}) {
      const std::optional<SurfacePoint> near = bvh.Nearest(p, 10.0f);
      ASSERT_TRUE(near) << p.x << ": found";
      EXPECT_TRUE(std::isfinite(near->point_ms.x) && std::isfinite(near->distance));
      const float along = std::clamp(p.x, 0.0f, 2.0f);
      EXPECT_NEAR(near->distance, glm::distance(p, glm::vec3(along, 0.0f, 0.0f)), 1e-5f) << p.x;
    }
  }
}

// A ball's depth in the props: 0 apart or touching, its radius less the gap near a face, its
// radius plus the depth of its centre inside; a ladder is left out (its rungs' plane rules).
TEST(Penetrations, ABallIsInsideAPropByHowFarItsSurfaceGoesIn) {
  const std::shared_ptr<const World> world = MakeWorld({Box("box.glb", {-1, 0, -1}, {1, 0.5f, 1})});
  ASSERT_TRUE(world);
  EXPECT_EQ(BallInsideProps(*world, {0.0f, 3.0f, 0.0f}, 0.2f), 0.0f) << "far above";
  EXPECT_NEAR(BallInsideProps(*world, {0.0f, 0.7f, 0.0f}, 0.2f), 0.0f, 1e-6f) << "touching";
  EXPECT_NEAR(BallInsideProps(*world, {0.0f, 0.6f, 0.0f}, 0.2f), 0.1f, 1e-5f) << "over the top";
  EXPECT_NEAR(BallInsideProps(*world, {1.1f, 0.25f, 0.0f}, 0.2f), 0.1f, 1e-5f) << "by a side";
  EXPECT_NEAR(BallInsideProps(*world, {0.0f, 0.45f, 0.0f}, 0.2f), 0.25f, 1e-5f) << "just in";
  EXPECT_NEAR(BallInsideProps(*world, {0.0f, 0.25f, 0.0f}, 0.1f), 0.35f, 1e-5f) << "deep in";
  EXPECT_NEAR(BallInsideProps(*world, {1.1f, 0.6f, 0.0f}, 0.2f),
              0.2f - glm::length(glm::vec2(0.1f, 0.1f)), 1e-5f)
      << "past the top's edge";
  EXPECT_EQ(BallInsideProps(*world, {std::nanf(""), 0.0f, 0.0f}, 0.2f), 0.0f);
}

// A limb is a capsule: a segment whose axis passes 3 cm over a 2 cm rung is inside it by its
// skin when it is 5 cm thick (2 cm deep), not at all when 2 cm thick; through the rung's axis,
// the rung's radius plus the limb's.
TEST(Penetrations, ALimbIsInsideByItsSkin) {
  Shapes s;
  AppendCylinder({-0.3f, 1.0f, 0.0f}, {0.3f, 1.0f, 0.0f}, 0.02f, 16, &s.v, &s.n, &s.i);
  SurfaceBvh bvh;
  std::string error;
  ASSERT_TRUE(bvh.Build(s.v, s.i, &error)) << error;
  // 16 sides: the flats are cos(pi/16) of the radius from the axis, 0.4 mm under it.
  const float tolerance = 1e-3f;
  const glm::vec3 over_a(0.0f, 1.03f, -0.3f), over_b(0.0f, 1.03f, 0.3f);
  std::optional<Penetration> thick = SegmentInside(bvh, over_a, over_b, 0.05f, nullptr);
  ASSERT_TRUE(thick);
  EXPECT_NEAR(thick->depth, 0.02f + 0.05f - 0.03f, tolerance);
  EXPECT_NEAR(thick->point_ms.z, 0.0f, 2e-3f);
  EXPECT_FALSE(SegmentInside(bvh, over_a, over_b, 0.005f, nullptr));
  std::optional<Penetration> through =
      SegmentInside(bvh, {0.1f, 1.0f, -0.3f}, {0.1f, 1.0f, 0.3f}, 0.04f, nullptr);
  ASSERT_TRUE(through);
  EXPECT_NEAR(through->depth, 0.02f + 0.04f, tolerance);
  // A bare line (no thickness) through the axis: the rung's radius.
  std::optional<Penetration> line =
      SegmentInside(bvh, {0.1f, 1.0f, -0.3f}, {0.1f, 1.0f, 0.3f}, 0.0f, nullptr);
  ASSERT_TRUE(line);
  EXPECT_NEAR(line->depth, 0.02f, tolerance);
}

// The solid ladder's rungs are welded to its rails: cast along a rung from inside it, just under
// its top and over its bottom, the first surface met is the rail's outside (entered while still
// inside the rung: no gap); cast back from beyond the rail, the first is the rail's outer side
// (no rung end sticking out of it). On a default ladder and a thin, turned one.
TEST(SolidLadder, RungsReachIntoTheRailsWithNoGapOrOverhang) {
  Ladder thin;
  thin.yaw_deg = 30.0f;
  thin.rung_radius = 0.008f;
  thin.rail_width = 0.38f;
  thin.rung_count = 3;
  for (const Ladder& ladder : {Ladder{}, thin}) {
    std::vector<glm::vec3> v;
    std::vector<std::uint32_t> i;
    LadderTriangles(ladder, &v, &i);
    SurfaceBvh bvh;
    std::string error;
    ASSERT_TRUE(bvh.Build(v, i, &error)) << error;
    // The rails' radius as solid_shapes.h documents it.
    const float rail = std::max(1.5f * ladder.rung_radius, 0.02f * ladder.rung_spacing);
    const glm::vec3 along = ladder.AlongRungsMs();
    for (int rung = 0; rung < ladder.rung_count; ++rung) {
      for (float side : {-1.0f, 1.0f}) {
        for (float up : {-0.9f, 0.9f}) {
          const glm::vec3 start =
              ladder.RungCenter(rung) + glm::vec3(0.0f, up * ladder.rung_radius, 0.0f);
          const std::optional<RayHit> out = bvh.Cast(start, side * along, ladder.rail_width);
          ASSERT_TRUE(out);
          EXPECT_TRUE(out->front) << "rung " << rung << " ends before its rail";
          const glm::vec3 beyond = start + side * (0.5f * ladder.rail_width + 3.0f * rail) * along;
          const std::optional<RayHit> back = bvh.Cast(beyond, -side * along, ladder.rail_width);
          ASSERT_TRUE(back);
          EXPECT_GE(back->distance, 1.99f * rail) << "rung " << rung << " sticks out of its rail";
        }
      }
    }
  }
}

// The distance from segment (a, b) to segment (c, d), by fine steps along the first.
float SegmentDistance(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                      const glm::vec3& d) {
  float best = std::numeric_limits<float>::max();
  for (int i = 0; i <= 4000; ++i) {
    const glm::vec3 p = glm::mix(a, b, static_cast<float>(i) / 4000.0f);
    const float t = std::clamp(glm::dot(p - c, d - c) / glm::dot(d - c, d - c), 0.0f, 1.0f);
    best = std::min(best, glm::distance(p, glm::mix(c, d, t)));
  }
  return best;
}

// The ladder pulled back through the legs: a rung just under the knees crosses both shins,
// listed with the depth of the shin's skin in the rung (the rung's radius and the shin's less
// the distance between their axes, measured here from the pose), within 3 mm.
TEST(Penetrations, AKneeThroughARungIsListedWithItsDepth) {
  const Character c = Load(fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb");
  PosingRequest request;
  std::string error;
  auto s = BuildSession(c.model, request, &error);
  ASSERT_TRUE(s) << error;
  s->edits.ladder_enabled = true;
  s->Evaluate();
  EXPECT_TRUE(s->ground_report().penetrations.empty());  // standing before the ladder
  const anim::LimbChain& leg = s->chain(Limb::kLeftLeg);
  const glm::vec3 knee = anim::PositionMs(s->pose(), leg.lower);
  s->edits.ladder.base_ms.z = knee.z;
  s->edits.ladder.first_rung_height = knee.y - s->edits.ladder.base_ms.y - 0.05f;
  s->edits.ladder.rung_count = 1;
  s->Evaluate();
  const auto& list = s->ground_report().penetrations;
  ASSERT_FALSE(list.empty());
  const Ladder& ladder = s->edits.ladder;
  const glm::vec3 half = 0.5f * ladder.rail_width * ladder.AlongRungsMs();
  const glm::vec3 rung = ladder.RungCenter(0);
  bool shin = false;
  for (const Penetration& p : list) {
    EXPECT_EQ(p.prop, -1);  // the ladder
    if (p.bone != leg.lower) continue;
    shin = true;
    const float radius = s->facts()->limb_radius[static_cast<std::size_t>(p.child)];
    EXPECT_GT(radius, 0.02f);  // a shin is thicker than a line
    const float axes =
        SegmentDistance(anim::PositionMs(s->pose(), p.bone), anim::PositionMs(s->pose(), p.child),
                        rung - half, rung + half);
    EXPECT_NEAR(p.depth, ladder.rung_radius + radius - axes, 0.003f);
    EXPECT_GT(p.depth, ladder.rung_radius);  // deeper than its axis alone
  }
  EXPECT_TRUE(shin);
}

// A foot standing on a rung (a bar prop under the ankle, the ground contact putting the sole on
// its top) touches it: no bone of the body is listed as inside; with contact off the foot stays
// on the floor, the bar through its ankle, and the leg is listed. On the bundled character and
// the shared ones.
void ExpectFootOnARungNotInside(const Character& c) {
  SCOPED_TRACE(c.name);
  PosingSession probe(c.model);
  const int foot = probe.chain(Limb::kLeftLeg).end;
  const glm::vec3 ankle = anim::PositionMs(probe.rest_pose(), foot);
  const float scale = c.height / 1.8f;
  const float top = c.floor_y + 0.15f * scale, radius = 0.02f * scale, half = 0.07f * scale;
  Shapes bar;
  AppendCylinder({ankle.x - half, top - radius, ankle.z}, {ankle.x + half, top - radius, ankle.z},
                 radius, 16, &bar.v, &bar.n, &bar.i);
  PosingRequest request;
  request.world = MakeWorld({MakeProp("rung", std::move(bar), glm::vec3(0.0f))});
  std::string error;
  auto s = BuildSession(c.model, request, &error);
  ASSERT_TRUE(s) << error;
  const FootContact& f = s->ground_report().feet[static_cast<std::size_t>(Limb::kLeftLeg)];
  ASSERT_TRUE(f.contact);
  EXPECT_EQ(f.prop, 0);
  EXPECT_NEAR(anim::PositionMs(s->pose(), foot).y, top + ankle.y - c.floor_y, 5e-3f * scale);
  for (const Penetration& p : s->ground_report().penetrations)
    ADD_FAILURE() << c.model.skeleton.names[static_cast<std::size_t>(p.child)] << " inside by "
                  << p.depth;
  s->edits.ground = false;
  s->Evaluate();
  bool leg_listed = false;
  for (const Penetration& p : s->ground_report().penetrations)
    leg_listed = leg_listed || p.bone == foot || p.child == foot;
  EXPECT_TRUE(leg_listed);
}

TEST(Penetrations, AFootStandingOnARungIsNotInsideIt) {
  ExpectFootOnARungNotInside(Load(fs::path(IKPOSE_SOURCE_DIR) / "assets" / "character.glb"));
  const fs::path dir = asset::test::SharedModelsDir();
  if (dir.empty()) GTEST_SKIP() << "../shared/models is absent beside the checkout";
  for (const char* file :
       {"CesiumMan/CesiumMan.glb", "RiggedFigure/RiggedFigure.glb",
        "MaleBaseMesh/male_base_mesh.glb", "Mesh2MotionHumanMale/human-male.glb"})
    ExpectFootOnARungNotInside(Load(dir / file));
}

TEST(Scenario, PropsFloorAndGroundRoundTrip) {
  const fs::path dir = fs::temp_directory_path() / "ikpose_ground_test";
  fs::create_directories(dir);
  Scenario s;
  s.props.push_back({"stairs.glb", {0.1f, 0.0f, 0.4f}, 90.0f, 1.5f, /*rungs=*/true});
  s.floor = false;
  s.ground = true;
  std::string error;
  const std::string file = (dir / "scene.json").string();
  ASSERT_TRUE(SaveScenario(file, s, &error)) << error;
  Scenario back;
  ASSERT_TRUE(LoadScenario(file, &back, &error)) << error;
  ASSERT_EQ(back.props.size(), 1u);
  EXPECT_EQ(back.props[0], s.props[0]);
  EXPECT_EQ(back.PropPath(back.props[0]), (dir / "stairs.glb").string());
  EXPECT_EQ(back.floor, std::optional<bool>(false));
  EXPECT_EQ(back.ground, std::optional<bool>(true));
  for (const char* bad :
       {R"({"props": [{"position": [0, 0, 0]}]})", R"({"props": [{"file": "a.glb", "scale": 0}]})",
        R"({"props": [{"file": "a.glb", "yaw": 3}]})", R"({"props": {}})", R"({"floor": 1})",
        R"({"props": [{"file": "a.glb", "rungs": 1}]})"}) {
    EXPECT_FALSE(ParseScenario(bad, "s.json", &back, &error)) << bad;
    EXPECT_EQ(error.find('\n'), std::string::npos);
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ikpose::scene
