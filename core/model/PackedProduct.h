// A linear layer's product y = x W^T + b with W packed once, for the decode
// step of sampling. libtorch hands every product to the BLAS, which copies
// (packs) the whole weight matrix into its own layout on every call: for a
// decoder step of 128 rows that is a pass over all the model's weights each
// token. Sampling never changes the weights, so they are packed here once,
// in panels of output columns laid out as the inner loop reads them.
//
// Every output is the bias followed by one fused multiply-add per input, in
// input order, whatever the kernel: the AVX-512 and AVX2 kernels and the
// portable loop (std::fma) give the same bits (docs/model.md, "The decode
// step's products"). Torch-free.
#pragma once

#include <cstddef>
#include <vector>

namespace steerbench::model {

class PackedWeights {
public:
  /// Which inner loop runs the product. Auto: the widest this CPU has.
  enum class Kernel { Auto, Avx512, Avx2, Portable };

  PackedWeights() = default;
  /// Packs `weight` [outputs][inputs] (row-major, as torch::nn::Linear holds
  /// it) and `bias` [outputs] (nullptr: none). A kernel the CPU lacks falls
  /// back to the portable one.
  PackedWeights(const float* weight, const float* bias, std::size_t outputs, std::size_t inputs,
                Kernel kernel = Kernel::Auto);

  /// y[rows][outputs] = x[rows][inputs] W^T + b (rows contiguous).
  void apply(const float* x, std::size_t rows, float* y) const;

  [[nodiscard]] std::size_t outputs() const { return outputs_; }
  [[nodiscard]] std::size_t inputs() const { return inputs_; }
  [[nodiscard]] Kernel kernel() const { return kernel_; }
  /// Whether this CPU can run `kernel` (Auto and Portable: always).
  [[nodiscard]] static bool supported(Kernel kernel);

private:
  std::size_t outputs_ = 0, inputs_ = 0, width_ = 1; ///< width_: output columns a panel
  Kernel kernel_ = Kernel::Portable;
  std::vector<float> panels_; ///< panel p, input k: W[p*width_ + j][k] for j < width_
  std::vector<float> bias_;   ///< padded to whole panels
};

} // namespace steerbench::model
