#include "steer/BeamSelection.h"

#include <algorithm>
#include <limits>
#include <map>

namespace steerbench::steer {

std::vector<std::size_t> selectBeam(const std::vector<BeamEntry>& entries, const BeamRules& rules,
                                    std::mt19937_64& rng) {
  std::vector<std::size_t> pool(entries.size());
  for (std::size_t i = 0; i < pool.size(); ++i)
    pool[i] = i;
  auto nearer = [&](std::size_t a, std::size_t b) { return entries[a].distance < entries[b].distance; };
  std::stable_sort(pool.begin(), pool.end(), nearer);
  if (rules.maxPerVector > 0) { // the capped entries after the others, each part still nearest first
    std::map<std::vector<double>, int> members;
    std::vector<std::size_t> within, over;
    for (auto i : pool)
      (++members[*entries[i].values] <= rules.maxPerVector ? within : over).push_back(i);
    within.insert(within.end(), over.begin(), over.end());
    pool = std::move(within);
  }
  if (rules.maxFailing >= 0) { // likewise the failing entries beyond their bound
    int failing = 0;
    std::vector<std::size_t> within, over;
    for (auto i : pool)
      (entries[i].failing && ++failing > rules.maxFailing ? over : within).push_back(i);
    if (!rules.onlyWhenAlone || within.empty()) within.insert(within.end(), over.begin(), over.end());
    pool = std::move(within);
  }
  const std::size_t k = std::min(pool.size(), std::size_t(std::max(0, rules.width)));
  if (pool.size() > k) {
    std::uniform_real_distribution<double> u(0, 1);
    for (std::size_t i = 1; i < k; ++i)
      if (u(rng) < rules.swapProbability)
        std::swap(pool[i], pool[std::uniform_int_distribution<std::size_t>(k, pool.size() - 1)(rng)]);
    std::stable_sort(pool.begin(), pool.begin() + std::ptrdiff_t(k), nearer);
  }
  pool.resize(k);
  return pool;
}

std::size_t placesLeft(const std::vector<BeamEntry>& pool, int width) {
  const auto others = std::size_t(std::count_if(pool.begin(), pool.end(), [](const BeamEntry& e) { return !e.failing; }));
  return width > 0 && others < std::size_t(width) ? std::size_t(width) - others : 0;
}

double orInfinity(double d) { return d < 0 ? std::numeric_limits<double>::infinity() : d; }

namespace {
/// stalledGenerations() over bests[from, to).
int stalledIn(const std::vector<double>& bests, std::size_t from, std::size_t to) {
  int stalled = 0;
  for (std::size_t i = to; i-- > from + 1 && !(orInfinity(bests[i]) < orInfinity(bests[i - 1]));)
    ++stalled;
  return stalled;
}
} // namespace

int stalledGenerations(const std::vector<double>& bests, std::size_t from) {
  return stalledIn(bests, from, bests.size());
}

std::size_t lastReseed(const std::vector<double>& bests, int reseedAfter) {
  std::size_t since = 0;
  if (reseedAfter <= 0) return since;
  for (std::size_t g = 1; g < bests.size(); ++g) // as the search decided before generation g
    if (stalledIn(bests, since, g) >= reseedAfter) since = g;
  return since;
}

} // namespace steerbench::steer
