// The sampler's torch-side state (for Sampler.cpp and tests only).
#pragma once

#include "model/InfillModel.h"
#include "model/Sampler.h"
#include "model/Tokenizer.h"

namespace steerbench::model {
struct Sampler::Impl {
  Tokenizer tokenizer;
  InfillModel model;
  DecodeWeights packed; ///< a decoder's weights packed for its decode step (none for an encoder)
  std::int64_t packedVersion = -1; ///< the parameters' versions and addresses when `packed` was made
  /// Packs a decoder's weights if they changed since they were last packed
  /// (at the sampler's construction; afterwards only a caller that edits
  /// the model's parameters, as tests do, changes them). Not on a CPU with
  /// neither AVX2 nor AVX-512: `packed` stays empty and libtorch's products
  /// run. Called by sample() before its streams start; two sample() calls
  /// on one Sampler must not overlap (none do: each caller owns its sampler).
  void packIfChanged();
};
} // namespace steerbench::model
