// Ready poses: stand, sit on a box, kneel, run, climb a rung, reach up, crawl, push up, for any
// humanoid whose limbs were detected (anim/chains.h).
//
// What: each pose is placed from the rig's own measures, not stored rotations: the hips and
// shoulders at rest, each limb's two lengths, the body bone (the pelvis both legs hang from) and
// the character's facing. It sets the body's offset (and turn: the push-up's plank) and every
// limb's target (given, so solved), from the rest pose, through the session's own road
// (targets, MoveBody, the ladder's snap and fit for the climb), so the result is a scenario
// like any other: undoable, saved, exported.
// Why: a new user's library is empty; these give a starting point on any rig, whatever its
// bone names.
// Limits: up is +Y; the pose needs both legs and a body bone (an arm missing is left alone).
// Placement is by proportions, so a rig with unusual proportions may not reach every target
// (the panel then says "too far" on that limb).
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "scene/session/posing_session.h"

namespace ikpose::scene {

enum class ReadyPose { kStand, kSitOnABox, kKneel, kRun, kClimbARung, kReachUp, kCrawl, kPushUp };
inline constexpr std::array<ReadyPose, 8> kReadyPoses = {
    ReadyPose::kStand,      ReadyPose::kSitOnABox, ReadyPose::kKneel, ReadyPose::kRun,
    ReadyPose::kClimbARung, ReadyPose::kReachUp,   ReadyPose::kCrawl, ReadyPose::kPushUp};

// "stand", "sit on a box", "kneel", "run", "climb a rung", "reach up", "crawl", "push up".
const char* ReadyPoseName(ReadyPose pose);
// A name as above, with hyphens or underscores for the spaces ("sit-on-a-box" on a command
// line). False for any other.
bool ParseReadyPose(std::string_view name, ReadyPose* pose);
// "stand, sit-on-a-box, kneel, run, climb-a-rung, reach-up, crawl, push-up": for messages.
std::string ReadyPoseChoices();

// Poses `session` (from its rest: turns, body, ladder and targets are reset first). False, and
// the session unchanged, with one line for a rig that lacks what the pose needs.
bool ApplyReadyPose(PosingSession& session, ReadyPose pose, std::string* error);

}  // namespace ikpose::scene
