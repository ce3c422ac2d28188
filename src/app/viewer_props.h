// The props and the solid ladder in the window and in `ikpose render`: each placed prop and the
// ladder drawn lit and solid by its own ModelRenderer (the ladder's mesh remade only when its
// shape changes; scrolling it moves its one bone), and the contact points and bones inside
// props drawn over them.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "anim/debug_draw.h"
#include "anim/model.h"
#include "app/prop_turn.h"
#include "render/model_renderer.h"
#include "scene/world/ladder.h"
#include "scene/world/world.h"

namespace ikpose::app {

struct ViewerState;

// What is uploaded for the world on screen.
struct PropRenderers {
  std::shared_ptr<const scene::World> world;  // the world the renderers below were made for
  std::vector<std::unique_ptr<render::ModelRenderer>> props;
  std::unique_ptr<anim::Model> ladder_model;  // standing at the origin
  std::unique_ptr<render::ModelRenderer> ladder;
  scene::Ladder ladder_shape;  // what ladder_model was made from (base ignored)
  // The selected prop's turn ring, for the world and prop it was measured on.
  std::shared_ptr<const scene::World> ring_world;
  int ring_prop = -1;
  PropRing ring;
};

// Places the prop file `path` on the floor in front of the character, turned to face it (a file
// dropped on the window with Shift held): one undo step "add prop". False with *error (the
// scene keeps its props) when the file cannot be a prop.
bool AddProp(ViewerState& state, const std::string& path, std::string* error);

// The turn ring of the prop selected in the Props section; null when none is selected. Measured
// again only when the world or the selection changed (a prop may hold many triangles).
const PropRing* SelectedPropRing(ViewerState& state);

// Uploads what changed since the last frame; false with *error when a shader cannot be built.
bool SyncProps(ViewerState& state, std::string* error);
// Draws the props and, when shown, the ladder.
void DrawProps(const ViewerState& state, const glm::mat4& view_proj,
               const render::Lighting& lighting);

}  // namespace ikpose::app
