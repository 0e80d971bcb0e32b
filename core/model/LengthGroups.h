// Groups of similar length, so that padding to each group's longest costs
// little: the encoder's sampling rows and a training step's datapoints.
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

namespace steerbench::model {

/// Splits rows (or datapoints) sorted by length into at most four runs [first, last) that
/// minimise the padded tokens encoded, counting each encoder call as
/// `callCost` tokens more (a call has a fixed cost; the model's longest
/// sequence is a fair guess of it). The sampler encodes its rows in these
/// groups; training runs a step's datapoints through the model in them.
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

} // namespace steerbench::model
