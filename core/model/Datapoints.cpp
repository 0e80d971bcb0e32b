#include "model/Datapoints.h"

#include "model/Tokenizer.h"

#include <algorithm>

namespace steerbench::model {

int Datapoint::labelCount() const {
  return int(std::count_if(labels.begin(), labels.end(), [](int l) { return l != kIgnore; }));
}

Datapoint makeDatapoint(const std::vector<int>& kernel, const DatapointOptions& o, std::mt19937_64& rng) {
  // Room for [START], [END] and one [HOLE] per hole.
  const unsigned maxHoles = std::max(o.minHoles, o.maxHoles);
  const std::size_t room = o.maxLength > 2 + maxHoles ? o.maxLength - 2 - maxHoles : 1;
  // A kernel longer than that is seen through a random window of it. [START]
  // and [END] mark only the kernel's true ends: a window cut inside the kernel
  // has none at that side, so the model never learns that a kernel may stop
  // in the middle of a statement (sampling feeds [START] ... [END]).
  std::size_t from = 0;
  if (kernel.size() > room) from = std::uniform_int_distribution<std::size_t>(0, kernel.size() - room)(rng);
  const std::size_t to = std::min(kernel.size(), from + room);
  std::vector<int> body(kernel.begin() + std::ptrdiff_t(from), kernel.begin() + std::ptrdiff_t(to));
  const std::size_t n = body.size();

  // Draw the holes: start positions in [0, n], lengths up to the fraction,
  // kept apart (a later hole that would overlap an earlier one is dropped).
  const unsigned holes = std::uniform_int_distribution<unsigned>(std::min(o.minHoles, o.maxHoles), maxHoles)(rng);
  const std::size_t maxSpan = std::size_t(double(n) * o.maxSpanFraction);
  struct Span {
    std::size_t start, length;
  };
  std::vector<Span> spans;
  auto whole = [&](std::size_t start, std::size_t length) {
    if (!o.wholeLexemes) return Span{start, length};
    const std::size_t from = o.wholeLexemes->lexemeStart(body, start);
    return Span{from, o.wholeLexemes->lexemeEnd(body, start + length) - from};
  };
  const bool continuation =
      o.continuationProbability > 0 && std::bernoulli_distribution(o.continuationProbability)(rng);
  if (continuation) {
    const std::size_t start = std::uniform_int_distribution<std::size_t>(0, n)(rng);
    spans.push_back(whole(start, n - start));
  }
  for (unsigned h = 0; h < holes && !continuation; ++h) {
    const std::size_t start = std::uniform_int_distribution<std::size_t>(0, n)(rng);
    const bool shortHole = o.shortHoleProbability > 0 && std::bernoulli_distribution(o.shortHoleProbability)(rng);
    const std::size_t cap = shortHole ? std::size_t(o.shortHoleTokens) : std::max<std::size_t>(maxSpan / holes, 0);
    const std::size_t length = std::min(std::uniform_int_distribution<std::size_t>(0, cap)(rng), n - start);
    const Span hole = whole(start, length);
    const bool overlaps = std::any_of(spans.begin(), spans.end(), [&](const Span& s) {
      return hole.start <= s.start + s.length && s.start <= hole.start + hole.length;
    });
    if (!overlaps) spans.push_back(hole);
  }
  std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.start < b.start; });

  Datapoint d;
  if (from == 0) {
    d.inputs.push_back(Tokenizer::kStart);
    d.labels.push_back(Datapoint::kIgnore);
  }
  std::bernoulli_distribution mask(o.maskProbability);
  std::size_t i = 0;
  auto copyUpTo = [&](std::size_t end) {
    for (; i < end; ++i) {
      if (o.maskProbability > 0 && mask(rng)) {
        d.inputs.push_back(Tokenizer::kMask);
        d.labels.push_back(body[i]);
      } else {
        d.inputs.push_back(body[i]);
        d.labels.push_back(Datapoint::kIgnore);
      }
    }
  };
  for (const auto& s : spans) {
    copyUpTo(s.start);
    d.inputs.push_back(Tokenizer::kHole);
    d.labels.push_back(s.length > 0 ? body[s.start] : Tokenizer::kEndHole);
    i = s.start + s.length;
  }
  copyUpTo(n);
  if (to == kernel.size()) {
    d.inputs.push_back(Tokenizer::kEnd);
    d.labels.push_back(Datapoint::kIgnore);
  }
  return d;
}

} // namespace steerbench::model
