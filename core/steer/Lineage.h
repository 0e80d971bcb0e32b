// A steering run's history as stored: its best candidate and the path from a
// seed to any candidate, one infill a step.
#pragma once
#include "store/Workspace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace steerbench::steer {

/// One step of a lineage, seed first.
struct LineageStep {
  std::int64_t id = 0, parent = 0;
  int generation = 0;
  std::string origin, text, replaced, infill; ///< replaced: the parent's text the hole took out
  std::int64_t holeStart = -1, holeLength = 0;
  std::vector<double> values; ///< its features in the run's space
  double distance = -1;
};
/// The best candidate of a stored run so far: the first generation's beam
/// best of the smallest distance (0: nothing compiled yet).
[[nodiscard]] std::int64_t runBest(const store::Workspace& ws, std::int64_t run);
/// The same, from a run's generations as already read.
[[nodiscard]] std::int64_t runBest(const std::vector<store::Workspace::SteerGenerationRecord>& generations);
/// The nearest candidate of a stored run whose contender check passed (0: none).
[[nodiscard]] std::int64_t runnableBest(const store::Workspace& ws, std::int64_t run);
/// From the seed to candidate `id` (the run's runnable best when 0, else its best). Throws InputError
/// for an unknown run or a candidate of another run.
[[nodiscard]] std::vector<LineageStep> lineage(const store::Workspace& ws, std::int64_t run, std::int64_t id = 0);

} // namespace steerbench::steer
