#include "app/viewer_link.h"

#include <iostream>
#include <sstream>
#include <vector>

#include "app/viewer_state.h"

namespace ikpose::app {

bool StartLink(ViewerState& state, std::string* error, int* exit_code) {
  if (state.options.listen.empty()) return true;
  LinkAddress address;
  LinkOptions options;
  options.listen = state.options.listen;
  if (!CheckLinkOptions(options, &address, error)) {
    *exit_code = 2;
    return false;
  }
  *exit_code = 1;
  auto receiver = std::make_unique<LinkReceiver>();
  if (!receiver->Start(address, error)) return false;
  if (address.port == 0) {
    LinkStatus status;
    std::vector<scene::TargetKey> none;
    while (!receiver->Poll(&none, &status)) {
    }
    std::cerr << "ikpose: listening on " << status.listening << std::endl;
  }
  state.link.receiver = std::move(receiver);
  return true;
}

// The newest key's optional fields (each key holds the latest given): the clip's time (the clip
// then follows the game, paused), the game's ladder (shown), the props it moved (a new world
// when they moved; its props keep their order, so indices stay the game's).
void ApplyLinkExtras(ViewerState& state, const scene::TargetKey& key) {
  scene::PosingSession& session = *state.loaded.session;
  if (const std::optional<float> clip_time = key.ClipTimeAt(key.time);
      clip_time && session.playback.clip >= 0) {
    session.playback.time = *clip_time;
    session.playback.playing = false;
  }
  if (key.ladder) {
    const scene::Ladder ladder = key.ladder->Over(session.ladder);
    if (ladder.Valid()) {
      session.ladder = ladder;
      session.ladder_enabled = true;
    }
  }
  if (!key.props.empty() && key.props != state.link.placed_props) {
    std::string error;
    if (std::shared_ptr<const scene::World> world =
            scene::MoveProps(session.world, key.props, &error)) {
      session.world = std::move(world);
    } else {
      state.link.status.last_error = error;
    }
    state.link.placed_props = key.props;
  }
}

void ApplyLink(ViewerState& state) {
  ViewerLink& link = state.link;
  if (!link.receiver) return;
  std::vector<scene::TargetKey> keys;
  if (!link.receiver->Poll(&keys, &link.status)) return;
  std::ostringstream status;
  status << "link " << link.status.listening << ": "
         << (link.status.peer.empty() ? "waiting for a game" : "game at " + link.status.peer)
         << ", " << link.status.received << " frames";
  if (link.status.dropped > 0) status << ", " << link.status.dropped << " dropped";
  if (!link.status.last_error.empty()) status << "; last game: " << link.status.last_error;
  state.panel.status = status.str();
  if (keys.empty()) return;
  if (!state.timeline.timeline.recording) {
    link.skipped += keys.size();
    return;
  }
  link.applied += keys.size();
  scene::PosingSession& session = *state.loaded.session;
  const std::array<scene::LimbInput, 4> now = scene::TargetsAt(keys, keys.back().time);
  std::array<bool, 4> placed{};
  for (anim::Limb limb : anim::kLimbs) {
    const scene::LimbInput& in = now[static_cast<std::size_t>(limb)];
    scene::LimbTarget& t = session.target(limb);
    if (!t.available || !scene::PlaceInput(in, t)) continue;
    placed[static_cast<std::size_t>(limb)] = true;
    // A pole that stopped coming back: the limb's default policy again.
    if (!in.pole_ms && t.options.policy == anim::KneePolicy::kPole) {
      t.options.policy = anim::NaturalOptions().policy;
    }
  }
  ApplyLinkExtras(state, keys.back());
  // The game's frame is not the user's edit: no undo step for it.
  state.history.FollowLive(session, placed, keys.back().clip_time.has_value(),
                           keys.back().ladder.has_value(), !keys.back().props.empty());
}

asset::Json LinkReport(const ViewerState& state) {
  const ViewerLink& link = state.link;
  return {{"listening", link.status.listening},
          {"peer", link.status.peer},
          {"connections", link.status.connections},
          {"received", link.status.received},
          {"applied", link.applied},
          {"skipped", link.skipped},
          {"dropped", link.status.dropped},
          {"last_error", link.status.last_error}};
}

}  // namespace ikpose::app
