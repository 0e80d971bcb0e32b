// One line's worth of a stored steering run: what `steerbench-cli runs` lists
// and the workbench's Steering dock offers to open or resume.
#pragma once
#include "store/Workspace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace steerbench::steer {

struct RunSummary {
  std::int64_t id = 0;
  std::string space, status, stopReason, targetOrigin;
  int generations = 0; ///< the last stored generation (0: only the seeds, or none)
  double elapsed = 0;  ///< seconds over every part of the run
  /// Where generation 0 came from (steer::seedingName), and why when auto
  /// seeding chose it (SteerSpec::seedingWhy; else empty).
  std::string seeding, seedingWhy;
  /// The nearest candidate and the nearest that passed the contender checks
  /// (0: none), with their distances and relative proximities to the target
  /// (distance < 0 when there is none).
  std::int64_t bestId = 0, runnableId = 0;
  double bestDistance = -1, bestProximity = 0, runnableDistance = -1, runnableProximity = 0;

  /// Why the run could not be read (its target or spec does not parse);
  /// then only id, space and status are set.
  std::string error;

  /// A run `steer --resume` (or the workbench's Resume) can go on with: any
  /// readable one that did not finish (cancelled, or killed while it ran).
  [[nodiscard]] bool resumable() const { return error.empty() && status != "finished"; }
};

/// The summary of a stored run. Throws InputError when its target or spec
/// does not parse.
[[nodiscard]] RunSummary summarizeRun(const store::Workspace& ws, const store::Workspace::SteerRunRecord& run);
/// The summaries of every stored run, oldest first; a run that cannot be read
/// is listed with its error instead of ending the list.
[[nodiscard]] std::vector<RunSummary> summarizeRuns(const store::Workspace& ws);

} // namespace steerbench::steer
