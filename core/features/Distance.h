// Distances between feature vectors of one space: what steering minimises
// and what "proximity" reports (docs/features.md, "Distances, proximity and
// the plot").
#pragma once

#include <vector>

namespace steerbench::features {

/// Euclidean distance; optional per-dimension `scale` multiplies each
/// difference first. Throws std::invalid_argument on a size mismatch.
[[nodiscard]] double distance(const std::vector<double>& a, const std::vector<double>& b,
                              const std::vector<double>& scale = {});

/// Relative proximity of x to target t: 1 - d(x, t) / d(0, t). 1 is an exact
/// match; <= 0 is no closer than an empty kernel. A zero target gives 1 when
/// x is zero too, else -inf.
[[nodiscard]] double relativeProximity(const std::vector<double>& x, const std::vector<double>& target,
                                       const std::vector<double>& scale = {});

} // namespace steerbench::features
