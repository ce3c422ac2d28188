#include "app/viewer_link.h"

#include <algorithm>
#include <array>
#include <iostream>
#include <sstream>
#include <vector>

#include "app/pose_report.h"
#include "app/viewer_state.h"
#include "app/viewer_trace.h"

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
      clip_time && session.edits.playback.clip >= 0) {
    session.edits.playback.time = *clip_time;
    session.edits.playback.playing = false;
  }
  if (key.ladder) {
    const scene::Ladder ladder = key.ladder->Over(session.edits.ladder);
    if (ladder.Valid()) {
      session.edits.ladder = ladder;
      session.edits.ladder_enabled = true;
    }
  }
  if (!key.props.empty() && key.props != state.link.placed_props) {
    std::string error;
    if (std::shared_ptr<const scene::World> world =
            scene::MoveProps(session.edits.world, key.props, &error)) {
      session.edits.world = std::move(world);
    } else {
      state.link.status.last_error = error;
    }
    state.link.placed_props = key.props;
  }
}

namespace {

// A game's frame put into the session: every limb it places on its newest target and pole, then
// its clip time, ladder and props. Marks the limbs placed.
void ApplyKey(ViewerState& state, const scene::TargetKey& key, std::array<bool, 4>* placed) {
  scene::PosingSession& session = *state.loaded.session;
  for (anim::Limb limb : anim::kLimbs) {
    const scene::LimbInput& in = key.limbs[static_cast<std::size_t>(limb)];
    scene::LimbTarget& t = session.target(limb);
    if (!t.available || !scene::PlaceInput(in, t)) continue;
    (*placed)[static_cast<std::size_t>(limb)] = true;
    // A pole that stopped coming back: the limb's default policy again.
    if (!in.pole_ms && t.options.policy == anim::KneePolicy::kPole) {
      t.options.policy = anim::NaturalOptions().policy;
    }
  }
  ApplyLinkExtras(state, key);
  state.link.last = key;
}

}  // namespace

float ApplyLink(ViewerState& state, float seconds) {
  ViewerLink& link = state.link;
  if (!link.receiver) return seconds;
  std::vector<scene::TargetKey> keys;
  if (!link.receiver->Poll(&keys, &link.status)) return seconds;
  std::ostringstream status;
  status << "link " << link.status.listening << ": "
         << (link.status.peer.empty() ? "waiting for a game" : "game at " + link.status.peer)
         << ", " << link.status.received << " frames";
  if (link.status.dropped > 0) status << ", " << link.status.dropped << " dropped";
  if (!link.status.last_error.empty()) status << "; last game: " << link.status.last_error;
  state.panel.status = status.str();
  if (keys.empty()) return seconds;
  if (!state.timeline.timeline.recording) {
    link.skipped += keys.size();
    return seconds;
  }
  link.applied += keys.size();
  // Every frame of the game is a frame of the recording (its pops are found between the game's
  // frames, as `trace` finds them), timed by the game's clock; the last one is evaluated and
  // recorded by the window's own frame. A flood keeps the newest kMaxKeysAFrame: each key holds
  // every limb's latest target, so the newest alone gives the game's situation.
  constexpr std::size_t kMax = ViewerLink::kMaxKeysAFrame;
  const std::size_t first = keys.size() > kMax ? keys.size() - kMax : 0;
  link.merged += first;
  std::array<bool, 4> placed{};
  float game_seconds = seconds;
  for (std::size_t k = first; k < keys.size(); ++k) {
    const scene::TargetKey& key = keys[k];
    if (link.last) game_seconds = std::max(0.f, key.time - link.last->time);
    ApplyKey(state, key, &placed);
    if (k + 1 < keys.size()) {
      state.loaded.session->Evaluate();
      RecordLinkFrame(state, game_seconds);
    }
  }
  // The game's frame is not the user's edit: no undo step for it.
  state.history.FollowLive(*state.loaded.session, placed, keys.back().clip_time.has_value(),
                           keys.back().ladder.has_value(), !keys.back().props.empty());
  return game_seconds;
}

void FinishLink(ViewerState& state) {
  if (!state.link.receiver) return;
  state.link.receiver->Stop();
  const float seconds = ApplyLink(state, 0.f);
  state.loaded.session->Evaluate();
  RecordTimeline(state, seconds);
}

namespace {

// The game's newest frame as the window took it: its time, and the clip time, ladder and props
// it held (null when it never sent them).
asset::Json LastKeyReport(const ViewerLink& link) {
  if (!link.last) return nullptr;
  const scene::TargetKey& key = *link.last;
  asset::Json j = {{"time", key.time}, {"clip_time", nullptr}, {"ladder", nullptr}};
  if (const std::optional<float> clip_time = key.ClipTimeAt(key.time)) j["clip_time"] = *clip_time;
  if (key.ladder) {
    j["ladder"] = LadderInputReport(*key.ladder);
  }
  j["props"] = asset::Json::array();
  for (const scene::PropInput& p : key.props) {
    j["props"].push_back(
        {{"index", p.index}, {"position", asset::ToJson(p.position_ms)}, {"yaw_deg", p.yaw_deg}});
  }
  return j;
}

}  // namespace

asset::Json LinkReport(const ViewerState& state) {
  const ViewerLink& link = state.link;
  return {{"listening", link.status.listening},
          {"peer", link.status.peer},
          {"connections", link.status.connections},
          {"received", link.status.received},
          {"applied", link.applied},
          {"skipped", link.skipped},
          {"dropped", link.status.dropped},
          {"last_error", link.status.last_error},
          {"merged", link.merged},
          {"last", LastKeyReport(link)}};
}

}  // namespace ikpose::app
