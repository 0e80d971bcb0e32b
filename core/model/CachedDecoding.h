// The decoder's side of sampling: each row of a batch read in
// fill-in-the-middle order, with its keys and values kept in a cache slot so
// that a written token costs one step (docs/model.md, "The decoder").
// Internal to the sampler; includes torch.
#pragma once

#include "model/InfillModel.h"
#include "model/SampleRow.h"

#include <cstdint>
#include <vector>

namespace steerbench::model {

/// A row's sequence as the decoder reads it (fimOrder, FimOrder.h): the
/// infill so far is what the row wrote since its hole began. Notes in the
/// row where its infill began (SampleRow::middleAt): the sampler inserts
/// written tokens before the [HOLE], takes statements back and starts rows
/// again, and this follows all three.
[[nodiscard]] std::vector<int> fillInTheMiddle(SampleRow& row, std::int64_t holeAt, bool suffixFirst = false);

class CachedDecoding {
public:
  /// A cache of `slots` rows (the sampler's batch size) of up to `positions`
  /// tokens each (0: the model's). `conditions`: the condition tokens
  /// (Conditioning.h) a row starts with, by its feed (one entry per feed),
  /// or one entry for every row, or none.
  /// `packed`: the model's packForDecoding(), kept by the caller while this
  /// lives (nullptr: libtorch's own products).
  CachedDecoding(InfillModel model, int slots, std::vector<std::vector<int>> conditions = {},
                 std::int64_t positions = 0, const DecodeWeights* packed = nullptr);
  /// The logits [rows, vocab] of the next token in each row's first hole.
  /// Only what changed in a row's sequence since the last call is run
  /// through the model: one token after an insertion, nothing more than the
  /// new part after a statement is taken back or a hole closes.
  torch::Tensor logits(std::vector<SampleRow>& rows, const std::vector<std::int64_t>& holeAt);
  /// Tokens run through the model so far (each costs a step of the layers).
  [[nodiscard]] std::int64_t tokensRun() const { return tokensRun_; }

private:
  struct Slot {
    bool taken = false;
    std::size_t row = 0;     ///< the row's index in the sampling queue
    std::vector<int> cached; ///< the sequence whose keys and values the slot holds
  };
  InfillModel model_;
  const DecodeWeights* packed_ = nullptr;
  std::vector<std::vector<int>> conditions_;
  KeyValueCache cache_;
  std::vector<Slot> slots_;
  std::int64_t tokensRun_ = 0;
};

} // namespace steerbench::model
