// The batch's AVX-512 kernel: 16 chains per instruction (two_bone_batch_kernel.h), conditions
// in mask registers.
//
// Compiled for AVX-512F function by function (the rest of the build stays at the x86-64
// baseline); SolveChainBatch calls it only on CPUs that have it. Why a 16-lane kernel beside
// the 8-lane one: where a core has two 512-bit multiply-add units, as server Xeons do, a 512-bit
// instruction does twice an AVX2 instruction's work in the same time, and the batch is bound by
// its arithmetic (README, "The solver"). Its estimates (rsqrt14, rcp14) have 14 bits where
// AVX2's have 12; after the same Newton step both are within float rounding of each other.
#include "ik/two_bone_batch_isa.h"

#ifdef IKPOSE_BATCH_AVX512

// GCC 12 warns that the AVX-512 intrinsics' own placeholder for unused lanes may be used
// uninitialized (GCC bug 105593, fixed in GCC 13); the warning is placed in the intrinsics'
// header, so it is turned off for it here.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#define IKPOSE_BATCH_FN [[gnu::always_inline, gnu::target("avx512f,avx2,fma")]] static inline

namespace ikpose::ik::detail {
namespace {

// `kGroups` groups of 16 chains side by side per step.
template <int kGroups>
struct Avx512Ops {
  static constexpr std::size_t kStep = 16 * kGroups;
  struct F {
    __m512 v[kGroups];
  };
  struct M {
    __mmask16 k[kGroups];  // bit j set where the condition holds in lane j
  };
#define IKPOSE_LANES(T, expr)                      \
  T r;                                             \
  for (int g = 0; g < kGroups; ++g) r.v[g] = expr; \
  return r
#define IKPOSE_MASKS(expr)                         \
  M r;                                             \
  for (int g = 0; g < kGroups; ++g) r.k[g] = expr; \
  return r

  IKPOSE_BATCH_FN F Set(float v) {
    IKPOSE_LANES(F, _mm512_set1_ps(v));
  }
  IKPOSE_BATCH_FN F Zero() {
    IKPOSE_LANES(F, _mm512_setzero_ps());
  }
  IKPOSE_BATCH_FN F Add(F a, F b) {
    IKPOSE_LANES(F, _mm512_add_ps(a.v[g], b.v[g]));
  }
  IKPOSE_BATCH_FN F Sub(F a, F b) {
    IKPOSE_LANES(F, _mm512_sub_ps(a.v[g], b.v[g]));
  }
  IKPOSE_BATCH_FN F Mul(F a, F b) {
    IKPOSE_LANES(F, _mm512_mul_ps(a.v[g], b.v[g]));
  }
  IKPOSE_BATCH_FN F Div(F a, F b) {
    IKPOSE_LANES(F, _mm512_div_ps(a.v[g], b.v[g]));
  }
  IKPOSE_BATCH_FN F Sqrt(F a) {
    IKPOSE_LANES(F, _mm512_sqrt_ps(a.v[g]));
  }
  IKPOSE_BATCH_FN F Max(F a, F b) {
    IKPOSE_LANES(F, _mm512_max_ps(a.v[g], b.v[g]));
  }
  IKPOSE_BATCH_FN F Min(F a, F b) {
    IKPOSE_LANES(F, _mm512_min_ps(a.v[g], b.v[g]));
  }
  IKPOSE_BATCH_FN F MulAdd(F a, F b, F c) {  // a b + c
    IKPOSE_LANES(F, _mm512_fmadd_ps(a.v[g], b.v[g], c.v[g]));
  }
  IKPOSE_BATCH_FN F MulSub(F a, F b, F c) {  // a b - c
    IKPOSE_LANES(F, _mm512_fmsub_ps(a.v[g], b.v[g], c.v[g]));
  }
  IKPOSE_BATCH_FN F NegMulAdd(F a, F b, F c) {  // c - a b
    IKPOSE_LANES(F, _mm512_fnmadd_ps(a.v[g], b.v[g], c.v[g]));
  }
  IKPOSE_BATCH_FN F Abs(F a) {
    IKPOSE_LANES(F, _mm512_abs_ps(a.v[g]));
  }
  // 1 with the sign of a (-1 for -0): a's sign bit, the rest from 1.
  IKPOSE_BATCH_FN F CopySignOne(F a) {
    IKPOSE_LANES(F, _mm512_castsi512_ps(_mm512_ternarylogic_epi32(
                        _mm512_set1_epi32(int(0x80000000u)), _mm512_castps_si512(a.v[g]),
                        _mm512_castps_si512(_mm512_set1_ps(1.f)), 0xca)));
  }
  // Comparisons are ordered and quiet, as C++'s on floats: NaN compares false.
  IKPOSE_BATCH_FN M Gt(F a, F b) {
    IKPOSE_MASKS(_mm512_cmp_ps_mask(a.v[g], b.v[g], _CMP_GT_OQ));
  }
  IKPOSE_BATCH_FN M Lt(F a, F b) {
    IKPOSE_MASKS(_mm512_cmp_ps_mask(a.v[g], b.v[g], _CMP_LT_OQ));
  }
  IKPOSE_BATCH_FN M Le(F a, F b) {
    IKPOSE_MASKS(_mm512_cmp_ps_mask(a.v[g], b.v[g], _CMP_LE_OQ));
  }
  IKPOSE_BATCH_FN M Ge(F a, F b) {
    IKPOSE_MASKS(_mm512_cmp_ps_mask(a.v[g], b.v[g], _CMP_GE_OQ));
  }
  // !(a > b): true for NaN.
  IKPOSE_BATCH_FN M NotGt(F a, F b) {
    IKPOSE_MASKS(_mm512_cmp_ps_mask(a.v[g], b.v[g], _CMP_NGT_UQ));
  }
  IKPOSE_BATCH_FN M And(M a, M b) {
    IKPOSE_MASKS(_mm512_kand(a.k[g], b.k[g]));
  }
  IKPOSE_BATCH_FN M AndNot(M a, M b) {  // !a & b
    IKPOSE_MASKS(_mm512_kandn(a.k[g], b.k[g]));
  }
  IKPOSE_BATCH_FN M Or(M a, M b) {
    IKPOSE_MASKS(_mm512_kor(a.k[g], b.k[g]));
  }
  // mask ? -x : x, lane by lane: 0 - x under the mask, no blend.
  IKPOSE_BATCH_FN F Negate(M mask, F x) {
    IKPOSE_LANES(F, _mm512_mask_sub_ps(x.v[g], mask.k[g], _mm512_setzero_ps(), x.v[g]));
  }
  // mask ? 0 : x, lane by lane.
  IKPOSE_BATCH_FN F ZeroWhere(M mask, F x) {
    IKPOSE_LANES(F, _mm512_maskz_mov_ps(_mm512_knot(mask.k[g]), x.v[g]));
  }
  // mask ? x : y, lane by lane.
  IKPOSE_BATCH_FN F Sel(M mask, F x, F y) {
    IKPOSE_LANES(F, _mm512_mask_blend_ps(mask.k[g], y.v[g], x.v[g]));
  }
  // True when every lane of the mask is set / when any is.
  IKPOSE_BATCH_FN bool All(M mask) {
    unsigned all = 0xffff;
    for (int g = 0; g < kGroups; ++g) all &= _mm512_mask2int(mask.k[g]);
    return all == 0xffff;
  }
  IKPOSE_BATCH_FN bool Any(M mask) {
    unsigned any = 0;
    for (int g = 0; g < kGroups; ++g) any |= _mm512_mask2int(mask.k[g]);
    return any != 0;
  }
  // The hardware estimates of 1 / sqrt(x) and 1 / x (14 bits), which the kernel refines.
  IKPOSE_BATCH_FN F InvSqrtEstimate(F x) {
    F y;
    for (int g = 0; g < kGroups; ++g) y.v[g] = _mm512_rsqrt14_ps(x.v[g]);
    return y;
  }
  IKPOSE_BATCH_FN F InvEstimate(F x) {
    F y;
    for (int g = 0; g < kGroups; ++g) y.v[g] = _mm512_rcp14_ps(x.v[g]);
    return y;
  }
#undef IKPOSE_LANES
#undef IKPOSE_MASKS

  IKPOSE_BATCH_FN F Load(const float* p) {
    F r;
    for (int g = 0; g < kGroups; ++g) r.v[g] = _mm512_loadu_ps(p + 16 * g);
    return r;
  }
  IKPOSE_BATCH_FN void Store(float* p, F v) {
    for (int g = 0; g < kGroups; ++g) _mm512_storeu_ps(p + 16 * g, v.v[g]);
  }
  // Reach codes (0 reachable, 1 too far, 2 too close, kBatchInvalid) as 32-bit lanes,
  // narrowed to bytes.
  IKPOSE_BATCH_FN void StoreReach(std::uint8_t* reach, M too_far, M too_close, M valid) {
    for (int g = 0; g < kGroups; ++g) {
      const __m512i far_code = _mm512_maskz_mov_epi32(too_far.k[g], _mm512_set1_epi32(1));
      const __m512i code = _mm512_mask_mov_epi32(far_code, too_close.k[g], _mm512_set1_epi32(2));
      const __m512i all =
          _mm512_mask_blend_epi32(valid.k[g], _mm512_set1_epi32(kBatchInvalid), code);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(reach + 16 * g), _mm512_cvtepi32_epi8(all));
    }
  }
};

}  // namespace
}  // namespace ikpose::ik::detail

#include "ik/two_bone_batch_kernel.h"

namespace ikpose::ik::detail {

[[gnu::target("avx512f,avx2,fma")]] void SolveChainBatchAvx512(const ChainBatchInput& in,
                                                               const ChainBatchOutput& out,
                                                               std::size_t count) {
  BatchKernel<Avx512Ops<1>>::SolveAll(in, out, count);
}

}  // namespace ikpose::ik::detail

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#endif  // IKPOSE_BATCH_AVX512
