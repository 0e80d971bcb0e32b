#include "model/VectorMath.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace steerbench::model {

namespace {

constexpr std::size_t kLanes = 8; ///< one AVX register of floats

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define STEERBENCH_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else // one copy, at the width the build targets
#define STEERBENCH_CLONES
#endif

/// Eight floats in one register (two halves where the CPU has no AVX).
/// Only inside this file's inlined helpers: never passed between functions.
typedef float Lanes __attribute__((vector_size(kLanes * sizeof(float))));
typedef int LaneIndex __attribute__((vector_size(kLanes * sizeof(int))));

inline __attribute__((always_inline)) Lanes load(const float* p) {
  Lanes x;
  std::memcpy(&x, p, sizeof x);
  return x;
}

/// The eight lanes of `acc` summed pairwise in a fixed order, in registers.
inline __attribute__((always_inline)) float laneSum(Lanes acc) {
  acc += __builtin_shuffle(acc, LaneIndex{4, 5, 6, 7, 0, 1, 2, 3});
  acc += __builtin_shuffle(acc, LaneIndex{2, 3, 0, 1, 6, 7, 4, 5});
  acc += __builtin_shuffle(acc, LaneIndex{1, 0, 3, 2, 5, 4, 7, 6});
  return acc[0];
}

/// Inlined into each copy of its callers, at their width.
inline __attribute__((always_inline)) float dot(const float* a, const float* b, std::size_t n) {
  Lanes acc = {};
  std::size_t c = 0;
  for (; c + kLanes <= n; c += kLanes) acc += load(a + c) * load(b + c);
  float sum = 0;
  for (; c < n; ++c) sum += a[c] * b[c];
  return sum + laneSum(acc);
}

/// Scores of four keys at once for a head of C * 8 dimensions: four
/// independent chains of the sums dot() makes (one chain would wait on its
/// own additions), so the same bits.
template <std::size_t C>
inline __attribute__((always_inline)) void fourScores(const float* q, const float* K, std::size_t j, float scale,
                                                      float* weights) {
  const float* k = K + j * C * kLanes;
  Lanes a0 = {}, a1 = {}, a2 = {}, a3 = {};
#pragma GCC unroll 8
  for (std::size_t c = 0; c < C * kLanes; c += kLanes) {
    const Lanes x = load(q + c);
    a0 += x * load(k + c);
    a1 += x * load(k + C * kLanes + c);
    a2 += x * load(k + 2 * C * kLanes + c);
    a3 += x * load(k + 3 * C * kLanes + c);
  }
  weights[j] = (0.0f + laneSum(a0)) * scale;
  weights[j + 1] = (0.0f + laneSum(a1)) * scale;
  weights[j + 2] = (0.0f + laneSum(a2)) * scale;
  weights[j + 3] = (0.0f + laneSum(a3)) * scale;
}

/// out = sum_j weights[j] V[j] for C * 8 dimensions: the values read once,
/// row by row, into C registers. Each output is summed over j in order, as
/// a loop over one output at a time sums it.
template <std::size_t C>
inline __attribute__((always_inline)) void weightedRows(const float* weights, const float* V, std::size_t n, float* out) {
  Lanes acc[C] = {};
  for (std::size_t j = 0; j < n; ++j) {
    const float w = weights[j];
    const float* v = V + j * C * kLanes;
#pragma GCC unroll 8
    for (std::size_t c = 0; c < C; ++c) acc[c] += w * load(v + c * kLanes);
  }
  std::memcpy(out, acc, sizeof acc);
}

} // namespace

STEERBENCH_CLONES void attendOneHead(const float* __restrict q, const float* __restrict K, const float* __restrict V,
                                     std::size_t n, std::size_t d, float* __restrict weights, float* __restrict out) {
  const float scale = 1.0f / std::sqrt(float(d));
  // The usual head sizes (d = 32, 48, 64) take the unrolled loops; any other
  // size the plain ones. Both give the same bits.
  const std::size_t chunks = d % kLanes == 0 ? d / kLanes : 0;
  std::size_t j = 0;
  switch (chunks) {
  case 4: for (; j + 4 <= n; j += 4) fourScores<4>(q, K, j, scale, weights); break;
  case 6: for (; j + 4 <= n; j += 4) fourScores<6>(q, K, j, scale, weights); break;
  case 8: for (; j + 4 <= n; j += 4) fourScores<8>(q, K, j, scale, weights); break;
  default: break;
  }
  for (; j < n; ++j) weights[j] = dot(q, K + j * d, d) * scale;
  float top = -INFINITY;
  for (std::size_t i = 0; i < n; ++i) top = std::max(top, weights[i]);
  float sum = 0;
  for (std::size_t i = 0; i < n; ++i) sum += (weights[i] = std::exp(weights[i] - top));
  const float inverse = 1.0f / sum;
  for (std::size_t i = 0; i < n; ++i) weights[i] *= inverse;
  switch (chunks) {
  case 4: weightedRows<4>(weights, V, n, out); return;
  case 6: weightedRows<6>(weights, V, n, out); return;
  case 8: weightedRows<8>(weights, V, n, out); return;
  default: break;
  }
  // Eight outputs at a time, summed over the positions in a register.
  std::size_t c = 0;
  for (; c + kLanes <= d; c += kLanes) {
    Lanes acc = {};
    for (std::size_t i = 0; i < n; ++i) acc += weights[i] * load(V + i * d + c);
    std::memcpy(out + c, &acc, sizeof acc);
  }
  for (; c < d; ++c) {
    float acc = 0;
    for (std::size_t i = 0; i < n; ++i) acc += weights[i] * V[i * d + c];
    out[c] = acc;
  }
}

STEERBENCH_CLONES float maxOf(const float* x, std::size_t n) {
  float lane[kLanes];
  std::fill(lane, lane + kLanes, x[0]);
  std::size_t i = 0;
  for (; i + kLanes <= n; i += kLanes)
    for (std::size_t l = 0; l < kLanes; ++l) lane[l] = x[i + l] > lane[l] ? x[i + l] : lane[l];
  float top = *std::max_element(lane, lane + kLanes);
  for (; i < n; ++i) top = std::max(top, x[i]);
  return top;
}

} // namespace steerbench::model
