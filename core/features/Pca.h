// Principal component analysis of standardized feature vectors, for the
// 2-D plot of a feature space and for mapping a point on it back to a vector.
#pragma once

#include <cstddef>
#include <vector>

namespace steerbench::features {

/// A PCA fitted on standardized rows (docs/features.md: PCA-2). Immutable after
/// fit; safe to share between threads.
class Pca {
public:
  /// Fits `components` principal axes on `rows` (n vectors of equal length).
  /// Each dimension is standardized first (mean 0, standard deviation 1; a
  /// constant dimension keeps scale 1). Axis signs are fixed so that each
  /// axis's largest loading is positive, so a fit is reproducible. Throws
  /// InputError when rows are empty or of different lengths.
  [[nodiscard]] static Pca fit(const std::vector<std::vector<double>>& rows, std::size_t components = 2);

  /// The coordinates of `x` on the principal axes.
  [[nodiscard]] std::vector<double> transform(const std::vector<double>& x) const;
  /// The full vector at `point` by the inverse transform, clamped to >= 0
  /// and rounded in the dimensions where `counts[i]` is true.
  [[nodiscard]] std::vector<double> inverse(const std::vector<double>& point,
                                            const std::vector<bool>& counts = {}) const;
  /// The unclamped, unrounded inverse transform.
  [[nodiscard]] std::vector<double> inverseRaw(const std::vector<double>& point) const;

  /// Fraction of the total variance (of standardized data) along axis c.
  [[nodiscard]] double explainedVariance(std::size_t c) const { return explained_.at(c); }
  [[nodiscard]] std::size_t dimensions() const { return mean_.size(); }
  [[nodiscard]] std::size_t components() const { return axes_.size(); }
  /// Axis c's loadings, one per dimension (unit length).
  [[nodiscard]] const std::vector<double>& axis(std::size_t c) const { return axes_.at(c); }

private:
  std::vector<double> mean_, scale_;
  std::vector<std::vector<double>> axes_;
  std::vector<double> explained_;
};

/// Eigen-decomposition of a symmetric matrix (cyclic Jacobi). Returns the
/// eigenvalues in descending order; `vectors[i]` is the unit eigenvector of
/// value i. Exposed for tests.
[[nodiscard]] std::vector<double> symmetricEigen(std::vector<std::vector<double>> m,
                                                 std::vector<std::vector<double>>& vectors);

} // namespace steerbench::features
