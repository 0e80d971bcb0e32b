#include "explore/Committee.h"

#include "common/Error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numeric>

namespace steerbench::explore {

namespace {

double sq(double v) { return v * v; }

double distance2(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    s += sq(a[i] - b[i]);
  return s;
}

int argmax(const std::vector<double>& v) {
  return int(std::max_element(v.begin(), v.end()) - v.begin()); // ties: the first (lower label)
}

} // namespace

/// One member: an MLP (one hidden tanh layer, softmax out, full-batch Adam on
/// cross-entropy), a k-NN, or a K-means whose clusters vote their majority.
struct Committee::Member {
  enum class Kind { Mlp, Knn, KMeans } kind = Kind::Knn;
  int k = 1;             ///< k-NN's k, K-means' k, the MLP's hidden size
  bool distanceWeighted = false;
  std::uint64_t seed = 0;
  // k-NN: the training set (scaled).
  const std::vector<LabelledPoint>* points = nullptr;
  // K-means: centroids and their labels.
  std::vector<std::vector<double>> centroids;
  std::vector<int> centroidLabels;
  // MLP: weights.
  std::vector<double> w1, b1, w2, b2;
  int in = 0, out = 0;

  [[nodiscard]] std::string describe() const {
    switch (kind) {
    case Kind::Mlp: return "{\"kind\":\"mlp\",\"hidden\":" + std::to_string(k) + ",\"seed\":" + std::to_string(seed) + "}";
    case Kind::Knn:
      return "{\"kind\":\"knn\",\"k\":" + std::to_string(k) + ",\"weights\":\"" +
             (distanceWeighted ? "distance" : "uniform") + "\"}";
    case Kind::KMeans:
      return "{\"kind\":\"kmeans\",\"k\":" + std::to_string(k) + ",\"seed\":" + std::to_string(seed) + "}";
    }
    return "{}";
  }

  std::vector<double> hidden(const std::vector<double>& x) const {
    std::vector<double> h(static_cast<std::size_t>(k));
    for (int j = 0; j < k; ++j) {
      double s = b1[std::size_t(j)];
      for (int i = 0; i < in; ++i)
        s += w1[std::size_t(j * in + i)] * x[std::size_t(i)];
      h[std::size_t(j)] = std::tanh(s);
    }
    return h;
  }
  std::vector<double> logits(const std::vector<double>& h) const {
    std::vector<double> z(static_cast<std::size_t>(out));
    for (int o = 0; o < out; ++o) {
      double s = b2[std::size_t(o)];
      for (int j = 0; j < k; ++j)
        s += w2[std::size_t(o * k + j)] * h[std::size_t(j)];
      z[std::size_t(o)] = s;
    }
    return z;
  }

  void trainMlp(const std::vector<LabelledPoint>& data, int labels) {
    in = int(data.front().x.size());
    out = labels;
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> init(0.0, 1.0);
    w1.resize(std::size_t(k * in));
    b1.assign(std::size_t(k), 0.0);
    w2.resize(std::size_t(out * k));
    b2.assign(std::size_t(out), 0.0);
    for (auto& w : w1)
      w = init(rng) / std::sqrt(double(in));
    for (auto& w : w2)
      w = init(rng) / std::sqrt(double(k));
    // Full-batch Adam: few hundred points, few hundred steps.
    std::vector<double*> params;
    for (auto* v : {&w1, &b1, &w2, &b2})
      for (auto& p : *v)
        params.push_back(&p);
    std::vector<double> m(params.size(), 0.0), v(params.size(), 0.0), g(params.size());
    const double lr = 0.02, beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
    for (int step = 1; step <= 300; ++step) {
      std::fill(g.begin(), g.end(), 0.0);
      for (const auto& p : data) {
        const auto h = hidden(p.x);
        auto z = logits(h);
        const double mx = *std::max_element(z.begin(), z.end());
        double sum = 0;
        for (auto& zi : z)
          sum += (zi = std::exp(zi - mx));
        std::vector<double> dz(static_cast<std::size_t>(out));
        for (int o = 0; o < out; ++o)
          dz[std::size_t(o)] = (z[std::size_t(o)] / sum - (o == p.label ? 1.0 : 0.0)) / double(data.size());
        // Gradients in the order of `params`: w1, b1, w2, b2.
        std::vector<double> dh(static_cast<std::size_t>(k), 0.0);
        const std::size_t gw2 = w1.size() + b1.size(), gb2 = gw2 + w2.size();
        for (int o = 0; o < out; ++o) {
          for (int j = 0; j < k; ++j) {
            g[gw2 + std::size_t(o * k + j)] += dz[std::size_t(o)] * h[std::size_t(j)];
            dh[std::size_t(j)] += dz[std::size_t(o)] * w2[std::size_t(o * k + j)];
          }
          g[gb2 + std::size_t(o)] += dz[std::size_t(o)];
        }
        for (int j = 0; j < k; ++j) {
          const double da = dh[std::size_t(j)] * (1 - sq(h[std::size_t(j)]));
          for (int i = 0; i < in; ++i)
            g[std::size_t(j * in + i)] += da * p.x[std::size_t(i)];
          g[w1.size() + std::size_t(j)] += da;
        }
      }
      const double c1 = 1 - std::pow(beta1, step), c2 = 1 - std::pow(beta2, step);
      for (std::size_t i = 0; i < params.size(); ++i) {
        m[i] = beta1 * m[i] + (1 - beta1) * g[i];
        v[i] = beta2 * v[i] + (1 - beta2) * sq(g[i]);
        *params[i] -= lr * (m[i] / c1) / (std::sqrt(v[i] / c2) + eps);
      }
    }
  }

  void trainKMeans(const std::vector<LabelledPoint>& data, int labels) {
    std::mt19937_64 rng(seed);
    const std::size_t kk = std::min<std::size_t>(std::size_t(k), data.size());
    // k-means++ initialisation, then Lloyd's iterations.
    centroids = {data[std::uniform_int_distribution<std::size_t>(0, data.size() - 1)(rng)].x};
    while (centroids.size() < kk) {
      std::vector<double> d(data.size());
      for (std::size_t i = 0; i < data.size(); ++i) {
        d[i] = std::numeric_limits<double>::max();
        for (const auto& c : centroids)
          d[i] = std::min(d[i], distance2(data[i].x, c));
      }
      const double total = std::accumulate(d.begin(), d.end(), 0.0);
      if (total <= 0) break;
      double r = std::uniform_real_distribution<double>(0, total)(rng);
      std::size_t pick = 0;
      for (; pick + 1 < data.size() && r > d[pick]; ++pick)
        r -= d[pick];
      centroids.push_back(data[pick].x);
    }
    std::vector<std::size_t> assign(data.size(), 0);
    for (int it = 0; it < 50; ++it) {
      bool moved = false;
      for (std::size_t i = 0; i < data.size(); ++i) {
        std::size_t best = 0;
        for (std::size_t c = 1; c < centroids.size(); ++c)
          if (distance2(data[i].x, centroids[c]) < distance2(data[i].x, centroids[best])) best = c;
        moved |= best != assign[i];
        assign[i] = best;
      }
      std::vector<std::vector<double>> sum(centroids.size(), std::vector<double>(data.front().x.size(), 0.0));
      std::vector<std::size_t> n(centroids.size(), 0);
      for (std::size_t i = 0; i < data.size(); ++i) {
        ++n[assign[i]];
        for (std::size_t d = 0; d < data[i].x.size(); ++d)
          sum[assign[i]][d] += data[i].x[d];
      }
      for (std::size_t c = 0; c < centroids.size(); ++c)
        if (n[c])
          for (std::size_t d = 0; d < sum[c].size(); ++d)
            centroids[c][d] = sum[c][d] / double(n[c]);
      if (!moved && it > 0) break;
    }
    // Each cluster votes its majority label (an empty cluster: the overall majority).
    std::vector<double> overall(std::size_t(labels), 0.0);
    for (const auto& p : data)
      overall[std::size_t(p.label)] += 1;
    std::vector<std::vector<double>> counts(centroids.size(), std::vector<double>(std::size_t(labels), 0.0));
    for (std::size_t i = 0; i < data.size(); ++i)
      counts[assign[i]][std::size_t(data[i].label)] += 1;
    centroidLabels.clear();
    for (auto& c : counts)
      centroidLabels.push_back(std::accumulate(c.begin(), c.end(), 0.0) > 0 ? argmax(c) : argmax(overall));
  }

  [[nodiscard]] int vote(const std::vector<double>& x, int labels) const {
    switch (kind) {
    case Kind::Mlp: return argmax(logits(hidden(x)));
    case Kind::KMeans: {
      std::size_t best = 0;
      for (std::size_t c = 1; c < centroids.size(); ++c)
        if (distance2(x, centroids[c]) < distance2(x, centroids[best])) best = c;
      return centroidLabels[best];
    }
    case Kind::Knn: {
      std::vector<std::pair<double, int>> d;
      d.reserve(points->size());
      for (const auto& p : *points)
        d.emplace_back(distance2(x, p.x), p.label);
      const std::size_t kk = std::min(d.size(), std::size_t(k));
      std::partial_sort(d.begin(), d.begin() + std::ptrdiff_t(kk), d.end());
      std::vector<double> w(std::size_t(labels), 0.0);
      for (std::size_t i = 0; i < kk; ++i)
        w[std::size_t(d[i].second)] += distanceWeighted ? 1.0 / (std::sqrt(d[i].first) + 1e-9) : 1.0;
      return argmax(w);
    }
    }
    return 0;
  }
};

Committee::Committee() = default;
Committee::~Committee() = default;
Committee::Committee(Committee&&) noexcept = default;
Committee& Committee::operator=(Committee&&) noexcept = default;

double voteEntropy(const std::vector<int>& votes, int labels) {
  if (votes.empty()) return 0;
  std::vector<double> n(std::size_t(std::max(labels, 1)), 0.0);
  for (int v : votes)
    if (v >= 0 && v < labels) n[std::size_t(v)] += 1;
  double h = 0;
  for (double c : n)
    if (c > 0) {
      const double p = c / double(votes.size());
      h -= p * std::log(p);
    }
  return h;
}

std::vector<double> Committee::scaled(const std::vector<double>& x) const {
  std::vector<double> s(x.size());
  for (std::size_t i = 0; i < x.size(); ++i)
    s[i] = (std::log1p(std::max(0.0, x[i])) - mean_[i]) / sd_[i];
  return s;
}

Committee Committee::train(const std::vector<LabelledPoint>& points, int labels, std::uint64_t seed) {
  if (points.size() < 2) throw InputError("the committee needs at least two labelled points");
  std::vector<bool> seen(std::size_t(std::max(labels, 1)), false);
  for (const auto& p : points) {
    if (p.label < 0 || p.label >= labels) throw InputError("a labelled point has label " + std::to_string(p.label));
    seen[std::size_t(p.label)] = true;
  }
  if (std::count(seen.begin(), seen.end(), true) < 2)
    throw InputError("the committee needs labelled points of at least two labels (all " +
                     std::to_string(points.size()) + " have the same)");
  Committee c;
  c.labels_ = labels;
  c.trainingSize_ = points.size();
  const std::size_t dims = points.front().x.size();
  c.mean_.assign(dims, 0.0);
  c.sd_.assign(dims, 0.0);
  for (const auto& p : points)
    for (std::size_t d = 0; d < dims; ++d)
      c.mean_[d] += std::log1p(std::max(0.0, p.x.at(d))) / double(points.size());
  for (const auto& p : points)
    for (std::size_t d = 0; d < dims; ++d)
      c.sd_[d] += sq(std::log1p(std::max(0.0, p.x[d])) - c.mean_[d]) / double(points.size());
  for (auto& s : c.sd_)
    s = s > 1e-12 ? std::sqrt(s) : 1.0;
  auto data = std::make_shared<std::vector<LabelledPoint>>();
  for (const auto& p : points)
    data->push_back({c.scaled(p.x), p.label});
  c.data_ = data; // the k-NN members read the scaled training set; it lives as long as the committee
  for (int hiddenSize : {8, 16, 32, 64}) {
    Member m;
    m.kind = Member::Kind::Mlp;
    m.k = hiddenSize;
    m.seed = seed * 1000003u + std::uint64_t(hiddenSize);
    m.trainMlp(*data, labels);
    c.members_.push_back(std::move(m));
  }
  for (int k : {1, 2, 5, 10})
    for (bool weighted : {false, true}) {
      Member m;
      m.kind = Member::Kind::Knn;
      m.k = k;
      m.distanceWeighted = weighted;
      m.points = data.get();
      c.members_.push_back(std::move(m));
    }
  for (int k : {2, 8, 16})
    for (std::uint64_t s : {seed, seed + 1}) {
      Member m;
      m.kind = Member::Kind::KMeans;
      m.k = k;
      m.seed = s * 7919u + std::uint64_t(k);
      m.trainKMeans(*data, labels);
      c.members_.push_back(std::move(m));
    }
  return c;
}

std::vector<int> Committee::votes(const std::vector<double>& x) const {
  const auto s = scaled(x);
  std::vector<int> v;
  v.reserve(members_.size());
  for (const auto& m : members_)
    v.push_back(m.vote(s, labels_));
  return v;
}

std::size_t Committee::size() const { return members_.size(); }

double Committee::entropy(const std::vector<double>& x) const { return voteEntropy(votes(x), labels_); }

int Committee::predict(const std::vector<double>& x) const {
  std::vector<double> n(std::size_t(labels_), 0.0);
  for (int v : votes(x))
    n[std::size_t(v)] += 1;
  return argmax(n);
}

std::string Committee::describe() const {
  std::string s = "{\"training_points\":" + std::to_string(trainingSize_) + ",\"labels\":" + std::to_string(labels_) +
                  ",\"members\":[";
  for (std::size_t i = 0; i < members_.size(); ++i)
    s += (i ? "," : "") + members_[i].describe();
  return s + "]}";
}

} // namespace steerbench::explore
