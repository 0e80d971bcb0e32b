#include "model/Datapoints.h"

#include "model/FimOrder.h"
#include "model/Tokenizer.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <cctype>
#include <stdexcept>

namespace steerbench::model {

int Datapoint::labelCount() const {
  return int(std::count_if(labels.begin(), labels.end(), [](int l) { return l != kIgnore; }));
}

namespace {

struct Span {
  std::size_t start, length;
};

/// A kernel's window and its holes, as both objectives draw them (the
/// encoder's draws are as they always were: a trained model's data stream
/// does not change).
struct Drawn {
  std::size_t from = 0, to = 0;
  std::vector<int> body;
  std::vector<Span> spans; ///< sorted by start, not overlapping
};

/// Room for the kernel's tokens in a row: the length less [START], [END],
/// one [HOLE] per hole and what the objective adds.
std::size_t windowRoom(const DatapointOptions& o, std::size_t extraTokens) {
  const std::size_t reserved = 2 + std::max(o.minHoles, o.maxHoles) + extraTokens;
  return o.maxLength > reserved ? o.maxLength - reserved : 1;
}

Drawn drawHoles(const std::vector<int>& kernel, const DatapointOptions& o, std::size_t extraTokens,
                std::mt19937_64& rng) {
  const unsigned maxHoles = std::max(o.minHoles, o.maxHoles);
  const std::size_t room = windowRoom(o, extraTokens);
  // A kernel longer than that is seen through a random window of it. [START]
  // and [END] mark only the kernel's true ends: a window cut inside the kernel
  // has none at that side, so the model never learns that a kernel may stop
  // in the middle of a statement (sampling feeds [START] ... [END]).
  Drawn d;
  if (kernel.size() > room) d.from = std::uniform_int_distribution<std::size_t>(0, kernel.size() - room)(rng);
  d.to = std::min(kernel.size(), d.from + room);
  d.body.assign(kernel.begin() + std::ptrdiff_t(d.from), kernel.begin() + std::ptrdiff_t(d.to));
  const std::size_t n = d.body.size();

  // Draw the holes: start positions in [0, n], lengths up to the fraction,
  // kept apart (a later hole that would overlap an earlier one is dropped).
  const unsigned holes = std::uniform_int_distribution<unsigned>(std::min(o.minHoles, o.maxHoles), maxHoles)(rng);
  const std::size_t maxSpan = std::size_t(double(n) * o.maxSpanFraction);
  auto& spans = d.spans;
  auto whole = [&](std::size_t start, std::size_t length) {
    if (!o.wholeLexemes) return Span{start, length};
    const std::size_t from = o.wholeLexemes->lexemeStart(d.body, start);
    return Span{from, o.wholeLexemes->lexemeEnd(d.body, start + length) - from};
  };
  const bool fits = d.from == 0 && d.to == kernel.size();
  const bool wholeKernel = o.wholeKernelProbability > 0 && fits &&
                           std::bernoulli_distribution(o.wholeKernelProbability)(rng);
  const bool continuation = !wholeKernel && o.continuationProbability > 0 &&
                            std::bernoulli_distribution(o.continuationProbability)(rng);
  if (wholeKernel) {
    const std::size_t head = std::min<std::size_t>(o.wholeKernelHead, n);
    spans.push_back(Span{head, n - head});
  } else if (continuation) {
    const std::size_t start = std::uniform_int_distribution<std::size_t>(0, n)(rng);
    spans.push_back(whole(start, n - start));
  }
  for (unsigned h = 0; h < holes && !continuation && !wholeKernel; ++h) {
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
  return d;
}

} // namespace

bool fitsFimWindow(std::size_t kernelTokens, const DatapointOptions& o, std::size_t conditionTokens) {
  return kernelTokens <= windowRoom(o, 2 + conditionTokens);
}

Datapoint makeDatapoint(const std::vector<int>& kernel, const DatapointOptions& o, std::mt19937_64& rng) {
  const Drawn drawn = drawHoles(kernel, o, 0, rng);
  const std::size_t from = drawn.from, to = drawn.to, n = drawn.body.size();
  const auto& body = drawn.body;
  const auto& spans = drawn.spans;

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

bool callsAWorkItemFunction(const std::string& text) {
  // A plain scan, not std::regex: `train` asks this of every training
  // kernel (29 MB in the default corpus) as it starts, where std::regex took 6 s.
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  static const char* const names[] = {"global_id", "local_id", "group_id", "global_linear_id", "local_linear_id"};
  for (std::size_t at = text.find("get_"); at != std::string::npos; at = text.find("get_", at + 4)) {
    if (at > 0 && word(text[at - 1])) continue;
    for (const char* name : names) {
      const std::size_t n = std::char_traits<char>::length(name), end = at + 4 + n;
      if (text.compare(at + 4, n, name) != 0 || (end < text.size() && word(text[end]))) continue;
      const std::size_t next = text.find_first_not_of(" \t\r\n", end);
      if (next != std::string::npos && text[next] == '(') return true;
    }
  }
  return false;
}

void weighOneWorkItem(std::vector<double>& weights, const std::vector<bool>& asksNoWorkItem, double factor) {
  if (weights.empty()) weights.assign(asksNoWorkItem.size(), 1.0);
  if (weights.size() != asksNoWorkItem.size()) throw std::invalid_argument("weighOneWorkItem: one kernel per weight");
  for (std::size_t i = 0; i < weights.size(); ++i)
    if (asksNoWorkItem[i]) weights[i] *= factor;
}

} // namespace steerbench::model

namespace steerbench::model {

Datapoint makeFimDatapoint(const std::vector<int>& kernel, const DatapointOptions& o, std::mt19937_64& rng,
                           bool labelContext, bool suffixFirst, const std::vector<int>& condition) {
  // Two more tokens than the encoder's sequence: [MASK] and [ENDHOLE].
  const Drawn drawn = drawHoles(kernel, o, 2 + condition.size(), rng);
  const auto& body = drawn.body;
  // The context: the window with every span replaced by [HOLE] (a later
  // hole's text is nowhere, as when sampling fills the first hole of several).
  std::vector<int> context;
  if (drawn.from == 0) context.push_back(Tokenizer::kStart);
  std::size_t firstHole = std::string::npos; // where the first [HOLE] is in `context`
  std::size_t i = 0;
  for (const auto& s : drawn.spans) {
    context.insert(context.end(), body.begin() + std::ptrdiff_t(i), body.begin() + std::ptrdiff_t(s.start));
    if (firstHole == std::string::npos) firstHole = context.size();
    context.push_back(Tokenizer::kHole);
    i = s.start + s.length;
  }
  context.insert(context.end(), body.begin() + std::ptrdiff_t(i), body.end());
  if (drawn.to == kernel.size()) context.push_back(Tokenizer::kEnd);
  Datapoint d;
  if (firstHole != std::string::npos) { // nothing written into the hole yet: the middle starts at it
    d.inputs = fimOrder(context, firstHole, firstHole, suffixFirst);
  } else {
    d.inputs = context;
    d.inputs.push_back(Tokenizer::kMask);
  }
  const std::size_t middleAt = d.inputs.size();
  if (!drawn.spans.empty()) {
    const Span& first = drawn.spans.front();
    d.inputs.insert(d.inputs.end(), body.begin() + std::ptrdiff_t(first.start),
                    body.begin() + std::ptrdiff_t(first.start + first.length));
  }
  d.inputs.push_back(Tokenizer::kEndHole);
  // Next-token labels. Where a hole goes is the draw's, not the kernel's:
  // [HOLE] and the [MASK] that ends the context are never labels.
  d.labels.assign(d.inputs.size(), Datapoint::kIgnore);
  for (std::size_t t = 0; t + 1 < d.inputs.size(); ++t) {
    const int next = d.inputs[t + 1];
    if (next == Tokenizer::kHole || next == Tokenizer::kMask) continue;
    if (!labelContext && t + 1 < middleAt) continue;
    d.labels[t] = next;
  }
  d.inputs.insert(d.inputs.begin(), condition.begin(), condition.end());
  d.labels.insert(d.labels.begin(), condition.size(), Datapoint::kIgnore);
  return d;
}

} // namespace steerbench::model

namespace steerbench::model {

std::vector<double> packageWeights(const std::vector<std::string>& packages, double power) {
  std::map<std::string, std::size_t> count;
  for (const auto& p : packages)
    ++count[p];
  std::vector<double> w;
  w.reserve(packages.size());
  for (const auto& p : packages)
    w.push_back(std::pow(double(count[p]), power - 1.0));
  return w;
}

double featureRichness(const std::vector<double>& g) {
  if (g.size() < 6) return 0;
  return std::min(g[0] + g[2] + g[3] + g[4] + g[5], kRichnessCap);
}

void weighByRichness(std::vector<double>& weights, const std::vector<std::vector<double>>& grewe, double power) {
  if (weights.empty()) weights.assign(grewe.size(), 1.0);
  if (weights.size() != grewe.size()) throw std::invalid_argument("weighByRichness: one Grewe vector per weight");
  for (std::size_t i = 0; i < weights.size(); ++i)
    weights[i] *= std::pow(1.0 + featureRichness(grewe[i]), power);
}

void weighLocalMemory(std::vector<double>& weights, const std::vector<std::vector<double>>& grewe, double factor) {
  if (weights.empty()) weights.assign(grewe.size(), 1.0);
  if (weights.size() != grewe.size()) throw std::invalid_argument("weighLocalMemory: one Grewe vector per weight");
  for (std::size_t i = 0; i < weights.size(); ++i)
    if (usesLocalMemory(grewe[i])) weights[i] *= factor;
}

} // namespace steerbench::model
