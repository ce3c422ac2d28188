// Fewer keys in a clip, with a stated bound on how far any joint moves because of it.
//
// What: `ReduceKeys` drops keys of LINEAR tracks that the interpolation between the kept keys
// reproduces closely enough. The bound is on joint positions in model space: each animated bone
// gets an equal share of `max_error_ms` (the error adds up along a chain, so the share is the bound
// over the most animated bones on one root-to-leaf path), split between its translation (times
// the parent's rest scale), its rotation (times the farthest rest joint below it) and its scale
// (the same lever). Greedy from the first key: a key is kept when skipping to the next one would
// leave a dropped key out of its share. `MaxJointError` then measures what was promised: the
// largest distance between every joint of the two clips at the original key times.
// Why: a bake keys every frame (a 10 s clip at 30 fps is 300 keys a channel); a game wants a
// smaller file, and the user wants a number, not a hope.
// Limits: STEP and CUBICSPLINE tracks are kept as they are. The levers are measured in the rest
// pose, so a clip that scales bones far from rest can exceed the share (the measured error says
// so). A window of at most 256 keys is tried from each kept key.
#pragma once

#include <cstddef>

#include "anim/clip.h"
#include "anim/skeleton.h"

namespace ikpose::anim {

struct KeyCount {
  std::size_t before = 0;
  std::size_t after = 0;
};

// Reduces `clip` in place; the key counts over every channel before and after.
KeyCount ReduceKeys(const Skeleton& skeleton, float max_error_ms, Clip& clip);

// Largest model-space distance between the same joint posed by `a` and by `b` (over the rest
// pose) at every key time of `a`.
float MaxJointError(const Skeleton& skeleton, const Clip& a, const Clip& b);

}  // namespace ikpose::anim
