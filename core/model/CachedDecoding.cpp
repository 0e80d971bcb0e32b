#include "model/CachedDecoding.h"

#include "model/Tokenizer.h"

#include <algorithm>

namespace steerbench::model {

std::vector<int> fillInTheMiddle(SampleRow& r, std::int64_t holeAt) {
  const int holes = int(std::count(r.seq.begin(), r.seq.end(), Tokenizer::kHole));
  // A new hole (a row started, a hole closed) or an infill taken back past
  // its start: the infill begins at the hole. A closed hole that the whole
  // kernel's check opened again keeps its count and its start.
  if (r.middleAt < 0 || holes != r.holesLeft || r.middleAt > holeAt) {
    r.middleAt = int(holeAt);
    r.holesLeft = holes;
  }
  const auto middle = r.seq.begin() + r.middleAt, hole = r.seq.begin() + holeAt;
  std::vector<int> out;
  out.reserve(r.seq.size() + 1);
  out.insert(out.end(), r.seq.begin(), middle);
  out.push_back(Tokenizer::kHole);
  out.insert(out.end(), hole + 1, r.seq.end());
  out.push_back(Tokenizer::kMask);
  out.insert(out.end(), middle, hole);
  return out;
}

CachedDecoding::CachedDecoding(InfillModel model, int slots)
    : model_(std::move(model)), cache_(model_->makeCache(slots)), slots_(std::size_t(slots)) {}

torch::Tensor CachedDecoding::logits(std::vector<SampleRow>& rows, const std::vector<std::int64_t>& holeAt) {
  // Slots of rows that are gone are free again.
  for (auto& s : slots_)
    if (s.taken && std::none_of(rows.begin(), rows.end(), [&](const SampleRow& r) { return r.index == s.row; }))
      s = Slot{};
  const auto B = std::int64_t(rows.size());
  std::vector<std::int64_t> slotOf(rows.size()), last(rows.size()), position(rows.size());
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
    const std::vector<int> seq = fillInTheMiddle(rows[b], holeAt[b]);
    // What the slot already holds is kept; the rest, but the last token, is
    // run now for this row alone (a new row's feed, a take-back's new part).
    const auto same = std::size_t(std::mismatch(slot.cached.begin(), slot.cached.end(), seq.begin(), seq.end()).first -
                                  slot.cached.begin());
    const std::size_t keep = std::min(same, seq.size() - 1);
    if (keep + 1 < seq.size()) {
      const auto n = std::int64_t(seq.size() - 1 - keep);
      std::vector<std::int64_t> ids(seq.begin() + std::ptrdiff_t(keep), seq.end() - 1);
      (void)model_->decode(torch::tensor(ids).view({1, n}), torch::tensor(std::vector<std::int64_t>{slotOf[b]}),
                           torch::tensor(std::vector<std::int64_t>{std::int64_t(keep)}), cache_);
      tokensRun_ += n;
    }
    last[b] = seq.back();
    position[b] = std::int64_t(seq.size() - 1);
    slot.cached = seq;
  }
  // Every row's last token in one step.
  auto hidden = model_->decode(torch::tensor(last).view({B, 1}), torch::tensor(slotOf), torch::tensor(position), cache_);
  tokensRun_ += B;
  return model_->logits(hidden.view({B, -1}));
}

} // namespace steerbench::model
