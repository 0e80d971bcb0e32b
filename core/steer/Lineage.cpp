#include "steer/Lineage.h"

#include "common/Error.h"
#include "steer/BeamSelection.h"

#include <algorithm>
#include <limits>

namespace steerbench::steer {

std::int64_t runBest(const store::Workspace& ws, std::int64_t run) { return runBest(ws.steerGenerations(run)); }

std::int64_t runBest(const std::vector<store::Workspace::SteerGenerationRecord>& generations) {
  std::int64_t id = 0;
  double d = std::numeric_limits<double>::infinity();
  for (const auto& g : generations)
    if (g.bestId && orInfinity(g.bestDistance) < d) {
      d = g.bestDistance;
      id = g.bestId;
    }
  return id;
}

std::int64_t runnableBest(const store::Workspace& ws, std::int64_t run) { return ws.steerRunnableBest(run); }

std::vector<LineageStep> lineage(const store::Workspace& ws, std::int64_t run, std::int64_t id) {
  if (!ws.steerRun(run)) throw InputError("there is no steering run " + std::to_string(run) + " in " + ws.path());
  if (id == 0 && (id = runnableBest(ws, run)) == 0 && (id = runBest(ws, run)) == 0) return {};
  std::vector<LineageStep> out;
  while (id) {
    const auto c = ws.steerCandidate(id);
    if (!c || c->run != run)
      throw InputError("candidate " + std::to_string(id) + " is not part of steering run " + std::to_string(run));
    LineageStep s;
    s.id = c->id;
    s.parent = c->parent;
    s.generation = c->generation;
    s.origin = c->origin;
    s.text = c->text;
    s.replaced = c->replaced;
    s.infill = c->infill;
    s.holeStart = c->holeStart;
    s.holeLength = c->holeLength;
    s.values = c->values;
    s.distance = c->distance;
    out.push_back(std::move(s));
    id = c->parent;
  }
  std::reverse(out.begin(), out.end());
  return out;
}

} // namespace steerbench::steer
