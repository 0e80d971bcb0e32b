#include "heuristic/PairedTest.h"

#include "common/Error.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace steerbench::heuristic {

namespace {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

/// P(X <= k) for X ~ Binomial(n, 1/2), summed in logs (n may be in the hundreds).
double binomialHalfCdf(std::size_t k, std::size_t n) {
  double sum = 0;
  for (std::size_t i = 0; i <= k; ++i)
    sum += std::exp(std::lgamma(double(n) + 1) - std::lgamma(double(i) + 1) - std::lgamma(double(n - i) + 1) -
                    double(n) * std::log(2.0));
  return std::min(1.0, sum);
}

} // namespace

PairedComparison comparePaired(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size())
    throw InputError("a paired comparison needs as many figures in each arm (" + std::to_string(a.size()) + " and " +
                     std::to_string(b.size()) + ")");
  PairedComparison r;
  r.n = a.size();
  std::vector<double> d;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (!std::isfinite(a[i]) || !std::isfinite(b[i]))
      throw InputError("a paired comparison needs finite figures (pair " + std::to_string(i + 1) + " is not)");
    d.push_back(a[i] - b[i]);
  }
  if (d.empty()) return r;
  double sum = 0;
  for (const double x : d)
    sum += x;
  r.meanDifference = sum / double(d.size());
  r.medianDifference = median(d);

  std::vector<double> nonZero;
  for (const double x : d)
    if (x != 0) nonZero.push_back(x);
  for (const double x : nonZero)
    (x > 0 ? r.wins : r.losses)++;
  const std::size_t n = nonZero.size();
  if (n == 0) return r;
  r.pSign = std::min(1.0, 2 * binomialHalfCdf(std::min(r.wins, r.losses), n));

  // Ranks of |d|, ties given their mean rank.
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t x, std::size_t y) { return std::fabs(nonZero[x]) < std::fabs(nonZero[y]); });
  std::vector<double> rank(n);
  double tieTerm = 0;
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i;
    while (j + 1 < n && std::fabs(nonZero[order[j + 1]]) == std::fabs(nonZero[order[i]]))
      ++j;
    const double mean = (double(i + 1) + double(j + 1)) / 2;
    for (std::size_t k = i; k <= j; ++k)
      rank[order[k]] = mean;
    const double t = double(j - i + 1);
    tieTerm += t * t * t - t;
    i = j + 1;
  }
  for (std::size_t i = 0; i < n; ++i)
    if (nonZero[i] > 0) r.wPlus += rank[i];
  const double nn = double(n);
  const double mean = nn * (nn + 1) / 4;
  const double variance = nn * (nn + 1) * (2 * nn + 1) / 24 - tieTerm / 48;
  if (variance <= 0) return r;
  const double off = r.wPlus - mean;
  const double corrected = off > 0 ? std::max(0.0, off - 0.5) : std::min(0.0, off + 0.5);
  r.z = corrected / std::sqrt(variance);
  r.pWilcoxon = std::min(1.0, std::erfc(std::fabs(r.z) / std::sqrt(2.0)));
  return r;
}

} // namespace steerbench::heuristic
