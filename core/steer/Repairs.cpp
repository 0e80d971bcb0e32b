#include "steer/Repairs.h"

#include "steer/Combining.h"

#include "model/Tokenizer.h"

#include <algorithm>

namespace steerbench::steer {

std::vector<Repair> undoneSteps(const std::vector<std::vector<int>>& path, std::size_t firstSuspect,
                                std::size_t lastSuspect) {
  std::vector<Repair> out;
  if (path.size() < 2) return out;
  std::vector<Edit> steps(path.size());
  for (std::size_t k = 1; k < path.size(); ++k)
    steps[k] = editBetween(path[k - 1], path[k]);
  const auto& failing = path.back();
  for (std::size_t k = std::max<std::size_t>(1, firstSuspect); k <= lastSuspect && k < path.size(); ++k) {
    const Edit& e = steps[k];
    if (e.from == e.to && e.tokens.empty()) continue; // the step changed nothing
    // Where the step's tokens sit in each later candidate: [from, to).
    std::size_t from = e.from, to = e.from + e.tokens.size();
    bool kept = true;
    for (std::size_t j = k + 1; j < path.size() && kept; ++j) {
      const Edit& later = steps[j];
      const auto grown = std::ptrdiff_t(later.tokens.size()) - std::ptrdiff_t(later.to - later.from);
      if (later.to <= from && !(later.from == later.to && later.tokens.empty())) {
        from = std::size_t(std::ptrdiff_t(from) + grown); // wholly before: the span moves
        to = std::size_t(std::ptrdiff_t(to) + grown);
      } else if (later.from >= to) {
        // wholly after: the span stays
      } else {
        kept = false; // the later step rewrote some of them
      }
    }
    if (!kept) continue;
    Repair r;
    r.step = k;
    const auto& before = path[k - 1];
    r.ids.assign(failing.begin(), failing.begin() + std::ptrdiff_t(from));
    r.ids.insert(r.ids.end(), before.begin() + std::ptrdiff_t(e.from), before.begin() + std::ptrdiff_t(e.to));
    r.ids.insert(r.ids.end(), failing.begin() + std::ptrdiff_t(to), failing.end());
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<RepairCandidate> repairsOf(const model::Tokenizer& tok, const std::vector<LineageLink>& lineage,
                                       std::size_t maxSuspects) {
  std::vector<RepairCandidate> out;
  if (lineage.size() < 2 || maxSuspects == 0) return out;
  std::size_t lastSuspect = lineage.size() - 1;
  for (std::size_t k = 1; k < lineage.size(); ++k)
    if (lineage[k].failed) {
      lastSuspect = k;
      break;
    }
  std::vector<std::vector<int>> path;
  for (const auto& l : lineage)
    path.push_back(tok.encode(l.text));
  const std::size_t first = lastSuspect > maxSuspects ? lastSuspect - maxSuspects + 1 : 1;
  const auto& passed = path.front();
  for (auto& r : undoneSteps(path, first, lastSuspect)) {
    RepairCandidate rc;
    rc.text = tok.decode(r.ids);
    rc.parentText = lineage.front().text;
    auto& c = rc.record;
    c.parent = lineage.front().id;
    c.origin = std::string(kRepairOrigin) + " " + std::to_string(lineage[r.step].id) + " undone in candidate " +
               std::to_string(lineage.back().id);
    const auto e = editBetween(passed, r.ids); // what it changes of the ancestor
    c.holeStart = std::int64_t(e.from);
    c.holeLength = std::int64_t(e.to - e.from);
    c.replaced = tok.decode({passed.begin() + std::ptrdiff_t(e.from), passed.begin() + std::ptrdiff_t(e.to)});
    c.newTokens = std::int64_t(e.tokens.size());
    c.infill = tok.decode(e.tokens);
    out.push_back(std::move(rc));
  }
  return out;
}

} // namespace steerbench::steer
