// PosingSession: what the user edits over one loaded model, and the pose it produces.
//
// What: per limb (left/right arm and leg) a target, options and the last solve's result; extra
// chains named by their end bone (command line only); the pose the session starts from (rest,
// or a saved pose) and the clip playing over it; the ladder prop. Evaluate() samples the clip
// into a base pose, then solves every enabled limb whose target was given, in one order for
// every command: left arm, right arm, left leg, right leg (anim::kLimbs), then the extra chains
// in the order they were named; a later chain starts from the earlier ones' result (which
// matters only when chains share bones); last, the mirror (anim/mirror.h), when one is on.
// The pose the renderer draws is base pose + IK (+ mirror).
// Why: the viewer, `ikpose render`, `pose`, `export` and the per-frame benchmark all pose through
// this one path (scene::BuildSession makes it from a request), so what the tests check is what
// users see.
// Limits: targets live in model space. A target nobody has placed yet ("not given") sits on its
// hand or foot and follows it as the clip plays; its limb is not solved, so nothing moves until
// the user drags, types a value, snaps to the ladder or a file or command line places it.
#pragma once

#include <array>
#include <atomic>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <glm/gtc/quaternion.hpp>

#include "anim/apply_ik.h"
#include "anim/chains.h"
#include "anim/mirror.h"
#include "anim/model.h"
#include "scene/session/body_solve.h"
#include "scene/session/grip.h"
#include "scene/session/joint_limits.h"
#include "scene/session/posing_edits.h"
#include "scene/session/rig_facts.h"
#include "scene/world/ground_contact.h"
#include "scene/world/ladder.h"
#include "scene/world/world.h"

namespace ikpose::scene {

// A chain named by its end bone (`--target head=...`): its parent and grandparent are the
// upper and lower bones. Always given; solved after the four limbs, in the order added.
struct ChainTarget {
  anim::LimbChain chain;
  LimbTarget target;
  anim::ChainSolveResult result;
};

class PosingSession {
 public:
  // Takes the model's detected limb chains and puts every target on its hand or foot.
  // `facts` measured on `model` (MeasureRig) spares measuring them again; null: measured here.
  // `solve` false leaves the first Evaluate to the caller (BuildSituation: a trace frame is
  // solved once per policy, not also while it is built).
  explicit PosingSession(const anim::Model& model, std::shared_ptr<const RigFacts> facts = nullptr,
                         bool solve = true);

  const anim::Model& model() const { return *model_; }
  const std::shared_ptr<const RigFacts>& facts() const { return facts_; }
  const anim::ChainSet& chains() const { return model_->chains; }
  const anim::LimbChain& chain(anim::Limb limb) const { return model_->chains[limb]; }
  LimbTarget& target(anim::Limb limb) { return edits.target(limb); }
  const LimbTarget& target(anim::Limb limb) const { return edits.target(limb); }
  const anim::ChainSolveResult& result(anim::Limb limb) const {
    return results_[static_cast<int>(limb)];
  }
  // Where a hand lies on its palm this frame (a placed hand on the floor or a prop's top).
  struct PalmContact {
    bool on = false;
    int prop = -1;  // edits.world's prop, -1 for the floor
  };
  const PalmContact& palm(anim::Limb limb) const { return palms_[static_cast<int>(limb)]; }
  // The file of edits.world's prop `prop`, empty for none (-1: the floor, or a ladder).
  std::string PropPath(int prop) const;
  // "floor" or the prop's file, as the report and the panel name it.
  std::string PalmSurfaceName(anim::Limb limb) const {
    const std::string path = PropPath(palms_[static_cast<int>(limb)].prop);
    return path.empty() ? "floor" : path;
  }
  std::vector<ChainTarget>& extra_chains() { return extra_; }
  const std::vector<ChainTarget>& extra_chains() const { return extra_; }
  const anim::Pose& rest_pose() const { return facts_->rest; }
  const anim::Pose& base_pose() const { return base_; }  // start pose + clip, before IK
  const anim::Pose& pose() const { return pose_; }       // after IK

  // Everything the user edited (scene/session/posing_edits.h): edit it, then Evaluate() once.
  PosingEdits edits;

  // Turns `bone` so that its local rotation becomes `rotation_ls` at the clip's current time
  // (the turn is kept relative to the clip as it plays). A limb whose upper, lower or end bone
  // is turned lets go of its target (it rests on the hand or foot again), so IK does not undo
  // the turn. False for a bone out of range or a rotation that is not finite. Like every edit,
  // it is solved by the next Evaluate (it reads the pose of the last one: where a limb that lets
  // go was).
  bool SetBoneRotation(int bone, const glm::quat& rotation_ls);
  // Several bones at once (a turn spread over the neck or spine); false (and nothing turned)
  // when one of them is out of range or not finite.
  bool SetBoneRotations(const std::vector<std::pair<int, glm::quat>>& rotations_ls);
  // Every turn back to identity.
  void ResetBoneTurns();
  bool HasBoneTurns() const;
  // What the help did in the last Evaluate (nothing when off or not needed).
  const BodyHelpReport& body_help_report() const { return help_; }
  // The joints at their limit after the last Evaluate (past it, with limits off).
  const std::vector<JointAtLimit>& joints_at_limit() const { return at_limit_; }
  // Each solve's report (ChainSolveResult::report) filled: what the panel, the overlays,
  // `pose --json` and `trace` show. A bake writes only the pose and turns it off.
  bool reports = true;

  // The rig's left/right map, mirror plane and rest symmetry check (built once).
  const anim::MirrorMap& mirror_map() const { return facts_->mirror_map; }
  // True when the mirror overwrites this limb (its target cannot move it): the right limbs
  // under left-to-right, the left under right-to-left, every limb under flip.
  bool Mirrored(anim::Limb limb) const;

  // What the last Evaluate did to put the feet on the ground, and what is inside a prop.
  const GroundReport& ground_report() const { return ground_; }
  // The height of the floor (0, or the rest soles' when far from 0: RigFacts::floor_y).
  float floor_y() const { return facts_->floor_y; }

  // The prop whose rungs are the ladder (scene/world/prop_rungs.h), -1 when the ladder is its own.
  int ladder_prop() const { return ladder_prop_; }
  // A ladder prop's rungs as the ladder: the first prop of `world` whose rungs were found and
  // run across the character becomes `ladder` (shown, not scrolled by a clip, drawn as the prop
  // itself); limbs on rungs stay on their rungs as it moves; when it goes, so does the ladder.
  // Evaluate calls it whenever `world` is another World than the last one fitted.
  void FitLadderToProps();
  // Why a prop marked as a ladder, or found to be one, gives no rungs ("" when none).
  const std::string& ladder_note() const { return ladder_note_; }

  // The ladder as drawn and snapped to this frame (scrolled when it follows the clip).
  const Ladder& shown_ladder() const { return ladder_now_; }
  // How fast the clip's held hands and feet slide down (m/s, 0: the clip does not climb in
  // place) and where its rungs are at time 0 (an axis height, modulo the rung spacing).
  struct ClipClimb {
    int clip = -1;
    float rate = 0.0f;
    float phase = 0.0f;
  };
  const ClipClimb& clip_climb() const { return climb_; }

  // The bone the body handle moves: the pelvis (the nearest common ancestor of the legs, else
  // of the limbs found, else the first root); -1 for an empty skeleton.
  int body_bone() const { return body_bone_; }
  // Where the body handle is: the body bone's joint in the current pose.
  glm::vec3 BodyPositionMs() const;
  // Moves the body by `delta_ms` and turns it by `turn_ms` about its joint: pinned targets stay
  // (a target not placed yet is placed where it rests), unpinned placed targets and their poles
  // move with the body. Solved by the next Evaluate (the pivot is the last one's joint).
  void MoveBody(const glm::vec3& delta_ms, const glm::quat& turn_ms = glm::quat(1, 0, 0, 0));
  // The pelvis where a climber's is for the snapped rungs: a little more than the snapped feet's
  // leg length above them (knees bent), and a third of a leg behind the rungs, facing it.
  void FitBodyToLadder();

  // The pose under the clip (a saved pose, say) instead of the rest pose; one local transform
  // per bone, or empty for the rest pose.
  void SetStartPose(std::vector<anim::Transform> locals_ls);

  // Finds the target a command-line chain name means: a limb's name, a limb's end bone, or any
  // other bone with a parent and grandparent (added as an extra chain). False with the reason.
  bool FindTarget(const std::string& name, LimbTarget** target, std::string* error);

  // Where a limb's target rests while not given (its hand or foot in the base pose).
  const glm::vec3& resting_target(anim::Limb limb) const {
    return resting_ms_[static_cast<int>(limb)];
  }
  // Given, or moved off its resting point since the last Evaluate (which will mark it given).
  bool placed(anim::Limb limb) const {
    return target(limb).given || target(limb).target_ms != resting_target(limb);
  }
  // Moves every limb target back onto its hand or foot (of the base pose), not given: nothing
  // moves until the user drags. `solve` false: without the Evaluate that places them.
  void ResetTargets(bool solve = true);
  // Advances a playing clip by `seconds` of wall time (times the speed).
  void Advance(float seconds);
  // Base pose from the clip, then IK for every enabled, given target.
  void Evaluate();

  // Hands onto the nearest rung's axis, feet onto the nearest rung's top (ladder_enabled).
  void SnapToRungs();
  // Moves every snapped limb `delta` rungs up (positive) or down; false if one would leave it.
  bool StepRungs(int delta);

 private:
  // Whether the limb's hand or foot was measured (else it cannot grip or stand).
  bool HasRungShape(anim::Limb limb) const;
  // For a leg on the ladder: the rungs' plane its knee turns out to stay behind.
  anim::KneeClearance KneeClearanceFor(anim::Limb limb) const;
  // Where the wrist or ankle goes, and how it turns, to grip or stand on `target_ms`.
  EndGoal RungGoal(anim::Limb limb, const glm::vec3& target_ms) const;
  // A limb on a rung, gripping or standing (see LimbTarget::grip).
  anim::ChainSolveResult SolveOnRung(anim::Limb limb, const LimbTarget& t);
  // Solves toward `goal`, blended in by `weight`; the fingers curl round a rung once fully in
  // (`curl`; a palm on the floor keeps them as they are).
  anim::ChainSolveResult SolveToGoal(anim::Limb limb, const LimbTarget& t, const EndGoal& goal,
                                     float weight, bool curl = true);
  // A placed hand on the floor or a prop's top (grip.h, PalmOnSurface): its palm goal, fingers
  // along the body's facing, and the prop (-1: the floor). False for a foot, a hand off any
  // surface or on a rung.
  bool PalmGoal(anim::Limb limb, const LimbTarget& t, EndGoal* goal, int* prop = nullptr) const;
  // The start pose with the clip sampled over it at the playback's time (before turns and body).
  void SampleClipPose(std::vector<anim::Transform>& locals_ls) const;
  // The clip's climb, measured once per clip; then the ladder scrolled to the clip's time.
  void MeasureClimb();
  void ScrollLadder();
  // A limb the user has not placed, snapped live to the rung nearest the clip's end.
  anim::ChainSolveResult FollowRung(anim::Limb limb, const LimbTarget& t);
  // posing_session_ground.cpp: which feet stand on the ground and where, the pelvis lowered
  // on base_ when a foot cannot reach (`resting_ms`: where each unplaced foot rests); after the
  // solve, the heights reached and the bones inside props.
  void PlanGroundContact(const std::array<glm::vec3, 4>& resting_ms);
  void MeasureGroundContact();
  // Where FollowRung sends the limb: the rung point, the end's goal and its blend (0: none).
  float FollowGoal(anim::Limb limb, glm::vec3* rung_ms, EndGoal* goal) const;
  // Each limb's goal for the body help this frame (before the limbs are solved).
  std::array<BodyGoal, 4> BodyGoals(bool follow, const std::array<glm::vec3, 4>& held_ms) const;
  // The body help on pose_ toward `goals` (SolveBodyHelp), or the shared last fit when its
  // inputs are the same.
  BodyHelpReport FitBody(const std::array<BodyGoal, 4>& goals, const ContactPlane& plane);

  const anim::Model* model_;
  std::shared_ptr<const RigFacts> facts_;
  std::array<anim::ChainSolveResult, 4> results_;
  std::array<PalmContact, 4> palms_{};
  std::array<glm::vec3, 4> resting_ms_{};
  Ladder ladder_now_;
  int ladder_prop_ = -1;
  std::shared_ptr<const World> ladder_world_;  // the World FitLadderToProps last saw
  std::string ladder_note_;
  ClipClimb climb_;
  int body_bone_ = -1;
  std::shared_ptr<const SurfaceBvh> ladder_bvh_;  // the shown ladder's solid (penetrations)
  Ladder ladder_bvh_of_;                          // the ladder it was built for
  GroundReport ground_;
  std::vector<ChainTarget> extra_;
  BodyHelpReport help_;
  std::vector<JointAtLimit> at_limit_;
  std::vector<anim::Transform> start_ls_;
  // The clip pose Evaluate last sampled and what for (clip and time, over start_ls_); copies
  // share it, so a frame solved under several knee policies (copies of one situation) samples
  // its clip once.
  struct ClipSample {
    int clip = -1;
    float time = 0.0f;
    std::vector<anim::Transform> locals_ls;
  };
  std::shared_ptr<const ClipSample> clip_sample_;
  // The body help's last fit with what it was fitted to (the goals, the contact plane, the
  // pose before; the help reads no knee policy). Copies share the cell, so a frame solved
  // under several knee policies fits its body once; a fit is kept only while the cell is
  // shared and reused only when every input is the same bit for bit.
  struct BodyFit {
    std::array<BodyGoal, 4> goals{};
    ContactPlane plane;
    std::shared_ptr<const World> world;  // the props the body kept out of
    anim::Pose before;
    BodyHelpReport help;
    anim::Pose after;
  };
  struct BodyFitCell {
    std::atomic<std::shared_ptr<const BodyFit>> last;
  };
  std::shared_ptr<BodyFitCell> body_fit_ = std::make_shared<BodyFitCell>();
  anim::Pose base_;
  anim::Pose pose_;
};

// True for the legs (their targets rest on rung tops; hands grip the axis).
bool IsLeg(anim::Limb limb);

}  // namespace ikpose::scene
