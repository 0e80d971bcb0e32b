#include "model/Sampler.h"

#include "common/ContentHash.h"
#include "common/Error.h"
#include "model/BuiltinSignatures.h"
#include "model/CachedDecoding.h"
#include "model/Conditioning.h"
#include "model/InfillModel.h"
#include "model/LengthGroups.h"
#include "model/LogitShaping.h"
#include "model/SampleRow.h"
#include "model/SamplerImpl.h"
#include "model/StatementChecks.h"
#include "model/SyntaxGuard.h"
#include "model/Trainer.h"
#include "model/Tokenizer.h"

#include <algorithm>
#include <cstdint>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>
#include <optional>
#include <stdexcept>
#include <random>

namespace steerbench::model {

namespace {

/// One token per row of `logits` ([B, V]): the most likely at temperature
/// <= 0, else a draw from the softmax at that temperature, restricted to the
/// nucleus of probability `topP` (the most likely tokens that reach it).
std::vector<std::int64_t> drawTokens(const torch::Tensor& logits, double temperature, double topP,
                                     std::mt19937_64& rng) {
  const auto rows = std::size_t(logits.size(0));
  std::vector<std::int64_t> chosen(rows);
  if (temperature <= 0) {
    auto best = logits.argmax(1);
    for (std::size_t b = 0; b < rows; ++b)
      chosen[b] = best[std::int64_t(b)].item<std::int64_t>();
    return chosen;
  }
  auto probs = torch::softmax(logits / temperature, 1).contiguous();
  auto pa = probs.accessor<float, 2>();
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const std::int64_t vocab = probs.size(1);
  std::vector<std::int64_t> order;
  for (std::size_t b = 0; b < rows; ++b) {
    // The drawn token: the first whose running sum of probabilities, in
    // vocabulary order, passes x (the last token if none does).
    const double x = u(rng);
    double acc = 0;
    std::int64_t pick = vocab - 1;
    auto passes = [&](std::int64_t v, float p) {
      acc += p;
      if (x < acc) pick = v;
      return x < acc;
    };
    if (topP < 1.0) {
      // The nucleus: tokens by falling probability until their sum reaches
      // topP; the draw is among them alone. Tokens below (1 - topP) / vocab
      // together hold at most 1 - topP, so the nucleus is among the others:
      // only they are sorted. Most rows are surer than that: the tokens
      // above a hundredth of a percent are tried first, and when they reach
      // topP the nucleus is among them (any token below comes after them in
      // the order).
      auto row = pa[std::int64_t(b)];
      auto above = [&](double floor) { // the tokens at `floor` or more, into `order`; their sum
        order.clear();
        double sum = 0;
        for (std::int64_t v = 0; v < vocab; ++v)
          if (row[v] >= floor) {
            order.push_back(v);
            sum += row[v];
          }
        return sum;
      };
      const double safeFloor = (1.0 - topP) / double(vocab);
      if (above(std::max(1e-4, safeFloor)) < topP + 1e-6 && safeFloor < 1e-4) // (a margin for rounding)
        (void)above(safeFloor);
      std::sort(order.begin(), order.end(),
                [&](std::int64_t l, std::int64_t r) { return row[l] > row[r] || (row[l] == row[r] && l < r); });
      double kept = 0;
      std::size_t k = 0;
      while (k < order.size() && (k == 0 || kept < topP)) kept += row[order[k++]];
      // The draw walks the vocabulary in order, adding the nucleus's
      // renormalised probabilities (0 elsewhere adds nothing): the nucleus
      // alone, sorted by id, gives the same sums and so the same token.
      order.resize(k);
      std::sort(order.begin(), order.end());
      for (const std::int64_t v : order)
        if (passes(v, float(row[v] / kept))) break;
    } else {
      for (std::int64_t v = 0; v < vocab; ++v)
        if (passes(v, pa[std::int64_t(b)][v])) break;
    }
    chosen[b] = pick;
  }
  return chosen;
}

/// The encoder's logits [rows, vocab] at each row's first hole. Rows, sorted
/// by length, go through the encoder in groups of similar length, each padded
/// only to its own longest: one long row does not make every short row of
/// the batch pay for its padding.
torch::Tensor encoderLogits(InfillModelImpl& model, std::vector<SampleRow>& rows, const std::vector<std::int64_t>& holeAt,
                            int maxLength) {
  std::vector<torch::Tensor> parts;
  for (const auto& [first, last] : lengthGroups(rows.size(), [&](std::size_t b) { return rows[b].seq.size(); }, maxLength)) {
    const std::size_t longest = rows[last - 1].seq.size();
    auto ids = torch::full({std::int64_t(last - first), std::int64_t(longest)}, Tokenizer::kPad, torch::kLong);
    auto ia = ids.accessor<std::int64_t, 2>();
    for (std::size_t b = first; b < last; ++b)
      for (std::size_t t = 0; t < rows[b].seq.size(); ++t)
        ia[std::int64_t(b - first)][std::int64_t(t)] = rows[b].seq[t];
    auto holes = torch::tensor(std::vector<std::int64_t>(holeAt.begin() + std::ptrdiff_t(first), holeAt.begin() + std::ptrdiff_t(last)));
    parts.push_back(model.logits(model.encodeAt(ids, ids.eq(Tokenizer::kPad), holes))); // [b, V]
  }
  return (parts.size() == 1 ? parts.front() : torch::cat(parts, 0)).contiguous(); // [B, V]
}
} // namespace

void Sampler::Impl::packIfChanged() {
  // Only with a vector kernel: the portable loop is slower than the BLAS it replaces.
  if (!model->config().decoder() || !(PackedWeights::supported(PackedWeights::Kernel::Avx512) ||
                                      PackedWeights::supported(PackedWeights::Kernel::Avx2)))
    return;
  // Every in-place change of a parameter counts up its version; a tensor
  // put in a parameter's place has another address.
  std::int64_t version = 0;
  for (const auto& p : model->parameters())
    version = version * 31 + p._version() + std::int64_t(reinterpret_cast<std::uintptr_t>(p.data_ptr()));
  if (version == packedVersion && !packed.layers.empty()) return;
  packed = model->packForDecoding();
  packedVersion = version;
}

Sampler::Sampler(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) { impl_->packIfChanged(); }

Sampler::Sampler(const std::string& checkpoint, int threads) {
  const int n = applyThreads(threads);
  defaultStreams_ = blasPoolThreads() > 0 ? std::max(1, n) : 1;
  const auto info = readCheckpointInfo(checkpoint);
  auto tokenizer = Tokenizer::fromJson(info.tokenizerJson, "checkpoint " + checkpoint);
  if (tokenizer.size() != info.config.vocab)
    throw InputError("checkpoint " + checkpoint + " holds a tokenizer of " + std::to_string(tokenizer.size()) +
                     " tokens for a model of vocabulary " + std::to_string(info.config.vocab));
  InfillModel model = [&] {
    std::lock_guard lock(modelInitMutex());
    return InfillModel(info.config);
  }();
  (void)loadCheckpoint(checkpoint, model, nullptr, tokenizer.hash());
  model->eval();
  impl_ = std::make_unique<Impl>(Impl{std::move(tokenizer), model, {}});
  impl_->packIfChanged();
  modelHash_ = sha256OfFile(checkpoint);
}

Sampler::~Sampler() = default;
Sampler::Sampler(Sampler&&) noexcept = default;
Sampler& Sampler::operator=(Sampler&&) noexcept = default;

const Tokenizer& Sampler::tokenizer() const { return impl_->tokenizer; }

std::string Sampler::describe() const { return impl_->model->config().describe(); }

int Sampler::maxLength() const { return impl_->model->config().maxLength; }

bool Sampler::decoder() const { return impl_->model->config().decoder(); }

bool Sampler::conditioned() const { return impl_->model->config().conditions > 0; }

bool fillsBetweenText(const std::vector<std::string>& feeds) {
  for (const auto& f : feeds)
    for (std::size_t at = f.find("[HOLE]"); at != std::string::npos; at = f.find("[HOLE]", at + 1)) {
      const std::size_t after = at + 6;
      if (f.find_first_not_of(" \t\r\n", after) != std::string::npos) return true;
    }
  return false;
}

SampleOptions Sampler::recommendedOptions() const {
  SampleOptions o;
  if (decoder()) {
    o.topP = 0.9;
    o.restarts = 3;
  }
  return o;
}

std::vector<Sample> Sampler::sample(const std::vector<std::string>& feeds, int count, const SampleOptions& o,
                                    const std::function<void(const Sample&)>& done, const CancelToken* cancel) {
  const auto& tok = impl_->tokenizer;
  auto& model = impl_->model;
  const bool targeted = !o.target.empty() || std::any_of(o.feedTargets.begin(), o.feedTargets.end(),
                                                         [](const auto& t) { return !t.empty(); });
  // Condition tokens take positions too.
  const int maxLength = model->config().maxLength - (targeted ? int(kConditionNames.size()) : 0);
  std::vector<std::vector<int>> encoded;
  for (const auto& f : feeds) {
    auto ids = tok.encode(f);
    if (std::find(ids.begin(), ids.end(), Tokenizer::kHole) == ids.end())
      throw InputError("the feed \"" + f.substr(0, 60) + "\" has no [HOLE] to fill");
    if (int(ids.size()) + 2 >= maxLength)
      throw InputError("the feed \"" + f.substr(0, 60) + "\" is " + std::to_string(ids.size()) +
                       " tokens, too long for the model's " + std::to_string(maxLength));
    encoded.push_back(std::move(ids));
  }
  if (encoded.empty() || count <= 0) return {};
  if (!o.feedTargets.empty() && o.feedTargets.size() != encoded.size())
    throw std::invalid_argument("SampleOptions::feedTargets must have one entry per feed");
  if (targeted && model->config().conditions == 0)
    throw InputError("this model was trained without conditions, so it cannot be given a target (train one with "
                     "--conditions, from this one with --init-from)");
  if (!o.feedReplaced.empty()) {
    if (o.feedReplaced.size() != encoded.size())
      throw std::invalid_argument("SampleOptions::feedReplaced must have one entry per feed");
    for (const auto& ids : encoded)
      if (std::count(ids.begin(), ids.end(), int(Tokenizer::kHole)) != 1)
        throw std::invalid_argument("SampleOptions::feedReplaced is for feeds with one [HOLE]");
  }
  if (!o.feedEnds.empty() && o.feedEnds.size() != encoded.size())
    throw std::invalid_argument("SampleOptions::feedEnds must have one entry per feed");
  if (!o.feedMinNewTokens.empty() && o.feedMinNewTokens.size() != encoded.size())
    throw std::invalid_argument("SampleOptions::feedMinNewTokens must have one entry per feed");
  if (!o.feedTokenBias.empty() && o.feedTokenBias.size() != encoded.size())
    throw std::invalid_argument("SampleOptions::feedTokenBias must have one entry per feed");
  for (const auto& biases : o.feedTokenBias)
    for (const auto& [id, bias] : biases)
      if (id < 0 || id >= tok.size())
        throw std::invalid_argument("SampleOptions::feedTokenBias names token " + std::to_string(id) +
                                    ", outside the vocabulary");
  if (o.packedProducts) impl_->packIfChanged(); // before the streams start: they only read it
  SampleOptions checked = o; // the rows' checks, with a memory shared by the streams
  if (o.check && o.rememberChecks) {
    const auto memory = checkMemory();
    checked.check = rememberedChecks(o.check, memory);
    if (o.checkMany) checked.checkMany = rememberedChecks(o.checkMany, memory);
  }
  if (o.wholeCheck && o.rememberChecks) checked.wholeCheck = rememberedChecks(o.wholeCheck);
  int streams = o.streams > 0 ? o.streams : defaultStreams_;
  streams = std::min(streams, count);
  if (streams == 1) {
    auto out = sampleStream(encoded, count, 0, 1, checked, done, cancel);
    std::sort(out.begin(), out.end(), [](const Sample& a, const Sample& b) { return a.index < b.index; });
    return out;
  }

  // Several streams, each a batch of its own on one core (OpenBLAS's pool
  // would spread one batch's small products over the cores at a poor rate:
  // docs/model.md, "Threads and streams"). Stream s takes the queue's samples s,
  // s + streams, ...; samples reach `done` on this thread in queue order.
  const BlasThreadsForStreams oneEach;
  std::mutex m;
  std::condition_variable changed;
  std::map<std::size_t, Sample> finished; // by queue index, not yet passed on
  int running = streams;
  std::exception_ptr error;
  CancelToken stop; // a stream failed: the others stop too
  std::vector<std::thread> pool;
  for (int st = 0; st < streams; ++st)
    pool.emplace_back([&, st] {
      try {
        (void)sampleStream(encoded, count, st, streams, checked,
                           [&](const Sample& smp) {
                             std::lock_guard lock(m);
                             finished.emplace(smp.index, smp);
                             changed.notify_one();
                           },
                           cancel, &stop);
      } catch (...) {
        std::lock_guard lock(m);
        if (!error) error = std::current_exception();
        stop.cancel();
      }
      std::lock_guard lock(m);
      --running;
      changed.notify_one();
    });
  std::vector<Sample> out;
  std::size_t nextIndex = 0;
  std::unique_lock lock(m);
  for (;;) {
    changed.wait(lock, [&] { return running == 0 || (!finished.empty() && finished.begin()->first == nextIndex); });
    // Pass on what is next in the queue; once every stream has stopped
    // (cancelled: there may be gaps), all that is left, in order.
    while (!finished.empty() && (running == 0 || finished.begin()->first == nextIndex)) {
      Sample smp = std::move(finished.begin()->second);
      finished.erase(finished.begin());
      nextIndex = smp.index + 1;
      out.push_back(std::move(smp));
      if (done && !error) {
        lock.unlock();
        try {
          done(out.back());
        } catch (...) {
          lock.lock();
          if (!error) error = std::current_exception();
          stop.cancel();
          continue;
        }
        lock.lock();
      }
    }
    if (running == 0 && finished.empty()) break;
  }
  lock.unlock();
  for (auto& t : pool)
    t.join();
  if (error) std::rethrow_exception(error);
  return out;
}

std::vector<Sample> Sampler::sampleStream(const std::vector<std::vector<int>>& encoded, int count, int stream,
                                          int streams, const SampleOptions& o,
                                          const std::function<void(const Sample&)>& done,
                                          const CancelToken* cancel, const CancelToken* stop) {
  const auto& tok = impl_->tokenizer;
  auto& model = impl_->model;
  const int maxLength = model->config().maxLength;
  using Row = SampleRow;
  // Stream 0 draws from the seed itself: one stream samples as it always did.
  std::mt19937_64 rng(o.seed + std::uint64_t(stream) * 0x9E3779B97F4A7C15ull);
  const bool checking = bool(o.check);
  const std::optional<SyntaxGuard> guard = o.guard || checking || hasLengthFloors(o) || o.closeBias != 0.0
                                               ? std::optional<SyntaxGuard>(std::in_place, tok,
                                                                            o.guard && o.typedArguments
                                                                                ? &BuiltinSignatures::opencl()
                                                                                : nullptr,
                                                                            o.typeRules)
                                               : std::nullopt;
  const auto vocab = std::int64_t(tok.size());
  std::vector<std::uint8_t> banned;
  // This stream's share of the queue: samples stream, stream + streams, ...
  const int share = (count - stream + streams - 1) / streams;
  int queued = 0;
  // A row from its feed: new, or started again (its index, feed and restarts kept).
  auto fromFeed = [&](Row& r) {
    const std::size_t index = r.index, feed = r.feed;
    const int restarts = r.restarts, redraws = r.redraws;
    auto checked = std::move(r.checked); // where the tries toward a target got
    r = Row{};
    r.checked = std::move(checked);
    r.checked.emplace_back(); // this try's
    r.index = index;
    r.feed = feed;
    r.restarts = restarts;
    r.redraws = redraws;
    if (!o.feedEnds.empty()) {
      r.start = o.feedEnds[r.feed] & SampleOptions::kHasStart;
      r.end = o.feedEnds[r.feed] & SampleOptions::kHasEnd;
    }
    r.holeAt = int(std::find(encoded[r.feed].begin(), encoded[r.feed].end(), Tokenizer::kHole) - encoded[r.feed].begin());
    // Asked for counts and checked toward them, from a feed that ends at its
    // hole (the checked text is then a whole kernel): short until a check says not.
    const auto& target = rowTarget(o, r.feed);
    r.holdsTarget = o.targetCheck && o.check && !target.empty() && r.holeAt + 1 == int(encoded[r.feed].size());
    r.shortOfTarget = r.holdsTarget && std::any_of(target.begin(), target.end(), [](double v) { return v > 0; });
    if (r.start) r.seq.push_back(Tokenizer::kStart);
    r.seq.insert(r.seq.end(), encoded[r.feed].begin(), encoded[r.feed].end());
    if (r.end) r.seq.push_back(Tokenizer::kEnd);
  };
  auto next = [&]() {
    Row r;
    r.index = std::size_t(stream) + std::size_t(queued) * std::size_t(streams);
    r.feed = r.index % encoded.size();
    fromFeed(r);
    ++queued;
    return r;
  };
  const std::function<bool(Row&)> restart = [&](Row& r) {
    if (r.restarts >= o.restarts) return false;
    ++r.restarts;
    fromFeed(r);
    return true;
  };
  // A closed one-hole row's fill is the `newTokens` tokens where its hole was.
  auto rebuildsReplaced = [&](const Row& r) {
    if (o.feedReplaced.empty()) return false;
    const auto& replaced = o.feedReplaced[r.feed];
    const auto at = r.seq.begin() + (r.start ? 1 : 0) + r.holeAt;
    return std::size_t(r.newTokens) == replaced.size() && r.seq.end() - at >= std::ptrdiff_t(replaced.size()) &&
           std::equal(replaced.begin(), replaced.end(), at);
  };
  std::vector<Row> rows;
  while (int(rows.size()) < std::min(o.batchSize, share))
    rows.push_back(next());
  std::vector<Sample> out;
  c10::InferenceMode inference;
  auto finish = [&](Row& r, bool complete) {
    Sample s;
    s.index = r.index;
    s.feed = r.feed;
    const auto cutAt = !complete && r.holdsTarget ? heldRowEnd(r.checked, o) : std::nullopt;
    if (cutAt) {
      // Given up on its way to its target: the kernel as a checked
      // statement left it, its blocks closed (it compiles), tidied.
      s.text = *cutAt;
      s.ids = tok.encode(s.text);
      s.cut = true;
      s.newTokens = std::max(0, int(s.ids.size()) - r.holeAt); // the feed ends at its hole
      complete = true;
    } else {
      s.ids.assign(r.seq.begin() + (r.start ? 1 : 0), r.seq.end() - (r.end ? 1 : 0));
      s.text = tok.decode(s.ids);
      s.newTokens = r.newTokens;
      if (complete && o.tidies(r.holdsTarget, r.start, r.end)) {
        s.text = o.tidy(s.text);
        s.ids = tok.encode(s.text);
        s.newTokens = std::max(0, int(s.ids.size()) - r.holeAt);
      }
    }
    s.holeAt = r.holeAt;
    s.complete = complete;
    s.restarts = r.restarts;
    s.redraws = r.redraws;
    out.push_back(s);
    if (done) done(out.back());
  };
  // A decoder keeps each row's keys and values; an encoder reads every row whole at every step.
  std::optional<CachedDecoding> decoding;
  // Condition tokens by feed (or one set for all); every set is as long.
  std::vector<std::vector<int>> conditions;
  const int modelVocab = model->config().vocab;
  if (!o.feedTargets.empty())
    for (const auto& t : o.feedTargets)
      conditions.push_back(t.empty() ? std::vector<int>() : conditionTokens(t, modelVocab));
  else if (!o.target.empty())
    conditions.push_back(conditionTokens(o.target, modelVocab));
  std::size_t conditionLength = 0;
  for (const auto& c : conditions)
    conditionLength = std::max(conditionLength, c.size());
  // A slot per row the batch can hold: no more than this stream's share;
  // positions for the longest a row can grow (its feed, start and end, the
  // new tokens, the reading order's [MASK], a hole a whole kernel's check
  // opens again), when that is fewer than the model's: steering's rows are
  // windows of a few dozen tokens with an 8-token infill, and a cache of
  // the model's every position would be made and zeroed for each call.
  std::size_t longestFeed = 0;
  for (const auto& e : encoded)
    longestFeed = std::max(longestFeed, e.size());
  const std::int64_t positions = std::int64_t(conditionLength + longestFeed) + std::max(0, o.maxNewTokens) + 8;
  if (model->config().decoder()) decoding.emplace(model, std::min(o.batchSize, share), conditions, positions,
                                               o.packedProducts && !impl_->packed.layers.empty() ? &impl_->packed : nullptr);
  const unsigned checkJobs =
      std::max(1u, (o.checkJobs > 0 ? o.checkJobs : engine::hardwareJobs()) / unsigned(streams));
  while (!rows.empty() && !(cancel && cancel->cancelled()) && !(stop && stop->cancelled())) {
    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.seq.size() < b.seq.size(); });
    std::vector<std::int64_t> holeAt(rows.size());
    for (std::size_t b = 0; b < rows.size(); ++b)
      holeAt[b] = std::int64_t(std::find(rows[b].seq.begin(), rows[b].seq.end(), Tokenizer::kHole) - rows[b].seq.begin());
    const torch::Tensor at = decoding ? decoding->logits(rows, holeAt).contiguous()
                                      : encoderLogits(*model, rows, holeAt, maxLength);
    shapeLogits(at.data_ptr<float>(), vocab, rows, holeAt, o, guard ? &*guard : nullptr, banned);
    const auto chosen = drawTokens(at, o.temperature, o.topP, rng);
    // Insert the chosen tokens; check the statements rows just ended.
    std::vector<char> ended(rows.size(), 0);
    auto checks = insertChosen(rows, holeAt, chosen, o, guard ? &*guard : nullptr, tok, ended);
    applyChecks(rows, checks, o, tok, checkJobs, ended, restart);
    std::vector<Row> keep;
    for (std::size_t b = 0; b < rows.size(); ++b) {
      Row& r = rows[b];
      const bool holesLeft = !ended[b] || std::find(r.seq.begin(), r.seq.end(), Tokenizer::kHole) != r.seq.end();
      if (!holesLeft && rebuildsReplaced(r) && r.redraws < o.redraws) {
        ++r.redraws; // the feed's own kernel again: a fresh draw
        fromFeed(r);
        keep.push_back(std::move(r));
      } else if (!holesLeft)
        finish(r, true);
      else if ((r.newTokens >= o.maxNewTokens || int(r.seq.size() + conditionLength) >= maxLength ||
                (o.guardPatience > 0 && r.blocked >= o.guardPatience) ||
                (checking && r.takenBack >= o.checkPatience)) &&
               !restart(r))
        finish(r, false);
      else
        keep.push_back(std::move(r));
    }
    rows = std::move(keep);
    while (int(rows.size()) < o.batchSize && queued < share)
      rows.push_back(next());
  }
  return out;
}

} // namespace steerbench::model
