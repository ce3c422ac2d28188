// Internal: the batch's vector kernel, written once for every vector width.
//
// What: `BatchKernel<Ops>` is the seed's solve as SolveDefault (two_bone_core.h) does it, with
// its selects, for Ops::kStep chains per step. Ops gives the vector types (F: lanes of floats,
// M: lanes of a condition) and their primitives: two_bone_batch_avx2.cpp's 8-lane AVX2 ones
// (conditions as vectors) and two_bone_batch_avx512.cpp's 16-lane AVX-512 ones (conditions as
// mask registers). Where the compiled scalar kernel takes seven square roots and seven
// divisions per chain, here the lengths that decide the reach case are true square roots and
// the knee circle's k = x / d a true division (near a reach boundary the radius
// sqrt(l^2 - x^2) turns an error in x into its square root); every other reciprocal and
// inverse square root is the hardware estimate refined by one Newton step (relative error
// about 3e-7), whose error stays proportional in what it scales. The knee is placed as the
// job's fast path places it (two_bone_fast.cpp: no unit direction for the reachable case), and
// each bone's pair of directions is turned without dividing by its length. The minimal
// rotation's wide-angle form is needed only within about 8 degrees of a half turn, so it and
// the rare cases (a knee on the hip-target line, an exact half turn, an invalid chain) branch
// when a lane of the step needs them.
// Why one text: each width is its own source file, so that its functions carry only their own
// instruction set's target attribute (a function compiled for AVX-512 must not be what an
// AVX2-only CPU calls), while the solve they run stays one.
// How to use: define IKPOSE_BATCH_FN (always_inline and the file's target attribute), include
// this header, and call BatchKernel<Ops>::SolveAll from a function with that target. The kernel
// lives in an anonymous namespace: each including file has its own, compiled for its target.
// Limits: not part of the API; call SolveChainBatch.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ik/two_bone_batch.h"
#include "ik/two_bone_core.h"

#ifndef IKPOSE_BATCH_FN
#error "define IKPOSE_BATCH_FN before including two_bone_batch_kernel.h"
#endif

namespace ikpose::ik::detail {
namespace {

template <class Ops>
struct BatchKernel : Ops {
  using typename Ops::F;
  using typename Ops::M;
  static constexpr std::size_t kStep = Ops::kStep;
  using Ops::Abs, Ops::Add, Ops::All, Ops::And, Ops::AndNot, Ops::Any, Ops::CopySignOne, Ops::Div,
      Ops::Ge, Ops::Gt, Ops::InvEstimate, Ops::InvSqrtEstimate, Ops::Le, Ops::Load, Ops::Lt,
      Ops::Max, Ops::Min, Ops::Mul, Ops::MulAdd, Ops::MulSub, Ops::Negate, Ops::NegMulAdd,
      Ops::NotGt, Ops::Or, Ops::Sel, Ops::Set, Ops::Sqrt, Ops::Store, Ops::StoreReach, Ops::Sub,
      Ops::Zero, Ops::ZeroWhere;

  struct V3 {
    F x, y, z;
  };

  // The width's estimates refined once: y (1.5 - x y^2 / 2) and y + y (1 - x y).
  IKPOSE_BATCH_FN F InvSqrt(F x) {
    const F y = InvSqrtEstimate(x);
    return Mul(y, NegMulAdd(Mul(Set(0.5f), x), Mul(y, y), Set(1.5f)));
  }
  IKPOSE_BATCH_FN F Inv(F x) {
    const F y = InvEstimate(x);
    return MulAdd(y, NegMulAdd(x, y, Set(1.f)), y);
  }

  IKPOSE_BATCH_FN V3 Sel(M mask, const V3& x, const V3& y) {
    return {Sel(mask, x.x, y.x), Sel(mask, x.y, y.y), Sel(mask, x.z, y.z)};
  }
  IKPOSE_BATCH_FN V3 Sub(const V3& a, const V3& b) {
    return {Sub(a.x, b.x), Sub(a.y, b.y), Sub(a.z, b.z)};
  }
  IKPOSE_BATCH_FN V3 Mul(const V3& a, F s) { return {Mul(a.x, s), Mul(a.y, s), Mul(a.z, s)}; }
  IKPOSE_BATCH_FN V3 MulAdd(const V3& a, F s, const V3& b) {  // a s + b
    return {MulAdd(a.x, s, b.x), MulAdd(a.y, s, b.y), MulAdd(a.z, s, b.z)};
  }
  IKPOSE_BATCH_FN V3 NegMulAdd(const V3& a, F s, const V3& b) {  // b - a s
    return {NegMulAdd(a.x, s, b.x), NegMulAdd(a.y, s, b.y), NegMulAdd(a.z, s, b.z)};
  }
  IKPOSE_BATCH_FN F Dot(const V3& a, const V3& b) {
    return MulAdd(a.z, b.z, MulAdd(a.y, b.y, Mul(a.x, b.x)));
  }
  IKPOSE_BATCH_FN V3 Cross(const V3& a, const V3& b) {
    return {MulSub(a.y, b.z, Mul(a.z, b.y)), MulSub(a.z, b.x, Mul(a.x, b.z)),
            MulSub(a.x, b.y, Mul(a.y, b.x))};
  }

  // RotationBetweenUnit for two vectors of one length L (given |f|^2 = m; |t|^2 = m to
  // rounding), without dividing them by L first: every term is L^2 times the unit form's, and
  // the turn is normalised after by its own squared length. Up to kNearCos (m + c, x): as
  // c -> -m, m + c loses digits, but it is the turn's small part, and its norm is taken from
  // what was computed, so the turn stays unit and within 1e-6 of the scalar kernel's (which
  // switches at 120 degrees). Beyond, (|x|^2, x (m - c)) with x's rounding along f removed, or,
  // exactly anti-parallel, a half turn about a perpendicular of f: both computed only when a
  // lane of the step needs them (tests/ik/batch_test.cpp: a bound of -0.999999 fails there).
  static constexpr float kNearCos = -0.99f;
  struct Turn {
    F w;
    V3 v;
    F norm2;
  };
  IKPOSE_BATCH_FN Turn Between(const V3& f, F f2, const V3& t) {
    const F c = Dot(f, t);
    const F m = f2;
    const V3 x = Cross(f, t);
    const F near_w = Add(m, c);
    const F s2 = Dot(x, x);
    Turn turn{near_w, x, MulAdd(near_w, near_w, s2)};
    const M near = Gt(c, Mul(Set(kNearCos), f2));
    if (!All(near)) [[unlikely]] {
      // x - f (x . f) / |f|^2: x's part along f is rounding.
      const V3 far_v = Mul(NegMulAdd(f, Mul(Dot(x, f), Inv(f2)), x), Sub(m, c));
      turn.w = Sel(near, turn.w, s2);
      turn.v = Sel(near, turn.v, far_v);
      turn.norm2 = Sel(near, turn.norm2, MulAdd(s2, s2, Dot(far_v, far_v)));
      const M half_turn = AndNot(near, Le(s2, Mul(Set(1e-14f), Mul(f2, f2))));
      if (Any(half_turn)) [[unlikely]] {
        const M use_x = Ge(Mul(f.z, f.z), Mul(f.x, f.x));
        const F zero = Zero();
        const V3 perp = Sel(use_x, V3{zero, f.z, Sub(zero, f.y)}, V3{f.y, Sub(zero, f.x), zero});
        turn.w = Sel(half_turn, zero, turn.w);
        turn.v = Sel(half_turn, perp, turn.v);
        turn.norm2 = Sel(half_turn, Dot(perp, perp), turn.norm2);
      }
    }
    return turn;
  }

  // q * v for a quaternion (w, u) of squared length n2, given k = 2 / n2.
  IKPOSE_BATCH_FN V3 RotateScaled(F w, const V3& u, F k, const V3& v) {
    const V3 uv = Cross(u, v);
    const V3 uuv = Cross(u, uv);
    return MulAdd(MulAdd(uv, w, uuv), k, v);
  }

  // PerpendicularOfUnit, lane by lane.
  IKPOSE_BATCH_FN V3 Perpendicular(const V3& n) {
    const F sign = CopySignOne(n.z);
    const F a = Sub(Zero(), Inv(Add(sign, n.z)));
    const F b = Mul(Mul(n.x, n.y), a);
    return {MulAdd(Mul(sign, Mul(n.x, n.x)), a, Set(1.f)), Mul(sign, b),
            Sub(Zero(), Mul(sign, n.x))};
  }

  IKPOSE_BATCH_FN V3 Load(const ConstPoints3& p, std::size_t i) {
    return {Load(p.x + i), Load(p.y + i), Load(p.z + i)};
  }
  IKPOSE_BATCH_FN void Store(const Points3& p, std::size_t i, const V3& v) {
    Store(p.x + i, v.x);
    Store(p.y + i, v.y);
    Store(p.z + i, v.z);
  }

  // What the turns take from the positions step: the chain, b' and c' (b and c for an invalid
  // chain), the bones' squared lengths, and which lanes are valid.
  struct Solved {
    V3 a, ab, bc, knee, foot;
    F ab2, bc2;
    M valid;
  };

  // The positions step for chains i..i+kStep-1: b' and c' into the output, the reach codes.
  IKPOSE_BATCH_FN Solved PositionsStep(const ChainBatchInput& in, const ChainBatchOutput& out,
                                       std::size_t i) {
    const V3 a = Load(in.hip, i);
    const V3 b = Load(in.knee, i);
    const V3 c = Load(in.foot, i);
    const V3 t = Load(in.target, i);

    // Measure. The reach case from true square roots, as the scalar kernel decides it.
    const V3 ab = Sub(b, a);
    const V3 bc = Sub(c, b);
    const V3 at = Sub(t, a);
    const F dd = Dot(at, at);
    const F ab2 = Dot(ab, ab);
    const F bc2 = Dot(bc, bc);
    const F l1 = Sqrt(ab2);
    const F l2 = Sqrt(bc2);
    const F d = Sqrt(dd);
    const F hi = Add(l1, l2);
    const F l1_minus_l2 = Sub(l1, l2);
    const F lo = Abs(l1_minus_l2);
    const M too_far = Gt(d, hi);
    const M too_close = Lt(d, lo);
    const M clamped = Or(too_far, too_close);

    // Reachable: the knee circle's center at x = k d along a->t from the end of the shorter
    // bone, k = (d^2 -+ (l1^2 - l2^2)) / (2 d^2) (a true division: near a reach boundary the
    // radius sqrt(l^2 - x^2) turns an error in x into its square root).
    const M lower_shorter = Gt(l1_minus_l2, Zero());
    const F diff = Mul(l1_minus_l2, hi);
    const F k = Mul(Add(dd, Negate(lower_shorter, diff)), Div(Set(0.5f), dd));
    const F l = Min(l1, l2);  // the shorter bone
    const F r2 = Max(NegMulAdd(Mul(k, k), dd, Mul(l, l)), Zero());
    // A true square root: the divider has time to spare beside the multiply-adds that the
    // estimate's refinement would take.
    const F radius = Sqrt(r2);
    // The knee's side (KneeSide): the old knee off the hip-target line, u = d^2 (ab without its
    // part along at), or a fixed perpendicular when it is on the line (a straight or folded
    // limb's too: its side is multiplied by 0 below and must be finite).
    const V3 u = NegMulAdd(at, Dot(ab, at), Mul(ab, dd));
    const F u2 = Dot(u, u);
    const F limit = Mul(Mul(Set(kOnAxis), hi), dd);
    const M on_axis = NotGt(u2, Mul(limit, limit));
    V3 side = Mul(u, InvSqrt(u2));
    const F inv_d = Inv(d);
    if (Any(on_axis)) [[unlikely]] {
      side = Sel(on_axis, Perpendicular(Mul(at, inv_d)), side);
    }
    // The knee as base + at kappa + side rho, every case in the same multiply-adds. Reachable:
    // the circle's center, from the end of the shorter bone, plus the side times the radius.
    // Too far or too close (rho 0): straight toward t, or folded with the longer bone toward it,
    // from the hip.
    const F knee_along = Negate(AndNot(too_far, Le(l1, l2)), l1);
    const F kappa = Sel(clamped, Mul(knee_along, inv_d), Negate(lower_shorter, k));
    const V3 base = Sel(AndNot(clamped, lower_shorter), t, a);
    V3 knee = MulAdd(side, ZeroWhere(clamped, radius), MulAdd(at, kappa, base));
    // The clamped foot's place along at as one factor: no unit direction is needed.
    V3 foot = Sel(clamped, MulAdd(at, Mul(Sel(too_far, hi, lo), inv_d), a), t);

    // ValidatePositions' tests; NaN anywhere fails them.
    const F small = Mul(Set(1e-6f), hi);
    const M valid = And(And(And(Lt(hi, Set(1e18f)), Lt(d, Set(1e18f))), Gt(l1, small)),
                        And(Gt(l2, small), Gt(d, small)));
    if (!All(valid)) [[unlikely]] {
      // Invalid chains keep their pose.
      knee = Sel(valid, knee, b);
      foot = Sel(valid, foot, c);
    }
    Store(out.knee, i, knee);
    Store(out.foot, i, foot);
    if (out.reach != nullptr) StoreReach(out.reach + i, too_far, too_close, valid);
    return {a, ab, bc, knee, foot, ab2, bc2, valid};
  }

  // The two turns (SolveDefault's) for chains i..i+kStep-1, from the positions step's joints;
  // each pair of vectors has one bone's length (the lower bone's turned by the hip's turn, which
  // keeps it to rounding).
  IKPOSE_BATCH_FN void TurnsStep(const Solved& s, const ChainBatchOutput& out, std::size_t i) {
    const Turn h = Between(s.ab, s.ab2, Sub(s.knee, s.a));
    const F s1 = InvSqrt(h.norm2);
    // 2 / |h|^2 from its own reciprocal, beside s1 rather than after it: a shorter wait.
    const V3 lower_turned = RotateScaled(h.w, h.v, Inv(Mul(Set(0.5f), h.norm2)), s.bc);
    const Turn k = Between(lower_turned, s.bc2, Sub(s.foot, s.knee));
    const F s2 = InvSqrt(k.norm2);
    F q1w = Mul(h.w, s1), q2w = Mul(k.w, s2);
    V3 q1 = Mul(h.v, s1), q2 = Mul(k.v, s2);
    if (!All(s.valid)) [[unlikely]] {
      // Invalid chains: the identity.
      const F zero = Zero();
      q1 = Sel(s.valid, q1, V3{zero, zero, zero});
      q2 = Sel(s.valid, q2, V3{zero, zero, zero});
      q1w = Sel(s.valid, q1w, Set(1.f));
      q2w = Sel(s.valid, q2w, Set(1.f));
    }
    Store({out.hip_rotation.x, out.hip_rotation.y, out.hip_rotation.z}, i, q1);
    Store(out.hip_rotation.w + i, q1w);
    Store({out.knee_rotation.x, out.knee_rotation.y, out.knee_rotation.z}, i, q2);
    Store(out.knee_rotation.w + i, q2w);
  }

  // Chains begin..end (a whole number of steps): the positions, then the turns.
  IKPOSE_BATCH_FN void SolveSteps(const ChainBatchInput& in, const ChainBatchOutput& out,
                                  std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; i += kStep) TurnsStep(PositionsStep(in, out, i), out, i);
  }

  IKPOSE_BATCH_FN void SolveAll(const ChainBatchInput& in, const ChainBatchOutput& out,
                                std::size_t count) {
    const std::size_t i = count - count % kStep;
    SolveSteps(in, out, 0, i);
    if (i == count) return;
    // The last chains through the same kernel, copied into full vectors (unused lanes hold
    // zeros: invalid chains, whose output is dropped).
    alignas(64) float buffer[26][kStep] = {};
    const std::size_t n = count - i;
    const float* const src[12] = {in.hip.x,  in.hip.y,    in.hip.z,    in.knee.x,
                                  in.knee.y, in.knee.z,   in.foot.x,   in.foot.y,
                                  in.foot.z, in.target.x, in.target.y, in.target.z};
    for (int s = 0; s < 12; ++s) {
      for (std::size_t j = 0; j < n; ++j) buffer[s][j] = src[s][i + j];
    }
    std::uint8_t reach[kStep];
    ChainBatchInput tail_in;
    tail_in.hip = {buffer[0], buffer[1], buffer[2]};
    tail_in.knee = {buffer[3], buffer[4], buffer[5]};
    tail_in.foot = {buffer[6], buffer[7], buffer[8]};
    tail_in.target = {buffer[9], buffer[10], buffer[11]};
    ChainBatchOutput tail_out;
    tail_out.knee = {buffer[12], buffer[13], buffer[14]};
    tail_out.foot = {buffer[15], buffer[16], buffer[17]};
    tail_out.hip_rotation = {buffer[18], buffer[19], buffer[20], buffer[21]};
    tail_out.knee_rotation = {buffer[22], buffer[23], buffer[24], buffer[25]};
    tail_out.reach = out.reach != nullptr ? reach : nullptr;
    SolveSteps(tail_in, tail_out, 0, kStep);
    float* const dst[14] = {out.knee.x,          out.knee.y,          out.knee.z,
                            out.foot.x,          out.foot.y,          out.foot.z,
                            out.hip_rotation.x,  out.hip_rotation.y,  out.hip_rotation.z,
                            out.hip_rotation.w,  out.knee_rotation.x, out.knee_rotation.y,
                            out.knee_rotation.z, out.knee_rotation.w};
    for (int s = 0; s < 14; ++s) {
      for (std::size_t j = 0; j < n; ++j) dst[s][i + j] = buffer[12 + s][j];
    }
    if (out.reach != nullptr) {
      for (std::size_t j = 0; j < n; ++j) out.reach[i + j] = reach[j];
    }
  }
};

}  // namespace
}  // namespace ikpose::ik::detail
