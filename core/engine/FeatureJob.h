// The "measure these files" job: parallel compile and extraction, optional
// storage in a workspace, progress and cancellation.
#pragma once

#include "engine/ParallelFor.h"
#include "features/Measurement.h"

#include <functional>
#include <string>
#include <vector>

namespace steerbench::store {
class Workspace;
}

namespace steerbench::engine {

struct FeatureJobOptions {
  features::MeasureOptions measure;
  unsigned jobs = hardwareJobs();
  store::Workspace* workspace = nullptr; ///< when set, successful files are stored
  /// Called on the calling thread after each file is done (in completion
  /// order is not guaranteed; `done` counts finished files).
  std::function<void(std::size_t done, std::size_t total)> progress;
  const CancelToken* cancel = nullptr;
};

/// Measures `paths` on `options.jobs` threads; results come back in input
/// order. Files that fail keep their error and do not stop the others. With
/// a workspace, each successful file's kernels and vectors are written in
/// one transaction, after all measuring is done: a failed write leaves that
/// file out and sets its `error`. Throws WorkspaceError only for a workspace
/// that cannot be written at all.
[[nodiscard]] std::vector<features::FileMeasurement> runFeatureJob(const std::vector<std::string>& paths,
                                                                   const FeatureJobOptions& options);

/// The JSON text recorded as the spec of stored vectors.
[[nodiscard]] std::string featureSpecJson(const features::MeasureOptions& options);

} // namespace steerbench::engine
