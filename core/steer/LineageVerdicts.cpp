#include "steer/LineageVerdicts.h"

#include <algorithm>
#include <cstdint>
#include <utility>

namespace steerbench::steer {

const Verdict* nearestVerdict(std::int64_t candidate, const Verdicts& verdicts, const Parents& parents) {
  for (std::int64_t c = candidate; c != 0;) {
    if (const auto v = verdicts.find(c); v != verdicts.end()) return &v->second;
    const auto p = parents.find(c);
    if (p == parents.end()) return nullptr;
    c = p->second;
  }
  return nullptr;
}

bool failingLineage(std::int64_t candidate, const Verdicts& verdicts, const Parents& parents) {
  return failingLineage(candidate, verdicts, parents, {});
}

std::set<std::int64_t> presumedFailingSeeds(const SeedPackages& seeds, const Verdicts& verdicts) {
  std::map<std::string, std::pair<int, int>> checked; // package -> (passed, failed)
  for (const auto& [seed, package] : seeds)
    if (const auto v = verdicts.find(seed); v != verdicts.end() && !package.empty())
      ++(v->second.passed ? checked[package].first : checked[package].second);
  std::set<std::int64_t> out;
  for (const auto& [seed, package] : seeds)
    if (const auto c = checked.find(package);
        c != checked.end() && c->second.first == 0 && c->second.second > 0 && !verdicts.count(seed))
      out.insert(seed);
  return out;
}

bool failingLineage(std::int64_t candidate, const Verdicts& verdicts, const Parents& parents,
                    const std::set<std::int64_t>& presumed) {
  for (std::int64_t c = candidate;;) { // nearestVerdict's walk, ending at the seed
    if (const auto v = verdicts.find(c); v != verdicts.end()) return !v->second.passed;
    const auto p = parents.find(c);
    if (p == parents.end() || p->second == 0) return presumed.count(c) > 0; // no verdict: its seed's package speaks
    c = p->second;
  }
}

std::vector<std::int64_t> uncheckedAncestors(std::int64_t candidate, const Verdicts& verdicts, const Parents& parents) {
  std::vector<std::int64_t> out;
  for (auto p = parents.find(candidate); p != parents.end() && p->second != 0; p = parents.find(p->second)) {
    if (verdicts.count(p->second)) break;
    out.push_back(p->second);
  }
  return out;
}

std::int64_t bisectionStep(std::int64_t failed, const Verdicts& verdicts, const Parents& parents) {
  const auto chain = uncheckedAncestors(failed, verdicts, parents);
  if (chain.empty()) return 0;
  const auto p = parents.find(chain.back());
  if (p != parents.end() && p->second != 0 && failingLineage(p->second, verdicts, parents)) return 0;
  return chain[chain.size() / 2];
}

std::vector<std::int64_t> membersToCheck(const std::vector<std::int64_t>& beam, const Verdicts& verdicts,
                                         const Parents& parents) {
  std::vector<std::pair<std::size_t, std::int64_t>> ranked; // unknown edits (most first), member
  for (const auto m : beam) {
    if (verdicts.count(m) || failingLineage(m, verdicts, parents)) continue;
    const bool known = nearestVerdict(m, verdicts, parents) != nullptr;
    ranked.emplace_back(known ? uncheckedAncestors(m, verdicts, parents).size() + 1 : SIZE_MAX, m);
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::int64_t> out;
  for (const auto& r : ranked)
    out.push_back(r.second);
  return out;
}

} // namespace steerbench::steer
