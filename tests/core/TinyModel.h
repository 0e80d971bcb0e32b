// A tiny infilling model made by the test, for the steering suites: its head
// is zero but for a large [ENDHOLE] bias, so every infill is empty and each
// candidate is its parent with a random span deleted (a mutator whose
// reachable kernels are known).
#pragma once
#include "model/SamplerImpl.h"

#include <string>
#include <vector>

/// `conditions`: condition tokens the model takes (model::conditionTokenCount(); 0: none).
inline steerbench::model::Sampler deletingSampler(const std::vector<std::string>& corpus, int conditions = 0) {
  using namespace steerbench::model;
  Tokenizer::Options o;
  o.minCount = 1;
  auto tok = Tokenizer::build(corpus, o);
  ModelConfig c;
  c.vocab = tok.size();
  c.layers = 1;
  c.hidden = 16;
  c.heads = 2;
  c.ffn = 32;
  c.maxLength = 128;
  c.conditions = conditions;
  torch::manual_seed(1);
  InfillModel m(c);
  {
    torch::NoGradGuard ng;
    for (auto& p : m->named_parameters())
      if (p.key().rfind("head.", 0) == 0) p.value().zero_();
    m->named_parameters()["head.bias"][Tokenizer::kEndHole] = 50.0;
  }
  m->eval();
  return Sampler(std::make_unique<Sampler::Impl>(Sampler::Impl{std::move(tok), m}));
}
