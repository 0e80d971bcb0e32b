// Statistics of repeated timings, and the label they support.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace steerbench::drive {

struct Summary {
  std::size_t n = 0;
  double median = 0, mean = 0, stddev = 0;
  double ciLow = 0, ciHigh = 0; ///< 95% confidence interval of the mean (Student's t)
};

/// Median, mean, sample standard deviation and the 95% interval of the mean.
/// One value gives a zero-width interval; none gives n = 0.
[[nodiscard]] Summary summarize(std::vector<double> values);

/// Student's t quantile for a two-sided 95% interval with `dof` degrees of freedom.
[[nodiscard]] double tQuantile95(std::size_t dof);

struct LabelDecision {
  int best = -1;          ///< index of the device with the lowest mean, -1 when fewer than two measured
  bool significant = false; ///< its interval lies below every other device's
  /// "significant", "AMBIGUOUS", or "" when there is nothing to label.
  [[nodiscard]] std::string status() const { return best < 0 ? "" : significant ? "significant" : "AMBIGUOUS"; }
};

/// Labels a case from its devices' total-time summaries (devices with n = 0
/// were not measured and are skipped): the device with the lowest mean, and
/// whether its interval separates from all the others'.
[[nodiscard]] LabelDecision decideLabel(const std::vector<Summary>& totals);

} // namespace steerbench::drive
