#include "drive/host/Timing.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace steerbench::drive {

double tQuantile95(std::size_t dof) {
  static const double table[] = {0,     12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                 2.201, 2.179,  2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080,
                                 2.074, 2.069,  2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  if (dof == 0) return 0;
  if (dof <= 30) return table[dof];
  // Between table rows, the row below (a wider interval, never a narrower one).
  if (dof <= 40) return 2.042;
  if (dof <= 60) return 2.021;
  if (dof <= 120) return 2.000;
  return 1.980;
}

Summary summarize(std::vector<double> v) {
  Summary s;
  s.n = v.size();
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.median = v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
  s.mean = std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
  double ss = 0;
  for (double x : v)
    ss += (x - s.mean) * (x - s.mean);
  s.stddev = v.size() > 1 ? std::sqrt(ss / double(v.size() - 1)) : 0;
  const double half = v.size() > 1 ? tQuantile95(v.size() - 1) * s.stddev / std::sqrt(double(v.size())) : 0;
  s.ciLow = s.mean - half;
  s.ciHigh = s.mean + half;
  return s;
}

LabelDecision decideLabel(const std::vector<Summary>& totals) {
  LabelDecision d;
  int measured = 0;
  for (std::size_t i = 0; i < totals.size(); ++i) {
    if (totals[i].n == 0) continue;
    ++measured;
    if (d.best < 0 || totals[i].mean < totals[std::size_t(d.best)].mean) d.best = int(i);
  }
  if (measured < 2) {
    d.best = -1;
    return d;
  }
  d.significant = true;
  const Summary& b = totals[std::size_t(d.best)];
  for (std::size_t i = 0; i < totals.size(); ++i)
    if (int(i) != d.best && totals[i].n > 0 && (b.n < 2 || totals[i].n < 2 || !(b.ciHigh < totals[i].ciLow)))
      d.significant = false;
  return d;
}

} // namespace steerbench::drive
