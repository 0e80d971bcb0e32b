#include "model/Sampler.h"

#include "common/ContentHash.h"
#include "common/Error.h"
#include "model/InfillModel.h"
#include "model/SamplerImpl.h"
#include "model/SyntaxGuard.h"
#include "model/Trainer.h"
#include "model/Tokenizer.h"

#include <algorithm>
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

/// Splits rows sorted by length into at most four runs [first, last) that
/// minimise the padded tokens encoded, counting each encoder call as
/// `callCost` tokens more (a call has a fixed cost; the model's longest
/// sequence is a fair guess of it).
template <class LengthOf>
std::vector<std::pair<std::size_t, std::size_t>> lengthGroups(std::size_t n, LengthOf lengthOf, double callCost) {
  constexpr int kMaxGroups = 4;
  const double inf = 1e300;
  // best[g][j]: cost of the first j rows in g groups.
  std::vector<std::vector<double>> best(kMaxGroups + 1, std::vector<double>(n + 1, inf));
  std::vector<std::vector<std::size_t>> cut(kMaxGroups + 1, std::vector<std::size_t>(n + 1, 0));
  best[0][0] = 0;
  for (int g = 1; g <= kMaxGroups; ++g)
    for (std::size_t j = 1; j <= n; ++j)
      for (std::size_t i = 0; i < j; ++i) {
        if (best[g - 1][i] >= inf) continue;
        const double c = best[g - 1][i] + double(j - i) * double(lengthOf(j - 1)) + callCost;
        if (c < best[g][j]) {
          best[g][j] = c;
          cut[g][j] = i;
        }
      }
  int groups = 1;
  for (int g = 2; g <= kMaxGroups; ++g)
    if (best[g][n] < best[groups][n]) groups = g;
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (std::size_t j = n; groups > 0; --groups) {
    out.emplace_back(cut[std::size_t(groups)][j], j);
    j = cut[std::size_t(groups)][j];
  }
  std::reverse(out.begin(), out.end());
  return out;
}

} // namespace

Sampler::Sampler(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

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
  impl_ = std::make_unique<Impl>(Impl{std::move(tokenizer), model});
  modelHash_ = sha256OfFile(checkpoint);
}

Sampler::~Sampler() = default;
Sampler::Sampler(Sampler&&) noexcept = default;
Sampler& Sampler::operator=(Sampler&&) noexcept = default;

const Tokenizer& Sampler::tokenizer() const { return impl_->tokenizer; }

std::string Sampler::describe() const { return impl_->model->config().describe(); }

int Sampler::maxLength() const { return impl_->model->config().maxLength; }

std::vector<Sample> Sampler::sample(const std::vector<std::string>& feeds, int count, const SampleOptions& o,
                                    const std::function<void(const Sample&)>& done, const CancelToken* cancel) {
  const auto& tok = impl_->tokenizer;
  auto& model = impl_->model;
  const int maxLength = model->config().maxLength;
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
  int streams = o.streams > 0 ? o.streams : defaultStreams_;
  streams = std::min(streams, count);
  if (streams == 1) {
    auto out = sampleStream(encoded, count, 0, 1, o, done, cancel);
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
        (void)sampleStream(encoded, count, st, streams, o,
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

  struct Row {
    std::size_t index = 0; ///< in the whole call's queue
    std::size_t feed = 0;
    std::vector<int> seq; ///< [START] ... [END] (either left out for a window that does not reach that end)
    int newTokens = 0;
    int holeAt = 0; ///< the first [HOLE]'s index in the feed's tokens
    bool start = true, end = true;
    int blocked = 0; ///< steps whose most likely token the guard banned
    // Compiler-checked statements (SampleOptions::check), for the hole being filled:
    int statementAt = -1;    ///< where its current statement starts in `seq` (-1: the hole is new)
    int infillAt = 0;        ///< where the hole's infill starts in `seq`
    std::size_t fixed = 0;   ///< length of the decoded text before the hole
    int takenBack = 0;       ///< statements taken back
    bool statementFailed = false; ///< the current statement was taken back to its error, not its start
    int endsTakenBack = 0;   ///< closed holes whose whole kernel had an error
    bool unchecked = false;  ///< the feed's own text has an error: no more checks
    int restarts = 0;        ///< times it started again from its feed (SampleOptions::restarts)
  };
  // Stream 0 draws from the seed itself: one stream samples as it always did.
  std::mt19937_64 rng(o.seed + std::uint64_t(stream) * 0x9E3779B97F4A7C15ull);
  const bool checking = bool(o.check);
  auto floorOf = [&](std::size_t feed) {
    return o.feedMinNewTokens.empty() ? o.minNewTokens : int(o.feedMinNewTokens[feed]);
  };
  const bool floors = o.minNewTokens > 0 || std::any_of(o.feedMinNewTokens.begin(), o.feedMinNewTokens.end(),
                                                         [](std::uint8_t m) { return m > 0; });
  const std::optional<SyntaxGuard> guard =
      o.guard || checking || floors || o.closeBias != 0.0 ? std::optional<SyntaxGuard>(std::in_place, tok) : std::nullopt;
  const auto vocab = std::int64_t(tok.size());
  std::vector<std::uint8_t> banned;
  // This stream's share of the queue: samples stream, stream + streams, ...
  const int share = (count - stream + streams - 1) / streams;
  int queued = 0;
  // A row from its feed: new, or started again (its index, feed and restarts kept).
  auto fromFeed = [&](Row& r) {
    const std::size_t index = r.index, feed = r.feed;
    const int restarts = r.restarts;
    r = Row{};
    r.index = index;
    r.feed = feed;
    r.restarts = restarts;
    if (!o.feedEnds.empty()) {
      r.start = o.feedEnds[r.feed] & SampleOptions::kHasStart;
      r.end = o.feedEnds[r.feed] & SampleOptions::kHasEnd;
    }
    r.holeAt = int(std::find(encoded[r.feed].begin(), encoded[r.feed].end(), Tokenizer::kHole) - encoded[r.feed].begin());
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
  auto restart = [&](Row& r) {
    if (r.restarts >= o.restarts) return false;
    ++r.restarts;
    fromFeed(r);
    return true;
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
    s.ids.assign(r.seq.begin() + (r.start ? 1 : 0), r.seq.end() - (r.end ? 1 : 0));
    s.text = tok.decode(s.ids);
    s.newTokens = r.newTokens;
    s.holeAt = r.holeAt;
    s.complete = complete;
    s.restarts = r.restarts;
    out.push_back(s);
    if (done) done(out.back());
  };
  while (!rows.empty() && !(cancel && cancel->cancelled()) && !(stop && stop->cancelled())) {
    // Rows go through the encoder in groups of similar length, each padded
    // only to its own longest: one long row no longer makes every short row
    // of the batch pay for its padding.
    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.seq.size() < b.seq.size(); });
    std::vector<std::int64_t> holeAt(rows.size());
    for (std::size_t b = 0; b < rows.size(); ++b)
      holeAt[b] = std::int64_t(std::find(rows[b].seq.begin(), rows[b].seq.end(), Tokenizer::kHole) - rows[b].seq.begin());
    std::vector<torch::Tensor> parts;
    for (const auto& [first, last] : lengthGroups(rows.size(), [&](std::size_t b) { return rows[b].seq.size(); }, maxLength)) {
      const std::size_t longest = rows[last - 1].seq.size();
      auto ids = torch::full({std::int64_t(last - first), std::int64_t(longest)}, Tokenizer::kPad, torch::kLong);
      auto ia = ids.accessor<std::int64_t, 2>();
      for (std::size_t b = first; b < last; ++b)
        for (std::size_t t = 0; t < rows[b].seq.size(); ++t)
          ia[std::int64_t(b - first)][std::int64_t(t)] = rows[b].seq[t];
      auto holes = torch::tensor(std::vector<std::int64_t>(holeAt.begin() + std::ptrdiff_t(first), holeAt.begin() + std::ptrdiff_t(last)));
      parts.push_back(model->logits(model->encodeAt(ids, ids.eq(Tokenizer::kPad), holes))); // [b, V]
    }
    auto at = parts.size() == 1 ? parts.front() : torch::cat(parts, 0); // [B, V]
    // Meta tokens other than [ENDHOLE] are never sampled.
    for (int m = 0; m < Tokenizer::kMetaCount; ++m)
      if (m != Tokenizer::kEndHole) at.index_put_({torch::indexing::Slice(), m}, -1e9);
    if (o.endHoleBias != 0.0)
      at.index({torch::indexing::Slice(), Tokenizer::kEndHole}).add_(o.endHoleBias);
    if (!o.feedTokenBias.empty()) {
      at = at.contiguous();
      auto aa = at.accessor<float, 2>();
      for (std::size_t b = 0; b < rows.size(); ++b)
        for (const auto& [id, bias] : o.feedTokenBias[rows[b].feed])
          aa[std::int64_t(b)][id] += bias;
    }
    if (o.guard) {
      banned.assign(rows.size() * std::size_t(vocab), 0);
      at = at.contiguous();
      const auto wanted = at.argmax(1);
      auto wa = wanted.accessor<std::int64_t, 1>();
      auto aa = at.accessor<float, 2>();
      for (std::size_t b = 0; b < rows.size(); ++b) {
        const int close = guard->ban(rows[b].seq, rows[b].start, rows[b].end, banned.data() + b * std::size_t(vocab));
        if (close >= 0) { // [ENDHOLE]'s probability goes to the bracket it needs first
          float& c = aa[std::int64_t(b)][close];
          const float e = aa[std::int64_t(b)][Tokenizer::kEndHole], hi = std::max(c, e);
          c = hi + std::log(std::exp(c - hi) + std::exp(e - hi));
        }
        rows[b].blocked += banned[b * std::size_t(vocab) + std::size_t(wa[std::int64_t(b)])];
      }
      at.masked_fill_(torch::from_blob(banned.data(), {std::int64_t(rows.size()), vocab}, torch::kBool), -1e9);
    }
    if (o.closeBias != 0.0 && guard->closeBrace() >= 0) // the length prior, after the guard gave [ENDHOLE]'s share to the brace
      for (std::size_t b = 0; b < rows.size(); ++b)
        if (rows[b].start && guard->openBraces(rows[b].seq, std::size_t(holeAt[b])) == 1)
          at.index({std::int64_t(b), guard->closeBrace()}).add_(o.closeBias);
    if (floors) {
      // The length floor (not the guard: the model's wish to stop is no sign it is lost).
      for (std::size_t b = 0; b < rows.size(); ++b) {
        const Row& r = rows[b];
        if (r.newTokens >= floorOf(r.feed)) continue;
        const auto endHole = at.index({std::int64_t(b), Tokenizer::kEndHole}).item<float>();
        at.index_put_({std::int64_t(b), Tokenizer::kEndHole}, -1e9);
        if (r.start && guard->closeBrace() >= 0 && guard->openBraces(r.seq, std::size_t(holeAt[b])) == 1)
          at.index_put_({std::int64_t(b), guard->closeBrace()}, -1e9);
        if (at[std::int64_t(b)].max().item<float>() < -1e8) // the guard left nothing else: the hole may close
          at.index_put_({std::int64_t(b), Tokenizer::kEndHole}, endHole);
      }
    }
    std::vector<std::int64_t> chosen(rows.size());
    if (o.temperature <= 0) {
      auto best = at.argmax(1);
      for (std::size_t b = 0; b < rows.size(); ++b)
        chosen[b] = best[std::int64_t(b)].item<std::int64_t>();
    } else {
      auto probs = torch::softmax(at / o.temperature, 1).contiguous();
      auto pa = probs.accessor<float, 2>();
      std::uniform_real_distribution<double> u(0.0, 1.0);
      for (std::size_t b = 0; b < rows.size(); ++b) {
        double x = u(rng), acc = 0;
        std::int64_t pick = probs.size(1) - 1;
        for (std::int64_t v = 0; v < probs.size(1); ++v) {
          acc += pa[std::int64_t(b)][v];
          if (x < acc) {
            pick = v;
            break;
          }
        }
        chosen[b] = pick;
      }
    }
    // Insert the chosen tokens; note the rows that just ended a statement.
    struct Check {
      std::size_t row;
      std::string text;
      bool whole = false; ///< the whole kernel, as the row closes its last hole
      std::size_t error = std::string::npos;
    };
    std::vector<Check> checks;
    std::vector<char> ended(rows.size(), 0);
    for (std::size_t b = 0; b < rows.size(); ++b) {
      Row& r = rows[b];
      const auto h = std::size_t(holeAt[b]);
      if (checking && r.start && !r.unchecked && r.statementAt < 0) {
        r.statementAt = int(h);
        r.infillAt = int(h);
        std::string before = tok.decode(std::vector<int>(r.seq.begin() + 1, r.seq.begin() + std::ptrdiff_t(h)));
        r.fixed = before.size();
      }
      if (chosen[b] == Tokenizer::kEndHole) {
        const bool lastHole = std::find(r.seq.begin() + std::ptrdiff_t(h) + 1, r.seq.end(), int(Tokenizer::kHole)) ==
                              r.seq.end();
        if (checking && o.checkWhole && r.start && r.end && !r.unchecked && lastHole &&
            r.endsTakenBack < o.checkPatience) {
          // The whole kernel, as it would be: decided after the checks.
          std::vector<int> whole(r.seq.begin() + 1, r.seq.end() - 1);
          whole.erase(whole.begin() + std::ptrdiff_t(h) - 1);
          checks.push_back({b, tok.decode(whole), true});
          continue;
        }
        r.seq.erase(r.seq.begin() + std::ptrdiff_t(h));
        r.statementAt = -1;
        ended[b] = 1;
        continue;
      }
      r.seq.insert(r.seq.begin() + std::ptrdiff_t(h), int(chosen[b]));
      ++r.newTokens;
      std::string closers;
      if (checking && r.start && !r.unchecked && guard->statementEnd(r.seq, h + 1, closers)) {
        std::string text = tok.decode(std::vector<int>(r.seq.begin() + 1, r.seq.begin() + std::ptrdiff_t(h + 1)));
        checks.push_back({b, std::move(text) + closers});
      }
    }
    if (!checks.empty()) {
      const unsigned jobs = std::max(1u, (o.checkJobs > 0 ? o.checkJobs : engine::hardwareJobs()) / unsigned(streams));
      engine::parallelFor(checks.size(), jobs, [&](std::size_t i) { checks[i].error = o.check(checks[i].text); });
      for (const Check& c : checks) {
        Row& r = rows[c.row];
        if (c.whole) {
          const auto h = std::size_t(holeAt[c.row]);
          if (c.error == std::string::npos || c.error < r.fixed) {
            r.seq.erase(r.seq.begin() + std::ptrdiff_t(h)); // closed: the kernel compiles (or never could)
            r.statementAt = -1;
            ended[c.row] = 1;
          } else {
            // The kernel has an error where the hole is or after it (a name the
            // rest uses and the infill never declared, ...): the last
            // statement goes back, and the hole stays open.
            // (All of the infill, when its last statement is empty.)
            const auto from = std::size_t(r.statementAt) < h ? std::size_t(r.statementAt) : std::size_t(r.infillAt);
            r.seq.erase(r.seq.begin() + std::ptrdiff_t(from), r.seq.begin() + std::ptrdiff_t(h));
            r.newTokens -= int(h - from);
            r.statementAt = int(from);
            // Patience spent: start again while restarts are left; else the
            // next [ENDHOLE] closes the hole as it is.
            if (++r.endsTakenBack >= o.checkPatience) restart(r);
          }
          continue;
        }
        const auto h = std::size_t(holeAt[c.row]) + 1; // the hole, after the statement's last token
        if (c.error == std::string::npos) {
          r.statementAt = int(h);
          r.statementFailed = false;
        } else if (c.error < r.fixed) {
          r.unchecked = true; // broken before the hole: nothing the model writes can mend it
        } else {
          // The statement's first failure goes back to the token the error
          // is at (what came before it parsed and typed); a second, to the
          // statement's start (its beginning may be what is wrong).
          auto from = std::size_t(r.statementAt);
          if (!r.statementFailed && o.resumeAtError) {
            std::vector<int> prefix(r.seq.begin() + 1, r.seq.begin() + std::ptrdiff_t(from));
            for (std::size_t i = from; i + 1 < h; ++i) {
              prefix.push_back(r.seq[i]);
              if (tok.decode(prefix).size() > c.error) {
                from = i;
                break;
              }
            }
          }
          r.statementFailed = !r.statementFailed && from != std::size_t(r.statementAt);
          r.seq.erase(r.seq.begin() + std::ptrdiff_t(from), r.seq.begin() + std::ptrdiff_t(h));
          r.newTokens -= int(h - from);
          ++r.takenBack;
        }
      }
    }
    std::vector<Row> keep;
    for (std::size_t b = 0; b < rows.size(); ++b) {
      Row& r = rows[b];
      const bool holesLeft = !ended[b] || std::find(r.seq.begin(), r.seq.end(), Tokenizer::kHole) != r.seq.end();
      if (!holesLeft)
        finish(r, true);
      else if ((r.newTokens >= o.maxNewTokens || int(r.seq.size()) >= maxLength ||
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
