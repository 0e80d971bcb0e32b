#include "steer/SeedChoice.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace steerbench::steer {

int seedsPerPackage(int nearest, double share) {
  if (!(share < 1)) return nearest;
  return std::max(1, int(std::ceil(share * double(nearest) - 1e-9)));
}

std::vector<std::size_t> packageTurns(const std::vector<std::string>& packages) {
  std::vector<int> turn(packages.size());
  std::map<std::string, int> taken;
  for (std::size_t i = 0; i < packages.size(); ++i)
    turn[i] = packages[i].empty() ? 0 : taken[packages[i]]++;
  std::vector<std::size_t> order(packages.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return turn[a] < turn[b]; });
  return order;
}

} // namespace steerbench::steer
