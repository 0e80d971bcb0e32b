// One line's worth of a stored steering run: what `steerbench-cli runs` lists
// and the workbench's Steering dock offers to open or resume.
#pragma once
#include "store/Workspace.h"

#include <cstdint>
#include <string>

namespace steerbench::steer {

struct RunSummary {
  std::int64_t id = 0;
  std::string space, status, stopReason, targetOrigin;
  int generations = 0; ///< the last stored generation (0: only the seeds, or none)
  double elapsed = 0;  ///< seconds over every part of the run
  /// The nearest candidate and the nearest that passed the contender checks
  /// (0: none), with their distances and relative proximities to the target
  /// (distance < 0 when there is none).
  std::int64_t bestId = 0, runnableId = 0;
  double bestDistance = -1, bestProximity = 0, runnableDistance = -1, runnableProximity = 0;

  /// A run `steer --resume` (or the workbench's Resume) can go on with: any
  /// that did not finish (cancelled, or killed while it ran).
  [[nodiscard]] bool resumable() const { return status != "finished"; }
};

/// The summary of a stored run. Throws InputError when its target or spec
/// does not parse.
[[nodiscard]] RunSummary summarizeRun(const store::Workspace& ws, const store::Workspace::SteerRunRecord& run);

} // namespace steerbench::steer
