// Internal: the batch's kernels by instruction set, for SolveChainBatch's dispatch and tests.
//
// What: `SolveChainBatchOn(isa, ...)` runs the batch with one kernel: the x86-64 baseline loop
// (SSE2, 4 chains per step, vectorised by the compiler from the scalar kernel SolveChain
// uses), the AVX2 kernel (8 chains per step, written with intrinsics; FMA, approximate
// reciprocals refined by a Newton step where rounding is not amplified), or the same kernel
// compiled with AVX-512VL (EVEX: 32 registers, two groups of 8 chains per step), or the same
// solve written for AVX-512's 16 lanes (two_bone_batch_avx512.cpp). SolveChainBatch picks the
// widest the CPU runs, once.
// Why: tests hold every kernel to SolveChain on the same chains, whatever CPU runs them.
// Limits: not part of the API; call SolveChainBatch.
#pragma once

#include <cstddef>

#include "ik/two_bone_batch.h"

namespace ikpose::ik::detail {

enum class BatchIsa { kBaseline, kAvx2, kAvx2Evex, kAvx512 };

// True when this build has the kernel and the CPU running it can execute it.
bool BatchIsaAvailable(BatchIsa isa);

// The widest kernel this build has and the CPU runs (what SolveChainBatch uses).
BatchIsa WidestBatchIsa();

// Runs `isa`'s kernel; BatchIsaAvailable(isa) must be true.
void SolveChainBatchOn(BatchIsa isa, const ChainBatchInput& input, const ChainBatchOutput& output,
                       std::size_t count);

// The AVX2 kernel (two_bone_batch_avx2.cpp); only on x86-64 builds with GCC or clang.
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define IKPOSE_BATCH_AVX2 1
void SolveChainBatchAvx2(const ChainBatchInput& input, const ChainBatchOutput& output,
                         std::size_t count);
void SolveChainBatchAvx2Evex(const ChainBatchInput& input, const ChainBatchOutput& output,
                             std::size_t count);
// The AVX-512 kernel (two_bone_batch_avx512.cpp), on the same builds.
#define IKPOSE_BATCH_AVX512 1
void SolveChainBatchAvx512(const ChainBatchInput& input, const ChainBatchOutput& output,
                           std::size_t count);
#endif

}  // namespace ikpose::ik::detail
