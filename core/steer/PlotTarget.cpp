#include "steer/PlotTarget.h"

#include "common/Error.h"
#include "common/TextFormat.h"
#include "engine/FeatureTable.h"
#include "features/FeatureSpace.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace steerbench::steer {

namespace {

// Grewe dimensions, in the space's order.
enum Grewe { kComp, kRational, kMem, kLocalmem, kCoalesced, kAtomic, kF2, kF4, kGreweDims };

bool isGrewe(const std::string& space, const std::vector<double>& v) { return space == "grewe" && v.size() == kGreweDims; }
bool isInstCount(const std::string& space) { return space == "instcount"; }

/// The feasible-set step of the search, before rounding: counts >= 0, and in
/// the Grewe space localmem <= mem (both moved to their mean, the nearest
/// point where it holds) and F2, F4 from the counts.
void clampContinuous(const std::string& space, const std::vector<bool>& counts, std::vector<double>& v) {
  for (std::size_t i = 0; i < v.size(); ++i)
    if (i < counts.size() && counts[i]) v[i] = std::max(0.0, v[i]);
  if (isGrewe(space, v)) {
    if (v[kLocalmem] > v[kMem]) v[kLocalmem] = v[kMem] = 0.5 * (v[kLocalmem] + v[kMem]);
    recomputeGreweRatios(v);
  }
}

double distance2(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
    s += (a[i] - b[i]) * (a[i] - b[i]);
  return s;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i ? (i + 1 == names.size() ? " and " : ", ") : "") + names[i];
  return out;
}

} // namespace

std::vector<std::string> makeFeasible(const std::string& spaceName, std::vector<double>& v) {
  const auto& space = features::featureSpace(spaceName);
  const auto counts = engine::countDimensions(space);
  std::vector<std::string> reasons, negative;
  bool rounded = false;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i >= counts.size() || !counts[i]) continue;
    if (v[i] < 0) {
      if (v[i] <= -0.5) negative.push_back(space.dimensions[i]);
      v[i] = 0;
    }
    if (std::abs(v[i] - std::round(v[i])) > 1e-9) rounded = true;
    v[i] = std::round(v[i]);
  }
  if (!negative.empty()) reasons.push_back(joined(negative) + " raised to 0 (counts are never negative)");
  if (rounded) reasons.emplace_back("counts rounded to whole numbers");
  if (isGrewe(spaceName, v)) {
    if (v[kLocalmem] > v[kMem]) {
      // Each __local subscript mentions a name mem counts.
      v[kLocalmem] = v[kMem] = std::round(0.5 * (v[kLocalmem] + v[kMem]));
      reasons.emplace_back("localmem and mem met halfway (localmem is at most mem)");
    }
    if (v[kMem] == 0 && (v[kCoalesced] > 0 || v[kAtomic] > 0)) {
      v[kMem] = 1;
      reasons.emplace_back("mem raised to 1 (coalesced accesses and atomics need a memory name)");
    }
    const auto before = v;
    recomputeGreweRatios(v);
    if (std::abs(before[kF2] - v[kF2]) > 1e-9 || std::abs(before[kF4] - v[kF4]) > 1e-9)
      reasons.emplace_back("F2 and F4 follow from the counts (coalesced/mem, comp/mem)");
  } else if (isInstCount(spaceName) && v.size() > 3) {
    const double sum = std::accumulate(v.begin() + 3, v.end(), 0.0);
    if (v[0] != sum) reasons.emplace_back("TotalInsts is the sum of the opcode counts");
    v[0] = sum;
    for (std::size_t i : {std::size_t(1), std::size_t(2)}) // TotalBlocks, TotalFuncs: a kernel has one of each at least
      if (v[i] < 1) {
        v[i] = 1;
        reasons.push_back(space.dimensions[i] + " raised to 1 (a kernel is a function with a block)");
      }
  }
  return reasons;
}

bool isFeasible(const std::string& spaceName, const std::vector<double>& v, std::string* why) {
  const auto& space = features::featureSpace(spaceName);
  auto fail = [&](const std::string& w) {
    if (why) *why = w;
    return false;
  };
  if (v.size() != space.dimensions.size())
    return fail(std::to_string(v.size()) + " values for " + std::to_string(space.dimensions.size()) + " dimensions");
  const auto counts = engine::countDimensions(space);
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!std::isfinite(v[i])) return fail(space.dimensions[i] + " is not a number");
    if (counts[i] && (v[i] < 0 || v[i] != std::round(v[i])))
      return fail(space.dimensions[i] + " = " + formatNumber(v[i]) + " is not a whole count >= 0");
  }
  if (isGrewe(spaceName, v)) {
    if (v[kLocalmem] > v[kMem]) return fail("localmem exceeds mem");
    if (v[kMem] == 0 && (v[kCoalesced] > 0 || v[kAtomic] > 0)) return fail("coalesced or atomic without mem");
    auto derived = v;
    recomputeGreweRatios(derived);
    if (std::abs(derived[kF2] - v[kF2]) > 1e-9 || std::abs(derived[kF4] - v[kF4]) > 1e-9)
      return fail("F2 or F4 differs from the ratio of the counts");
  } else if (isInstCount(spaceName) && v.size() > 3) {
    if (v[0] != std::accumulate(v.begin() + 3, v.end(), 0.0)) return fail("TotalInsts is not the sum of the opcodes");
    if (v[1] < 1 || v[2] < 1) return fail("no block or no function");
  }
  return true;
}

PlotTarget targetFromPcaClick(const std::string& spaceName, const features::Pca& pca,
                              const std::vector<std::vector<double>>& kernels, double x, double y) {
  const auto& space = features::featureSpace(spaceName);
  if (pca.dimensions() != space.dimensions.size())
    throw InputError("the PCA was fitted on " + std::to_string(pca.dimensions()) + " dimensions, not the " +
                     space.name + " space's " + std::to_string(space.dimensions.size()));
  const std::vector<double> click = {x, y};
  const auto counts = engine::countDimensions(space);
  // 1. Near the kernels drawn around the click: a blend of the nearest, by
  // their distance on the plot (1/d^2), or the plane's inverse without kernels.
  std::vector<double> v;
  if (kernels.empty()) {
    v = pca.inverseRaw(click);
  } else {
    struct Near {
      double d2;
      std::size_t row;
    };
    std::vector<Near> near;
    near.reserve(kernels.size());
    for (std::size_t r = 0; r < kernels.size(); ++r)
      near.push_back({distance2(pca.transform(kernels[r]), click), r});
    const std::size_t k = std::min<std::size_t>(8, near.size());
    std::partial_sort(near.begin(), near.begin() + std::ptrdiff_t(k), near.end(),
                      [](const Near& a, const Near& b) { return a.d2 < b.d2 || (a.d2 == b.d2 && a.row < b.row); });
    v.assign(space.dimensions.size(), 0.0);
    double total = 0;
    for (std::size_t i = 0; i < k; ++i) {
      const double w = 1.0 / (near[i].d2 + 1e-9);
      total += w;
      for (std::size_t j = 0; j < v.size(); ++j)
        v[j] += w * kernels[near[i].row][j];
    }
    for (auto& e : v)
      e /= total;
  }
  // 2. Along the plane onto the click, back into the feasible set, a few
  // rounds (the plane's move is exact: the transform is affine).
  const auto origin = pca.inverseRaw({0.0, 0.0});
  auto moveOnto = [&](std::vector<double>& u) {
    const auto p = pca.transform(u);
    const auto lift = pca.inverseRaw({click[0] - p[0], click[1] - p[1]});
    for (std::size_t j = 0; j < u.size(); ++j)
      u[j] += lift[j] - origin[j];
  };
  for (int round = 0; round < 30; ++round) {
    moveOnto(v);
    clampContinuous(spaceName, counts, v);
  }
  // 3. Whole counts; then a count at a time while the projection comes nearer.
  PlotTarget out;
  const auto reasons = makeFeasible(spaceName, v);
  double best = distance2(pca.transform(v), click);
  for (int step = 0; step < 400; ++step) {
    std::vector<double> pick;
    for (std::size_t j = 0; j < v.size(); ++j) {
      if (!counts[j]) continue;
      const double big = std::max(1.0, std::round(0.1 * v[j])); // large counts move in larger steps
      for (const double d : {-big, -1.0, 1.0, big}) {
        auto u = v;
        u[j] += d;
        if (u[j] < 0) continue;
        (void)makeFeasible(spaceName, u);
        const double e = distance2(pca.transform(u), click);
        if (e < best - 1e-12) {
          best = e;
          pick = std::move(u);
        }
      }
    }
    if (pick.empty()) break;
    v = std::move(pick);
  }
  out.target = Target{space.name, v, "a plot click at PCA (" + formatNumber(x) + ", " + formatNumber(y) + ")"};
  out.projected = pca.transform(v);
  out.offset = std::sqrt(best);
  // Why it is not on the click: the rules the unconstrained point broke.
  auto raw = pca.inverseRaw(click);
  out.reasons = makeFeasible(spaceName, raw);
  if (out.reasons.empty()) out.reasons = reasons;
  return out;
}

Target targetFromAxesClick(const std::string& spaceName, const std::optional<std::vector<double>>& current, int dimX,
                           int dimY, double x, double y) {
  const auto& space = features::featureSpace(spaceName);
  const auto n = space.dimensions.size();
  if (dimX < 0 || dimY < 0 || std::size_t(dimX) >= n || std::size_t(dimY) >= n)
    throw InputError("no such axis in the " + space.name + " space");
  auto values = current && current->size() == n ? *current : std::vector<double>(n, 0.0);
  const auto counts = engine::countDimensions(space);
  auto set = [&](int dim, double v) {
    v = std::max(0.0, v);
    values[std::size_t(dim)] = counts[std::size_t(dim)] ? std::round(v) : v;
  };
  set(dimX, x);
  set(dimY, y);
  if (isGrewe(spaceName, values)) { // the ratios follow the counts, unless they are what was clicked
    auto derived = values;
    recomputeGreweRatios(derived);
    for (int d : {int(kF2), int(kF4)})
      if (d != dimX && d != dimY) values[std::size_t(d)] = derived[std::size_t(d)];
  }
  return Target{space.name, values,
                "a plot click on " + space.dimensions[std::size_t(dimX)] + " and " + space.dimensions[std::size_t(dimY)]};
}

} // namespace steerbench::steer
