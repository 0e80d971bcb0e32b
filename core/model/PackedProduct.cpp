#include "model/PackedProduct.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define STEERBENCH_X86 1
#endif

namespace steerbench::model {

namespace {

/// Output columns a panel holds, per kernel: two registers' worth.
std::size_t panelWidth(PackedWeights::Kernel k) {
  switch (k) {
  case PackedWeights::Kernel::Avx512: return 32;
  case PackedWeights::Kernel::Avx2: return 16;
  default: return 1;
  }
}

/// The outputs of the block's R rows held in `acc` (row-major, `width`
/// columns a row) stored into y, `columns` of them (fewer at the last panel).
inline void storeBlock(const float* acc, std::size_t width, std::size_t rows, float* y, std::size_t ldy,
                       std::size_t columns) {
  for (std::size_t r = 0; r < rows; ++r) std::memcpy(y + r * ldy, acc + r * width, columns * sizeof(float));
}

#ifdef STEERBENCH_X86
/// R rows of x against one panel of 32 columns: 2R accumulators in
/// registers, each the bias then one fused multiply-add per input.
template <int R>
__attribute__((target("avx512f"))) void panelRows512(const float* x, std::size_t ldx, const float* panel,
                                                      const float* bias, std::size_t inputs, float* y,
                                                      std::size_t ldy, std::size_t columns) {
  __m512 lo[R], hi[R];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
    lo[r] = _mm512_loadu_ps(bias);
    hi[r] = _mm512_loadu_ps(bias + 16);
  }
  for (std::size_t k = 0; k < inputs; ++k) {
    const __m512 w0 = _mm512_loadu_ps(panel + k * 32), w1 = _mm512_loadu_ps(panel + k * 32 + 16);
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const __m512 v = _mm512_set1_ps(x[std::size_t(r) * ldx + k]);
      lo[r] = _mm512_fmadd_ps(v, w0, lo[r]);
      hi[r] = _mm512_fmadd_ps(v, w1, hi[r]);
    }
  }
  alignas(64) float acc[R * 32];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
    _mm512_store_ps(acc + r * 32, lo[r]);
    _mm512_store_ps(acc + r * 32 + 16, hi[r]);
  }
  storeBlock(acc, 32, R, y, ldy, columns);
}

/// The same with 16 columns in two AVX registers, 6 rows a block (12
/// accumulators of the 16 registers).
template <int R>
__attribute__((target("avx2,fma"))) void panelRows256(const float* x, std::size_t ldx, const float* panel,
                                                       const float* bias, std::size_t inputs, float* y,
                                                       std::size_t ldy, std::size_t columns) {
  __m256 lo[R], hi[R];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
    lo[r] = _mm256_loadu_ps(bias);
    hi[r] = _mm256_loadu_ps(bias + 8);
  }
  for (std::size_t k = 0; k < inputs; ++k) {
    const __m256 w0 = _mm256_loadu_ps(panel + k * 16), w1 = _mm256_loadu_ps(panel + k * 16 + 8);
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const __m256 v = _mm256_broadcast_ss(x + std::size_t(r) * ldx + k);
      lo[r] = _mm256_fmadd_ps(v, w0, lo[r]);
      hi[r] = _mm256_fmadd_ps(v, w1, hi[r]);
    }
  }
  alignas(32) float acc[R * 16];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r) {
    _mm256_store_ps(acc + r * 16, lo[r]);
    _mm256_store_ps(acc + r * 16 + 8, hi[r]);
  }
  storeBlock(acc, 16, R, y, ldy, columns);
}

/// The last rows of a panel, fewer than a block.
#define STEERBENCH_TAIL(KERNEL, n, ...)                                                                           \
  switch (n) {                                                                                                     \
  case 1: KERNEL<1>(__VA_ARGS__); break;                                                                           \
  case 2: KERNEL<2>(__VA_ARGS__); break;                                                                           \
  case 3: KERNEL<3>(__VA_ARGS__); break;                                                                           \
  case 4: KERNEL<4>(__VA_ARGS__); break;                                                                           \
  case 5: KERNEL<5>(__VA_ARGS__); break;                                                                           \
  case 6: KERNEL<6>(__VA_ARGS__); break;                                                                           \
  case 7: KERNEL<7>(__VA_ARGS__); break;                                                                           \
  default: break;                                                                                                  \
  }
#endif

} // namespace

bool PackedWeights::supported(Kernel kernel) {
#ifdef STEERBENCH_X86
  switch (kernel) {
  case Kernel::Avx512: return __builtin_cpu_supports("avx512f");
  case Kernel::Avx2: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  default: return true;
  }
#else
  return kernel == Kernel::Auto || kernel == Kernel::Portable;
#endif
}

PackedWeights::PackedWeights(const float* weight, const float* bias, std::size_t outputs, std::size_t inputs,
                             Kernel kernel)
    : outputs_(outputs), inputs_(inputs) {
  if (kernel == Kernel::Auto)
    kernel = supported(Kernel::Avx512) ? Kernel::Avx512 : supported(Kernel::Avx2) ? Kernel::Avx2 : Kernel::Portable;
  if (!supported(kernel)) kernel = Kernel::Portable;
  kernel_ = kernel;
  width_ = panelWidth(kernel);
  const std::size_t panels = (outputs + width_ - 1) / width_;
  panels_.assign(panels * inputs * width_, 0.0f);
  for (std::size_t n = 0; n < outputs; ++n)
    for (std::size_t k = 0; k < inputs; ++k)
      panels_[((n / width_) * inputs + k) * width_ + n % width_] = weight[n * inputs + k];
  bias_.assign(panels * width_, 0.0f);
  if (bias) std::copy(bias, bias + outputs, bias_.begin());
}

void PackedWeights::apply(const float* x, std::size_t rows, float* y) const {
#ifdef STEERBENCH_X86
  if (kernel_ == Kernel::Avx512 || kernel_ == Kernel::Avx2) {
    const std::size_t panels = bias_.size() / width_;
    // Each panel against all rows, a block at a time: the panel stays in the
    // first-level cache while the rows pass.
    const bool wide = kernel_ == Kernel::Avx512;
    const std::size_t block = wide ? 8 : 6;
    for (std::size_t p = 0; p < panels; ++p) {
      const float* panel = panels_.data() + p * inputs_ * width_;
      const float* b = bias_.data() + p * width_;
      const std::size_t columns = std::min(width_, outputs_ - p * width_);
      std::size_t r = 0;
      for (; r + block <= rows; r += block) {
        if (wide)
          panelRows512<8>(x + r * inputs_, inputs_, panel, b, inputs_, y + r * outputs_ + p * width_, outputs_, columns);
        else
          panelRows256<6>(x + r * inputs_, inputs_, panel, b, inputs_, y + r * outputs_ + p * width_, outputs_, columns);
      }
      if (wide) {
        STEERBENCH_TAIL(panelRows512, rows - r, x + r * inputs_, inputs_, panel, b, inputs_, y + r * outputs_ + p * width_,
                        outputs_, columns)
      } else {
        STEERBENCH_TAIL(panelRows256, rows - r, x + r * inputs_, inputs_, panel, b, inputs_, y + r * outputs_ + p * width_,
                        outputs_, columns)
      }
    }
    return;
  }
#endif
  // Portable: one column a panel, so the panels are W itself.
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t n = 0; n < outputs_; ++n) {
      float acc = bias_[n];
      const float* w = panels_.data() + n * inputs_;
      for (std::size_t k = 0; k < inputs_; ++k) acc = std::fma(x[r * inputs_ + k], w[k], acc);
      y[r * outputs_ + n] = acc;
    }
}

} // namespace steerbench::model
