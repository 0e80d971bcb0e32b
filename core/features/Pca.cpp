#include "features/Pca.h"

#include "common/Error.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

namespace steerbench::features {

std::vector<double> symmetricEigen(std::vector<std::vector<double>> a, std::vector<std::vector<double>>& vectors) {
  const std::size_t n = a.size();
  std::vector<std::vector<double>> v(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n; ++i)
    v[i][i] = 1.0;
  for (int sweep = 0; sweep < 100; ++sweep) {
    double off = 0;
    for (std::size_t p = 0; p < n; ++p)
      for (std::size_t q = p + 1; q < n; ++q)
        off += a[p][q] * a[p][q];
    if (off < 1e-22) break;
    for (std::size_t p = 0; p < n; ++p) {
      for (std::size_t q = p + 1; q < n; ++q) {
        if (std::abs(a[p][q]) < 1e-300) continue;
        const double theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
        const double t = (theta >= 0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1 / std::sqrt(t * t + 1), s = t * c;
        for (std::size_t k = 0; k < n; ++k) { // columns p, q
          const double akp = a[k][p], akq = a[k][q];
          a[k][p] = c * akp - s * akq;
          a[k][q] = s * akp + c * akq;
        }
        for (std::size_t k = 0; k < n; ++k) { // rows p, q
          const double apk = a[p][k], aqk = a[q][k];
          a[p][k] = c * apk - s * aqk;
          a[q][k] = s * apk + c * aqk;
        }
        for (std::size_t k = 0; k < n; ++k) {
          const double vkp = v[k][p], vkq = v[k][q];
          v[k][p] = c * vkp - s * vkq;
          v[k][q] = s * vkp + c * vkq;
        }
      }
    }
  }
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return a[x][x] > a[y][y]; });
  std::vector<double> values(n);
  vectors.assign(n, std::vector<double>(n));
  for (std::size_t i = 0; i < n; ++i) {
    values[i] = a[order[i]][order[i]];
    for (std::size_t k = 0; k < n; ++k)
      vectors[i][k] = v[k][order[i]];
  }
  return values;
}

Pca Pca::fit(const std::vector<std::vector<double>>& rows, std::size_t components) {
  if (rows.empty()) throw InputError("PCA needs at least one vector; the layer is empty");
  const std::size_t d = rows.front().size();
  if (d == 0) throw InputError("PCA needs vectors with at least one dimension");
  for (const auto& r : rows)
    if (r.size() != d)
      throw InputError("PCA: vectors of different lengths (" + std::to_string(r.size()) + " vs " +
                       std::to_string(d) + ")");
  const double n = double(rows.size());
  Pca p;
  p.mean_.assign(d, 0.0);
  p.scale_.assign(d, 1.0);
  for (const auto& r : rows)
    for (std::size_t j = 0; j < d; ++j)
      p.mean_[j] += r[j] / n;
  for (std::size_t j = 0; j < d; ++j) {
    double ss = 0;
    for (const auto& r : rows)
      ss += (r[j] - p.mean_[j]) * (r[j] - p.mean_[j]);
    const double sd = std::sqrt(ss / n);
    p.scale_[j] = sd > 1e-12 ? sd : 1.0;
  }
  std::vector<std::vector<double>> cov(d, std::vector<double>(d, 0.0));
  std::vector<double> z(d);
  for (const auto& r : rows) {
    for (std::size_t j = 0; j < d; ++j)
      z[j] = (r[j] - p.mean_[j]) / p.scale_[j];
    for (std::size_t i = 0; i < d; ++i)
      for (std::size_t j = i; j < d; ++j)
        cov[i][j] += z[i] * z[j] / n;
  }
  for (std::size_t i = 0; i < d; ++i)
    for (std::size_t j = 0; j < i; ++j)
      cov[i][j] = cov[j][i];
  std::vector<std::vector<double>> vecs;
  const auto values = symmetricEigen(cov, vecs);
  const double total = std::max(1e-300, std::accumulate(values.begin(), values.end(), 0.0));
  components = std::min(components, d);
  for (std::size_t c = 0; c < components; ++c) {
    auto axis = vecs[c];
    const auto big = std::max_element(axis.begin(), axis.end(),
                                      [](double x, double y) { return std::abs(x) < std::abs(y); });
    if (*big < 0)
      for (auto& w : axis)
        w = -w;
    p.axes_.push_back(std::move(axis));
    p.explained_.push_back(std::max(0.0, values[c]) / total);
  }
  return p;
}

std::vector<double> Pca::transform(const std::vector<double>& x) const {
  if (x.size() != mean_.size())
    throw InputError("PCA: a vector of " + std::to_string(x.size()) + " dimensions, expected " +
                     std::to_string(mean_.size()));
  std::vector<double> out(axes_.size(), 0.0);
  for (std::size_t c = 0; c < axes_.size(); ++c)
    for (std::size_t j = 0; j < x.size(); ++j)
      out[c] += axes_[c][j] * (x[j] - mean_[j]) / scale_[j];
  return out;
}

std::vector<double> Pca::inverseRaw(const std::vector<double>& point) const {
  if (point.size() != axes_.size())
    throw InputError("PCA: a point of " + std::to_string(point.size()) + " coordinates, expected " +
                     std::to_string(axes_.size()));
  std::vector<double> x(mean_.size());
  for (std::size_t j = 0; j < x.size(); ++j) {
    double z = 0;
    for (std::size_t c = 0; c < axes_.size(); ++c)
      z += point[c] * axes_[c][j];
    x[j] = mean_[j] + scale_[j] * z;
  }
  return x;
}

std::vector<double> Pca::inverse(const std::vector<double>& point, const std::vector<bool>& counts) const {
  auto x = inverseRaw(point);
  for (std::size_t j = 0; j < x.size(); ++j) {
    x[j] = std::max(0.0, x[j]);
    if (j < counts.size() && counts[j]) x[j] = std::round(x[j]);
  }
  return x;
}

} // namespace steerbench::features
