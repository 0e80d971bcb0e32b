#include "steer/SeedingRule.h"

#include "common/TextFormat.h"
#include "engine/FeatureTable.h"
#include "features/Distance.h"
#include "features/FeatureSpace.h"

#include <cmath>
#include <limits>
#include <set>

namespace steerbench::steer {

namespace {

std::string percent(double p) { return formatNumber(std::round(1000 * p) / 10) + "%"; }

} // namespace

SeedingChoice chooseSeeding(double nearestProximity, double generatedBelow, bool greweSpace, bool conditioned) {
  const std::string nearest =
      std::isnan(nearestProximity)      ? "the workspace has no kernel to seed from"
      : !std::isfinite(nearestProximity) ? "the target is the zero vector, to which only an empty kernel is near"
                                         : "the nearest corpus kernel is at " + percent(nearestProximity) + " proximity";
  const std::string threshold = "generated below " + percent(generatedBelow);
  const bool far = std::isnan(nearestProximity) || nearestProximity < generatedBelow;
  if (!far) return {Seeding::Nearest, "seeds (auto): nearest corpus kernels (" + nearest + "; " + threshold + ")"};
  if (!greweSpace)
    return {Seeding::Nearest, "seeds (auto): nearest corpus kernels (" + nearest + "; " + threshold +
                                  ", but generated seeds are for Grewe targets)"};
  if (!conditioned)
    return {Seeding::Nearest, "seeds (auto): nearest corpus kernels (" + nearest + "; " + threshold +
                                  ", but the model was trained without conditions)"};
  return {Seeding::Generated, "seeds (auto): generated for the target (" + nearest +
                                  (std::isnan(nearestProximity) ? "" : "; " + threshold) + ")"};
}

double nearestCorpusProximity(const store::Workspace& ws, const SteerSpec& spec) {
  const auto& space = features::featureSpace(spec.target.space);
  const auto table = engine::loadWorkspaceTable(ws, space);
  const std::set<std::string> roles(spec.seedRoles.begin(), spec.seedRoles.end());
  double best = std::numeric_limits<double>::quiet_NaN();
  for (std::size_t i = 0; i < table.size(); ++i) {
    if (!roles.count(table.groups[i])) continue;
    const double p = features::relativeProximity(table.rows[i], spec.target.values, spec.scale);
    if (std::isnan(best) || p > best) best = p;
  }
  return best;
}

} // namespace steerbench::steer
