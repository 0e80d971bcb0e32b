#include "steer/RunSummary.h"

#include "features/Distance.h"
#include "steer/Lineage.h"
#include "steer/SteerSpec.h"
#include "steer/Target.h"

namespace steerbench::steer {

RunSummary summarizeRun(const store::Workspace& ws, const store::Workspace::SteerRunRecord& run) {
  RunSummary s;
  s.id = run.id;
  s.space = run.space;
  s.status = run.status;
  s.stopReason = run.stopReason;
  s.elapsed = run.elapsed;
  const auto gens = ws.steerGenerations(run.id);
  s.generations = gens.empty() ? 0 : gens.back().generation;
  const auto target = Target::fromJson(run.target, "run " + std::to_string(run.id));
  s.targetOrigin = target.origin;
  const auto spec = SteerSpec::fromJson(ws.spec(run.specHash), "spec");
  const auto& scale = spec.scale;
  s.seeding = seedingName(spec.seeding);
  s.seedingWhy = spec.seedingWhy;
  auto describe = [&](std::int64_t id, std::int64_t& outId, double& distance, double& proximity) {
    if (auto c = id ? ws.steerCandidate(id) : std::nullopt) {
      outId = id;
      distance = c->distance;
      proximity = features::relativeProximity(c->values, target.values, scale);
    }
  };
  describe(runBest(gens), s.bestId, s.bestDistance, s.bestProximity);
  describe(runnableBest(ws, run.id), s.runnableId, s.runnableDistance, s.runnableProximity);
  return s;
}

std::vector<RunSummary> summarizeRuns(const store::Workspace& ws) {
  std::vector<RunSummary> out;
  for (const auto& r : ws.steerRuns()) {
    try {
      out.push_back(summarizeRun(ws, r));
    } catch (const std::exception& e) {
      RunSummary s;
      s.id = r.id;
      s.space = r.space;
      s.status = r.status;
      s.error = e.what();
      out.push_back(std::move(s));
    }
  }
  return out;
}

} // namespace steerbench::steer
