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
  std::int64_t packedVersion = -1; ///< the parameters' version counts when `packed` was made
  /// Packs a decoder's weights if they changed since they were last packed
  /// (at the sampler's construction; afterwards only a caller that edits
  /// the model's parameters in place, as tests do, changes them).
  void packIfChanged();
};
} // namespace steerbench::model
