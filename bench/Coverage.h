// Coverage of a reference set of Grewe vectors by a collection (BenchPress's
// Figure 7 measure), shared by the benches that print it.
#pragma once

#include "dataset/DevMap.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace steerbench::bench {

/// comp, rational, mem, localmem, coalesced, atomic.
using Counts = std::array<double, 6>;

inline double distance(const Counts& a, const Counts& b) {
  double s = 0;
  for (std::size_t d = 0; d < a.size(); ++d)
    s += (a[d] - b[d]) * (a[d] - b[d]);
  return std::sqrt(s);
}

/// The Grewe counts of a CLgen-layout CSV (file, kernel, comp, ..., atomic, ...).
/// Empty when the file is not there.
inline std::vector<Counts> readCounts(const std::string& path) {
  std::ifstream in(path);
  std::vector<Counts> out;
  std::string line;
  if (!std::getline(in, line)) return out;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, ',');)
      f.push_back(x);
    if (f.size() < 8) continue;
    Counts c{};
    for (std::size_t d = 0; d < 6; ++d)
      c[d] = std::atof(f[d + 2].c_str());
    out.push_back(c);
  }
  return out;
}

/// BenchPress's coverage of a reference set by a collection: the median
/// distance from each reference vector to its nearest member, the shares
/// within 1 and 5, and the exact matches.
inline void printCoverage(const char* name, const std::vector<Counts>& members, const std::vector<Counts>& reference) {
  const std::set<Counts> distinct(members.begin(), members.end());
  std::vector<double> nearest;
  std::size_t within1 = 0, within5 = 0, exact = 0;
  for (const auto& r : reference) {
    double best = 1e300;
    for (const auto& m : distinct)
      best = std::min(best, distance(r, m));
    nearest.push_back(best);
    within1 += best <= 1;
    within5 += best <= 5;
    exact += best == 0;
  }
  std::sort(nearest.begin(), nearest.end());
  const double n = double(std::max<std::size_t>(1, reference.size()));
  std::printf("  %-22s %6zu %8zu %15.1f %9.1f%% %9.1f%% %7.1f%%\n", name, members.size(), distinct.size(),
              nearest.empty() ? 0.0 : nearest[nearest.size() / 2], 100.0 * double(within1) / n,
              100.0 * double(within5) / n, 100.0 * double(exact) / n);
}

/// `n` members of `all` drawn without replacement with a fixed seed (all of them when n is larger).
inline std::vector<Counts> subsample(std::vector<Counts> all, std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::shuffle(all.begin(), all.end(), rng);
  if (all.size() > n) all.resize(n);
  return all;
}

/// DevMap's benchmark kernels, one vector each (its CSV has 680 runs of 256
/// kernels); empty when `csv` is not there.
inline std::vector<Counts> devmapKernelVectors(const std::string& csv) {
  std::vector<Counts> reference;
  if (!std::ifstream(csv).good()) return reference;
  std::map<std::string, Counts> byKernel;
  for (const auto& r : dataset::readDevMap(csv))
    byKernel[r.benchmark] = Counts{r.comp, r.rational, r.mem, r.localmem, r.coalesced, r.atomic};
  for (const auto& [name, c] : byKernel)
    reference.push_back(c);
  return reference;
}

/// The header printCoverage's rows go under.
inline void printCoverageHeader() {
  std::printf("  %-22s %6s %8s %15s %10s %10s %8s\n", "collection", "n", "distinct", "median nearest", "within 1",
              "within 5", "exact");
}

} // namespace steerbench::bench
