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

/// Inlined into each copy of its callers, at their width. The lanes' sums
/// are added pairwise in a fixed order, in registers.
inline __attribute__((always_inline)) float dot(const float* a, const float* b, std::size_t n) {
  Lanes acc = {};
  std::size_t c = 0;
  for (; c + kLanes <= n; c += kLanes) acc += load(a + c) * load(b + c);
  float sum = 0;
  for (; c < n; ++c) sum += a[c] * b[c];
  acc += __builtin_shuffle(acc, LaneIndex{4, 5, 6, 7, 0, 1, 2, 3});
  acc += __builtin_shuffle(acc, LaneIndex{2, 3, 0, 1, 6, 7, 4, 5});
  acc += __builtin_shuffle(acc, LaneIndex{1, 0, 3, 2, 5, 4, 7, 6});
  return sum + acc[0];
}

} // namespace

STEERBENCH_CLONES void attendOneHead(const float* __restrict q, const float* __restrict K, const float* __restrict V,
                                     std::size_t n, std::size_t d, float* __restrict weights, float* __restrict out) {
  const float scale = 1.0f / std::sqrt(float(d));
  float top = -INFINITY;
  for (std::size_t j = 0; j < n; ++j) {
    weights[j] = dot(q, K + j * d, d) * scale;
    top = std::max(top, weights[j]);
  }
  float sum = 0;
  for (std::size_t j = 0; j < n; ++j) sum += (weights[j] = std::exp(weights[j] - top));
  const float inverse = 1.0f / sum;
  for (std::size_t j = 0; j < n; ++j) weights[j] *= inverse;
  // Eight outputs at a time, summed over the positions in a register.
  std::size_t c = 0;
  for (; c + kLanes <= d; c += kLanes) {
    Lanes acc = {};
    for (std::size_t j = 0; j < n; ++j) acc += weights[j] * load(V + j * d + c);
    std::memcpy(out + c, &acc, sizeof acc);
  }
  for (; c < d; ++c) {
    float acc = 0;
    for (std::size_t j = 0; j < n; ++j) acc += weights[j] * V[j * d + c];
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
