#include "model/CachedDecoding.h"

#include "model/FimOrder.h"
#include "model/Tokenizer.h"

#include <algorithm>

namespace steerbench::model {

std::vector<int> fillInTheMiddle(SampleRow& r, std::int64_t holeAt, bool suffixFirst) {
  const int holes = int(std::count(r.seq.begin(), r.seq.end(), Tokenizer::kHole));
  // A new hole (a row started, a hole closed) or an infill taken back past
  // its start: the infill begins at the hole. A closed hole that the whole
  // kernel's check opened again keeps its count and its start.
  if (r.middleAt < 0 || holes != r.holesLeft || r.middleAt > holeAt) {
    r.middleAt = int(holeAt);
    r.holesLeft = holes;
  }
  return fimOrder(r.seq, std::size_t(r.middleAt), std::size_t(holeAt), suffixFirst);
}

CachedDecoding::CachedDecoding(InfillModel model, int slots, std::vector<std::vector<int>> conditions,
                               std::int64_t positions, const DecodeWeights* packed)
    : model_(std::move(model)), packed_(packed), conditions_(std::move(conditions)), cache_(model_->makeCache(slots, positions)),
      slots_(std::size_t(slots)) {}

torch::Tensor CachedDecoding::logits(std::vector<SampleRow>& rows, const std::vector<std::int64_t>& holeAt) {
  // Slots of rows that are gone are free again.
  for (auto& s : slots_)
    if (s.taken && std::none_of(rows.begin(), rows.end(), [&](const SampleRow& r) { return r.index == s.row; }))
      s = Slot{};
  const auto B = std::int64_t(rows.size());
  const std::int64_t positions = cache_.keys.front().size(2); // the cache holds
  std::vector<std::int64_t> slotOf(rows.size()), last(rows.size()), position(rows.size());
  struct Prefill {
    std::int64_t slot, from;
    std::vector<std::int64_t> ids;
  };
  std::vector<Prefill> prefills;
  for (std::size_t b = 0; b < rows.size(); ++b) {
    auto it = std::find_if(slots_.begin(), slots_.end(), [&](const Slot& s) { return s.taken && s.row == rows[b].index; });
    if (it == slots_.end()) {
      it = std::find_if(slots_.begin(), slots_.end(), [](const Slot& s) { return !s.taken; });
      TORCH_CHECK(it != slots_.end(), "more sampling rows than cache slots");
      it->taken = true;
      it->row = rows[b].index;
    }
    Slot& slot = *it;
    slotOf[b] = std::int64_t(it - slots_.begin());
    std::vector<int> seq = conditions_.empty()       ? std::vector<int>()
                           : conditions_.size() == 1 ? conditions_.front()
                                                     : conditions_.at(rows[b].feed);
    const std::vector<int> row = fillInTheMiddle(rows[b], holeAt[b], model_->config().suffixFirst);
    seq.insert(seq.end(), row.begin(), row.end());
    // What the slot already holds is kept; the rest, but the last token, is
    // run first (a new row's feed, a take-back's new part).
    const auto same = std::size_t(std::mismatch(slot.cached.begin(), slot.cached.end(), seq.begin(), seq.end()).first -
                                  slot.cached.begin());
    const std::size_t keep = std::min(same, seq.size() - 1);
    if (keep + 1 < seq.size())
      prefills.push_back({slotOf[b], std::int64_t(keep), std::vector<std::int64_t>(seq.begin() + std::ptrdiff_t(keep), seq.end() - 1)});
    last[b] = seq.back();
    position[b] = std::int64_t(seq.size() - 1);
    slot.cached = seq;
  }
  // Those parts in a few batched calls, rows of similar length together, each
  // padded to its group's longest. A padding token's keys land past the row's
  // end, where nothing reads them before its own next token overwrites them.
  std::sort(prefills.begin(), prefills.end(), [](const Prefill& a, const Prefill& b) { return a.ids.size() < b.ids.size(); });
  for (std::size_t first = 0; first < prefills.size();) {
    std::size_t end = first + 1;
    while (end < prefills.size() && prefills[end].ids.size() <= 2 * prefills[first].ids.size() + 4) ++end;
    const auto n = std::int64_t(prefills[end - 1].ids.size());
    // A row whose padding would run past the cache's positions goes alone.
    std::vector<const Prefill*> group, alone;
    for (std::size_t i = first; i < end; ++i)
      (prefills[i].from + n <= positions ? group : alone).push_back(&prefills[i]);
    auto run = [&](const std::vector<const Prefill*>& part, std::int64_t width) {
      if (part.empty()) return;
      auto ids = torch::full({std::int64_t(part.size()), width}, std::int64_t(Tokenizer::kPad), torch::kLong);
      std::vector<std::int64_t> slots, from;
      auto ia = ids.accessor<std::int64_t, 2>();
      for (std::size_t r = 0; r < part.size(); ++r) {
        for (std::size_t t = 0; t < part[r]->ids.size(); ++t)
          ia[std::int64_t(r)][std::int64_t(t)] = part[r]->ids[t];
        slots.push_back(part[r]->slot);
        from.push_back(part[r]->from);
      }
      (void)model_->decode(ids, torch::tensor(slots), torch::tensor(from), cache_, packed_);
      tokensRun_ += std::int64_t(part.size()) * width;
    };
    run(group, n);
    for (const Prefill* p : alone)
      run({p}, std::int64_t(p->ids.size()));
    first = end;
  }
  // Every row's last token in one step.
  auto hidden = model_->decode(torch::tensor(last).view({B, 1}), torch::tensor(slotOf), torch::tensor(position), cache_, packed_);
  tokensRun_ += B;
  return model_->logits(hidden.view({B, -1}), packed_);
}

} // namespace steerbench::model
