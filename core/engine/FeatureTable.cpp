#include "engine/FeatureTable.h"
#include "features/Distance.h"

#include "common/Error.h"
#include "dataset/DevMap.h"
#include "features/Measurement.h"
#include "store/Workspace.h"

#include <algorithm>
#include <map>
#include <mutex>

namespace steerbench::engine {

KernelOrigin originOfRole(const std::string& role) {
  if (role == "sample" || role == "steered") return KernelOrigin::Generated;
  if (role == "user") return KernelOrigin::User;
  return KernelOrigin::Corpus;
}

std::vector<std::vector<double>> corpusRows(const FeatureTable& table) {
  std::vector<std::vector<double>> rows;
  for (std::size_t r = 0; r < table.size(); ++r)
    if (originOfRole(table.groups[r]) == KernelOrigin::Corpus) rows.push_back(table.rows[r]);
  return rows;
}

FeatureTable loadWorkspaceTable(const store::Workspace& ws, const features::FeatureSpace& space) {
  FeatureTable t;
  t.space = space.name;
  t.dimensions = space.dimensions;
  for (auto& r : ws.featureRows(space.name, space.version)) {
    if (r.values.size() != space.dimensions.size()) continue; // written by another definition
    t.ids.push_back(r.kernelId);
    t.names.push_back(std::move(r.name));
    t.groups.push_back(std::move(r.role));
    t.rows.push_back(std::move(r.values));
  }
  return t;
}

FeatureTable loadReferenceTable(const std::string& csvPath, const features::FeatureSpace& space, unsigned jobs,
                                const CancelToken* cancel) {
  const auto all = dataset::readDevMap(csvPath);
  std::vector<const dataset::DevMapRow*> rows; // one per benchmark kernel
  std::map<std::string, bool> seen;
  for (const auto& r : all)
    if (!seen[r.benchmark]) {
      seen[r.benchmark] = true;
      rows.push_back(&r);
    }
  FeatureTable t;
  t.space = space.name;
  t.dimensions = space.dimensions;
  if (space.name == "grewe") {
    for (const auto* r : rows) {
      const double f2 = r->mem > 0 ? r->coalesced / r->mem : 0.0, f4 = r->mem > 0 ? r->comp / r->mem : 0.0;
      t.ids.push_back(0);
      t.names.push_back(r->benchmark);
      t.groups.emplace_back("reference");
      t.rows.push_back({r->comp, r->rational, r->mem, r->localmem, r->coalesced, r->atomic, f2, f4});
      t.sources.push_back(r->src);
    }
    return t;
  }
  features::MeasureOptions mo;
  mo.spaces = {&space};
  std::vector<std::vector<double>> vec(rows.size());
  std::vector<char> ok(rows.size(), 0);
  parallelFor(
      rows.size(), jobs,
      [&](std::size_t i) {
        const auto m = features::measureSource(rows[i]->src, rows[i]->benchmark + ".cl", mo);
        if (!m.ok() || m.spaces.empty() || m.spaces[0].kernels.empty()) return;
        // The row's kernel is named last in its benchmark id; else take the first.
        const std::string& b = rows[i]->benchmark;
        const std::string name = b.substr(b.find_last_of('-') + 1);
        const auto& ks = m.spaces[0].kernels;
        const auto it = std::find_if(ks.begin(), ks.end(), [&](const auto& k) { return k.kernel == name; });
        vec[i] = (it != ks.end() ? *it : ks.front()).values;
        ok[i] = 1;
      },
      cancel);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!ok[i]) {
      ++t.skipped;
      continue;
    }
    t.ids.push_back(0);
    t.names.push_back(rows[i]->benchmark);
    t.groups.emplace_back("reference");
    t.rows.push_back(std::move(vec[i]));
    t.sources.push_back(rows[i]->src);
  }
  return t;
}

std::vector<bool> countDimensions(const features::FeatureSpace& space) {
  std::vector<bool> counts(space.dimensions.size(), true);
  if (space.name == "grewe")
    for (std::size_t i = 0; i < counts.size(); ++i)
      counts[i] = !(space.dimensions[i] == "F2" || space.dimensions[i] == "F4");
  return counts;
}

std::vector<Neighbour> nearestRows(const FeatureTable& table, const std::vector<double>& target, std::size_t k,
                                   std::int64_t excludeId) {
  std::vector<Neighbour> all;
  all.reserve(table.size());
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (excludeId != 0 && table.ids[i] == excludeId) continue;
    all.push_back({i, features::distance(table.rows[i], target)});
  }
  k = std::min(k, all.size());
  std::partial_sort(all.begin(), all.begin() + std::ptrdiff_t(k), all.end(), [](const auto& a, const auto& b) {
    return a.distance < b.distance || (a.distance == b.distance && a.row < b.row);
  });
  all.resize(k);
  return all;
}

} // namespace steerbench::engine
