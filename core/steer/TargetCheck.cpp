#include "steer/TargetCheck.h"

#include "clang/OpenCLFrontend.h"
#include "features/DeadDeclarations.h"
#include "features/Distance.h"
#include "features/GreweFeatures.h"
#include "model/Sampler.h"
#include "model/Tokenizer.h"
#include "steer/HoleSites.h"
#include "steer/CleanCompile.h"

#include <algorithm>
#include <cmath>

namespace steerbench::steer {

std::size_t judgeCounts(const std::vector<double>& x, const std::vector<double>& target, double near) {
  const std::size_t n = std::min<std::size_t>(6, target.size());
  std::vector<double> t(target.begin(), target.begin() + std::ptrdiff_t(n)), have(n, 0.0);
  for (std::size_t d = 0; d < n && d < x.size(); ++d)
    have[d] = x[d];
  double excess = 0, norm = 0;
  for (std::size_t d = 0; d < n; ++d) {
    excess += std::pow(std::max(0.0, have[d] - t[d]), 2);
    norm += t[d] * t[d];
  }
  if (std::sqrt(excess) > (1.0 - near) * std::sqrt(norm)) return 0;
  return features::relativeProximity(have, t) >= near ? std::string::npos : model::SampleOptions::kShortOfTarget;
}

namespace {
/// The six counts of a text's first kernel (empty: none), read from a
/// compile under `warnings`; the offset of its first error, if any.
std::size_t countsOf(const std::string& text, const std::vector<std::string>& warnings, bool liveOnly,
                     std::vector<double>& x) {
  features::GreweAstCounter counter(liveOnly);
  const std::size_t at = clangfe::firstErrorOffsetWith(text, warnings, &counter);
  x.clear();
  if (at == std::string::npos && !counter.kernels().empty()) {
    const auto& c = counter.kernels().front().second;
    x = {c.comp, c.rational, c.mem, c.localmem, c.coalesced, c.atomic};
  }
  return at;
}

/// The text this thread's target check last counted, and its counts: the
/// sampler asks for a row's lean right after its check, on the same thread,
/// so the lean need not compile the text again.
struct LastCounted {
  std::string text;
  bool live = true;
  std::vector<double> x;
};
thread_local LastCounted lastCounted;
} // namespace

std::function<std::size_t(const std::string&, const std::vector<double>&)> targetCheck(double near,
                                                                                      std::vector<std::string> warnings,
                                                                                      bool liveOnly) {
  return [near, warnings = std::move(warnings), liveOnly](const std::string& text, const std::vector<double>& target) {
    std::vector<double> x;
    if (const std::size_t at = countsOf(text, warnings, liveOnly, x); at != std::string::npos) return at;
    lastCounted = {text, liveOnly, x};
    const std::size_t verdict = judgeCounts(x, target, near);
    return verdict == 0 ? text.size() : verdict;
  };
}

std::function<std::vector<std::pair<int, float>>(const std::string&, const std::vector<double>&)>
heldLean(const model::Tokenizer& tok, double strength, bool liveOnly) {
  return [&tok, strength, liveOnly, vocabulary = vocabularyTokens("grewe", tok)](const std::string& text,
                                                                                const std::vector<double>& target) {
    std::vector<double> x;
    if (lastCounted.text == text && lastCounted.live == liveOnly) x = lastCounted.x;
    else if (countsOf(text, {}, liveOnly, x) != std::string::npos) return std::vector<std::pair<int, float>>{};
    x.resize(6, 0.0);
    const std::vector<double> t(target.begin(), target.begin() + std::ptrdiff_t(std::min<std::size_t>(6, target.size())));
    return guideBias(dimensionTokens(vocabulary, tok, tok.encode(text)), x, t, strength);
  };
}

void holdToTarget(model::SampleOptions& o, double near, bool clean, bool liveOnly) {
  o.targetCheck = targetCheck(near, clean ? cleanStatementWarnings() : std::vector<std::string>{}, liveOnly);
  o.tidy = liveOnly ? features::pruneDeadDeclarations : std::function<std::string(const std::string&)>{};
}

} // namespace steerbench::steer
