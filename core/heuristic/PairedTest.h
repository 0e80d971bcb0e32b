// Comparing two arms of an experiment measured on the same fold splits: is
// one better split by split? BenchPress's claim for active learning is such
// a comparison (Table 2: speedups of arms trained on the same folds), and
// a mean alone hides whether the lead holds on most splits or on a few.
#pragma once

#include <cstddef>
#include <vector>

namespace steerbench::heuristic {

struct PairedComparison {
  std::size_t n = 0;                 ///< pairs
  std::size_t wins = 0, losses = 0;  ///< a above b, a below b (ties: the rest)
  double meanDifference = 0;         ///< mean of a - b
  double medianDifference = 0;       ///< median of a - b
  /// Wilcoxon's signed-rank test, two-sided, by the normal approximation
  /// with the tie correction and a continuity correction (fine from about 10
  /// non-zero differences); zeros are dropped, as Wilcoxon did.
  double wPlus = 0;  ///< the sum of the ranks of the positive differences
  double z = 0;
  double pWilcoxon = 1;
  double pSign = 1; ///< the exact two-sided sign test on wins against losses
};

/// a[i] and b[i] are one split's figures for the two arms. Throws
/// InputError when the sizes differ or a figure is not finite.
[[nodiscard]] PairedComparison comparePaired(const std::vector<double>& a, const std::vector<double>& b);

} // namespace steerbench::heuristic
