#include "app/viewer_props.h"

#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

#include "app/paths.h"
#include "app/prop_option.h"
#include "app/viewer_state.h"
#include "scene/world/solid_shapes.h"

namespace ikpose::app {

namespace {

// The prop's bones at rest, carried by its placement.
std::vector<glm::mat4> PlacedModels(const anim::Model& model, const glm::mat4& placement) {
  anim::Pose rest = anim::RestPose(model.skeleton);
  for (glm::mat4& m : rest.models_ms) m = placement * m;
  return rest.models_ms;
}

}  // namespace

bool AddProp(ViewerState& state, const std::string& path, std::string* error) {
  scene::PosingSession& session = *state.loaded.session;
  const glm::vec3 forward = session.chains().forward_ms;
  scene::PropPlacement placed;
  placed.file = path;
  // A third of the character's height in front of it, on the floor, facing it.
  placed.position_ms = state.loaded.center_ms + 0.33f * state.loaded.height * forward;
  placed.position_ms.y = session.floor_y();
  placed.yaw_deg = glm::degrees(std::atan2(forward.x, forward.z)) + 180.0f;
  std::vector<scene::Prop> props =
      session.edits.world ? session.edits.world->props() : std::vector<scene::Prop>{};
  std::shared_ptr<const scene::World> added;
  if (!LoadWorld(nullptr, {placed}, &added, error)) return false;
  props.push_back(added->props().front());
  std::shared_ptr<const scene::World> world = scene::World::Build(std::move(props), error);
  if (!world) return false;
  session.edits.world = std::move(world);
  session.edits.ground = true;  // the frame evaluates it
  state.history.Commit(session, "add prop");
  return true;
}

const PropRing* SelectedPropRing(ViewerState& state) {
  const std::shared_ptr<const scene::World>& world = state.loaded.session->edits.world;
  const int selected = state.panel.props.selected;
  if (!world || selected < 0 || selected >= static_cast<int>(world->props().size())) return nullptr;
  PropRenderers& r = state.prop_renderers;
  if (r.ring_world != world || r.ring_prop != selected) {
    r.ring = PropTurnRing(world->props()[static_cast<std::size_t>(selected)], state.loaded.height);
    r.ring_world = world;
    r.ring_prop = selected;
  }
  return &r.ring;
}

bool SyncProps(ViewerState& state, std::string* error) {
  PropRenderers& r = state.prop_renderers;
  const scene::PosingSession& session = *state.loaded.session;
  if (r.world != session.edits.world) {
    r.props.clear();
    r.world = session.edits.world;
    if (r.world) {
      for (const scene::Prop& prop : r.world->props()) {
        auto renderer = std::make_unique<render::ModelRenderer>();
        if (!renderer->Init(DataDir() / "shaders", error)) return false;
        std::vector<std::string> warnings;
        renderer->Load(*prop.model, &warnings);
        renderer->UpdatePose(*prop.model, PlacedModels(*prop.model, prop.placement.Matrix()));
        r.props.push_back(std::move(renderer));
      }
    }
  }
  // A ladder prop is drawn as the prop it is.
  if (!session.edits.ladder_enabled || !session.shown_ladder().Valid() ||
      session.ladder_prop() >= 0)
    return true;
  scene::Ladder shape = session.shown_ladder();
  shape.base_ms = glm::vec3(0.0f);
  if (!r.ladder || !(shape == r.ladder_shape)) {
    r.ladder_model = std::make_unique<anim::Model>(scene::LadderModel(shape));
    r.ladder = std::make_unique<render::ModelRenderer>();
    if (!r.ladder->Init(DataDir() / "shaders", error)) return false;
    std::vector<std::string> warnings;
    r.ladder->Load(*r.ladder_model, &warnings);
    r.ladder_shape = shape;
  }
  const glm::mat4 at = glm::translate(glm::mat4(1.0f), session.shown_ladder().base_ms);
  r.ladder->UpdatePose(*r.ladder_model, PlacedModels(*r.ladder_model, at));
  return true;
}

void DrawProps(const ViewerState& state, const glm::mat4& view_proj,
               const render::Lighting& lighting) {
  const PropRenderers& r = state.prop_renderers;
  for (const auto& renderer : r.props) renderer->Draw(view_proj, lighting);
  const scene::PosingSession& session = *state.loaded.session;
  if (r.ladder && session.edits.ladder_enabled && session.ladder_prop() < 0)
    r.ladder->Draw(view_proj, lighting);
}

}  // namespace ikpose::app
