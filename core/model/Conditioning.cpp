#include "model/Conditioning.h"

#include "common/Error.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>
#include <sstream>
#include <stdexcept>

namespace steerbench::model {

namespace {
// The floors of the bins: exact up to 4, then two bins an octave.
constexpr std::array<int, kConditionBins> kFloors{0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192};

/// The place of a count's name in kConditionNames; InputError prefixed with `what` for another name.
std::size_t countIndex(const std::string& name, const char* what) {
  for (std::size_t n = 0; n < kConditionNames.size(); ++n)
    if (name == kConditionNames[n]) return n;
  throw InputError(std::string(what) + ": no count named \"" + name +
                   "\" (comp, rational, mem, localmem, coalesced or atomic)");
}
} // namespace

int conditionBin(double count) {
  const double c = std::round(count);
  int bin = 0;
  for (int b = 0; b < kConditionBins; ++b)
    if (c >= double(kFloors[std::size_t(b)])) bin = b;
  return bin;
}

int conditionBinFloor(int bin) {
  if (bin < 0 || bin >= kConditionBins) throw std::out_of_range("conditionBinFloor: no such bin");
  return kFloors[std::size_t(bin)];
}

std::vector<int> conditionTokens(const std::vector<double>& grewe, int vocab) {
  if (grewe.size() < kConditionNames.size())
    throw std::invalid_argument("conditionTokens: a Grewe vector has at least six counts");
  std::vector<int> ids;
  for (std::size_t n = 0; n < kConditionNames.size(); ++n)
    ids.push_back(vocab + int(n) * kConditionBins + conditionBin(grewe[n]));
  return ids;
}

std::vector<double> parseConditionTarget(const std::string& text) {
  std::vector<double> v(kConditionNames.size(), 0.0);
  std::vector<bool> seen(kConditionNames.size(), false);
  std::stringstream in(text);
  std::string item;
  bool any = false;
  while (std::getline(in, item, ',')) {
    const auto eq = item.find('=');
    if (eq == std::string::npos)
      throw InputError("target \"" + item + "\": write NAME=COUNT, e.g. comp=60,mem=12");
    const std::string name = item.substr(0, eq), value = item.substr(eq + 1);
    const std::size_t n = countIndex(name, "target");
    if (seen[n]) throw InputError("target: " + name + " is given twice");
    char* end = nullptr;
    const double c = std::strtod(value.c_str(), &end);
    if (value.empty() || *end != '\0' || !(c >= 0) || !std::isfinite(c))
      throw InputError("target: " + name + " must be a count of 0 or more, not \"" + value + "\"");
    v[n] = c;
    seen[n] = true;
    any = true;
  }
  if (!any) throw InputError("target: empty; write NAME=COUNT, e.g. comp=60,mem=12");
  return v;
}

std::string describeConditionTarget(const std::vector<double>& grewe) {
  std::string s;
  for (std::size_t n = 0; n < kConditionNames.size() && n < grewe.size(); ++n) {
    if (grewe[n] == 0) continue;
    std::ostringstream c;
    c << grewe[n];
    s += (s.empty() ? "" : ",") + std::string(kConditionNames[n]) + "=" + c.str();
  }
  return s.empty() ? "0" : s;
}

std::vector<std::vector<double>> spreadTargets(const std::vector<double>& target, double spread, int count,
                                               std::uint64_t seed) {
  if (!(spread >= 0 && spread <= 1)) throw InputError("the spread must be in [0, 1]");
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> factor(1.0 - spread, 1.0 + spread);
  std::vector<std::vector<double>> out;
  for (int i = 0; i < count; ++i) {
    std::vector<double> t = target;
    for (auto& v : t)
      v = std::round(v * factor(rng));
    out.push_back(std::move(t));
  }
  return out;
}

std::vector<std::vector<double>> gridTargets(const std::string& grid, int cells, const std::vector<double>& base) {
  if (cells < 1) throw InputError("a grid needs at least one cell a side");
  struct Axis {
    std::size_t count;
    double lo, hi;
  };
  struct Follower { // a count in proportion to an axis: NAME=AXIS*RATIO
    std::size_t count, of;
    double ratio;
    std::string item;
  };
  std::vector<Axis> axes;
  std::vector<Follower> followers;
  std::vector<std::size_t> named;
  auto number = [](const std::string& text, double& out) {
    char* end = nullptr;
    out = std::strtod(text.c_str(), &end);
    return !text.empty() && *end == '\0' && std::isfinite(out);
  };
  std::stringstream in(grid);
  std::string item;
  while (std::getline(in, item, ',')) {
    const auto eq = item.find('=');
    const std::string value = eq == std::string::npos ? std::string() : item.substr(eq + 1);
    const auto colon = value.find(':'), star = value.find('*');
    if (eq == std::string::npos || (colon == std::string::npos && star == std::string::npos))
      throw InputError("grid \"" + item + "\": write NAME=LO:HI for an axis, e.g. comp=0:400,mem=0:100, or NAME=AXIS*R "
                       "for a count in proportion to one, e.g. coalesced=mem*0.67");
    const std::string name = item.substr(0, eq);
    const std::size_t n = countIndex(name, "grid");
    if (std::find(named.begin(), named.end(), n) != named.end()) throw InputError("grid: " + name + " is given twice");
    named.push_back(n);
    if (colon == std::string::npos) {
      double ratio = 0;
      if (!number(value.substr(star + 1), ratio) || !(ratio >= 0))
        throw InputError("grid: " + name + " needs a ratio of at least 0 after '*', not \"" + value + "\"");
      followers.push_back({n, countIndex(value.substr(0, star), "grid"), ratio, item});
      continue;
    }
    double lo = 0, hi = 0;
    if (!number(value.substr(0, colon), lo) || !number(value.substr(colon + 1), hi) || !(lo >= 0) || !(hi >= lo))
      throw InputError("grid: " + name + " needs 0 <= LO <= HI, not \"" + value + "\"");
    axes.push_back({n, lo, hi});
  }
  if (axes.size() != 2) throw InputError("a grid spans two counts, e.g. comp=0:400,mem=0:100");
  for (const auto& f : followers)
    if (f.of != axes[0].count && f.of != axes[1].count)
      throw InputError("grid \"" + f.item + "\": a count follows one of the grid's two axes");
  std::vector<double> b = base;
  b.resize(std::max(b.size(), kConditionNames.size()), 0.0);
  std::vector<std::vector<double>> out;
  auto centre = [&](const Axis& a, int i) { return std::round(a.lo + (a.hi - a.lo) * (double(i) + 0.5) / double(cells)); };
  for (int i = 0; i < cells; ++i)
    for (int j = 0; j < cells; ++j) {
      std::vector<double> t = b;
      t[axes[0].count] = centre(axes[0], i);
      t[axes[1].count] = centre(axes[1], j);
      for (const auto& f : followers)
        t[f.count] = std::round(t[f.of] * f.ratio);
      out.push_back(std::move(t));
    }
  return out;
}

std::vector<std::vector<double>> gridSampleTargets(const std::string& grid, int cells, const std::vector<double>& base,
                                                   int perCell) {
  std::vector<std::vector<double>> out;
  for (const auto& cell : gridTargets(grid, cells, base))
    out.insert(out.end(), std::size_t(std::max(0, perCell)), cell);
  return out;
}

} // namespace steerbench::model
