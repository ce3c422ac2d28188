// The batch's AVX2 kernel: 8 chains per step, the seed's solve as SolveDefault
// (two_bone_core.h) does it, with its selects.
//
// Compiled for AVX2 with FMA function by function (the rest of the build stays at the x86-64
// baseline); SolveChainBatch calls it only on CPUs that have both. Where the compiled scalar
// kernel takes seven square roots and seven divisions per chain, here the lengths that decide
// the reach case are true square roots and the knee circle's k = x / d a true division (near a
// reach boundary the radius sqrt(l^2 - x^2) turns an error in x into its square root); every
// other reciprocal and inverse square root is the hardware estimate refined by one Newton step
// (relative error about 3e-7), whose error stays proportional in what it scales. The knee is
// placed as the job's fast path places it (two_bone_fast.cpp: no unit direction for the
// reachable case), and each bone's pair of directions is turned without dividing by its
// length. The minimal rotation's wide-angle form is needed only within about 8 degrees of a
// half turn, so it and the rare cases (a knee on the hip-target line, an exact half turn, an
// invalid chain) branch when a lane of the step needs them. On CPUs with AVX-512VL the same
// 8-lane kernel runs two groups of 8 side by side in its 32 registers (EVEX encoding).
#include "ik/two_bone_batch_isa.h"

#ifdef IKPOSE_BATCH_AVX2

#include <immintrin.h>

#include <cstdint>

#include "ik/two_bone_core.h"

namespace ikpose::ik::detail {
namespace {

#define IKPOSE_AVX2_FN [[gnu::always_inline, gnu::target("avx2,fma")]] static inline

// The kernel for `kGroups` groups of 8 chains side by side per step. Two groups fill the waits
// of one group's dependent steps with the other's where the registers hold both: with AVX2's
// 16 they spill to the stack and one group is faster; with AVX-512VL's 32 (the same 8-lane
// instructions, EVEX-encoded) two are.
template <int kGroups>
struct Kernel {
  static constexpr std::size_t kStep = 8 * kGroups;
  struct F {
    __m256 v[kGroups];
  };
  struct V3 {
    F x, y, z;
  };
#define IKPOSE_LANES(expr)                         \
  F r;                                             \
  for (int g = 0; g < kGroups; ++g) r.v[g] = expr; \
  return r

  IKPOSE_AVX2_FN F Set(float v) {
    IKPOSE_LANES(_mm256_set1_ps(v));
  }
  IKPOSE_AVX2_FN F Zero() {
    IKPOSE_LANES(_mm256_setzero_ps());
  }
  IKPOSE_AVX2_FN F Add(F a, F b) {
    IKPOSE_LANES(_mm256_add_ps(a.v[g], b.v[g]));
  }
  IKPOSE_AVX2_FN F Sub(F a, F b) {
    IKPOSE_LANES(_mm256_sub_ps(a.v[g], b.v[g]));
  }
  IKPOSE_AVX2_FN F Mul(F a, F b) {
    IKPOSE_LANES(_mm256_mul_ps(a.v[g], b.v[g]));
  }
  IKPOSE_AVX2_FN F Div(F a, F b) {
    IKPOSE_LANES(_mm256_div_ps(a.v[g], b.v[g]));
  }
  IKPOSE_AVX2_FN F Sqrt(F a) {
    IKPOSE_LANES(_mm256_sqrt_ps(a.v[g]));
  }
  IKPOSE_AVX2_FN F Max(F a, F b) {
    IKPOSE_LANES(_mm256_max_ps(a.v[g], b.v[g]));
  }
  IKPOSE_AVX2_FN F MulAdd(F a, F b, F c) {  // a b + c
    IKPOSE_LANES(_mm256_fmadd_ps(a.v[g], b.v[g], c.v[g]));
  }
  IKPOSE_AVX2_FN F MulSub(F a, F b, F c) {  // a b - c
    IKPOSE_LANES(_mm256_fmsub_ps(a.v[g], b.v[g], c.v[g]));
  }
  IKPOSE_AVX2_FN F NegMulAdd(F a, F b, F c) {  // c - a b
    IKPOSE_LANES(_mm256_fnmadd_ps(a.v[g], b.v[g], c.v[g]));
  }
  // Comparisons are ordered and quiet, as C++'s on floats: NaN compares false.
  IKPOSE_AVX2_FN F Gt(F a, F b) {
    IKPOSE_LANES(_mm256_cmp_ps(a.v[g], b.v[g], _CMP_GT_OQ));
  }
  IKPOSE_AVX2_FN F Lt(F a, F b) {
    IKPOSE_LANES(_mm256_cmp_ps(a.v[g], b.v[g], _CMP_LT_OQ));
  }
  IKPOSE_AVX2_FN F Le(F a, F b) {
    IKPOSE_LANES(_mm256_cmp_ps(a.v[g], b.v[g], _CMP_LE_OQ));
  }
  IKPOSE_AVX2_FN F Ge(F a, F b) {
    IKPOSE_LANES(_mm256_cmp_ps(a.v[g], b.v[g], _CMP_GE_OQ));
  }
  // !(a > b): true for NaN.
  IKPOSE_AVX2_FN F NotGt(F a, F b) {
    IKPOSE_LANES(_mm256_cmp_ps(a.v[g], b.v[g], _CMP_NGT_UQ));
  }
  IKPOSE_AVX2_FN F And(F a, F b) {
    IKPOSE_LANES(_mm256_and_ps(a.v[g], b.v[g]));
  }
  IKPOSE_AVX2_FN F AndNot(F a, F b) {  // !a & b
    IKPOSE_LANES(_mm256_andnot_ps(a.v[g], b.v[g]));
  }
  IKPOSE_AVX2_FN F Or(F a, F b) {
    IKPOSE_LANES(_mm256_or_ps(a.v[g], b.v[g]));
  }
  // mask ? x : y, lane by lane.
  IKPOSE_AVX2_FN F Sel(F mask, F x, F y) {
    IKPOSE_LANES(_mm256_blendv_ps(y.v[g], x.v[g], mask.v[g]));
  }
  IKPOSE_AVX2_FN V3 Sel(F mask, const V3& x, const V3& y) {
    return {Sel(mask, x.x, y.x), Sel(mask, x.y, y.y), Sel(mask, x.z, y.z)};
  }
  IKPOSE_AVX2_FN F Abs(F a) {
    IKPOSE_LANES(_mm256_andnot_ps(_mm256_set1_ps(-0.f), a.v[g]));
  }
  // True when every lane of the mask is set / when any is.
  IKPOSE_AVX2_FN bool All(F mask) {
    int all = 0xff;
    for (int g = 0; g < kGroups; ++g) all &= _mm256_movemask_ps(mask.v[g]);
    return all == 0xff;
  }
  IKPOSE_AVX2_FN bool Any(F mask) {
    int any = 0;
    for (int g = 0; g < kGroups; ++g) any |= _mm256_movemask_ps(mask.v[g]);
    return any != 0;
  }
  // The estimates refined once: y (1.5 - x y^2 / 2) and y + y (1 - x y).
  IKPOSE_AVX2_FN F InvSqrt(F x) {
    F y;
    for (int g = 0; g < kGroups; ++g) y.v[g] = _mm256_rsqrt_ps(x.v[g]);
    return Mul(y, NegMulAdd(Mul(Set(0.5f), x), Mul(y, y), Set(1.5f)));
  }
  IKPOSE_AVX2_FN F Inv(F x) {
    F y;
    for (int g = 0; g < kGroups; ++g) y.v[g] = _mm256_rcp_ps(x.v[g]);
    return MulAdd(y, NegMulAdd(x, y, Set(1.f)), y);
  }

  IKPOSE_AVX2_FN V3 Sub(const V3& a, const V3& b) {
    return {Sub(a.x, b.x), Sub(a.y, b.y), Sub(a.z, b.z)};
  }
  IKPOSE_AVX2_FN V3 Mul(const V3& a, F s) {
    return {Mul(a.x, s), Mul(a.y, s), Mul(a.z, s)};
  }
  IKPOSE_AVX2_FN V3 MulAdd(const V3& a, F s, const V3& b) {  // a s + b
    return {MulAdd(a.x, s, b.x), MulAdd(a.y, s, b.y), MulAdd(a.z, s, b.z)};
  }
  IKPOSE_AVX2_FN V3 NegMulAdd(const V3& a, F s, const V3& b) {  // b - a s
    return {NegMulAdd(a.x, s, b.x), NegMulAdd(a.y, s, b.y), NegMulAdd(a.z, s, b.z)};
  }
  IKPOSE_AVX2_FN F Dot(const V3& a, const V3& b) {
    return MulAdd(a.z, b.z, MulAdd(a.y, b.y, Mul(a.x, b.x)));
  }
  IKPOSE_AVX2_FN V3 Cross(const V3& a, const V3& b) {
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
  IKPOSE_AVX2_FN Turn Between(const V3& f, F f2, const V3& t) {
    const F c = Dot(f, t);
    const F m = f2;
    const V3 x = Cross(f, t);
    const F near_w = Add(m, c);
    const F s2 = Dot(x, x);
    Turn turn{near_w, x, MulAdd(near_w, near_w, s2)};
    const F near = Gt(c, Mul(Set(kNearCos), f2));
    if (!All(near)) [[unlikely]] {
      // x - f (x . f) / |f|^2: x's part along f is rounding.
      const V3 far_v = Mul(NegMulAdd(f, Mul(Dot(x, f), Inv(f2)), x), Sub(m, c));
      turn.w = Sel(near, turn.w, s2);
      turn.v = Sel(near, turn.v, far_v);
      turn.norm2 = Sel(near, turn.norm2, MulAdd(s2, s2, Dot(far_v, far_v)));
      const F half_turn = AndNot(near, Le(s2, Mul(Set(1e-14f), Mul(f2, f2))));
      if (Any(half_turn)) [[unlikely]] {
        const F use_x = Ge(Mul(f.z, f.z), Mul(f.x, f.x));
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
  IKPOSE_AVX2_FN V3 RotateScaled(F w, const V3& u, F k, const V3& v) {
    const V3 uv = Cross(u, v);
    const V3 uuv = Cross(u, uv);
    return MulAdd(MulAdd(uv, w, uuv), k, v);
  }

  // PerpendicularOfUnit, lane by lane.
  IKPOSE_AVX2_FN V3 Perpendicular(const V3& n) {
    const F sign = Or(And(n.z, Set(-0.f)), Set(1.f));
    const F a = Sub(Zero(), Inv(Add(sign, n.z)));
    const F b = Mul(Mul(n.x, n.y), a);
    return {MulAdd(Mul(sign, Mul(n.x, n.x)), a, Set(1.f)), Mul(sign, b),
            Sub(Zero(), Mul(sign, n.x))};
  }

  IKPOSE_AVX2_FN F Load(const float* p) {
    IKPOSE_LANES(_mm256_loadu_ps(p + 8 * g));
  }
  IKPOSE_AVX2_FN V3 Load(const ConstPoints3& p, std::size_t i) {
    return {Load(p.x + i), Load(p.y + i), Load(p.z + i)};
  }
  IKPOSE_AVX2_FN void Store(float* p, F v) {
    for (int g = 0; g < kGroups; ++g) _mm256_storeu_ps(p + 8 * g, v.v[g]);
  }
  IKPOSE_AVX2_FN void Store(const Points3& p, std::size_t i, const V3& v) {
    Store(p.x + i, v.x);
    Store(p.y + i, v.y);
    Store(p.z + i, v.z);
  }

  // Reach codes (0 reachable, 1 too far, 2 too close, kBatchInvalid) as 32-bit lanes,
  // narrowed to bytes.
  IKPOSE_AVX2_FN void StoreReach(std::uint8_t* reach, F too_far, F too_close, F valid) {
    for (int g = 0; g < kGroups; ++g) {
      const __m256i far_code =
          _mm256_and_si256(_mm256_castps_si256(too_far.v[g]), _mm256_set1_epi32(1));
      const __m256i close_code =
          _mm256_and_si256(_mm256_castps_si256(too_close.v[g]), _mm256_set1_epi32(2));
      const __m256 code = _mm256_castsi256_ps(_mm256_or_si256(far_code, close_code));
      const __m256i all = _mm256_castps_si256(_mm256_blendv_ps(
          _mm256_castsi256_ps(_mm256_set1_epi32(kBatchInvalid)), code, valid.v[g]));
      const __m128i words =
          _mm_packus_epi32(_mm256_castsi256_si128(all), _mm256_extracti128_si256(all, 1));
      _mm_storel_epi64(reinterpret_cast<__m128i*>(reach + 8 * g), _mm_packus_epi16(words, words));
    }
  }

  // The positions step for chains i..i+kStep-1: b' and c' (b and c for an invalid chain) into
  // the output, the validity masks into `valid_out`, the reach codes.
  IKPOSE_AVX2_FN void PositionsStep(const ChainBatchInput& in, const ChainBatchOutput& out,
                                    std::size_t i, float* valid_out) {
    const V3 a = Load(in.hip, i);
    const V3 b = Load(in.knee, i);
    const V3 c = Load(in.foot, i);
    const V3 t = Load(in.target, i);

    // Measure. The reach case from true square roots, as the scalar kernel decides it.
    const V3 ab = Sub(b, a);
    const V3 bc = Sub(c, b);
    const V3 at = Sub(t, a);
    const F dd = Dot(at, at);
    const F l1 = Sqrt(Dot(ab, ab));
    const F l2 = Sqrt(Dot(bc, bc));
    const F d = Sqrt(dd);
    const F hi = Add(l1, l2);
    const F l1_minus_l2 = Sub(l1, l2);
    const F lo = Abs(l1_minus_l2);
    const F too_far = Gt(d, hi);
    const F too_close = Lt(d, lo);
    const F clamped = Or(too_far, too_close);

    // Reachable: the knee circle's center at x = k d along a->t from the end of the shorter
    // bone, k = (d^2 -+ (l1^2 - l2^2)) / (2 d^2) (a true division: near a reach boundary the
    // radius sqrt(l^2 - x^2) turns an error in x into its square root).
    const F lower_shorter = Gt(l1_minus_l2, Zero());
    const F diff = Mul(l1_minus_l2, hi);
    const F k = Mul(Add(dd, Sel(lower_shorter, Sub(Zero(), diff), diff)), Div(Set(0.5f), dd));
    const F l = Sel(lower_shorter, l2, l1);
    const F r2 = Max(NegMulAdd(Mul(k, k), dd, Mul(l, l)), Zero());
    const F radius = Mul(r2, InvSqrt(Max(r2, Set(1e-30f))));
    const V3 center = MulAdd(at, Sel(lower_shorter, Sub(Zero(), k), k), Sel(lower_shorter, t, a));
    // The knee's side (KneeSide): the old knee off the hip-target line, u = d^2 (ab without its
    // part along at), or a fixed perpendicular when it is on the line.
    const V3 u = NegMulAdd(at, Dot(ab, at), Mul(ab, dd));
    const F u2 = Dot(u, u);
    const F limit = Mul(Mul(Set(kOnAxis), hi), dd);
    const F on_axis = AndNot(clamped, NotGt(u2, Mul(limit, limit)));
    V3 side = Mul(u, InvSqrt(u2));
    const F inv_d = Inv(d);
    const V3 dir = Mul(at, inv_d);
    if (Any(on_axis)) [[unlikely]] {
      side = Sel(on_axis, Perpendicular(dir), side);
    }
    // Too far or too close: straight toward t, or folded with the longer bone toward it.
    const F zero = Zero();
    const F neg_l1 = Sub(zero, l1);
    const F knee_along = Sel(Or(too_far, Gt(l1, l2)), l1, neg_l1);
    const V3 knee = Sel(clamped, MulAdd(dir, knee_along, a), MulAdd(side, radius, center));
    const V3 foot = Sel(clamped, MulAdd(dir, Sel(too_far, hi, lo), a), t);

    // ValidatePositions' tests; NaN anywhere fails them.
    const F small = Mul(Set(1e-6f), hi);
    const F valid = And(And(And(Lt(hi, Set(1e18f)), Lt(d, Set(1e18f))), Gt(l1, small)),
                        And(Gt(l2, small), Gt(d, small)));

    const F keep = And(valid, Set(1.f));  // 1 for a valid chain, 0 for an invalid one
    Store(valid_out, keep);
    if (!All(valid)) [[unlikely]] {
      // Invalid chains keep their pose.
      Store(out.knee, i, Sel(valid, knee, b));
      Store(out.foot, i, Sel(valid, foot, c));
    } else {
      Store(out.knee, i, knee);
      Store(out.foot, i, foot);
    }
    if (out.reach != nullptr) StoreReach(out.reach + i, too_far, too_close, valid);
  }

  // The two turns (SolveDefault's) for chains i..i+kStep-1, from the solved joints in the
  // output; each pair of vectors has one bone's length.
  IKPOSE_AVX2_FN void TurnsStep(const ChainBatchInput& in, const ChainBatchOutput& out,
                                std::size_t i, const float* valid_in) {
    const V3 a = Load(in.hip, i);
    const V3 b = Load(in.knee, i);
    const V3 knee = Load(ConstPoints3{out.knee.x, out.knee.y, out.knee.z}, i);
    const V3 ab = Sub(b, a);
    const Turn h = Between(ab, Dot(ab, ab), Sub(knee, a));
    const F s1 = InvSqrt(h.norm2);
    const V3 bc = Sub(Load(in.foot, i), b);
    const V3 lower_turned = RotateScaled(h.w, h.v, Mul(Set(2.f), Mul(s1, s1)), bc);
    const V3 foot = Load(ConstPoints3{out.foot.x, out.foot.y, out.foot.z}, i);
    const Turn k = Between(lower_turned, Dot(lower_turned, lower_turned), Sub(foot, knee));
    const F s2 = InvSqrt(k.norm2);
    F q1w = Mul(h.w, s1), q2w = Mul(k.w, s2);
    V3 q1 = Mul(h.v, s1), q2 = Mul(k.v, s2);
    const F valid = Gt(Load(valid_in), Zero());
    if (!All(valid)) [[unlikely]] {
      // Invalid chains: the identity.
      const F zero = Zero();
      q1 = Sel(valid, q1, V3{zero, zero, zero});
      q2 = Sel(valid, q2, V3{zero, zero, zero});
      q1w = Sel(valid, q1w, Set(1.f));
      q2w = Sel(valid, q2w, Set(1.f));
    }
    Store({out.hip_rotation.x, out.hip_rotation.y, out.hip_rotation.z}, i, q1);
    Store(out.hip_rotation.w + i, q1w);
    Store({out.knee_rotation.x, out.knee_rotation.y, out.knee_rotation.z}, i, q2);
    Store(out.knee_rotation.w + i, q2w);
  }

  // Chains begin..end (a whole number of steps): the positions, then the turns from the joints
  // just written (still in the first-level cache).
  IKPOSE_AVX2_FN void SolveSteps(const ChainBatchInput& in, const ChainBatchOutput& out,
                                 std::size_t begin, std::size_t end) {
    alignas(32) float valid[kStep] = {};
    for (std::size_t i = begin; i < end; i += kStep) {
      PositionsStep(in, out, i, valid);
      TurnsStep(in, out, i, valid);
    }
  }

  IKPOSE_AVX2_FN void SolveAll(const ChainBatchInput& in, const ChainBatchOutput& out,
                               std::size_t count) {
    const std::size_t i = count - count % kStep;
    SolveSteps(in, out, 0, i);
    if (i == count) return;
    // The last chains through the same kernel, copied into full vectors (unused lanes hold
    // zeros: invalid chains, whose output is dropped).
    alignas(32) float buffer[26][kStep] = {};
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

[[gnu::target("avx2,fma")]] void SolveChainBatchAvx2(const ChainBatchInput& in,
                                                     const ChainBatchOutput& out,
                                                     std::size_t count) {
  Kernel<1>::SolveAll(in, out, count);
}

[[gnu::target("avx2,fma,avx512f,avx512vl")]] void SolveChainBatchAvx2Evex(
    const ChainBatchInput& in, const ChainBatchOutput& out, std::size_t count) {
  Kernel<2>::SolveAll(in, out, count);
}

}  // namespace ikpose::ik::detail

#endif  // IKPOSE_BATCH_AVX2
