#include "ik/two_bone_batch.h"

#include "ik/two_bone_batch_isa.h"
#include "ik/two_bone_core.h"

namespace ikpose::ik {

ChainSolution SolveChain(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                         const glm::vec3& t) {
  const detail::DefaultSolve s = detail::SolveDefault(a, b, c, t);
  ChainSolution out;
  out.valid = s.valid;
  if (!s.valid) {
    out.knee = b;
    out.foot = c;
    return out;
  }
  out.reach = static_cast<Reach>(s.reach);
  out.knee = s.knee;
  out.foot = s.foot;
  out.hip_rotation = s.hip_rotation;
  out.knee_rotation = s.knee_rotation;
  return out;
}

namespace {

// The loop body for `count` chains; kWithReach says whether the reach codes are written (two
// instantiations, so the loop itself has no branch). The codes are 32-bit, as wide as the
// floats: a byte store would make the vectoriser take 32 chains per iteration (four registers
// per value) and spill.
template <bool kWithReach>
IKPOSE_KERNEL void BatchLoop(const ChainBatchInput& in, const ChainBatchOutput& out,
                             std::size_t count, std::int32_t* reach) {
  const ConstPoints3 a = in.hip;
  const ConstPoints3 b = in.knee;
  const ConstPoints3 c = in.foot;
  const ConstPoints3 t = in.target;
  const Points3 kn = out.knee;
  const Points3 ft = out.foot;
  const Quats q1 = out.hip_rotation;
  const Quats q2 = out.knee_rotation;
#pragma GCC ivdep
  for (std::size_t i = 0; i < count; ++i) {
    const glm::vec3 pa(a.x[i], a.y[i], a.z[i]);
    const glm::vec3 pb(b.x[i], b.y[i], b.z[i]);
    const glm::vec3 pc(c.x[i], c.y[i], c.z[i]);
    const glm::vec3 pt(t.x[i], t.y[i], t.z[i]);
    const detail::DefaultSolve s = detail::SolveDefault(pa, pb, pc, pt);
    // Invalid chains keep their pose.
    const glm::vec3 knee = detail::Select(s.valid, s.knee, pb);
    const glm::vec3 foot = detail::Select(s.valid, s.foot, pc);
    const glm::quat identity(1.f, 0.f, 0.f, 0.f);
    const glm::quat hip_q = detail::Select(s.valid, s.hip_rotation, identity);
    const glm::quat knee_q = detail::Select(s.valid, s.knee_rotation, identity);
    kn.x[i] = knee.x;
    kn.y[i] = knee.y;
    kn.z[i] = knee.z;
    ft.x[i] = foot.x;
    ft.y[i] = foot.y;
    ft.z[i] = foot.z;
    q1.x[i] = hip_q.x;
    q1.y[i] = hip_q.y;
    q1.z[i] = hip_q.z;
    q1.w[i] = hip_q.w;
    q2.x[i] = knee_q.x;
    q2.y[i] = knee_q.y;
    q2.z[i] = knee_q.z;
    q2.w[i] = knee_q.w;
    if constexpr (kWithReach) {
      reach[i] = s.valid ? s.reach : std::int32_t{kBatchInvalid};
    }
  }
}

ConstPoints3 Offset(const ConstPoints3& p, std::size_t k) {
  return {p.x + k, p.y + k, p.z + k};
}
Points3 Offset(const Points3& p, std::size_t k) {
  return {p.x + k, p.y + k, p.z + k};
}
Quats Offset(const Quats& q, std::size_t k) {
  return {q.x + k, q.y + k, q.z + k, q.w + k};
}

// The x86-64 baseline kernel (SSE2, 4 chains per step), vectorised by the compiler from the
// scalar kernel.
void SolveChainBatchBaseline(const ChainBatchInput& in, const ChainBatchOutput& out,
                             std::size_t count) {
  if (out.reach == nullptr) {
    BatchLoop<false>(in, out, count, nullptr);
    return;
  }
  // Blocks of chains, their reach codes through a small buffer, narrowed to bytes after.
  constexpr std::size_t kBlock = 256;
  std::int32_t codes[kBlock];
  for (std::size_t begin = 0; begin < count; begin += kBlock) {
    const std::size_t n = count - begin < kBlock ? count - begin : kBlock;
    ChainBatchInput block_in;
    block_in.hip = Offset(in.hip, begin);
    block_in.knee = Offset(in.knee, begin);
    block_in.foot = Offset(in.foot, begin);
    block_in.target = Offset(in.target, begin);
    ChainBatchOutput block_out;
    block_out.knee = Offset(out.knee, begin);
    block_out.foot = Offset(out.foot, begin);
    block_out.hip_rotation = Offset(out.hip_rotation, begin);
    block_out.knee_rotation = Offset(out.knee_rotation, begin);
    BatchLoop<true>(block_in, block_out, n, codes);
    std::uint8_t* const reach = out.reach + begin;
    for (std::size_t i = 0; i < n; ++i) reach[i] = static_cast<std::uint8_t>(codes[i]);
  }
}

}  // namespace

namespace detail {

bool BatchIsaAvailable(BatchIsa isa) {
  if (isa == BatchIsa::kBaseline) return true;
#ifdef IKPOSE_BATCH_AVX2
  static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  static const bool avx512 = avx2 && __builtin_cpu_supports("avx512f");
  static const bool evex = avx512 && __builtin_cpu_supports("avx512vl");
  return isa == BatchIsa::kAvx2 ? avx2 : isa == BatchIsa::kAvx2Evex ? evex : avx512;
#else
  return false;
#endif
}

BatchIsa WidestBatchIsa() {
  return BatchIsaAvailable(BatchIsa::kAvx512)     ? BatchIsa::kAvx512
         : BatchIsaAvailable(BatchIsa::kAvx2Evex) ? BatchIsa::kAvx2Evex
         : BatchIsaAvailable(BatchIsa::kAvx2)     ? BatchIsa::kAvx2
                                                  : BatchIsa::kBaseline;
}

void SolveChainBatchOn(BatchIsa isa, const ChainBatchInput& in, const ChainBatchOutput& out,
                       std::size_t count) {
#ifdef IKPOSE_BATCH_AVX2
  if (isa == BatchIsa::kAvx2) {
    SolveChainBatchAvx2(in, out, count);
    return;
  }
  if (isa == BatchIsa::kAvx2Evex) {
    SolveChainBatchAvx2Evex(in, out, count);
    return;
  }
  if (isa == BatchIsa::kAvx512) {
    SolveChainBatchAvx512(in, out, count);
    return;
  }
#endif
  (void)isa;
  SolveChainBatchBaseline(in, out, count);
}

}  // namespace detail

// The widest kernel the CPU runs, chosen once.
void SolveChainBatch(const ChainBatchInput& in, const ChainBatchOutput& out, std::size_t count) {
  static const detail::BatchIsa isa = detail::WidestBatchIsa();
  detail::SolveChainBatchOn(isa, in, out, count);
}

}  // namespace ikpose::ik
