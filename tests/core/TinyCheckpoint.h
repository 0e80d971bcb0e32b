// A tiny model shape and checkpoint info made by the tests of the model's
// libtorch side (tst_infillmodel, tst_conditioning).
#pragma once
#include "model/InfillModel.h"

namespace tinycheckpoint {

/// One layer, hidden 16, 2 heads, FFN 32, 32 positions.
inline steerbench::model::ModelConfig tiny(int vocab = 40) {
  steerbench::model::ModelConfig c;
  c.vocab = vocab;
  c.layers = 1;
  c.hidden = 16;
  c.heads = 2;
  c.ffn = 32;
  c.maxLength = 32;
  return c;
}

/// Info for a checkpoint of `c`: tokenizer "abc123", corpus "def456", step 17.
inline steerbench::model::CheckpointInfo infoFor(const steerbench::model::ModelConfig& c) {
  steerbench::model::CheckpointInfo i;
  i.config = c;
  i.tokenizerJson = "{}";
  i.tokenizerHash = "abc123";
  i.corpusHash = "def456";
  i.step = 17;
  i.rngState = "1 2 3";
  i.recipe = "{\"seed\":1}";
  return i;
}

} // namespace tinycheckpoint
