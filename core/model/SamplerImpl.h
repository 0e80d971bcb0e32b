// The sampler's torch-side state (for Sampler.cpp and tests only).
#pragma once

#include "model/InfillModel.h"
#include "model/Sampler.h"
#include "model/Tokenizer.h"

namespace steerbench::model {
struct Sampler::Impl {
  Tokenizer tokenizer;
  InfillModel model;
};
} // namespace steerbench::model
