// Recording a posing session over time: per frame and per limb, what the solver did and why.
//
// What: a `TraceFrame` holds one frame's input (its time, the clip's time, the targets and poles
// a game or the user gave) and, per limb (anim::kLimbs order), a `LimbSample` of the solve: the
// target, the knee and end where they ended, the input pose's knee (before IK), reach state and
// margin, bend and swivel, the hip's and knee's local rotations as swing and twist, the flip
// margin, the knee circle and the natural direction, the policy and what clamped.
// `RecordFrame` reads them from a session after Evaluate; `TraceRecorder` keeps the latest
// frames in a ring of fixed capacity.
// Why: issue 13: pops happen over time, so the values of every frame are kept to be plotted,
// written to a trace file, searched for pops (scene/trace/pop_detector.h) and restored.
// Limits: the recorder's memory is capacity * sizeof(TraceFrame) (880 bytes a frame with g++ 12
// on x86-64; the default 36,000 frames, ten minutes at 60 fps, is about 32 MB), allocated once
// when the first frame is pushed, plus 20 bytes a prop for frames that hold props' places;
// older frames are dropped. Only the four limbs are recorded, not the extra chains named by an
// end bone.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "anim/chains.h"
#include "anim/knee_policy.h"
#include "ik/two_bone_positions.h"
#include "scene/world/ladder.h"
#include "scene/world/world.h"

namespace ikpose::scene {

class PosingSession;

// A limb's input in one frame: a target placed by the game (a targets file) or the user, and
// optionally a pole. Absent (has_target false): the limb was not placed by the input; the
// session's scenario or ladder may still solve it.
struct LimbInput {
  bool has_target = false;
  glm::vec3 target_ms{0.f};
  std::optional<glm::vec3> pole_ms;

  bool operator==(const LimbInput&) const = default;
};

// One limb's solve in one frame (model space, the model's units; angles in degrees).
struct LimbSample {
  bool solved = false;  // false: the limb was not solved this frame; the rest is zero
  anim::KneePolicy policy = anim::KneePolicy::kSeed;
  ik::Reach reach = ik::Reach::kReachable;
  // Inside (+) or outside (-) the reachable shell around the hip, in model units.
  float reach_margin = 0.f;
  // The knee reference's (pole, else input knee) distance from the hip-target axis over the limb
  // length: near 0 the seed's "nearest knee" can jump across the circle.
  float flip_margin = 0.f;
  float bend_deg = 0.f;  // 0 straight, 180 folded
  // About the hip-target axis, from the natural direction to the knee (0 when the chain has no
  // natural bend).
  float swivel_deg = 0.f;
  // The final local rotations of the hip and the knee, split about each bone's own direction.
  float hip_swing_deg = 0.f;
  float hip_twist_deg = 0.f;
  float knee_swing_deg = 0.f;
  float knee_twist_deg = 0.f;
  glm::vec3 target_ms{0.f};
  std::optional<glm::vec3> pole_ms;  // the pole used, if any
  glm::vec3 hip_ms{0.f};
  glm::vec3 knee_ms{0.f};
  glm::vec3 end_ms{0.f};
  glm::vec3 input_knee_ms{0.f};  // the knee of the input pose (clip or rest), before IK
  ik::KneeCircle circle;         // the knee's possible positions this frame
  glm::vec3 natural_ms{0.f};     // unit natural knee direction; zero without a natural bend
  bool limit_clamped = false;    // a hinge limit moved the knee
  bool swivel_clamped = false;   // natural: the input knee's swivel was out of range
  bool softened = false;

  bool operator==(const LimbSample&) const = default;
};

// A game's ladder in one frame (a targets line's optional "ladder"): where it stands and,
// optionally, its sizes; a size left out keeps the session's (a ladder sized to the character,
// or the scenario's). Given, the ladder is shown.
struct LadderInput {
  glm::vec3 base_ms{0.f};
  std::optional<float> rung_spacing;
  std::optional<int> rung_count;
  std::optional<float> rail_width;
  std::optional<float> rung_radius;
  std::optional<float> first_rung_height;
  std::optional<float> yaw_deg;

  // `ladder` with this input's fields over it.
  Ladder Over(const Ladder& ladder) const;
  // Every field of `ladder`: a trace records the ladder in force whole, position and sizes.
  static LadderInput Whole(const Ladder& ladder);
  bool operator==(const LadderInput&) const = default;
};

// A game's prop moved in one frame (a targets line's optional "props"): the situation's prop
// `index` (scenario's, then --prop's, in order) placed at `position_ms`, turned `yaw_deg` about +Y.
struct PropInput {
  int index = 0;
  glm::vec3 position_ms{0.f};
  float yaw_deg = 0.f;

  bool operator==(const PropInput&) const = default;
};

// `world`'s props with those `moves` names placed anew (index into props(), position, yaw;
// scale kept): a new World. Null with one line in *error for an index past the last prop.
std::shared_ptr<const World> MoveProps(const std::shared_ptr<const World>& world,
                                       const std::vector<PropInput>& moves, std::string* error);

struct TraceFrame {
  int frame = 0;
  float time = 0.f;                 // seconds, the trace's clock
  std::optional<float> clip_time;   // seconds into the clip (none without a clip)
  std::array<LimbInput, 4> inputs;  // indexed by anim::Limb
  std::array<LimbSample, 4> limbs;  // indexed by anim::Limb
  // The ladder and the props' placements in force: a game's (a targets line's, written whole
  // with its sizes), or the viewer's own for a live recording. Trace files write them where
  // they change (scene/files/trace_file.h).
  std::optional<LadderInput> ladder;
  std::vector<PropInput> props;  // by index, each at most once

  bool operator==(const TraceFrame&) const = default;
};

// Reads the limbs of an evaluated session. `inputs` are the frame's targets and poles as given
// (they are stored, not read from the session, so that the frame can be replayed as it was).
TraceFrame RecordFrame(const PosingSession& session, int frame, float time,
                       const std::array<LimbInput, 4>& inputs = {});

// The latest `capacity` frames in order; pushing onto a full recorder drops the oldest.
class TraceRecorder {
 public:
  static constexpr std::size_t kDefaultCapacity = 36000;  // ten minutes at 60 fps
  explicit TraceRecorder(std::size_t capacity = kDefaultCapacity);

  void Push(const TraceFrame& frame);
  void Clear();
  std::size_t size() const { return size_; }
  std::size_t capacity() const { return capacity_; }
  bool empty() const { return size_ == 0; }
  // i = 0 is the oldest frame kept.
  const TraceFrame& operator[](std::size_t i) const;
  // How many frames were dropped since the last Clear.
  std::size_t dropped() const { return dropped_; }
  // The frames kept, oldest first.
  std::vector<TraceFrame> Frames() const;

 private:
  std::size_t capacity_;
  std::size_t start_ = 0;
  std::size_t size_ = 0;
  std::size_t dropped_ = 0;
  std::vector<TraceFrame> ring_;
};

}  // namespace ikpose::scene
