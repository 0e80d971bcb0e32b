#include "steer/TargetCheck.h"

#include "clang/OpenCLFrontend.h"
#include "features/DeadDeclarations.h"
#include "features/Distance.h"
#include "features/GreweFeatures.h"
#include "model/Sampler.h"
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

std::function<std::size_t(const std::string&, const std::vector<double>&)> targetCheck(double near,
                                                                                      std::vector<std::string> warnings,
                                                                                      bool liveOnly) {
  return [near, warnings = std::move(warnings), liveOnly](const std::string& text, const std::vector<double>& target) {
    features::GreweAstCounter counter(liveOnly);
    if (const std::size_t at = clangfe::firstErrorOffsetWith(text, warnings, &counter); at != std::string::npos)
      return at;
    std::vector<double> x;
    if (!counter.kernels().empty()) {
      const auto& c = counter.kernels().front().second;
      x = {c.comp, c.rational, c.mem, c.localmem, c.coalesced, c.atomic};
    }
    const std::size_t verdict = judgeCounts(x, target, near);
    return verdict == 0 ? text.size() : verdict;
  };
}

void holdToTarget(model::SampleOptions& o, double near, bool clean, bool liveOnly) {
  o.targetCheck = targetCheck(near, clean ? cleanStatementWarnings() : std::vector<std::string>{}, liveOnly);
  o.tidy = liveOnly ? features::pruneDeadDeclarations : std::function<std::string(const std::string&)>{};
}

} // namespace steerbench::steer
