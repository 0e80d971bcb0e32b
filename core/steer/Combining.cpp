#include "steer/Combining.h"

#include "features/Distance.h"
#include "model/Tokenizer.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace steerbench::steer {

namespace {
/// A feature vector with an edit's change added.
std::vector<double> plus(std::vector<double> values, const std::vector<double>& delta) {
  for (std::size_t k = 0; k < values.size() && k < delta.size(); ++k)
    values[k] += delta[k];
  return values;
}
} // namespace

Edit editBetween(const std::vector<int>& parent, const std::vector<int>& child) {
  std::size_t a = 0;
  while (a < parent.size() && a < child.size() && parent[a] == child[a])
    ++a;
  std::size_t b = 0;
  while (b < parent.size() - a && b < child.size() - a && parent[parent.size() - 1 - b] == child[child.size() - 1 - b])
    ++b;
  Edit e;
  e.from = a;
  e.to = parent.size() - b;
  e.tokens.assign(child.begin() + std::ptrdiff_t(a), child.end() - std::ptrdiff_t(b));
  return e;
}

bool editOf(const model::Tokenizer& tok, const Member& parent, const std::vector<int>& parentIds,
            const std::string& childText, const std::vector<double>& childValues, int generation, Edit& out) {
  Edit e = editBetween(parentIds, tok.encode(childText));
  if (e.from == e.to && e.tokens.empty()) return false;
  e.parent = parent.id;
  e.generation = generation;
  e.delta = childValues;
  for (std::size_t d = 0; d < e.delta.size() && d < parent.values.size(); ++d)
    e.delta[d] -= parent.values[d];
  out = std::move(e);
  return true;
}

bool disjoint(const Edit& x, const Edit& y) {
  if (x.from == x.to && y.from == y.to && x.from == y.from) return false;
  return x.to <= y.from || y.to <= x.from;
}

std::vector<int> applyEdits(const std::vector<int>& ids, const std::vector<const Edit*>& edits) {
  std::vector<int> out;
  std::size_t at = 0;
  for (const Edit* e : edits) {
    out.insert(out.end(), ids.begin() + std::ptrdiff_t(at), ids.begin() + std::ptrdiff_t(e->from));
    out.insert(out.end(), e->tokens.begin(), e->tokens.end());
    at = e->to;
  }
  out.insert(out.end(), ids.begin() + std::ptrdiff_t(at), ids.end());
  return out;
}

std::vector<Combination> pairedEdits(const std::vector<Member>& beam, const std::vector<Edit>& edits,
                                     std::size_t firstFresh, const std::vector<double>& target,
                                     const std::vector<double>& scale) {
  std::map<std::int64_t, std::size_t> memberOf;
  for (std::size_t m = 0; m < beam.size(); ++m)
    memberOf[beam[m].id] = m;
  std::vector<Combination> pairs;
  for (std::size_t x = firstFresh; x < edits.size(); ++x) {
    const std::size_t member = memberOf.at(edits[x].parent);
    const auto& m = beam[member];
    for (std::size_t y = 0; y < x; ++y) {
      if (edits[y].parent != edits[x].parent || !disjoint(edits[x], edits[y])) continue;
      std::vector<double> v = m.values;
      for (std::size_t d = 0; d < v.size(); ++d)
        v[d] += edits[x].delta[d] + edits[y].delta[d];
      const double p = features::distance(v, target, scale);
      if (p < m.distance) pairs.push_back({p, member, {&edits[x], &edits[y]}});
    }
  }
  std::stable_sort(pairs.begin(), pairs.end(),
                   [](const Combination& a, const Combination& b) { return a.predicted < b.predicted; });
  return pairs;
}

std::vector<Combination> greedyEdits(const std::vector<Member>& beam, const std::vector<Edit>& edits,
                                     const std::vector<double>& target, const std::vector<double>& scale,
                                     std::size_t limit) {
  std::vector<Combination> greedy;
  for (std::size_t m = 0; m < beam.size(); ++m) {
    std::vector<const Edit*> mine, set;
    for (const auto& e : edits)
      if (e.parent == beam[m].id) mine.push_back(&e);
    std::vector<double> v = beam[m].values;
    double d = beam[m].distance;
    for (;;) {
      const Edit* pick = nullptr;
      double pickD = d;
      for (const Edit* e : mine) {
        if (std::find(set.begin(), set.end(), e) != set.end() ||
            !std::all_of(set.begin(), set.end(), [&](const Edit* x) { return disjoint(*x, *e); }))
          continue;
        const double dd = features::distance(plus(v, e->delta), target, scale);
        if (dd < pickD) {
          pickD = dd;
          pick = e;
        }
      }
      if (!pick) break;
      set.push_back(pick);
      v = plus(v, pick->delta);
      d = pickD;
    }
    if (set.size() > 2) greedy.push_back({d, m, std::move(set)});
  }
  std::stable_sort(greedy.begin(), greedy.end(),
                   [](const Combination& a, const Combination& b) { return a.predicted < b.predicted; });
  if (greedy.size() > limit) greedy.resize(limit);
  return greedy;
}

CombinedCandidate combinedCandidate(const model::Tokenizer& tok, std::int64_t parent, const std::vector<int>& ids,
                                    std::vector<const Edit*> set, const char* origin) {
  std::sort(set.begin(), set.end(), [](const Edit* a, const Edit* b) {
    return std::tie(a->from, a->to) < std::tie(b->from, b->to); // an insertion before a replacement at its place
  });
  const auto merged = applyEdits(ids, set);
  CombinedCandidate out;
  out.text = tok.decode(merged);
  const std::size_t from = set.front()->from, to = set.back()->to;
  auto& c = out.record;
  c.parent = parent;
  c.origin = origin;
  c.holeStart = std::int64_t(from);
  c.holeLength = std::int64_t(to - from);
  c.replaced = tok.decode({ids.begin() + std::ptrdiff_t(from), ids.begin() + std::ptrdiff_t(to)});
  const std::size_t newEnd = merged.size() - (ids.size() - to);
  c.newTokens = std::int64_t(newEnd - from);
  c.infill = tok.decode({merged.begin() + std::ptrdiff_t(from), merged.begin() + std::ptrdiff_t(newEnd)});
  return out;
}

} // namespace steerbench::steer
