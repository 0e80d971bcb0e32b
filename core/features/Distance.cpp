#include "features/Distance.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace steerbench::features {

double distance(const std::vector<double>& a, const std::vector<double>& b, const std::vector<double>& scale) {
  if (a.size() != b.size() || (!scale.empty() && scale.size() != a.size()))
    throw std::invalid_argument("distance: vectors of different dimensions (" + std::to_string(a.size()) + " vs " +
                                std::to_string(b.size()) + ")");
  double sum = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double d = (a[i] - b[i]) * (scale.empty() ? 1.0 : scale[i]);
    sum += d * d;
  }
  return std::sqrt(sum);
}

double relativeProximity(const std::vector<double>& x, const std::vector<double>& target,
                         const std::vector<double>& scale) {
  const std::vector<double> zero(target.size(), 0.0);
  const double base = distance(zero, target, scale);
  const double d = distance(x, target, scale);
  if (base == 0) return d == 0 ? 1.0 : -std::numeric_limits<double>::infinity();
  return 1.0 - d / base;
}

} // namespace steerbench::features
