// The few inner loops of sampling that run per token, per row and per vocabulary
// entry, written so the compiler vectorises them. On x86-64 with GCC they are
// compiled twice, for x86-64-v3 (AVX2 with FMA) and for any x86-64, and the
// CPU picks its copy when the program loads (target_clones): a portable build
// still runs them at the width the CPU has. Both copies do the same operations
// in the same order (the file is built without fused multiply-adds), so they
// give the same bits; sums are kept in eight lanes, so results differ from a
// plain loop's in the last bits only.
#pragma once

#include <cstddef>

namespace steerbench::model {

/// Scaled dot-product attention of one query q[d] over the keys K[n][d] and
/// values V[n][d] (rows contiguous): out[d] = sum_j softmax_j(q.K[j] / sqrt(d)) V[j].
/// `weights` is scratch space of n floats.
void attendOneHead(const float* q, const float* K, const float* V, std::size_t n, std::size_t d, float* weights,
                   float* out);

/// The largest of x[0 .. n) (n > 0); NaN-free input.
[[nodiscard]] float maxOf(const float* x, std::size_t n);

} // namespace steerbench::model
