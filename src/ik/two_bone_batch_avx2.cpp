// The batch's AVX2 kernel: 8 chains per step (two_bone_batch_kernel.h), conditions as vectors.
//
// Compiled for AVX2 with FMA function by function (the rest of the build stays at the x86-64
// baseline); SolveChainBatch calls it only on CPUs that have both. On CPUs with AVX-512VL the
// same 8-lane kernel can run two groups of 8 side by side in its 32 registers (EVEX encoding).
#include "ik/two_bone_batch_isa.h"

#ifdef IKPOSE_BATCH_AVX2

#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#define IKPOSE_BATCH_FN [[gnu::always_inline, gnu::target("avx2,fma")]] static inline

namespace ikpose::ik::detail {
namespace {

// `kGroups` groups of 8 chains side by side per step. Two groups fill the waits of one group's
// dependent steps with the other's where the registers hold both: with AVX2's 16 they spill to
// the stack and one group is faster; with AVX-512VL's 32 (the same 8-lane instructions,
// EVEX-encoded) two are.
template <int kGroups>
struct Avx2Ops {
  static constexpr std::size_t kStep = 8 * kGroups;
  struct F {
    __m256 v[kGroups];
  };
  using M = F;  // all bits set in a lane where the condition holds
#define IKPOSE_LANES(expr)                         \
  F r;                                             \
  for (int g = 0; g < kGroups; ++g) r.v[g] = expr; \
  return r

  IKPOSE_BATCH_FN F Set(float v) {
    IKPOSE_LANES(_mm256_set1_ps(v));
  }
  IKPOSE_BATCH_FN F Zero() {
    IKPOSE_LANES(_mm256_setzero_ps());
  }
  IKPOSE_BATCH_FN F Add(F a, F b) {
    IKPOSE_LANES(_mm256_add_ps(a.v[g], b.v[g]));
  }
  IKPOSE_BATCH_FN F Sub(F a, F b) {
    IKPOSE_LANES(_mm256_sub_ps(a.v[g], b.v[g]));
  }
  IKPOSE_BATCH_FN F Mul(F a, F b) {
    IKPOSE_LANES(_mm256_mul_ps(a.v[g], b.v[g]));
  }
  IKPOSE_BATCH_FN F Div(F a, F b) {
    IKPOSE_LANES(_mm256_div_ps(a.v[g], b.v[g]));
  }
  IKPOSE_BATCH_FN F Sqrt(F a) {
    IKPOSE_LANES(_mm256_sqrt_ps(a.v[g]));
  }
  IKPOSE_BATCH_FN F Max(F a, F b) {
    IKPOSE_LANES(_mm256_max_ps(a.v[g], b.v[g]));
  }
  IKPOSE_BATCH_FN F Min(F a, F b) {
    IKPOSE_LANES(_mm256_min_ps(a.v[g], b.v[g]));
  }
  IKPOSE_BATCH_FN F MulAdd(F a, F b, F c) {  // a b + c
    IKPOSE_LANES(_mm256_fmadd_ps(a.v[g], b.v[g], c.v[g]));
  }
  IKPOSE_BATCH_FN F MulSub(F a, F b, F c) {  // a b - c
    IKPOSE_LANES(_mm256_fmsub_ps(a.v[g], b.v[g], c.v[g]));
  }
  IKPOSE_BATCH_FN F NegMulAdd(F a, F b, F c) {  // c - a b
    IKPOSE_LANES(_mm256_fnmadd_ps(a.v[g], b.v[g], c.v[g]));
  }
  IKPOSE_BATCH_FN F Abs(F a) {
    IKPOSE_LANES(_mm256_andnot_ps(_mm256_set1_ps(-0.f), a.v[g]));
  }
  // 1 with the sign of a (-1 for -0).
  IKPOSE_BATCH_FN F CopySignOne(F a) {
    IKPOSE_LANES(_mm256_or_ps(_mm256_and_ps(a.v[g], _mm256_set1_ps(-0.f)), _mm256_set1_ps(1.f)));
  }
  // Comparisons are ordered and quiet, as C++'s on floats: NaN compares false.
  IKPOSE_BATCH_FN M Gt(F a, F b) {
    IKPOSE_LANES(_mm256_cmp_ps(a.v[g], b.v[g], _CMP_GT_OQ));
  }
  IKPOSE_BATCH_FN M Lt(F a, F b) {
    IKPOSE_LANES(_mm256_cmp_ps(a.v[g], b.v[g], _CMP_LT_OQ));
  }
  IKPOSE_BATCH_FN M Le(F a, F b) {
    IKPOSE_LANES(_mm256_cmp_ps(a.v[g], b.v[g], _CMP_LE_OQ));
  }
  IKPOSE_BATCH_FN M Ge(F a, F b) {
    IKPOSE_LANES(_mm256_cmp_ps(a.v[g], b.v[g], _CMP_GE_OQ));
  }
  // !(a > b): true for NaN.
  IKPOSE_BATCH_FN M NotGt(F a, F b) {
    IKPOSE_LANES(_mm256_cmp_ps(a.v[g], b.v[g], _CMP_NGT_UQ));
  }
  IKPOSE_BATCH_FN M And(M a, M b) {
    IKPOSE_LANES(_mm256_and_ps(a.v[g], b.v[g]));
  }
  IKPOSE_BATCH_FN M AndNot(M a, M b) {  // !a & b
    IKPOSE_LANES(_mm256_andnot_ps(a.v[g], b.v[g]));
  }
  IKPOSE_BATCH_FN M Or(M a, M b) {
    IKPOSE_LANES(_mm256_or_ps(a.v[g], b.v[g]));
  }
  // mask ? -x : x, lane by lane: the sign bit flipped (no blend, no subtraction).
  IKPOSE_BATCH_FN F Negate(M mask, F x) {
    IKPOSE_LANES(_mm256_xor_ps(x.v[g], _mm256_and_ps(mask.v[g], _mm256_set1_ps(-0.f))));
  }
  // mask ? 0 : x, lane by lane.
  IKPOSE_BATCH_FN F ZeroWhere(M mask, F x) {
    IKPOSE_LANES(_mm256_andnot_ps(mask.v[g], x.v[g]));
  }
  // mask ? x : y, lane by lane.
  IKPOSE_BATCH_FN F Sel(M mask, F x, F y) {
    IKPOSE_LANES(_mm256_blendv_ps(y.v[g], x.v[g], mask.v[g]));
  }
  // True when every lane of the mask is set / when any is.
  IKPOSE_BATCH_FN bool All(M mask) {
    int all = 0xff;
    for (int g = 0; g < kGroups; ++g) all &= _mm256_movemask_ps(mask.v[g]);
    return all == 0xff;
  }
  IKPOSE_BATCH_FN bool Any(M mask) {
    int any = 0;
    for (int g = 0; g < kGroups; ++g) any |= _mm256_movemask_ps(mask.v[g]);
    return any != 0;
  }
  // The hardware estimates of 1 / sqrt(x) and 1 / x (12 bits), which the kernel refines.
  IKPOSE_BATCH_FN F InvSqrtEstimate(F x) {
    F y;
    for (int g = 0; g < kGroups; ++g) y.v[g] = _mm256_rsqrt_ps(x.v[g]);
    return y;
  }
  IKPOSE_BATCH_FN F InvEstimate(F x) {
    F y;
    for (int g = 0; g < kGroups; ++g) y.v[g] = _mm256_rcp_ps(x.v[g]);
    return y;
  }
#undef IKPOSE_LANES

  IKPOSE_BATCH_FN F Load(const float* p) {
    F r;
    for (int g = 0; g < kGroups; ++g) r.v[g] = _mm256_loadu_ps(p + 8 * g);
    return r;
  }
  IKPOSE_BATCH_FN void Store(float* p, F v) {
    for (int g = 0; g < kGroups; ++g) _mm256_storeu_ps(p + 8 * g, v.v[g]);
  }
  // Reach codes (0 reachable, 1 too far, 2 too close, kBatchInvalid) as 32-bit lanes,
  // narrowed to bytes.
  IKPOSE_BATCH_FN void StoreReach(std::uint8_t* reach, M too_far, M too_close, M valid) {
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
};

}  // namespace
}  // namespace ikpose::ik::detail

#include "ik/two_bone_batch_kernel.h"

namespace ikpose::ik::detail {

[[gnu::target("avx2,fma")]] void SolveChainBatchAvx2(const ChainBatchInput& in,
                                                     const ChainBatchOutput& out,
                                                     std::size_t count) {
  BatchKernel<Avx2Ops<1>>::SolveAll(in, out, count);
}

[[gnu::target("avx2,fma,avx512f,avx512vl")]] void SolveChainBatchAvx2Evex(
    const ChainBatchInput& in, const ChainBatchOutput& out, std::size_t count) {
  BatchKernel<Avx2Ops<2>>::SolveAll(in, out, count);
}

}  // namespace ikpose::ik::detail

#endif  // IKPOSE_BATCH_AVX2
