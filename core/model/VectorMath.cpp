#include "model/VectorMath.h"

#include <algorithm>
#include <cmath>

namespace steerbench::model {

namespace {

constexpr std::size_t kLanes = 8; ///< one AVX register of floats

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define STEERBENCH_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else // one copy, at the width the build targets
#define STEERBENCH_CLONES
#endif

/// Inlined into each copy of its callers, at their width.
inline __attribute__((always_inline)) float dot(const float* a, const float* b, std::size_t n) {
  float lane[kLanes] = {};
  std::size_t c = 0;
  for (; c + kLanes <= n; c += kLanes)
    for (std::size_t l = 0; l < kLanes; ++l) lane[l] += a[c + l] * b[c + l];
  float sum = 0;
  for (; c < n; ++c) sum += a[c] * b[c];
  for (float l : lane) sum += l;
  return sum;
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
  std::fill(out, out + d, 0.0f);
  for (std::size_t j = 0; j < n; ++j) {
    const float p = weights[j] / sum;
    const float* v = V + j * d;
    std::size_t c = 0;
    for (; c + kLanes <= d; c += kLanes)
      for (std::size_t l = 0; l < kLanes; ++l) out[c + l] += p * v[c + l];
    for (; c < d; ++c) out[c] += p * v[c];
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
